#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a short time each ($1, default 5s).
# Go fuzzes one target per run: each package's test binary is built once, with
# the fuzzing instrumentation (go test -c -fuzz), and run once per target in
# the package's folder, so that failing inputs land in its testdata/fuzz as
# with go test -fuzz.
set -euo pipefail
t="${1:-5s}"
root="$(pwd)"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
cache="$(go env GOCACHE)/fuzz"
found=0

# Targets, grouped by package: "pkgdir name" lines, sorted.
targets="$(git grep -n '^func Fuzz' -- '*_test.go' 2>/dev/null |
  sed -E 's#^(.*)/[^/]+_test\.go:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*#\1 \2#' | sort -u || true)"

built=""
while read -r dir name; do
  [ -n "$dir" ] || continue
  exe="$bin/$(echo "$dir" | tr / _).test"
  if [ "$built" != "$dir" ]; then
    echo "build ./$dir"
    go test -tags migrated_fynedo -c -fuzz=. -o "$exe" "./$dir"
    built="$dir"
  fi
  pkg="$(go list "./$dir")"
  echo "fuzz ./$dir $name ($t)"
  log="$bin/fuzz.log"
  run() {
    (cd "$root/$dir" && "$exe" -test.run '^$' -test.fuzz "^${name}\$" -test.fuzztime "$t" \
      -test.fuzzcachedir "$cache/$pkg/$name") >"$log" 2>&1
  }
  if ! run; then
    # Go's fuzzing coordinator can give up with "context deadline exceeded"
    # when -fuzztime ends while a loaded machine's worker is still busy; no
    # input failed then (a failing input is written to testdata/fuzz and
    # named). That case alone runs again, once.
    if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
      echo "  the fuzzing coordinator timed out with no failing input; again"
      run || { cat "$log"; exit 1; }
    else
      cat "$log"; exit 1
    fi
  fi
  found=$((found+1))
done <<<"$targets"
echo "fuzzed $found targets"
