#!/usr/bin/env bash
# Exporting a 400k-row × 26-column result (≈72 MB CSV) to .xlsx, side by side:
#   ours (BenchmarkExport400k), naive excelize StreamWriter (BenchmarkNaiveExcelize400k),
#   exceljs streaming writer (node), LibreOffice headless convert;
# the callable list of the same rows joined with its DNC result (80,000 numbers), as
# .xlsx (BenchmarkCallableXLSX400k), beside the plain export, runs interleaved, wall
# and CPU seconds (user + system: steadier on a shared machine), with the plain
# export of the very file the callable export wrote (the same cells, no judging);
# its peak memory at BIG_ROWS (8,000,000: a 1.6 GB result; BIG_ROWS=0 leaves it out);
# and opening it in the result reader (BenchmarkOpenResult400k).
# Prints medians (wall seconds, peak RSS MB) and ratios. Installs exceljs into
# bench/node_modules and LibreOffice (libreoffice-calc) when missing.
#   RUNS=3 (Go and exceljs runs), LO_RUNS=1, ROWS=400000, SKIP_LO=1 to leave LibreOffice out,
#   BIG_ROWS=8000000, ONLY_CALLABLE=1 for the callable figures alone.
set -euo pipefail
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-3}
LO_RUNS=${LO_RUNS:-1}
ROWS=${ROWS:-400000}
export CGO_ENABLED=0
CSV="$OUT/trace-$ROWS.csv"
[ -f "$CSV" ] || go run ./bench/exportgen -rows "$ROWS" -out "$CSV"
echo "input: $CSV ($(du -m "$CSV" | cut -f1) MB, $ROWS rows); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"


# Go benchmarks: one process per benchmark so that peak RSS is its own.
go test -c -o "$OUT/export.test" ./jobs/export
go test -c -o "$OUT/library.test" ./jobs/library
gobench() { # binary benchmark unit [count] → lines "seconds <unit value>"
  SKIPDESK_BENCH_CSV="$CSV" "$1" -test.run '^$' -test.bench "^$2\$" -test.benchtime 1x -test.count "${4:-$RUNS}" -test.benchmem |
    tee -a "$OUT/go-bench.txt" |
    metric "$3"
}
: > "$OUT/go-bench.txt"
declare -A T M R
cputime() { # binary benchmark [env...] → "wall cpu peakMB" of one process
  local bin=$1 b=$2; shift 2
  { env SKIPDESK_BENCH_CSV="$CSV" "$@" /usr/bin/time -f "cpu %U %S %M" "$bin" -test.run '^$' -test.bench "^$b\$" -test.benchtime 1x -test.benchmem; } 2>&1 |
    tee -a "$OUT/go-bench.txt" |
    awk '/^Benchmark/ {wall=$3/1e9} /^cpu / {cpu=$2+$3; rss=$4/1024} END {printf "%.3f %.3f %.1f\n", wall, cpu, rss}'
}
callable() {
  # The plain export of the callable list's own cells: what the judging
  # and the join add, apart from the columns they write.
  go run ./bench/exportgen -rows "$ROWS" -out "$CSV" -callable "$OUT/callable-$ROWS.csv"
  local plain="" call="" same="" p c q
  for i in $(seq "$RUNS"); do
    p=$(cputime "$OUT/export.test" BenchmarkExport400k)
    c=$(cputime "$OUT/export.test" BenchmarkCallableXLSX400k)
    q=$(cputime "$OUT/export.test" BenchmarkExport400k SKIPDESK_BENCH_CSV="$OUT/callable-$ROWS.csv")
    plain+="$p"$'\n' call+="$c"$'\n' same+="$q"$'\n'
  done
  col() { echo "$1" | awk -v k="$2" 'NF {print $k}' | median; }
  echo
  printf '%-44s %8s %8s %8s\n' "export of $ROWS rows (medians of $RUNS)" "wall s" "cpu s" "peak MB"
  printf '%-44s %8s %8s %8s\n' "plain .xlsx (BenchmarkExport400k)" "$(col "$plain" 1)" "$(col "$plain" 2)" "$(col "$plain" 3)"
  printf '%-44s %8s %8s %8s\n' "callable .xlsx, DNC joined" "$(col "$call" 1)" "$(col "$call" 2)" "$(col "$call" 3)"
  printf '%-44s %8s %8s %8s\n' "plain .xlsx of the callable list's cells" "$(col "$same" 1)" "$(col "$same" 2)" "$(col "$same" 3)"
  echo "callable / plain: wall $(awk -v a="$(col "$call" 1)" -v b="$(col "$plain" 1)" 'BEGIN {printf "%.2f", a/b}')×, cpu $(awk -v a="$(col "$call" 2)" -v b="$(col "$plain" 2)" 'BEGIN {printf "%.2f", a/b}')×;" \
    "callable / plain of its cells: cpu $(awk -v a="$(col "$call" 2)" -v b="$(col "$same" 2)" 'BEGIN {printf "%.2f", a/b}')×"
  if [ "${BIG_ROWS:-8000000}" != 0 ]; then
    local big="$OUT/trace-${BIG_ROWS:-8000000}.csv"
    [ -f "$big" ] || go run ./bench/exportgen -rows "${BIG_ROWS:-8000000}" -out "$big"
    local b
    b=$(SKIPDESK_BENCH_CSV="$big" cputime "$OUT/export.test" BenchmarkCallableXLSX400k SKIPDESK_BENCH_CSV="$big" SKIPDESK_BENCH_ROWS="${BIG_ROWS:-8000000}")
    echo "callable .xlsx of ${BIG_ROWS:-8000000} rows: wall ${b%% *} s, cpu $(echo "$b" | cut -d' ' -f2) s, peak $(echo "$b" | cut -d' ' -f3) MB (target ≤ 150 MB)"
  fi
  echo "target: callable ≤ 1.2× the plain export"
  # On a machine whose cores are taken the wall time follows the CPU share
  # left to the process: the load says how far to trust the wall ratio.
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
}
if [ -n "${ONLY_CALLABLE:-}" ]; then
  callable
  exit 0
