#!/usr/bin/env bash
# Desktop app figures, measured under Xvfb:
#  1. cold start to first frame: the real binary started RUNS times with a
#     new SkipDesk folder each time (no key: it lands in the sandbox); the
#     binary prints the time of its first frame (SKIPDESK_E2E=startup) and
#     quits. Reported: the median and the spread, in ms.
#  2. opening a 400,000-row result in the viewer: time to the first page
#     drawn and the heap the open viewer holds (Go benchmark in ui/).
# Usage: bench/startup.sh [RUNS]   (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-7}
export LANG=en_US.UTF-8

command -v Xvfb >/dev/null || { echo "Xvfb is not installed (apt-get install xvfb)"; exit 1; }
work=$(mktemp -d)
trap 'kill "$xpid" 2>/dev/null || true; rm -rf "$work"' EXIT

go build -tags migrated_fynedo,harness -o "$work/skipdesk" ./cmd/skipdesk

exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 1280x860x24 -nolisten tcp 2>/dev/null &
xpid=$!
for _ in $(seq 50); do [ -s "$work/display" ] && break; sleep 0.1; done
export DISPLAY=":$(head -1 "$work/display")"

times=()
for i in $(seq "$RUNS"); do
  home="$work/home$i"
  start=$(date +%s%N)
  out=$(SKIPDESK_HOME="$home" SKIPDESK_E2E=startup SKIPDESK_API_KEY= "$work/skipdesk" 2>/dev/null)
  frame=$(echo "$out" | awk '/^first-frame/ {print $2}')
  [ -n "$frame" ] || { echo "run $i: no first-frame line"; exit 1; }
  times+=( $(( (frame - start) / 1000000 )) )
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(echo "$sorted" | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
echo "cold start to first frame, $RUNS runs (ms): $(echo $sorted | tr '\n' ' ')"
echo "median: ${median} ms (min $(echo "$sorted" | head -1), max $(echo "$sorted" | tail -1))"

echo
echo "viewer, 400,000-row result (26 columns):"
CGO_ENABLED=0 go test -run '^$' -bench 'ViewerFirstPage400k' -benchtime=5x -count=3 ./ui/ |
  awk '/^Benchmark/ {for (i=1;i<=NF;i++) if ($i ~ /ms-first-page|MB-held|MB-file|x-file/) printf "  %s %s", $(i-1), $i; print ""}'
