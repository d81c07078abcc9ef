#!/usr/bin/env bash
# The viewer's engine (jobs/library) on a generated 400,000-row trace result
# (26 columns, ≈78 MB), side by side in one run with the peers that answer
# the same filter over the same rows:
#   - a word typed into the filter (BenchmarkFilterWord400k: every row looked
#     at) against `rg -c -F -i WORD` over the file and SQLite's LIKE over
#     the same rows imported into a table (one text column per column);
#     runs alternate ours, rg, SQLite, and each run's ratios are taken;
#   - the viewer's other figures (medians of RUNS): the first key and each
#     further key of a growing query, a quick filter, a filter with a quick
#     filter (BenchmarkFilter400k), a sort by a number (BenchmarkSort400k)
#     and by text, a reverse, open to the first page and to fully indexed
#     with the memory held against the file's size;
#   - the same at ROWS2 (2,000,000) rows, to show the cost grows no faster
#     than the rows.
# Installs ripgrep and sqlite3 (Debian packages) when missing.
#   RUNS=5 ROWS2=2000000 (0 skips it) WORD=smith
set -euo pipefail
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
ROWS2=${ROWS2:-2000000}
WORD=${WORD:-smith}
export CGO_ENABLED=0

for tool in rg:ripgrep sqlite3:sqlite3; do
  if ! command -v "${tool%%:*}" >/dev/null; then
    (apt-get install -y -q "${tool##*:}" >/dev/null 2>&1 || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${tool##*:}" >/dev/null 2>&1)) ||
      { echo "${tool%%:*} is missing and could not be installed (apt-get install ${tool##*:})"; exit 1; }
  fi
done
CSV="$OUT/trace-400000.csv"
[ -f "$CSV" ] || go run ./bench/exportgen -rows 400000 -out "$CSV"
DB="$OUT/viewer-400000.db"
if [ ! -f "$DB" ] || [ "$DB" -ot "$CSV" ]; then
  rm -f "$DB"
  sqlite3 "$DB" ".mode csv" ".import '$CSV' r"
fi
COLS=$(sqlite3 "$DB" "SELECT group_concat('\"' || name || '\"', ' || '','' || ') FROM pragma_table_info('r')")
SQL="SELECT count(*) FROM r WHERE ($COLS) LIKE '%$WORD%'"
echo "input: $CSV ($(( $(stat -c %s "$CSV") / 1000000 )) MB, 400,000 rows); $(rg --version | head -1); sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

go test -c -o "$OUT/library.test" ./jobs/library
timeit() { # command… → seconds
  local a b
  a=$(date +%s%N); "$@" >/dev/null; b=$(date +%s%N)
  awk -v a="$a" -v b="$b" 'BEGIN {printf "%.6f\n", (b-a)/1e9}'
}
bench() { # csv benchmark-regexp benchtime count → benchmark lines
  SKIPDESK_BENCH_CSV="$1" SKIPDESK_BENCH_WORD="$WORD" "$OUT/library.test" -test.run '^$' -test.bench "$2" \
    -test.benchtime "$3" -test.count "$4" -test.benchmem | tee -a "$OUT/viewer-bench.txt" | grep '^Benchmark'
}
: > "$OUT/viewer-bench.txt"

# The same filter, side by side: ours, ripgrep, SQLite, in turn.
rg -c -F -i "$WORD" "$CSV" >/dev/null
ours="" rgs="" sqls="" pr="" ps=""
for i in $(seq "$RUNS"); do
  o=$(bench "$CSV" '^BenchmarkFilterWord400k$' 20x 1 | awk '{print $3/1e9}')
  g=$(timeit rg -c -F -i "$WORD" "$CSV")
  q=$(timeit sqlite3 "$DB" "$SQL")
  ours+="$o"$'\n' rgs+="$g"$'\n' sqls+="$q"$'\n'
  pr+="$(awk -v a="$o" -v b="$g" 'BEGIN {printf "%.3f", a/b}')"$'\n'
  ps+="$(awk -v a="$o" -v b="$q" 'BEGIN {printf "%.4f", a/b}')"$'\n'
done
O=$(echo "$ours" | awk 'NF' | median 6); G=$(echo "$rgs" | awk 'NF' | median 6); Q=$(echo "$sqls" | awk 'NF' | median 6)
RG_ROWS=$(rg -c -F -i "$WORD" "$CSV"); SQL_ROWS=$(sqlite3 "$DB" "$SQL")
OUR_ROWS=$(grep '^BenchmarkFilterWord400k' "$OUT/viewer-bench.txt" | head -1 | awk '{for (i=4;i<NF;i++) if ($(i+1)=="rows") print $i}')
printf '\nfilter %-8s  ours %8.2f ms (%s rows)   rg -c -F -i %8.2f ms (%s lines)   SQLite LIKE %8.2f ms (%s rows)\n' "\"$WORD\"" \
  "$(awk -v x="$O" 'BEGIN {print x*1000}')" "$OUR_ROWS" "$(awk -v x="$G" 'BEGIN {print x*1000}')" "$RG_ROWS" \
  "$(awk -v x="$Q" 'BEGIN {print x*1000}')" "$SQL_ROWS"
echo "   ours / rg: median of paired runs $(echo "$pr" | awk 'NF' | median 6) (runs: $(echo "$pr" | awk 'NF' | tr '\n' ' '))"
echo "   ours / SQLite: median of paired runs $(echo "$ps" | awk 'NF' | median 6)"

# The viewer's other figures.
figures() { # csv rows-label
  local lines
  lines=$(bench "$1" '^Benchmark(OpenFirstPage|OpenIndexed)400k$' 1x "$RUNS" | sed 's/-[0-9]* / /')
  lines+=$'\n'$(bench "$1" '^Benchmark(FilterFirstKey|FilterKeystrokes|Filter|QuickFilter|Sort|SortText|SortReverse)400k$' 10x "$RUNS" | sed 's/-[0-9]* / /')
  printf '\n%s rows: medians of %s runs\n' "$2" "$RUNS"
  printf '%-36s %10s %12s %10s  %s\n' benchmark ms B/op allocs/op ""
  lines=$(echo "$lines" | awk 'NF')
  for n in $(echo "$lines" | awk '{print $1}' | awk '!seen[$0]++'); do
    sel=$(echo "$lines" | awk -v n="$n" '$1==n')
    ms=$(echo "$sel" | awk '{print $3/1e6}' | median 6)
    unit() { echo "$sel" | awk -v u="$1" '{for (i=4;i<NF;i++) if ($(i+1)==u) print $i}' | median 6; }
    other=""
    if echo "$sel" | grep -q x-file; then other="held $(unit MB-held) MB = $(unit x-file)× the file"; fi
    printf '%-36s %10.2f %12.0f %10.0f  %s\n' "${n#Benchmark}" "$ms" "$(unit B/op)" "$(unit allocs/op)" "$other"
  done
}
figures "$CSV" 400,000
if [ "$ROWS2" != 0 ]; then
  CSV2="$OUT/trace-$ROWS2.csv"
  [ -f "$CSV2" ] || go run ./bench/exportgen -rows "$ROWS2" -out "$CSV2"
  figures "$CSV2" "$(printf "%'d" "$ROWS2")"
fi
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "targets: filter ≤ 50 ms a key and ≤ 1× ripgrep; sort ≤ 100 ms and ≤ 2× ripgrep; first page ≤ 0.5 s; fully indexed ≤ 2 s; memory ≤ 1.5× the file; ${ROWS2} rows no worse than linear"
