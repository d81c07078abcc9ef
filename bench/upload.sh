#!/usr/bin/env bash
# Uploading a 50 MB owner list with POST /traces to the same local sandbox,
# side by side: the client (BenchmarkUpload50MB, against this external
# sandbox so that B/op is the client's alone) and `curl -F`.
# Prints medians (seconds per upload) and the throughput ratio client/curl
# (target ≥ 0.8), plus the client's bytes allocated per upload.
#   RUNS=5
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
OUT=bench/out
mkdir -p "$OUT"
export CGO_ENABLED=0

CSV="$OUT/owners-50mb.csv"
if [ ! -f "$CSV" ]; then
  awk 'BEGIN { print "First,Last,Street,City,State,Zip"; n = 34
    for (i = 0; ; i++) {
      line = sprintf("John%d,Smith%d,%d Main St,Austin,TX,%05d", i, i % 977, i % 9999, 10000 + i % 89999)
      if (n + length(line) + 1 > 52427776) break
      print line; n += length(line) + 1 } }' > "$CSV"
fi
echo "input: $CSV ($(stat -c %s "$CSV") bytes)"

# A sandbox whose jobs stay processing (no result files), without rate
# limits, with credits for every run.
CFG="$OUT/upload-sandbox.json"
cat > "$CFG" <<'JSON'
{"record_limit": 100000000, "rate_limits": {"read_per_minute": -1, "write_per_minute": -1},
 "processing": {"rows_per_second": 0, "min_seconds": 86400},
 "keys": [{"key": "sk_sandbox_demo", "credits": 1000000000000}]}
JSON
go build -o "$OUT/skipdesk-sandbox" ./cmd/skipdesk-sandbox
go test -c -o "$OUT/client.test" ./client
"$OUT/skipdesk-sandbox" --addr 127.0.0.1:0 --config "$CFG" > "$OUT/sandbox.out" 2> "$OUT/sandbox.log" &
SB=$!
trap 'kill $SB 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q listening "$OUT/sandbox.out" 2>/dev/null && break; sleep 0.1; done
URL=$(awk '/listening on/ {print $3}' "$OUT/sandbox.out")
[ -n "$URL" ] || { echo "sandbox did not start"; cat "$OUT/sandbox.log"; exit 1; }
echo "sandbox: $URL"

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) {print a[(NR+1)/2]} else {printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}}'; }

MAPPING='{"first_name":"First","last_name":"Last","property_street":"Street","property_city":"City","property_state":"State","property_zip":"Zip"}'
: > "$OUT/upload-go.txt"; : > "$OUT/upload-curl.txt"
for _ in $(seq "$RUNS"); do
  # Alternate the two so that drift on a shared machine hits both alike.
  SKIPDESK_BENCH_URL="$URL" SKIPDESK_BENCH_FILE="$PWD/$CSV" "$OUT/client.test" -test.run '^$' \
    -test.bench '^BenchmarkUpload50MB$' -test.benchtime 1x -test.benchmem | grep '^Benchmark' >> "$OUT/upload-go.txt"
  code=$(curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer sk_sandbox_demo" \
    -F "file=@$CSV;type=text/csv" -F "column_mapping=$MAPPING" "$URL/traces")
  [ "${code%% *}" = 201 ] || { echo "curl upload failed: $code"; exit 1; }
  echo "${code#* }" >> "$OUT/upload-curl.txt"
done

GO_S=$(awk '{print $3/1e9}' "$OUT/upload-go.txt" | median)
GO_B=$(awk '{for (i=1;i<NF;i++) if ($(i+1)=="B/op") print $i}' "$OUT/upload-go.txt" | median)
CURL_S=$(median < "$OUT/upload-curl.txt")
SIZE_MB=$(awk -v s="$(stat -c %s "$CSV")" 'BEGIN {printf "%.1f", s/1048576}')
echo
printf "client: median %.3f s per upload (%.0f MB/s), %s B allocated per upload\n" "$GO_S" "$(awk -v m="$SIZE_MB" -v s="$GO_S" 'BEGIN{print m/s}')" "$GO_B"
printf "curl -F: median %.3f s per upload (%.0f MB/s)\n" "$CURL_S" "$(awk -v m="$SIZE_MB" -v s="$CURL_S" 'BEGIN{print m/s}')"
printf "throughput ratio client/curl (curl time / client time): %.2f (target >= 0.80)\n" "$(awk -v g="$GO_S" -v c="$CURL_S" 'BEGIN{print c/g}')"
printf "allocated / file size: %.5f\n" "$(awk -v b="$GO_B" -v s="$(stat -c %s "$CSV")" 'BEGIN{print b/s}')"