fi

# Ours and the naive baseline alternate, run by run, so that both see the
# same load on a shared machine; the paired ratio is reported too.
ours="" naive="" pairs=""
for i in $(seq "$RUNS"); do
  a=$(gobench "$OUT/export.test" BenchmarkExport400k MB-peakRSS 1)
  b=$(gobench "$OUT/export.test" BenchmarkNaiveExcelize400k MB-peakRSS 1)
  ours+="$a"$'\n' naive+="$b"$'\n'
  pairs+="$(awk -v a="${a%% *}" -v b="${b%% *}" 'BEGIN {printf "%.3f", a/b}')"$'\n'
done
T[BenchmarkExport400k]=$(echo "$ours" | awk 'NF {print $1}' | median)
M[BenchmarkExport400k]=$(echo "$ours" | awk 'NF {print $2}' | median)
T[BenchmarkNaiveExcelize400k]=$(echo "$naive" | awk 'NF {print $1}' | median)
M[BenchmarkNaiveExcelize400k]=$(echo "$naive" | awk 'NF {print $2}' | median)
PAIRED=$(echo "$pairs" | awk 'NF' | median)
open_lines=$(SKIPDESK_BENCH_CSV="$CSV" "$OUT/library.test" -test.run '^$' -test.bench '^BenchmarkOpenResult400k$' \
  -test.benchtime 1x -test.count "$RUNS" -test.benchmem | tee -a "$OUT/go-bench.txt")
T[open]=$(echo "$open_lines" | metric MB-held | awk '{print $1}' | median)
M[open]=$(echo "$open_lines" | metric MB-held | awk '{print $2}' | median)
R[open]=$(echo "$open_lines" | metric MB-peakRSS | awk '{print $2}' | sort -n | tail -1)

