# Sourced by the bench/*.sh scripts after `set -euo pipefail`: the
# repository's root as the working folder, $OUT for what they write, a
# LANG, and the helpers they share.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT="$PWD/bench/out"
mkdir -p "$OUT"
export LANG=${LANG:-en_US.UTF-8}

# median [DIGITS]: the median of the numbers read, one a line ("nan" for
# none); of an even count, the mean of the middle two with DIGITS decimals
# (default 3).
median() {
  sort -g | awk -v d="${1:-3}" '{a[NR]=$1} END {if (NR==0) {print "nan"} else if (NR%2) {print a[(NR+1)/2]} else {printf "%." d "f\n", (a[NR/2]+a[NR/2+1])/2}}'
}

# metric UNIT: Go benchmark lines → "seconds <value of UNIT>".
metric() {
  awk -v u="$1" '/^Benchmark/ { s=$3/1e9; m=""; for (i=4;i<NF;i++) if ($(i+1)==u) m=$i; print s, m }'
}

# start_sandbox NAME: a local sandbox whose jobs stay processing (no result
# files), without rate limits, with credits for every run, stopped when the
# script ends. Sets URL; its config, output and log are $OUT/NAME.*.
start_sandbox() {
  local cfg="$OUT/$1.json"
  cat > "$cfg" <<'JSON'
{"record_limit": 100000000, "rate_limits": {"read_per_minute": -1, "write_per_minute": -1},
 "processing": {"rows_per_second": 0, "min_seconds": 86400},
 "keys": [{"key": "sk_sandbox_demo", "credits": 1000000000000}]}
JSON
  go build -o "$OUT/skipdesk-sandbox" ./cmd/skipdesk-sandbox
  "$OUT/skipdesk-sandbox" --addr 127.0.0.1:0 --config "$cfg" > "$OUT/$1.out" 2> "$OUT/$1.log" &
  SB=$!
  trap 'kill $SB 2>/dev/null || true' EXIT
  for _ in $(seq 300); do grep -q listening "$OUT/$1.out" 2>/dev/null && break; sleep 0.1; done
  URL=$(awk '/listening on/ {print $3}' "$OUT/$1.out")
  [ -n "$URL" ] || { echo "sandbox did not start"; cat "$OUT/$1.log"; exit 1; }
}
