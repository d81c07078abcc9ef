#!/usr/bin/env bash
# The library index side by side with ripgrep on the same files: a library of
# 20 generated trace results × 400,000 rows (8M rows, ≈1.5 GB; kept in
# bench/out/library between runs).
#   - indexing one 400,000-row result (BenchmarkIndex400k, each run in its own
#     process): time, peak RSS, index size / file size; once more with a
#     result 4× as large, to show memory does not grow with the file;
#   - indexing the whole library, and its index's size against the results';
#   - searching it (BenchmarkSearchLibrary): the first hit, and every row
#     found, against `rg -F -i` for the same rows (first line; every line).
# Prints medians and ratios. Installs ripgrep (Debian package ripgrep) when
# missing. RESULTS=20 ROWS=400000 RUNS=5 INDEX_RUNS=3 FLAT=1 (0 skips the
# 4× run).
set -euo pipefail
. "$(dirname "$0")/common.sh"
RESULTS=${RESULTS:-20}
ROWS=${ROWS:-400000}
RUNS=${RUNS:-5}
INDEX_RUNS=${INDEX_RUNS:-3}
FLAT=${FLAT:-1}
LIB="$OUT/library-${RESULTS}x${ROWS}"
export CGO_ENABLED=0

if ! command -v rg >/dev/null; then
  (apt-get install -y -q ripgrep >/dev/null 2>&1 || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q ripgrep >/dev/null 2>&1)) ||
    { echo "ripgrep is missing and could not be installed (apt-get install ripgrep)"; exit 1; }
fi
echo "generating the library ($RESULTS × $ROWS rows) in $LIB/results (kept between runs)…"
go run ./bench/librarygen -dir "$LIB/results" -results "$RESULTS" -rows "$ROWS" > "$OUT/library-files.txt"
FIRST=$(head -1 "$OUT/library-files.txt")
LIB_BYTES=$(cat "$OUT/library-files.txt" | tr '\n' '\0' | du -cb --files0-from=- | tail -1 | cut -f1)
echo "library: $(wc -l < "$OUT/library-files.txt") results, $((LIB_BYTES / 1000000)) MB; $(rg --version | head -1); load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

go test -c -o "$OUT/index.test" ./jobs/index
: > "$OUT/index-bench.txt"

# Indexing one result, each run in its own process (peak RSS is its own).
idx=""
for i in $(seq "$INDEX_RUNS"); do
  idx+=$(SKIPDESK_BENCH_CSV="$FIRST" "$OUT/index.test" -test.run '^$' -test.bench '^BenchmarkIndex400k$' -test.benchtime 1x |
    tee -a "$OUT/index-bench.txt" | awk '/^Benchmark/ {s=$3/1e9; for (i=4;i<NF;i++) {if ($(i+1)=="MB-peakRSS") m=$i; if ($(i+1)=="index/file") r=$i}; print s, m, r}')$'\n'
done
IDX_T=$(echo "$idx" | awk 'NF {print $1}' | median 6)
IDX_M=$(echo "$idx" | awk 'NF {print $2}' | median 6)
IDX_R=$(echo "$idx" | awk 'NF {print $3}' | median 6)
FILE_MB=$(( $(stat -c %s "$FIRST") / 1000000 ))
if [ "$FLAT" = 1 ]; then
  BIG=$((ROWS * 4))
  big=$(SKIPDESK_BENCH_ROWS=$BIG "$OUT/index.test" -test.run '^$' -test.bench '^BenchmarkIndex400k$' -test.benchtime 1x |
    tee -a "$OUT/index-bench.txt" | awk '/^Benchmark/ {s=$3/1e9; for (i=4;i<NF;i++) {if ($(i+1)=="MB-peakRSS") m=$i; if ($(i+1)=="MB-file") f=$i}; print s, m, f}')
fi

# The whole library's index, built from nothing (the first search run
# builds it), then its size against the results'.
rm -f "$LIB/index.db" "$LIB/index.db-wal" "$LIB/index.db-shm"
t0=$(date +%s%N)
SKIPDESK_BENCH_LIBRARY="$LIB" "$OUT/index.test" -test.run '^$' -test.bench '^BenchmarkSearchLibrary$/phone/first' -test.benchtime 1x >/dev/null
LIB_INDEX_S=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f", (b-a)/1e9}')
INDEX_BYTES=$(du -cb "$LIB"/index.db* | tail -1 | cut -f1)