timed() { # command... → "seconds peakMB" (GNU time); nothing when it fails
  if /usr/bin/time -f '%e %M' -o "$OUT/time.txt" "$@" >/dev/null 2>>"$OUT/peers.log"; then
    awk '{printf "%s %.1f\n", $1, $2/1024}' "$OUT/time.txt"
  else
    echo "failed: $* (see $OUT/peers.log)" >&2
  fi
}

# exceljs streaming writer.
if command -v node >/dev/null; then
  if [ ! -d bench/node_modules/exceljs ]; then
    npm install --no-save --no-audit --no-fund --prefix bench exceljs >/dev/null 2>&1 || echo "exceljs: npm install failed"
  fi
  if [ -d bench/node_modules/exceljs ]; then
    res=$(for i in $(seq "$RUNS"); do (cd bench && timed node exceljs-export.js "$CSV" "$OUT/exceljs.xlsx"); done)
    if [ -n "$res" ]; then
      T[exceljs]=$(echo "$res" | awk '{print $1}' | median)
      M[exceljs]=$(echo "$res" | awk '{print $2}' | median)
    fi
  fi
fi

# LibreOffice headless convert (it also shows that our .xlsx opens there).
if [ -z "${SKIP_LO:-}" ]; then
  if ! command -v soffice >/dev/null; then
    (apt-get install -y -q libreoffice-calc >/dev/null 2>&1 || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q libreoffice-calc >/dev/null 2>&1)) || echo "libreoffice-calc: install failed"
  fi
  if command -v soffice >/dev/null; then
    LOPROFILE="-env:UserInstallation=file://$OUT/lo-profile"
    res=$(for i in $(seq "$LO_RUNS"); do timed soffice "$LOPROFILE" --headless --convert-to xlsx --outdir "$OUT/lo" "$CSV"; done)
    if [ -n "$res" ]; then
      T[libreoffice]=$(echo "$res" | awk '{print $1}' | median)
      M[libreoffice]=$(echo "$res" | awk '{print $2}' | median)
    fi
    # Our export read back by LibreOffice: every row must be there.
    go run ./bench/exportgen -rows "$ROWS" -out "$CSV" -xlsx "$OUT/ours.xlsx"
    rm -rf "$OUT/lo-back" && soffice "$LOPROFILE" --headless --convert-to csv --outdir "$OUT/lo-back" "$OUT/ours.xlsx" >/dev/null 2>&1 || true
    if [ -f "$OUT/lo-back/ours.csv" ]; then
      echo "LibreOffice read our .xlsx back: $(($(wc -l <"$OUT/lo-back/ours.csv") - 1)) data rows (want $ROWS)"
    else
      echo "LibreOffice could not read our .xlsx back"
    fi
  fi
fi

echo
printf '%-28s %10s %12s %10s\n' tool "median s" "peak MB" "time ours/tool"
for k in BenchmarkExport400k BenchmarkNaiveExcelize400k exceljs libreoffice; do
  [ -n "${T[$k]:-}" ] || continue
  printf '%-28s %10s %12s %10s\n' "$k" "${T[$k]}" "${M[$k]:-?}" "$(awk -v a="${T[BenchmarkExport400k]}" -v b="${T[$k]}" 'BEGIN {printf "%.2f", a/b}')"
done
echo
echo "ours/naive excelize, median of the paired runs: $PAIRED"
FILE_MB=$(du -m "$CSV" | cut -f1)
echo "reader: open + first page ${T[open]} s, heap held ${M[open]} MB, peak RSS ${R[open]:-?} MB (file $FILE_MB MB, peak/file $(awk -v a="${R[open]:-0}" -v b="$FILE_MB" 'BEGIN {printf "%.2f", a/b}'))"
callable
echo "targets: ours ≤ 0.6× naive excelize, ≥ 2× faster than exceljs, peak ≤ 150 MB; first page < 1 s, memory ≤ 1.5× the file"
