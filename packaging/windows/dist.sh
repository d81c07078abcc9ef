#!/usr/bin/env bash
# Builds SkipDesk for Windows on Linux and packages it: the app (with icon,
# version information and app id, stripped, as a GUI program) and
# skipdesk-cli.exe, both signed, in
#   dist/SkipDesk-<version>-windows-amd64-setup.exe   (NSIS, per-user installer)
#   dist/SkipDesk-<version>-windows-amd64.zip         (portable)
# `make dist` runs it with VERSION (FyneApp.toml's), BUILD (a number) and
# COMMIT set; signing is packaging/windows/sign.sh's (see there for the
# certificate variables).
#
# The app is built by Fyne's packager, which writes its resource file (.syso)
# and metadata beside the main package: it runs on a copy of cmd/skipdesk in
# _build/windows/src (a folder `go ./...` skips), so neither the work tree nor
# the committed FyneApp.toml changes.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
: "${VERSION:?set VERSION to the Version of FyneApp.toml}"
BUILD=${BUILD:-1}
COMMIT=${COMMIT:-}
GO=${GO:-go}
FYNE=${FYNE:-$($GO env GOPATH)/bin/fyne}
case "$BUILD" in ''|*[!0-9]*) echo "dist.sh: BUILD must be a number (Windows version resources), not '$BUILD'" >&2; exit 2 ;; esac

for tool in x86_64-w64-mingw32-gcc makensis osslsigncode zip convert "$FYNE"; do
  command -v "$tool" >/dev/null || { echo "dist.sh: $tool is missing (make dist installs the packages it needs)" >&2; exit 1; }
done

work=$root/_build/windows
src=$work/src
stage=$work/SkipDesk-$VERSION
name=SkipDesk-$VERSION-windows-amd64
rm -rf "$work"
mkdir -p "$src" "$stage" dist
trap 'rm -rf "$src"' EXIT

export GOOS=windows GOARCH=amd64
export CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++
pkg=github.com/skipdesk/skipdesk/assets
xflags="-X=$pkg.Build=$BUILD${COMMIT:+ -X=$pkg.Commit=$COMMIT}"

# The app. The copy of FyneApp.toml names the icon by its absolute path; the
# stale SkipDesk.exe makes `fyne package` skip its first build, a plain one it
# would redo at once with the resources.
t0=$(date +%s)
for f in cmd/skipdesk/*.go; do # the app's files; its build tags pick the release's
  case $f in *_test.go) ;; *) cp "$f" "$src/" ;; esac
done
sed "s|^\( *Icon *= *\)\"\(.*\)\"|\1\"$root/\2\"|" FyneApp.toml >"$src/FyneApp.toml"
touch "$src/SkipDesk.exe"
(
  cd "$src"
  # Fyne's packager passes -ldflags from GOFLAGS on to go build.
  GOFLAGS="$(for f in $xflags; do printf -- '-ldflags=%s ' "$f"; done)" \
    "$FYNE" package -os windows --release --exe SkipDesk.exe --name SkipDesk \
      --appID com.skipdesk.app --appVersion "$VERSION" --appBuild "$BUILD" --tags migrated_fynedo
)
mv "$src/SkipDesk.exe" "$stage/SkipDesk.exe"
t1=$(date +%s)

CGO_ENABLED=0 $GO build -trimpath -ldflags "-s -w $xflags" -o "$stage/skipdesk-cli.exe" ./cmd/skipdesk-cli
t2=$(date +%s)
echo "built SkipDesk.exe in $((t1 - t0)) s, skipdesk-cli.exe in $((t2 - t1)) s"

# Text files with Windows line ends, so that Notepad shows them as meant.
crlf() { sed 's/\r*$/\r/' "$1" >"$2"; }
crlf LICENSE "$stage/LICENSE.txt"
CGO_ENABLED=1 packaging/notices.sh --tags migrated_fynedo,release \
  --extra "mingw-w64 runtime (linked into SkipDesk.exe)=/usr/share/doc/mingw-w64-x86-64-dev/copyright" \
  ./cmd/skipdesk ./cmd/skipdesk-cli >"$work/notices.txt"
crlf "$work/notices.txt" "$stage/THIRD_PARTY_NOTICES.txt"
convert assets/icon.png -define icon:auto-resize=256,64,48,32,16 "$work/SkipDesk.ico"

packaging/windows/sign.sh "$stage/SkipDesk.exe" "$stage/skipdesk-cli.exe"

# The portable zip: one folder, the same files as the installer.
rm -f "dist/$name.zip"
(cd "$work" && zip -q -X -r "$root/dist/$name.zip" "SkipDesk-$VERSION")

# The installer; its uninstaller is signed as makensis writes it.
cp "$work/SkipDesk.ico" "$stage/SkipDesk.ico"
makensis -V2 -DVERSION="$VERSION" -DVERSION4="$VERSION.$BUILD" -DSTAGE="$stage" \
  -DOUTFILE="$root/dist/$name-setup.exe" -DSIGN="$root/packaging/windows/sign.sh" \
  packaging/windows/installer.nsi
rm "$stage/SkipDesk.ico"
packaging/windows/sign.sh "dist/$name-setup.exe"

packaging/windows/sign.sh --verify "$stage/SkipDesk.exe" "$stage/skipdesk-cli.exe" "dist/$name-setup.exe"
ls -l "dist/$name-setup.exe" "dist/$name.zip"
