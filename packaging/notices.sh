#!/usr/bin/env bash
# Writes THIRD_PARTY_NOTICES.txt to stdout: the licence texts of every Go
# module linked into the given packages (from `go list -deps` and the module
# cache), of the Go standard library, and of any extra files named with
# --extra "NAME=FILE" (C runtimes the linker adds, say), and of the files of
# SkipDesk's own tree bundled into the app (every licence file under assets/,
# beside what it covers: the proof's font).
#
#   GOOS=windows CGO_ENABLED=1 packaging/notices.sh --tags migrated_fynedo \
#     --extra "mingw-w64 runtime=/usr/share/doc/mingw-w64-x86-64-dev/copyright" \
#     ./cmd/skipdesk ./cmd/skipdesk-cli > THIRD_PARTY_NOTICES.txt
#
# Within a module every file named like a licence (LICENSE*, LICENCE*,
# COPYING*, NOTICE*, UNLICENSE*, also in subfolders such as bundled fonts or
# C sources) is included, except under testdata and hidden folders.
set -euo pipefail
GO=${GO:-go}
tags=""
extras=()
pkgs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tags) tags="$2"; shift 2 ;;
    --extra) extras+=("$2"); shift 2 ;;
    *) pkgs+=("$1"); shift ;;
  esac
done
[ ${#pkgs[@]} -gt 0 ] || { echo "usage: $0 [--tags T] [--extra NAME=FILE]... PACKAGE..." >&2; exit 2; }

modules=$($GO list -deps ${tags:+-tags "$tags"} \
  -f '{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}} {{if .Replace}}{{.Replace.Dir}}{{else}}{{.Dir}}{{end}}{{end}}{{end}}' \
  "${pkgs[@]}" | sort -u)
[ -n "$modules" ] || { echo "$0: no modules found for ${pkgs[*]}" >&2; exit 1; }

rule() { printf '%s\n' "================================================================================"; }

cat <<'EOF'
THIRD-PARTY SOFTWARE NOTICES

SkipDesk is built with the open-source components listed below. Each is
distributed under its own licence, reproduced here in full. SkipDesk itself
is proprietary software: see LICENSE.txt.

EOF
# Files of SkipDesk's own tree bundled into the app (the proof's font under
# assets/fonts), each folder with its licence file.
root=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t bundled < <(find "$root/assets" -type f \( -iname 'licen[cs]e*' -o -iname 'copying*' -o -iname 'notice*' \) | LC_ALL=C sort)

echo "Components:"
echo "  Go $($GO env GOVERSION | sed 's/^go//') (runtime and standard library)"
while read -r path version _; do echo "  $path $version"; done <<<"$modules"
for f in ${bundled[@]+"${bundled[@]}"}; do echo "  $(head -n1 "$f" | sed 's/[.,]$//') ($(dirname "${f#"$root"/}"))"; done
for e in ${extras[@]+"${extras[@]}"}; do echo "  ${e%%=*}"; done
echo

section() { # title, root, files...
  local title=$1 root=$2; shift 2
  rule
  echo "$title"
  rule
  for f in "$@"; do
    echo
    echo "--- ${f#"$root"/}"
    echo
    # Normalise line endings; a file may end without a newline.
    tr -d '\r' <"$f"
    [ -z "$(tail -c1 "$f")" ] || echo
  done
  echo
}

goroot=$($GO env GOROOT)
section "Go $($GO env GOVERSION | sed 's/^go//') (runtime and standard library)" "$goroot" "$goroot/LICENSE"

while read -r path version dir; do
  [ -d "$dir" ] || { echo "$0: $path $version is not in the module cache (run go mod download)" >&2; exit 1; }
  mapfile -t files < <(find "$dir" \( -name testdata -o -name '.?*' \) -prune -o -type f \
    \( -iname 'licen[cs]e*' -o -iname 'copying*' -o -iname 'notice*' -o -iname 'unlicense*' \) \
    ! -iname '*.go' -print | LC_ALL=C sort)
  if [ ${#files[@]} -eq 0 ]; then
    echo "$0: no licence file in $path $version ($dir)" >&2
    exit 1
  fi
  section "$path $version" "$dir" "${files[@]}"
done <<<"$modules"

for f in ${bundled[@]+"${bundled[@]}"}; do
  section "$(head -n1 "$f" | sed 's/[.,]$//') (bundled: $(dirname "${f#"$root"/}"))" "$root" "$f"
done

for e in ${extras[@]+"${extras[@]}"}; do
  name=${e%%=*} file=${e#*=}
  [ -f "$file" ] || { echo "$0: $file (for $name) not found" >&2; exit 1; }
  section "$name" "$(dirname "$file")" "$file"
done
