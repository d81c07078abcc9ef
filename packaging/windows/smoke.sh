#!/usr/bin/env bash
# The Windows package's smoke test, under Wine and Xvfb on Linux:
#   packaging/windows/smoke.sh dist/SkipDesk-<version>-windows-amd64-setup.exe
# (`make smoke-windows` builds bin/skipdesk-sandbox and bin/skipdesk-cli first.)
#
# In a fresh, throwaway Wine prefix (so a fresh %AppData%):
#  1. the installer installs silently (/S) into %LOCALAPPDATA%\Programs\SkipDesk,
#     with its Start-menu shortcut, uninstaller and Settings > Apps entry;
#  2. the installed SkipDesk.exe starts and shows its window with content
#     (the sandbox's welcome screen): testout/windows/app.png; its data folder
#     is %AppData%\SkipDesk;
#  3. the installed skipdesk-cli.exe talks to the Linux sandbox on loopback:
#     version, account, pricing, and a trace of assets/sample-owners.csv
#     submitted with --wait, whose result lands in %AppData%\SkipDesk\results;
#  4. the uninstaller (/S) removes the program and keeps the data folder.
# Go's own tests do not run under Wine 8.0; this is the check that the
# Windows build works at all.
#
# Wine 8.0 (Debian 12) has no bcryptprimitives.dll, without which every
# program built with Go 1.22 or later stops at start: a stand-in built from
# bcryptprimitives.c goes into the prefix's system32 (never into a package).
#
# A failure exits non-zero with a line starting "smoke-windows: FAIL". Every
# process started here is stopped on exit, and the prefix removed.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
setup=${1:?usage: $0 SETUP.exe}
[ -f "$setup" ] || { echo "smoke-windows: FAIL: $setup not found (run make dist first)" >&2; exit 1; }
setup=$(cd "$(dirname "$setup")" && pwd)/$(basename "$setup")
for tool in wine wineserver Xvfb xdotool import identify x86_64-w64-mingw32-gcc; do
  command -v "$tool" >/dev/null || { echo "smoke-windows: FAIL: $tool is missing (make smoke-windows installs it)" >&2; exit 1; }
done
for b in bin/skipdesk-sandbox bin/skipdesk-cli; do
  [ -x "$b" ] || { echo "smoke-windows: FAIL: $b is missing (make smoke-windows builds it)" >&2; exit 1; }
done

out=testout/windows
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skipdesk-smoke.XXXXXX")
export WINEPREFIX=$tmp/prefix WINEARCH=win64 WINEDEBUG=-all
# No Mono or Gecko install prompts; and no debugger: a program that
# crashes ends (Wine's debugger would wait for ever, and the run with it).
export WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d"
unset SKIPDESK_HOME SKIPDESK_API_KEY SKIPDESK_BASE_URL SKIPDESK_SANDBOX_CONFIG
export LANG=${LANG:-en_US.UTF-8}
started=$(date +%s)

