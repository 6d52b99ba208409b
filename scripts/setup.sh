#!/usr/bin/env bash
# Installs what building comP needs on a fresh Debian 12 machine, idempotently:
# Debian packages (only those missing), the pinned tree-sitter sources and the
# pinned o200k_base tokenizer data and oracles, and the MCP SDK of the end-to-end
# tests (npm ci).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

pkgs=(build-essential cmake ninja-build git pkg-config
      libsqlite3-dev sqlite3 libssl-dev nlohmann-json3-dev libcli11-dev
      libgtest-dev libgmock-dev libbenchmark-dev libpcre2-dev
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
