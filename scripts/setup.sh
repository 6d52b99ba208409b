#!/usr/bin/env bash
# Installs what building comP needs on a fresh Debian 12 machine, idempotently:
# Debian packages (only those missing), the pinned tree-sitter sources and the
# pinned o200k_base tokenizer data and oracles, and the MCP SDK of the end-to-end
# tests (npm ci).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

# A clone's setup, both builds and their tests take about 4 GiB (code-server and
# Node 24 for the end-to-end test are most of it). A full disk otherwise shows up
# late, as npm's or the linker's ENOSPC: say so first.
free_kib=$(df -Pk "$here" | awk 'NR==2 {print $4}')
if [ -n "$free_kib" ] && [ "$free_kib" -lt $((5 * 1024 * 1024)) ]; then
  echo "setup: warning: only $((free_kib / 1024)) MiB free on $(df -P "$here" | awk 'NR==2 {print $6}');" \
       "setup, both builds and their tests need about 4 GiB" >&2
fi

pkgs=(build-essential cmake ninja-build git pkg-config
      libsqlite3-dev sqlite3 libssl-dev nlohmann-json3-dev libcli11-dev
      libgtest-dev libgmock-dev libbenchmark-dev libpcre2-dev
      libzip-dev zipcmp zipmerge ziptool libpugixml-dev thrift-compiler libthrift-dev libboost-dev poppler-utils
      nodejs npm universal-ctags)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node and npm may come from elsewhere than Debian (as on these machines).
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -r -a missing <<<"${missing[*]:-}"
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages: reinstall a folder only when its lock file changed since last time.
npm_ci() {  # npm_ci DIR WHAT
  cd "$here/$1"
  local stamp=node_modules/.comp-lock-stamp
  if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
    echo "setup: npm ci ($2)" >&2
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json "$stamp"
  fi
}
npm_ci third_party/grammars "tree-sitter core and grammars"
npm_ci third_party/tokenizer "o200k_base ranks and tokenizer oracles"
npm_ci daemon/tests/mcp "MCP SDK for the end-to-end tests"
npm_ci extension "VS Code extension"

# The VS Code end-to-end test (extension/e2e, CTest extension_e2e): Debian's
# chromium, and what code-server's native modules build with (node-gyp:
# python3 and these headers); then code-server, Node 24 and playwright-core
# (extension/e2e/install.sh: two steps, as code-server's postinstall must run
# under Node 24; reinstalls only when extension/e2e/package-lock.json changed).
e2e_pkgs=(chromium python3 libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev)
e2e_missing=()
for p in "${e2e_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || e2e_missing+=("$p")
done
if ((${#e2e_missing[@]})); then
  echo "setup: installing ${e2e_missing[*]} (VS Code end-to-end test)" >&2
  e2e_sudo=(); [ "$(id -u)" = 0 ] || e2e_sudo=(sudo)
  "${e2e_sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${e2e_sudo[@]}" apt-get install -y -qq --no-install-recommends "${e2e_missing[@]}"
fi
bash "$here/extension/e2e/install.sh"
