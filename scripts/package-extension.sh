#!/usr/bin/env bash
# Packages the VS Code extension (extension/) as a .vsix with the Linux comp
# binary inside it (bin/linux-x64/comp, which the extension runs when
# comp.binaryPath is empty: src/daemon/binaryLocator.ts).
#
#   scripts/package-extension.sh [OUT.vsix]      (default: extension/comp.vsix)
#   cd extension && npm run package              (the same)
#
# The binary is $COMP_BINARY, else build/comp. Its debug info is stripped in
# the copy (a RelWithDebInfo build is ~5x larger than its code) unless
# COMP_KEEP_DEBUG=1. The copied binary and the .vsix are git-ignored
# (extension/.gitignore: bin/*/, *.vsix). Needs `npm ci` in extension/
# (@vscode/vsce is a devDependency); vsce runs `vscode:prepublish` (tsc).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
ext="$here/extension"
out="${1:-$ext/comp.vsix}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

binary="${COMP_BINARY:-$here/build/comp}"
if [ ! -x "$binary" ]; then
  echo "package-extension: no comp binary at $binary (build it, or set COMP_BINARY)" >&2
  exit 1
fi
if ! "$binary" --version >/dev/null 2>&1; then
  echo "package-extension: $binary --version fails" >&2
  exit 1
fi
if [ ! -x "$ext/node_modules/.bin/vsce" ]; then
  echo "package-extension: $ext/node_modules/.bin/vsce is missing: run npm ci in extension/" >&2
  exit 1
fi

platform="linux-x64"
dest="$ext/bin/$platform/comp"
mkdir -p "$(dirname "$dest")"
tmp="$dest.tmp.$$"
trap 'rm -f "$tmp"' EXIT
if [ "${COMP_KEEP_DEBUG:-0}" != 1 ] && command -v strip >/dev/null; then
  strip --strip-debug -o "$tmp" "$binary"
else
  cp "$binary" "$tmp"
fi
chmod 755 "$tmp"
mv -f "$tmp" "$dest"
echo "package-extension: $binary -> bin/$platform/comp ($(stat -c %s "$dest") bytes)" >&2

cd "$ext"
mkdir -p "$(dirname "$out")"
./node_modules/.bin/vsce package --allow-missing-repository -o "$out"
echo "package-extension: $out ($(stat -c %s "$out") bytes)" >&2