xvfb_pid="" sandbox_pid="" app_pid=""
cleanup() {
  local code=$?
  if [ -n "$app_pid" ]; then kill "$app_pid" 2>/dev/null || true; fi
  if [ -d "$WINEPREFIX" ]; then wineserver -k 2>/dev/null || true; fi
  if [ -n "$sandbox_pid" ]; then kill "$sandbox_pid" 2>/dev/null || true; fi
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  rm -rf "$tmp"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { echo "smoke-windows: $*"; }
fail() {
  echo "smoke-windows: FAIL: $*" >&2
  for f in "$tmp"/*.log; do [ -s "$f" ] && { echo "--- $(basename "$f")" >&2; tail -n 30 "$f" >&2; }; done
  exit 1
}
# until SECONDS DESCRIPTION COMMAND...: run COMMAND every half second until it
# succeeds, or fail after SECONDS.
until_ok() {
  local limit=$1 what=$2; shift 2
  local end=$(($(date +%s) + limit))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$end" ] || fail "$what (waited ${limit} s)"
    sleep 0.5
  done
}

# 1. A display, a Wine prefix, the stand-in DLL.
Xvfb -displayfd 3 -screen 0 1280x860x24 -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.log" &
xvfb_pid=$!
until_ok 20 "Xvfb did not start" test -s "$tmp/display"
export DISPLAY=:$(head -n1 "$tmp/display")
step "Xvfb on $DISPLAY; creating a Wine prefix ($(wine --version))"
wine wineboot --init >"$tmp/wineboot.log" 2>&1 || fail "wineboot failed"
wineserver -w
system32=$WINEPREFIX/drive_c/windows/system32
[ -d "$system32" ] || fail "the Wine prefix has no system32"
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$system32/bcryptprimitives.dll" \
  packaging/windows/bcryptprimitives.c -ladvapi32 || fail "building the stand-in bcryptprimitives.dll"

users=$WINEPREFIX/drive_c/users/$(id -un)
appdata=$users/AppData/Roaming
instdir=$users/AppData/Local/Programs/SkipDesk
datadir=$appdata/SkipDesk

# 2. Silent install, per user.
step "installing $(basename "$setup") /S"
wine "$setup" /S >"$tmp/install.log" 2>&1 || fail "the installer exited with $?"
until_ok 60 "the installer did not put SkipDesk.exe in $instdir" test -f "$instdir/SkipDesk.exe"
wineserver -w
for f in SkipDesk.exe skipdesk-cli.exe LICENSE.txt THIRD_PARTY_NOTICES.txt "Uninstall SkipDesk.exe"; do
  [ -f "$instdir/$f" ] || fail "$f was not installed in $instdir"
done
[ -f "$appdata/Microsoft/Windows/Start Menu/Programs/SkipDesk.lnk" ] || fail "no Start-menu shortcut"
# Asked again for a while: a Wine server starting while the last one still
# writes the registry out can answer nothing.
entry() { wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\SkipDesk' /v DisplayVersion >"$tmp/reg.log" 2>&1; }
until_ok 30 "no uninstall entry in HKCU" entry
step "installed: $(tr -d '\r' <"$tmp/reg.log" | grep -o 'DisplayVersion.*' | tr -s ' \t' ' ')"
[ ! -e "$datadir" ] || fail "a data folder exists before the first start"

# 3. The app: a window with content, the data folder under %AppData%.
step "starting SkipDesk.exe"
wine "$instdir/SkipDesk.exe" >"$tmp/app.log" 2>&1 &
app_pid=$!
until_ok 90 "no SkipDesk window appeared" xdotool search --name '^SkipDesk'
win=$(xdotool search --name '^SkipDesk' | head -n1)
until_ok 60 "the app made no data folder in %AppData% ($datadir)" test -d "$datadir"
# The window has content once the sandbox's welcome screen is drawn: many
# colours (text, the orange SANDBOX bar, #a84e00), not one or two.
shot() { import -window "$win" "$out/app.png" && [ "$(identify -format %k "$out/app.png")" -ge 200 ]; }
until_ok 60 "the window stayed empty (see $out/app.png)" shot
sleep 3 # let the first jobs and the account load, then take the picture kept
import -window "$win" "$out/app.png"
orange=$(convert "$out/app.png" -fuzz 12% -fill black +opaque '#a84e00' -fill white -opaque '#a84e00' \
  -format '%[fx:int(mean*w*h)]' info:)
step "window $(xdotool getwindowname "$win"): $(identify -format '%wx%h, %k colours' "$out/app.png"), $orange orange pixels; screenshot $out/app.png"
step "data folder ${datadir#"$WINEPREFIX"/}: $(cd "$datadir" && ls -A | tr '\n' ' ')"
[ "$orange" -ge 2000 ] || fail "no SANDBOX bar in the window (see $out/app.png)"
kill -0 "$app_pid" 2>/dev/null || fail "SkipDesk.exe exited"

# Help > About SkipDesk (the menu bar's third entry; keys pick its one item).
xdotool mousemove --window "$win" 124 13 click 1
sleep 1
xdotool key --window "$win" Down Return 2>/dev/null
sleep 2
import -window "$win" "$out/about.png"
changed=$(compare -metric AE "$out/app.png" "$out/about.png" null: 2>&1 || true)
step "Help > About: $out/about.png ($changed pixels differ from app.png)"
[ "${changed%%.*}" -ge 10000 ] 2>/dev/null || fail "Help > About SkipDesk showed nothing (see $out/about.png)"

# 4. The Windows command line against the Linux sandbox.
bin/skipdesk-sandbox --addr 127.0.0.1:0 >"$tmp/sandbox.out" 2>"$tmp/sandbox.log" &
sandbox_pid=$!
until_ok 20 "the sandbox did not start" grep -q '^listening on ' "$tmp/sandbox.out"
export SKIPDESK_BASE_URL=$(sed -n 's/^listening on //p' "$tmp/sandbox.out" | head -n1)
export SKIPDESK_API_KEY=sk_sandbox_demo
cli() { wine "$instdir/skipdesk-cli.exe" "$@" 2>&1 | tr -d '\r'; return "${PIPESTATUS[0]}"; }

v=$(cli version) || fail "skipdesk-cli.exe version: $v"
step "$(echo "$v" | head -n1)"
echo "$v" | grep -Eq '^data folder: C:\\users\\[^\\]+\\AppData\\Roaming\\SkipDesk$' \
  || fail "the data folder is not %AppData%\\SkipDesk: $v"
a=$(cli account) || fail "skipdesk-cli.exe account: $a"
echo "$a" | grep -q 'demo@example.com' || fail "account: $a"
p=$(cli pricing) || fail "skipdesk-cli.exe pricing: $p"
echo "$p" | grep -qi 'normal' || fail "pricing: $p"
step "account and pricing answered from $SKIPDESK_BASE_URL"

# The owner list from a Windows folder, by its Windows path. The mapping is
# the one `bin/skipdesk-cli validate assets/sample-owners.csv` finds.
cp assets/sample-owners.csv "$users/Documents/sample-owners.csv"
t=$(cli traces submit --file 'C:\users\'"$(id -un)"'\Documents\sample-owners.csv' \
  --map first_name="Owner First Name" --map last_name="Owner Last Name" \
  --map property_street="Property Address" --map property_city="Property City" \
  --map property_state="Property State" --map property_zip="Property Zip" \
  --map mailing_street="Mailing Address" --map mailing_city="Mailing City" \
  --map mailing_state="Mailing State" --map mailing_zip="Mailing Zip" --wait) \
  || fail "skipdesk-cli.exe traces submit --wait: $t"
echo "$t" >"$out/trace.txt"
result=$(find "$datadir/results" -name 'sample-owners *.csv' | head -n1)
[ -n "$result" ] || fail "no result in $datadir/results after the trace:\n$t"
rows=$(($(wc -l <"$result") - 1))
[ "$rows" -ge 190 ] || fail "the result $(basename "$result") has $rows rows"
step "trace done: $(basename "$result"), $rows rows ($(echo "$t" | tail -n1))"

# 5. Close the app, uninstall silently: the program goes, the data stays.
kill -0 "$app_pid" 2>/dev/null || fail "SkipDesk.exe ended before it was closed: $(grep -m1 . "$tmp/app.log")"
closing=$(date +%s%N)
wine taskkill /im SkipDesk.exe >/dev/null 2>&1 || true
for _ in $(seq 1 40); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.25; done
closed="ended $(( ($(date +%s%N) - closing) / 1000000 )) ms after taskkill was run (Wine's start of it included)"
if kill -0 "$app_pid" 2>/dev/null; then
  closed="still running after $(( ($(date +%s%N) - closing) / 1000000 )) ms: ended by force"
  wine taskkill /f /im SkipDesk.exe >/dev/null 2>&1 || true
fi
wait "$app_pid" 2>/dev/null || true
app_pid=""
cp "$tmp/app.log" "$out/app.log"
if grep -q "Unhandled" "$tmp/app.log"; then
  fail "SkipDesk.exe crashed ($closed): $(grep -m1 Unhandled "$tmp/app.log")"
fi
step "SkipDesk.exe $closed; its output: $out/app.log"
wine "$instdir/Uninstall SkipDesk.exe" /S >"$tmp/uninstall.log" 2>&1 || fail "the uninstaller exited with $?"
until_ok 60 "the uninstaller left SkipDesk.exe in place" test ! -e "$instdir/SkipDesk.exe"
wineserver -w
[ ! -e "$appdata/Microsoft/Windows/Start Menu/Programs/SkipDesk.lnk" ] || fail "the uninstaller left the Start-menu shortcut"
[ -f "$result" ] || fail "the uninstaller removed the data folder"
step "uninstalled; the data folder and the result are still there"

step "passed in $(($(date +%s) - started)) s"
