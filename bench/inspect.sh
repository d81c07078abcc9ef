#!/usr/bin/env bash
# Inspecting a 50 MB owner list (TARGETS.md, first row), side by side with
# its peers in one run: wc -l (the page-cache limit), Go's encoding/csv
# counting rows (the target: ratio <= 1.0), PapaParse under node and
# Miller. Prints medians of RUNS runs and ratios to encoding/csv.
#
#   bench/inspect.sh            # RUNS=5
#   RUNS=9 bench/inspect.sh
#
# Peers missing from the machine are installed (Miller with apt-get,
# PapaParse with npm under bench/node_modules/.papaparse: a folder of its
# own, so that other scripts' installs into bench/node_modules do not prune
# it, and git ignores it); set NO_INSTALL=1 to skip them instead.
set -euo pipefail
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
FILE=${FILE:-$OUT/inspect-owners-50mb.csv}
TIME=$OUT/inspect-time.txt
PAPA=bench/node_modules/.papaparse

if [ ! -s "$FILE" ]; then
  go run ./jobs/input/internal/gen -size 50000000 -o "$FILE"
fi
SIZE=$(stat -c %s "$FILE")
cat "$FILE" >/dev/null # warm the page cache

# Peers.
have_mlr=0
if command -v mlr >/dev/null; then
  have_mlr=1
elif [ -z "${NO_INSTALL:-}" ] && command -v apt-get >/dev/null; then
  echo "installing Miller..." >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  if $SUDO apt-get install -y -qq miller >/dev/null 2>&1 || { $SUDO apt-get update -qq >/dev/null 2>&1 && $SUDO apt-get install -y -qq miller >/dev/null 2>&1; }; then
    have_mlr=1
  fi
fi
have_papa=0
if command -v node >/dev/null; then
  if [ -d "$PAPA/node_modules/papaparse" ]; then
    have_papa=1
  elif [ -z "${NO_INSTALL:-}" ] && command -v npm >/dev/null; then
    echo "installing PapaParse..." >&2
    mkdir -p "$PAPA"
    if npm install --no-save --no-audit --no-fund --silent --prefix "$PAPA" papaparse >/dev/null 2>&1; then
      have_papa=1
    fi
  fi
fi


# run_proc NAME CMD...: runs CMD RUNS times; records median seconds (wall
# and CPU, user + system) and the largest peak RSS (MB) of the runs.
declare -A SECS CPU RSS ROWS
run_proc() {
  local name=$1; shift
  local times=() cpus=() rss=0 out
  for _ in $(seq "$RUNS"); do
    local t0 t1 m
    t0=$(date +%s%N)
    out=$(/usr/bin/time -f '%M %U %S' -o "$TIME" "$@")
    t1=$(date +%s%N)
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", (b-a)/1e9}')")
    read -r m u sy < <(tail -1 "$TIME")
    cpus+=("$(awk -v u="$u" -v s="$sy" 'BEGIN{print u+s}')")
    [ "$m" -gt "$rss" ] && rss=$m
  done
  SECS[$name]=$(printf '%s\n' "${times[@]}" | median 4)
  CPU[$name]=$(printf '%s\n' "${cpus[@]}" | median 4)
  RSS[$name]=$(awk -v k="$rss" 'BEGIN{printf "%.0f", k/1024}')
  ROWS[$name]=$(echo "$out" | tail -1 | tr -dc '0-9')
}

# run_bench NAME BENCH: the Go benchmark BENCH, RUNS single iterations in
# one process; median of ns/op, and the process's peak RSS.
go test -c -o "$OUT/inspect-input.test" ./jobs/input
run_bench() {
  local name=$1 bench=$2 out
  out=$(SKIPDESK_BENCH_FILE="$FILE" /usr/bin/time -f %M -o "$TIME" \
    "$OUT/inspect-input.test" -test.run '^$' -test.bench "^${bench}\$" -test.benchtime 1x -test.count "$RUNS" -test.benchmem)
  echo "$out" >>"$OUT/inspect-go.txt"
  SECS[$name]=$(echo "$out" | awk '/^Benchmark/ {for (i=1;i<=NF;i++) if ($(i+1)=="ns/op") print $i/1e9}' | median 4)
  CPU[$name]=$(echo "$out" | awk '/^Benchmark/ {for (i=1;i<=NF;i++) if ($(i+1)=="cpu-ms/op") print $i/1e3}' | median 4)
  RSS[$name]=$(awk -v k="$(tail -1 "$TIME")" 'BEGIN{printf "%.0f", k/1024}')
  ROWS[$name]=$(echo "$out" | awk '/^Benchmark/ {for (i=1;i<=NF;i++) if ($(i+1)=="rows") print $i}' | tail -1)
  BOP[$name]=$(echo "$out" | awk '/^Benchmark/ {for (i=1;i<=NF;i++) if ($(i+1)=="B/MB") print $i}' | median 4)
}
declare -A BOP
: >"$OUT/inspect-go.txt"

# Interleave the two Go benchmarks with the peers so that load from other
# processes affects all alike.
run_proc "wc -l" wc -l "$FILE"
run_bench "encoding/csv count" BenchmarkEncodingCSVCount
run_bench "input.Inspect" BenchmarkInspect50MB
[ $have_papa = 1 ] && run_proc "PapaParse (node)" env NODE_PATH="$PAPA/node_modules" node bench/papa-count.js "$FILE"
[ $have_mlr = 1 ] && run_proc "Miller mlr count" mlr --icsv --ojson count "$FILE"

base=${SECS["encoding/csv count"]}
cbase=${CPU["encoding/csv count"]}
printf '\nInspecting %s (%.1f MB, %s rows), %s runs each, medians (load average %s):\n\n' "$FILE" "$(awk -v s="$SIZE" 'BEGIN{print s/1e6}')" "${ROWS[input.Inspect]}" "$RUNS" "$(cut -d' ' -f1 /proc/loadavg)"
printf '| %-20s | %9s | %8s | %9s | %9s | %10s | %12s |\n' "tool" "seconds" "MB/s" "vs csv" "CPU s" "CPU vs csv" "peak RSS MB"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' "----------------------" "-----------" "----------" "-----------" "-----------" "------------" "--------------"
for name in "wc -l" "encoding/csv count" "input.Inspect" "PapaParse (node)" "Miller mlr count"; do
  [ -n "${SECS[$name]:-}" ] || continue
  s=${SECS[$name]}
  c=${CPU[$name]}
  printf '| %-20s | %9.3f | %8.0f | %9.2f | %9.3f | %10.2f | %12s |\n' "$name" "$s" "$(awk -v b="$SIZE" -v s="$s" 'BEGIN{print b/1e6/s}')" "$(awk -v a="$s" -v b="$base" 'BEGIN{print a/b}')" "$c" "$(awk -v a="$c" -v b="$cbase" 'BEGIN{print a/b}')" "${RSS[$name]}"
done
printf '\nAllocated per MB of input: input.Inspect %s B, encoding/csv %s B.\n' "${BOP[input.Inspect]}" "${BOP[encoding/csv count]}"
[ $have_mlr = 1 ] || echo "(Miller not available: not measured)"
[ $have_papa = 1 ] || echo "(PapaParse not available: not measured)"
echo "Go rows: median ns/op and CPU per run of the benchmarks; peak RSS is the whole benchmark process."
echo "Peers: whole process, including start-up. CPU counts every thread (Inspect reads on one and"
echo "keys rows on another), so on a busy machine the CPU ratio is the steadier one."
echo "Go benchmark output: $OUT/inspect-go.txt"
