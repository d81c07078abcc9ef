#!/usr/bin/env bash
# Uploading a 50 MB owner list with POST /traces to the same local sandbox,
# side by side: the client (BenchmarkUpload50MB, against this external
# sandbox so that B/op is the client's alone) and `curl -F`.
# Prints medians (seconds per upload) and the throughput ratio client/curl
# (target ≥ 0.8), plus the client's bytes allocated per upload.
#   RUNS=5
set -euo pipefail
. "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
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

go test -c -o "$OUT/client.test" ./client
start_sandbox upload-sandbox
echo "sandbox: $URL"

MAPPING='{"first_name":"First","last_name":"Last","property_street":"Street","property_city":"City","property_state":"State","property_zip":"Zip"}'
: > "$OUT/upload-go.txt"; : > "$OUT/upload-curl.txt"
for _ in $(seq "$RUNS"); do
  # Alternate the two so that drift on a shared machine hits both alike.
  SKIPDESK_BENCH_URL="$URL" SKIPDESK_BENCH_FILE="$CSV" "$OUT/client.test" -test.run '^$' \
    -test.bench '^BenchmarkUpload50MB$' -test.benchtime 1x -test.benchmem | grep '^Benchmark' >> "$OUT/upload-go.txt"
  code=$(curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer sk_sandbox_demo" \
    -F "file=@$CSV;type=text/csv" -F "column_mapping=$MAPPING" "$URL/traces")
  [ "${code%% *}" = 201 ] || { echo "curl upload failed: $code"; exit 1; }
  echo "${code#* }" >> "$OUT/upload-curl.txt"
done

GO_S=$(awk '{print $3/1e9}' "$OUT/upload-go.txt" | median 4)
GO_B=$(awk '{for (i=1;i<NF;i++) if ($(i+1)=="B/op") print $i}' "$OUT/upload-go.txt" | median 4)
CURL_S=$(median 4 < "$OUT/upload-curl.txt")
SIZE_MB=$(awk -v s="$(stat -c %s "$CSV")" 'BEGIN {printf "%.1f", s/1048576}')
echo
printf "client: median %.3f s per upload (%.0f MB/s), %s B allocated per upload\n" "$GO_S" "$(awk -v m="$SIZE_MB" -v s="$GO_S" 'BEGIN{print m/s}')" "$GO_B"
printf "curl -F: median %.3f s per upload (%.0f MB/s)\n" "$CURL_S" "$(awk -v m="$SIZE_MB" -v s="$CURL_S" 'BEGIN{print m/s}')"
printf "throughput ratio client/curl (curl time / client time): %.2f (target >= 0.80)\n" "$(awk -v g="$GO_S" -v c="$CURL_S" 'BEGIN{print c/g}')"
printf "allocated / file size: %.5f\n" "$(awk -v b="$GO_B" -v s="$(stat -c %s "$CSV")" 'BEGIN{print b/s}')"
