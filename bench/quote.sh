#!/usr/bin/env bash
# Pricing a 50 MB owner list before paying (TARGETS.md), side by side in one
# run against the local sandbox:
#   - `skipdesk-cli estimate` with an empty library against
#     `skipdesk-cli inspect` of the same file (target ≤ 1.5×);
#   - the same estimate with a library of 8M traced rows (20 results ×
#     400,000 rows, kept in bench/out/quote-library between runs) against
#     inspect (target ≤ 3×);
#   - `skipdesk-cli estimate --dnc` of a phone list of 1M rows (bench/phonegen)
#     against `inspect` of it: the scrub's phone column is scanned in the
#     inspection's reading (no target of its own; the trace's is ≤ 1.5×);
#   - `skipdesk-cli traces submit` of the file against `curl -F` of it to the
#     same sandbox (target ≤ 1.2×). The list needs a prepared copy (ZIP
#     codes Excel shortened): its upload starts while the list is read for
#     the review, and its end waits for the checks before paying. Then the
#     same pair through a link whose uploads go at LINK_MBIT (default 100;
#     0 leaves it out; bench/slowlink), as from a laptop to the provider:
#     on the loopback the sandbox's own reading of the upload takes CPU of
#     the same two cores the command reads the list on.
# Runs alternate the two commands of a pair, so that drift on a shared
# machine hits both alike; medians of RUNS and the median of the paired
# ratios are printed, of wall seconds and of CPU seconds (user + system:
# on a loaded machine the steadier one). Wall, CPU and peak RSS come from
# GNU time.
#   RUNS=5 RESULTS=20 ROWS=400000 (the library: RESULTS × ROWS traced rows)
#   PROFILE=1: the command line is built with -tags benchprofile and each
#   A command is run once more writing its CPU profile to
#   $OUT/quote-{estimate,estimate-library,submit}.prof, whose top is printed.
set -euo pipefail
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
RESULTS=${RESULTS:-20}
ROWS=${ROWS:-400000}
export CGO_ENABLED=0

LIST="$OUT/inspect-owners-50mb.csv"
[ -s "$LIST" ] || go run ./jobs/input/internal/gen -size 50000000 -o "$LIST"
PHONES="$OUT/phones-1m.csv"
[ -s "$PHONES" ] || go run ./bench/phonegen -rows 1000000 -o "$PHONES"
PROFILE=${PROFILE:-}
go build ${PROFILE:+-tags benchprofile} -o "$OUT/skipdesk-cli" ./cmd/skipdesk-cli

start_sandbox quote-sandbox

EMPTY=$(mktemp -d)
LIB="$OUT/quote-library"
if [ ! -s "$LIB/results.txt" ]; then
  echo "generating the library ($RESULTS × $ROWS traced rows) in $LIB (kept between runs)…"
  rm -rf "$LIB"
  mkdir -p "$LIB/home"
  go run ./bench/librarygen -dir "$LIB/home/results" -results "$RESULTS" -rows "$ROWS" > "$LIB/results.txt"
fi
cli() { # home, args… (output thrown away)
  env "SKIPDESK_HOME=$1" "SKIPDESK_BASE_URL=$URL" SKIPDESK_API_KEY=sk_sandbox_demo "$OUT/skipdesk-cli" "${@:2}" >/dev/null
}
# The library's index is built once (its first look-up syncs it), not timed.
cli "$LIB/home" estimate "$LIST"
cli "$EMPTY" estimate "$LIST"

timed() { # command words… (env assignments first) → "seconds peakMB cpu-seconds"
  /usr/bin/time -f '%e %M %U %S' -o "$OUT/quote-time.txt" env "$@" >/dev/null 2>>"$OUT/quote-commands.log" ||
    { echo "failed: $* (see $OUT/quote-commands.log)" >&2; exit 1; }
  awk '{printf "%s %.1f %.2f\n", $1, $2/1024, $3+$4}' "$OUT/quote-time.txt"
}
MAPPING='{"first_name":"Owner 1 First Name","last_name":"Owner 1 Last Name","property_street":"Situs Address","property_city":"Site City","property_state":"Site State","property_zip":"Site Zip"}'
CLI="env SKIPDESK_BASE_URL=$URL SKIPDESK_API_KEY=sk_sandbox_demo $OUT/skipdesk-cli"
CURL="curl -sS -o /dev/null -H 'Authorization: Bearer sk_sandbox_demo' -F 'file=@$LIST;type=text/csv' -F 'column_mapping=$MAPPING' $URL/traces"
# pair NAME 'A command' 'B command': RUNS runs of each in turn.
pair() {
  local name=$1 a=$2 b=$3 ra="" rb="" rr="" rc=""
  for _ in $(seq "$RUNS"); do
    x=$(eval "timed $a"); y=$(eval "timed $b")
    ra+="$x"$'\n' rb+="$y"$'\n'
    rr+="$(echo "$x $y" | awk '{printf "%.3f", $1/$4}')"$'\n'
    rc+="$(echo "$x $y" | awk '$6 > 0 {printf "%.3f", $3/$6}')"$'\n'
  done
  col() { echo "$1" | awk -v c="$2" 'NF {print $c}' | median 4; }
  printf '%-46s %8.3f s %7.1f MB   %8.3f s %7.1f MB   paired ratio %s (runs %s)\n' "$name" \
    "$(col "$ra" 1)" "$(col "$ra" 2)" "$(col "$rb" 1)" "$(col "$rb" 2)" \
    "$(col "$rr" 1)" "$(echo "$rr" | awk 'NF' | tr '\n' ' ')"
  printf '%-46s %8.3f s CPU        %8.3f s CPU        paired ratio %s\n' "" "$(col "$ra" 3)" "$(col "$rb" 3)" "$(col "$rc" 1)"
}

