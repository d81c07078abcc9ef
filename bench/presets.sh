#!/usr/bin/env bash
# A 400k-row trace's callable list (CSV, its DNC result of 80,000 numbers
# joined) exported plain — the result's own layout with each phone's flags and
# calling window — and through two dialer presets: REISift (one row per owner)
# and CallTools (one row per phone, split at its 300,000 rows a file). Runs
# interleaved, one process each; prints the medians of wall and CPU seconds
# (user + system: steadier on a shared machine) and the ratios to the plain
# export.
#   RUNS=5, ROWS=400000
set -euo pipefail
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
ROWS=${ROWS:-400000}
export SKIPDESK_BENCH_ROWS=$ROWS

go test -c -o "$OUT/presets.test" ./jobs/export
benches=(Callable400k CallablePreset400k CallablePresetLong400k)
: >"$OUT/presets.txt"
for _ in $(seq "$RUNS"); do
  for i in "${!benches[@]}"; do
    { /usr/bin/time -f "cpu %U %S" "$OUT/presets.test" -test.run '^$' -test.bench "^Benchmark${benches[$i]}\$" -test.benchtime 1x; } 2>&1 |
      awk -v name="$i" '/^Benchmark/ {wall=$3/1e9} /^cpu / {cpu=$2+$3} END {print name, wall, cpu}' >>"$OUT/presets.txt"
  done
done
plain=$(awk '$1==0 {print $3}' "$OUT/presets.txt" | median)
for i in "${!benches[@]}"; do
  wall=$(awk -v i="$i" '$1==i {print $2}' "$OUT/presets.txt" | median)
  cpu=$(awk -v i="$i" '$1==i {print $3}' "$OUT/presets.txt" | median)
  label=${benches[$i]}
  printf "%-34s wall %6.2f s  cpu %6.2f s  %.2f× the plain export's cpu\n" "$label" "$wall" "$cpu" "$(echo "$cpu / $plain" | bc -l)"
done
