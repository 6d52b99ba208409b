#!/usr/bin/env bash
# Call-edge precision and recall of comP against a compiler oracle, for one tree.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd -- "$here/../.." && pwd)

usage() {
	cat <<'EOF'
usage: bench/oracle/run.sh ts|py TREE COMP_BINARY [compare.py options]

  1. comp index --root TREE                      (writes TREE/.comp/graph.db)
  2. comp edges --root TREE --kind call --json   -> $OUT/<name>.comp_edges.json
  3. the oracle, unless its cached output is current:
       ts: node ts_calls.mjs TREE ...   (TypeScript language service)
       py: python3 py_calls.py TREE ... (pyright-langserver over LSP)
     -> $CACHE/<name>.<ts|py>.oracle.jsonl (+ .log with its timing, + .key)
  4. compare.py --oracle ... --comp ...  -> Markdown on stdout,
     JSON in $OUT/<name>.<ts|py>.compare.json

Environment:
  COMP_ORACLE_CACHE  oracle cache folder (default /work/bench-data-local/oracle)
  COMP_ORACLE_OUT    comP edges and comparison JSON (default bench/out/oracle)
  COMP_ORACLE_FORCE  1: run the oracle even if its cache is current
  COMP_ORACLE_ARGS   extra oracle arguments (e.g. --workspace-paths for ts)
  COMP_SKIP_INDEX    1: do not run `comp index` (the index is already current)
  COMP_INDEX_REBUILD 1: `comp index --rebuild` (after a change to comP's
                     extraction: an incremental run re-parses changed files only)
  COMP_ORACLE_ONLY   1: only bring the oracle's cache up to date (COMP unused)

The cache is current when its .key matches: the oracle script's SHA-256,
the typescript/pyright versions, COMP_ORACLE_ARGS and a fingerprint of the
tree's source files (path, size, mtime). The oracle runs under `nice`.
The npm packages are installed on first use (`npm install` in bench/oracle,
from the committed package-lock.json).
EOF
}

die() { printf 'run.sh: %s\n' "$*" >&2; exit 1; }

[[ $# -ge 3 ]] || { usage >&2; exit 2; }
lang=$1 tree=$2 comp=$3
shift 3
case $lang in
ts) exts=(-name '*.ts' -o -name '*.tsx' -o -name '*.mts' -o -name '*.cts'); script=ts_calls.mjs ;;
py) exts=(-name '*.py'); script=py_calls.py ;;
*) usage >&2; exit 2 ;;
esac
[[ -d $tree ]] || die "no tree at $tree"
oracle_only=${COMP_ORACLE_ONLY:-0}
if [[ $oracle_only != 1 ]]; then
	[[ -x $comp ]] || die "no comp binary at $comp"
	comp=$(cd -- "$(dirname -- "$comp")" && pwd -P)/$(basename -- "$comp")
fi
tree=$(cd -- "$tree" && pwd -P)
name=$(basename -- "$tree")
cache=${COMP_ORACLE_CACHE:-/work/bench-data-local/oracle}
out=${COMP_ORACLE_OUT:-$repo/bench/out/oracle}
mkdir -p -- "$cache" "$out"

if [[ ! -x $here/node_modules/.bin/tsc || ! -x $here/node_modules/.bin/pyright-langserver ]]; then
	echo "run.sh: installing the oracles (npm install in $here)" >&2
	(cd -- "$here" && npm install --no-audit --no-fund) >&2
fi

# ---- 1-2: comP --------------------------------------------------------------
edges=$out/$name.comp_edges.json
if [[ $oracle_only == 1 ]]; then
	:
elif [[ ${COMP_SKIP_INDEX:-0} != 1 ]]; then
	index_args=(index --root "$tree")
	[[ ${COMP_INDEX_REBUILD:-0} == 1 ]] && index_args+=(--rebuild)
	echo "run.sh: comp ${index_args[*]}" >&2
	/usr/bin/time -f 'run.sh: comp index: %e s wall, %M KB max RSS' "$comp" "${index_args[@]}" >&2
fi
if [[ $oracle_only != 1 ]]; then
	echo "run.sh: comp edges --root $tree --kind call --json" >&2
	/usr/bin/time -f 'run.sh: comp edges: %e s wall, %M KB max RSS' \
		"$comp" edges --root "$tree" --kind call --json >"$edges.partial"
	mv -- "$edges.partial" "$edges"
fi

# ---- 3: the oracle, cached ---------------------------------------------------------
oracle=$cache/$name.$lang.oracle.jsonl
versions=$(cd -- "$here" && node -e 'for (const p of ["typescript", "pyright"]) console.log(p, require(p + "/package.json").version)')
fingerprint=$(find "$tree" \( -name node_modules -o -name .git -o -name .comp -o -name .codegraph \) -prune \
	-o -type f \( "${exts[@]}" \) -printf '%P %s %T@\n' | LC_ALL=C sort | sha256sum | cut -d' ' -f1)
key=$(printf '%s\n' "$(sha256sum <"$here/$script" | cut -d' ' -f1)" "$versions" \
	"args: ${COMP_ORACLE_ARGS:-}" "tree: $fingerprint")
if [[ ${COMP_ORACLE_FORCE:-0} != 1 && -s $oracle && -f $oracle.key && $(cat -- "$oracle.key") == "$key" ]]; then
	echo "run.sh: oracle cached: $oracle" >&2
else
	echo "run.sh: running the $lang oracle on $tree (log: $oracle.log)" >&2
	read -r -a extra <<<"${COMP_ORACLE_ARGS:-}"  # a list of words
	if [[ $lang == ts ]]; then
		cmd=(node "$here/ts_calls.mjs" "${extra[@]}" "$tree" "$oracle")
	else
		cmd=(python3 "$here/py_calls.py" "${extra[@]}" "$tree" "$oracle")
	fi
	rm -f -- "$oracle.key"
	if ! /usr/bin/time -f 'run.sh: oracle: %e s wall, %U s user, %M KB max RSS' nice -n 10 "${cmd[@]}" 2>"$oracle.log"; then
		tail -n 20 -- "$oracle.log" >&2
		die "the oracle failed (see $oracle.log)"
	fi
	printf '%s\n' "$key" >"$oracle.key"
	grep -E 'done|oracle:' -- "$oracle.log" >&2 || true
fi

# ---- 4: compare -----------------------------------------------------------------
[[ $oracle_only == 1 ]] && exit 0
python3 "$here/compare.py" --oracle "$oracle" --comp "$edges" --json "$@" >"$out/$name.$lang.compare.json"
echo "## $name ($lang): comP call edges vs the oracle"
echo
python3 "$here/compare.py" --oracle "$oracle" --comp "$edges" "$@"