echo "list: $LIST ($(( $(stat -c %s "$LIST") / 1000000 )) MB, $(( $(wc -l < "$LIST") - 1 )) rows); library: $(wc -l < "$LIB/results.txt") results × $ROWS rows"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '\n%-46s %22s   %22s\n' "" "A: median wall, peak" "B: median wall, peak"
pair "estimate, empty library (A) / inspect (B)" "SKIPDESK_HOME=$EMPTY $CLI estimate $LIST" "SKIPDESK_HOME=$EMPTY $CLI inspect $LIST"
pair "estimate, 8M-row library (A) / inspect (B)" "SKIPDESK_HOME=$LIB/home $CLI estimate $LIST" "SKIPDESK_HOME=$EMPTY $CLI inspect $LIST"
pair "scrub estimate (A) / inspect (B), 1M phones" "SKIPDESK_HOME=$EMPTY $CLI estimate --dnc $PHONES" "SKIPDESK_HOME=$EMPTY $CLI inspect $PHONES"
MAPS="--map 'first_name=Owner 1 First Name' --map 'last_name=Owner 1 Last Name' --map 'property_street=Situs Address'"
MAPS+=" --map 'property_city=Site City' --map 'property_state=Site State' --map 'property_zip=Site Zip'"
pair "traces submit (A) / curl -F (B)" "SKIPDESK_HOME=$EMPTY $CLI traces submit --file $LIST $MAPS --again" "$CURL"
LINK_MBIT=${LINK_MBIT:-100}
if [ "$LINK_MBIT" != 0 ]; then
  go build -o "$OUT/slowlink" ./bench/slowlink
  HP=${URL#http://} && HP=${HP%%/*} # the sandbox's host:port, then its path
  "$OUT/slowlink" "$HP" "$LINK_MBIT" > "$OUT/slowlink.out" 2>> "$OUT/quote-commands.log" &
  LINK=$!
  trap 'kill $LINK $SB 2>/dev/null || true' EXIT
  for _ in $(seq 100); do grep -q listening "$OUT/slowlink.out" 2>/dev/null && break; sleep 0.1; done
  SLOW=$(awk '/listening on/ {print $3}' "$OUT/slowlink.out")${URL#http://$HP}
  pair "same, uploads at $LINK_MBIT Mbit/s (A) / (B)" \
    "SKIPDESK_HOME=$EMPTY ${CLI/SKIPDESK_BASE_URL=$URL/SKIPDESK_BASE_URL=$SLOW} traces submit --file $LIST $MAPS --again" "${CURL/$URL/$SLOW}"
fi
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
# profile NAME 'command': one more run of the command, its CPU profile's top.
profile() {
  eval "env SKIPDESK_CPUPROFILE=$OUT/quote-$1.prof $2" >/dev/null 2>>"$OUT/quote-commands.log"
  echo; echo "CPU profile of $1 ($OUT/quote-$1.prof):"
  go tool pprof -top -nodecount=25 "$OUT/skipdesk-cli" "$OUT/quote-$1.prof" 2>/dev/null | sed -n '4,32p'
}
if [ -n "$PROFILE" ]; then
  profile estimate "SKIPDESK_HOME=$EMPTY $CLI estimate $LIST"
  profile estimate-library "SKIPDESK_HOME=$LIB/home $CLI estimate $LIST"
  profile submit "SKIPDESK_HOME=$EMPTY $CLI traces submit --file $LIST $MAPS --again"
fi
echo "targets: estimate ≤ 1.5× inspect (empty library), ≤ 3× (8M-row library); traces submit ≤ 1.2× curl -F (on the loopback)"
rm -rf "$EMPTY"
