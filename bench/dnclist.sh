#!/usr/bin/env bash
# The company's do-not-call list at 1,000,000 numbers, each figure beside the
# one measured before (TARGETS.md, 2026-11-26: import 235 s / 545 MB; +21.5 s
# to every callable export; moving it into a team's database 526 s) and the
# target:
#   import       BenchmarkInternalImport1M (jobs/workflow): a CSV of a name
#                and a phone a row through the application layer, as
#                `dnc-list import` and the window do it;
#   look-up      BenchmarkInternalKeys1M (jobs/workflow): the list read as the
#                set a callable export checks, with the ledger open (the
#                window, a session), and as a command without a session
#                reads it (sqlite-cli: the ledger opened read-only, its pages
#                checked first);
#   team move    BenchmarkMoveInternal1M (jobs/ledger): a computer's list and
#                its history of a million additions into a team's database.
# Each on a computer's own SQLite ledger and a team's PostgreSQL 15 (a
# throwaway server, jobs/sqldb/pgtest), every run in a process of its own:
# its peak RSS is the benchmark's (PostgreSQL's own memory is not in it).
# Prints medians of RUNS runs (default 3) and min–max.
set -euo pipefail
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-3}
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
go test -c -tags migrated_fynedo,harness -o "$OUT/workflow.test" ./jobs/workflow
go test -c -tags migrated_fynedo,harness -o "$OUT/ledger.test" ./jobs/ledger

range() { sort -n | awk 'NR==1 {lo=$1} {hi=$1} END {printf "%s–%s", lo, hi}'; }

# runs binary benchmark/sub → RUNS lines "seconds peakMB", each run its own process.
runs() {
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f '%M' -o "$OUT/dnclist-time.txt" "$1" -test.run '^$' -test.bench "$2" -test.benchtime 1x -test.count 1 \
      > "$OUT/dnclist-run.txt"
    cat "$OUT/dnclist-run.txt" >> "$OUT/dnclist-bench.txt"
    secs=$(awk '/^Benchmark/ {printf "%.2f", $3/1e9}' "$OUT/dnclist-run.txt")
    [ -n "$secs" ] || { echo "no result from $2; see $OUT/dnclist-run.txt" >&2; exit 1; }
    echo "$secs $(awk '{printf "%.0f", $1/1024}' "$OUT/dnclist-time.txt")"
  done
}

: > "$OUT/dnclist-bench.txt"
printf '\n%-10s %-9s %9s %15s %9s %10s %9s %8s\n' operation store median runs peakMB before target ratio
row() { # operation store before target binary bench
  local lines med
  lines=$(runs "$5" "$6")
  med=$(echo "$lines" | awk '{print $1}' | median)
  printf '%-10s %-9s %8ss %15s %9s %9ss %8ss %7s×\n' "$1" "$2" "$med" "$(echo "$lines" | awk '{print $1}' | range)" \
    "$(echo "$lines" | awk '{print $2}' | median)" "$3" "$4" "$(awk -v a="$med" -v b="$3" 'BEGIN {printf "%.3f", a/b}')"
}
for store in sqlite postgres; do
  row import "$store" 235 20 "$OUT/workflow.test" "^BenchmarkInternalImport1M\$/^$store\$"
done
for store in sqlite postgres sqlite-cli; do
  row look-up "$store" 21.5 1 "$OUT/workflow.test" "^BenchmarkInternalKeys1M\$/^$store\$"
done
row "team move" "sqlite→pg" 526 60 "$OUT/ledger.test" '^BenchmarkMoveInternal1M$'
echo
echo "ratio: the median over the figure before; peak RSS of the benchmark process (the look-up's includes its import)"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg); every run in $OUT/dnclist-bench.txt"
