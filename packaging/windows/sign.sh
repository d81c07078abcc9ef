#!/usr/bin/env bash
# Signs Windows programs (Authenticode, SHA-256) in place with osslsigncode,
# or checks their signatures:
#   packaging/windows/sign.sh FILE.exe...
#   packaging/windows/sign.sh --verify FILE.exe...
#
# The certificate comes from the environment:
#   SKIPDESK_SIGN_PFX            a PKCS#12 file (.pfx/.p12) with the code-signing
#                                certificate, its chain and its private key
#   SKIPDESK_SIGN_PASSWORD_FILE  a file holding the .pfx password (preferred), or
#   SKIPDESK_SIGN_PASSWORD       the password itself
#   SKIPDESK_SIGN_TIMESTAMP_URL  an RFC 3161 time-stamping server, so that the
#                                signature outlives the certificate (use one
#                                with a real certificate)
# Without SKIPDESK_SIGN_PFX (CI, a developer's machine) a throwaway self-signed
# certificate is made on the spot in _build/windows/sign: the files are
# signed, but Windows does not trust that signature (SmartScreen warns).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
testdir=$root/_build/windows/sign

verify=false
if [ "${1:-}" = --verify ]; then verify=true; shift; fi
[ $# -gt 0 ] || { echo "usage: $0 [--verify] FILE..." >&2; exit 2; }

if $verify; then
  ca=()
  # The throwaway certificate is its own root; a real one chains to the
  # system's roots.
  if [ -z "${SKIPDESK_SIGN_PFX:-}" ] && [ -f "$testdir/cert.pem" ]; then ca=(-CAfile "$testdir/cert.pem"); fi
  for f in "$@"; do
    echo "== osslsigncode verify $(basename "$f")"
    osslsigncode verify ${ca[@]+"${ca[@]}"} -in "$f"
  done
  exit 0
fi

args=(-h sha256 -n "SkipDesk")
if [ -n "${SKIPDESK_SIGN_PFX:-}" ]; then
  [ -f "$SKIPDESK_SIGN_PFX" ] || { echo "sign.sh: SKIPDESK_SIGN_PFX=$SKIPDESK_SIGN_PFX is not a file" >&2; exit 1; }
  args+=(-pkcs12 "$SKIPDESK_SIGN_PFX")
  if [ -n "${SKIPDESK_SIGN_PASSWORD_FILE:-}" ]; then
    args+=(-readpass "$SKIPDESK_SIGN_PASSWORD_FILE")
  elif [ -n "${SKIPDESK_SIGN_PASSWORD:-}" ]; then
    passfile=$(mktemp)
    trap 'rm -f "$passfile"' EXIT
    printf '%s' "$SKIPDESK_SIGN_PASSWORD" >"$passfile"
    args+=(-readpass "$passfile")
  fi
else
  if [ ! -f "$testdir/cert.pem" ]; then
    mkdir -p "$testdir"
    openssl req -x509 -newkey rsa:3072 -sha256 -days 30 -nodes \
      -subj "/CN=SkipDesk test signature (self-signed, not trusted)/O=SkipDesk" \
      -addext "keyUsage=critical,digitalSignature" -addext "extendedKeyUsage=codeSigning" \
      -keyout "$testdir/key.pem" -out "$testdir/cert.pem" 2>/dev/null
    echo "sign.sh: no SKIPDESK_SIGN_PFX: signing with a throwaway self-signed certificate ($testdir/cert.pem)"
  fi
  args+=(-certs "$testdir/cert.pem" -key "$testdir/key.pem")
fi
if [ -n "${SKIPDESK_SIGN_TIMESTAMP_URL:-}" ]; then args+=(-ts "$SKIPDESK_SIGN_TIMESTAMP_URL"); fi

for f in "$@"; do
  tmp="$f.signing"
  rm -f "$tmp"
  osslsigncode sign "${args[@]}" -in "$f" -out "$tmp" >/dev/null
  mv -f "$tmp" "$f"
  echo "signed $(basename "$f")"
done
