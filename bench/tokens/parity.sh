#!/usr/bin/env bash
# Token-count parity of comp::tokens::count with OpenAI's tiktoken (WASM) and
# gpt-tokenizer over every text file of a real tree (no NUL byte in the first
# 8 KiB, at most 4 MiB, .git skipped), plus the throughput of all three.
#
#   bench/tokens/parity.sh TREE [BUILD_DIR]     (BUILD_DIR default: build)
#   e.g. bench/tokens/parity.sh /work/bench-data-local/sympy
#
# Runs the Parity.Tree test of tokens_test (daemon/src/tokens/tokens_test.cc),
# which prints files compared, bytes, mismatches and MB/s; exits non-zero on a
# mismatch. gpt-tokenizer is known to be wrong on text holding U+FEFF (a BOM)
# or U+0085: such files are counted apart, not as mismatches. Needs node and
# `npm ci` in third_party/tokenizer (scripts/setup.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 TREE [BUILD_DIR]" >&2
  exit 2
fi
tree=$(cd "$1" && pwd)
build=${2:-$here/build}
test_bin=$build/daemon/tokens_test
if [ ! -x "$test_bin" ]; then
  echo "parity.sh: $test_bin missing: build it first (ninja -C $build tokens_test)" >&2
  exit 2
fi
COMP_TOKENS_PARITY_TREE=$tree "$test_bin" --gtest_filter=Parity.Tree --gtest_brief=1
