#!/usr/bin/env bash
# The library index in a team's PostgreSQL database against the computer's
# own SQLite index, on the same library: 20 generated trace results ×
# 400,000 rows (8M rows, ≈1.5 GB; kept in bench/out/library between runs, as
# bench/library.sh does). Both indexes are built once (BenchmarkSearchLibrary
# and BenchmarkSearchLibraryPostgres build them on their first run), then
# each search is timed RUNS times: the median of each, and PostgreSQL's time
# over SQLite's.
#
# POSTGRES is the team database's connection string (the index kept there
# is brought up to date, not made anew: built once, searched many times);
# without it a throwaway server is started (jobs/sqldb/pgtest: initdb and
# pg_ctl of PostgreSQL 15, Debian's postgresql package) and the PostgreSQL
# index is built on every run. RESULTS=20 ROWS=400000 RUNS=5.
set -euo pipefail
. "$(dirname "$0")/common.sh"
RESULTS=${RESULTS:-20}
ROWS=${ROWS:-400000}
RUNS=${RUNS:-5}
LIB="$OUT/library-${RESULTS}x${ROWS}"
export CGO_ENABLED=0

echo "generating the library ($RESULTS × $ROWS rows) in $LIB/results (kept between runs)…"
go run ./bench/librarygen -dir "$LIB/results" -results "$RESULTS" -rows "$ROWS" > "$OUT/library-files.txt"
go test -c -o "$OUT/index.test" ./jobs/index

SKIPDESK_BENCH_LIBRARY="$LIB" SKIPDESK_BENCH_POSTGRES="${POSTGRES:-}" "$OUT/index.test" -test.run '^$' \
  -test.bench '^BenchmarkSearchLibrary(Postgres)?$' -test.benchtime 30x -test.count "$RUNS" | tee "$OUT/search-pg-bench.txt" >/dev/null
ns() { grep "^$1/$2/$3-" "$OUT/search-pg-bench.txt" | awk '{print $3}' | median 6; }
hits() { grep "^$1/$2/all-" "$OUT/search-pg-bench.txt" | head -1 | awk '{for (i=4;i<NF;i++) if ($(i+1)=="hits") print $i}'; }

printf '\n%-8s %-6s %12s %14s %7s %8s\n' query "" SQLite PostgreSQL ratio rows
worst=0
for name in $(grep -o '{"[a-z]*", "' jobs/index/bench_test.go | cut -d'"' -f2); do
  for which in first all; do
    s=$(ns BenchmarkSearchLibrary "$name" "$which"); p=$(ns BenchmarkSearchLibraryPostgres "$name" "$which")
    r=$(awk -v a="$p" -v b="$s" 'BEGIN {printf "%.2f", a/b}')
    worst=$(awk -v w="$worst" -v r="$r" 'BEGIN {print (r>w)?r:w}')
    printf '%-8s %-6s %10.2fms %12.2fms %6s× %8s\n' "$name" "$which" "$(awk -v x="$s" 'BEGIN {print x/1e6}')" \
      "$(awk -v x="$p" 'BEGIN {print x/1e6}')" "$r" "$(hits BenchmarkSearchLibraryPostgres "$name" | awk '{printf "%d", $1}')/$(hits BenchmarkSearchLibrary "$name" | awk '{printf "%d", $1}')"
  done
done
echo
echo "worst ratio PostgreSQL / SQLite: ${worst}× (target ≤ 2×); $RUNS runs of 30 searches each, medians"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
