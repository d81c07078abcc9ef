#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages named on the command line that are not
# installed yet: with apt-get as root, through sudo when it works without a
# password, and otherwise prints the exact command to run.
set -euo pipefail
command -v dpkg-query >/dev/null 2>&1 || exit 0   # not Debian/Ubuntu: nothing to check
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing packages the build needs: ${missing[*]}"
if [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
else
  echo "Run this, then try again:"
  echo "  sudo apt-get install ${missing[*]}"
  exit 1
fi