# Searches: ours from the index, ripgrep over the files (page cache warm).
SKIPDESK_BENCH_LIBRARY="$LIB" "$OUT/index.test" -test.run '^$' -test.bench '^BenchmarkSearchLibrary$' -test.benchtime 30x -test.count "$RUNS" |
  tee "$OUT/search-bench.txt" >/dev/null
rg -F -i -c "warm the page cache" -g '*.csv' "$LIB/results" >/dev/null || true
ours() { # name first|all → median seconds, hits
  grep "^BenchmarkSearchLibrary/$1/$2-" "$OUT/search-bench.txt" | awk '{print $3/1e9}' | median 6
}
ourhits() { grep "^BenchmarkSearchLibrary/$1/all-" "$OUT/search-bench.txt" | head -1 | awk '{for (i=4;i<NF;i++) if ($(i+1)=="hits") print $i}'; }
timeit() { # command… → seconds
  local a b
  a=$(date +%s%N); "$@" >/dev/null; b=$(date +%s%N)
  awk -v a="$a" -v b="$b" 'BEGIN {printf "%.6f\n", (b-a)/1e9}'
}
rgfirst() { rg -F -i -m 1 -g '*.csv' "$1" "$LIB/results" | head -n 1; }
rgall() { rg -F -i -g '*.csv' "$1" "$LIB/results" | wc -l; }

printf '\n%-8s %-26s %12s %12s %8s %12s %12s %8s %14s\n' query text "ours first" "rg first" ratio "ours all" "rg all" ratio "rows ours/rg"
QUERIES=$(grep -o '{"[a-z]*", "[^"]*", "[^"]*"}' jobs/index/bench_test.go)
worst_first=0 worst_all=0
while IFS= read -r line; do
  name=$(echo "$line" | cut -d'"' -f2); text=$(echo "$line" | cut -d'"' -f4); rgq=$(echo "$line" | cut -d'"' -f6)
  f=$(for i in $(seq "$RUNS"); do timeit rgfirst "$rgq"; done | median 6)
  a=$(for i in $(seq "$RUNS"); do timeit rgall "$rgq"; done | median 6)
  of=$(ours "$name" first); oa=$(ours "$name" all)
  rf=$(awk -v x="$of" -v y="$f" 'BEGIN {printf "%.3f", x/y}'); ra=$(awk -v x="$oa" -v y="$a" 'BEGIN {printf "%.3f", x/y}')
  worst_first=$(awk -v w="$worst_first" -v r="$rf" 'BEGIN {print (r>w)?r:w}'); worst_all=$(awk -v w="$worst_all" -v r="$ra" 'BEGIN {print (r>w)?r:w}')
  printf '%-8s %-26s %10.2fms %10.1fms %8s %10.2fms %10.1fms %8s %14s\n' "$name" "$text" "$(awk -v x="$of" 'BEGIN {print x*1000}')" \
    "$(awk -v x="$f" 'BEGIN {print x*1000}')" "$rf" "$(awk -v x="$oa" 'BEGIN {print x*1000}')" "$(awk -v x="$a" 'BEGIN {print x*1000}')" "$ra" \
    "$(ourhits "$name" | awk '{printf "%d", $1}')/$(rgall "$rgq" | tr -d ' ')"
done <<< "$QUERIES"

echo
echo "indexing one result ($FILE_MB MB, $ROWS rows): median ${IDX_T} s, peak RSS ${IDX_M} MB, index/file ${IDX_R} ($INDEX_RUNS runs)"
if [ "$FLAT" = 1 ]; then
  echo "indexing a result 4× as large ($BIG rows): $(echo "$big" | awk '{printf "%.1f s, peak RSS %s MB, file %s MB", $1, $2, $3}')"
fi
echo "indexing the whole library ($RESULTS results): ${LIB_INDEX_S} s; index $((INDEX_BYTES / 1000000)) MB for $((LIB_BYTES / 1000000)) MB of results: $(awk -v a="$INDEX_BYTES" -v b="$LIB_BYTES" 'BEGIN {printf "%.3f", a/b}')× "
echo "worst ratio to ripgrep: first hit ${worst_first}, every row ${worst_all}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "targets: search ≤ 0.2× ripgrep (aim < 50 ms); indexing a 400,000-row result ≤ 10 s, memory flat; index ≤ 0.5× the results"
