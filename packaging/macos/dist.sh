#!/usr/bin/env bash
# Builds SkipDesk for macOS, on a Mac: SkipDesk.app (with skipdesk-cli inside,
# LICENSE.txt and THIRD_PARTY_NOTICES.txt in Contents/Resources), signed with a
# Developer ID and the hardened runtime, notarised by Apple and stapled, in
#   dist/SkipDesk-<version>-macos-<arch>.dmg
# `make dist-macos` runs it with VERSION, BUILD and COMMIT set. It needs macOS
# with Xcode's command line tools (codesign, xcrun notarytool and stapler,
# hdiutil), Go, and in the environment:
#   SKIPDESK_MACOS_IDENTITY   the signing identity in the login keychain,
#                             "Developer ID Application: NAME (TEAMID)"
#   SKIPDESK_NOTARY_PROFILE   a notarytool keychain profile, made once with
#                             xcrun notarytool store-credentials PROFILE \
#                               --apple-id ID --team-id TEAMID --password APP-SPECIFIC-PASSWORD
#   ARCH                      arm64 (Apple silicon, the default on one) or amd64
# Without SKIPDESK_MACOS_IDENTITY the app is signed ad hoc and not notarised:
# it runs on the Mac that built it, and Gatekeeper refuses it elsewhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
[ "$(uname -s)" = Darwin ] || { echo "packaging/macos/dist.sh must run on a Mac" >&2; exit 1; }
: "${VERSION:?set VERSION to the Version of FyneApp.toml}"
BUILD=${BUILD:-1}
COMMIT=${COMMIT:-}
GO=${GO:-go}
FYNE=${FYNE:-$($GO env GOPATH)/bin/fyne}
ARCH=${ARCH:-$($GO env GOARCH)}
identity=${SKIPDESK_MACOS_IDENTITY:-}
profile=${SKIPDESK_NOTARY_PROFILE:-}
for tool in codesign xcrun hdiutil ditto "$FYNE"; do
  command -v "$tool" >/dev/null || { echo "dist.sh: $tool is missing (install Xcode's command line tools: xcode-select --install)" >&2; exit 1; }
done

work=$root/_build/macos
app=$work/SkipDesk.app
dmg=dist/SkipDesk-$VERSION-macos-$ARCH.dmg
rm -rf "$work"
mkdir -p "$work/dmg" dist
pkg=github.com/skipdesk/skipdesk/assets
xflags="-X $pkg.Build=$BUILD${COMMIT:+ -X $pkg.Commit=$COMMIT}"
export GOOS=darwin GOARCH=$ARCH
export CGO_CFLAGS="-mmacosx-version-min=11.0" CGO_LDFLAGS="-mmacosx-version-min=11.0"

# 1. The app, bundled by Fyne's packager from the root FyneApp.toml (name, app
#    id, icon), which it must not change.
CGO_ENABLED=1 $GO build -tags migrated_fynedo -trimpath -ldflags "-s -w $xflags" -o "$work/skipdesk" ./cmd/skipdesk
cp FyneApp.toml "$work/FyneApp.toml.keep"
s=0
"$FYNE" package -os darwin --release --src . --exe "$work/skipdesk" --name SkipDesk \
  --appID com.skipdesk.app --appVersion "$VERSION" --appBuild "$BUILD" || s=$?
cp "$work/FyneApp.toml.keep" FyneApp.toml
[ "$s" = 0 ] || exit "$s"
mv SkipDesk.app "$app"

# 2. The command line inside the bundle; the licence and the notices.
CGO_ENABLED=0 $GO build -trimpath -ldflags "-s -w $xflags" -o "$app/Contents/MacOS/skipdesk-cli" ./cmd/skipdesk-cli
cp LICENSE "$app/Contents/Resources/LICENSE.txt"
CGO_ENABLED=1 packaging/notices.sh --tags migrated_fynedo,release ./cmd/skipdesk ./cmd/skipdesk-cli \
  >"$app/Contents/Resources/THIRD_PARTY_NOTICES.txt"

# 3. Sign, inside out, with the hardened runtime and a secure timestamp.
if [ -n "$identity" ]; then
  sign=(codesign --force --timestamp --options runtime --sign "$identity")
else
  echo "dist.sh: no SKIPDESK_MACOS_IDENTITY: signing ad hoc, not notarising" >&2
  sign=(codesign --force --sign -)
fi
"${sign[@]}" "$app/Contents/MacOS/skipdesk-cli"
"${sign[@]}" "$app"
codesign --verify --deep --strict --verbose=2 "$app"

# 4. Notarise the app and staple the ticket to it, so that it opens offline.
if [ -n "$identity" ]; then
  [ -n "$profile" ] || { echo "dist.sh: set SKIPDESK_NOTARY_PROFILE (see the top of this file)" >&2; exit 1; }
  ditto -c -k --keepParent "$app" "$work/SkipDesk.zip"
  xcrun notarytool submit "$work/SkipDesk.zip" --keychain-profile "$profile" --wait
  xcrun stapler staple "$app"
  spctl --assess --type execute --verbose=2 "$app"
fi

# 5. The disk image: the app and a link to /Applications to drag it onto;
#    signed, notarised and stapled too.
cp -R "$app" "$work/dmg/"
ln -s /Applications "$work/dmg/Applications"
rm -f "$dmg"
hdiutil create -volname "SkipDesk $VERSION" -srcfolder "$work/dmg" -ov -format UDZO "$dmg"
if [ -n "$identity" ]; then
  codesign --force --timestamp --sign "$identity" "$dmg"
  xcrun notarytool submit "$dmg" --keychain-profile "$profile" --wait
  xcrun stapler staple "$dmg"
fi
ls -l "$dmg"
