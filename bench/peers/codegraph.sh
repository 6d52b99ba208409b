#!/usr/bin/env bash
# Measure the peer tool @optave/codegraph (pinned in bench/peers/package.json)
# on one source tree. Prints one JSON line per measurement on stdout:
#   {"tool":"codegraph","repo":..,"phase":"cold|rerun|touch","wall_s":..,
#    "cpu_s":..,"max_rss_kb":..,"db_bytes":.., ...extra fields}
# Progress and codegraph's own log go to stderr.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)

usage() {
	cat <<'EOF'
usage: bench/peers/codegraph.sh TREE [LANGUAGE]

Copies TREE to a fresh temporary folder (so codegraph's .codegraph/graph.db
never lands in TREE and the first build is really without a DB), then runs
`codegraph build` three times under /usr/bin/time -v:
  cold   first build, no .codegraph/ present
  rerun  build again on the unchanged copy (incremental, the default)
  touch  append a comment line to one source file, build, restore the file

LANGUAGE (python, typescript, rust, javascript, go, java, c, cpp) picks the
file to touch; by default it is read from bench/repos.tsv (row whose name is
the basename of TREE). The touched file is the median-sized file of that
language; override with COMP_TOUCH_FILE=<path relative to TREE>.

Needs `npm ci` in bench/peers first (installs the pinned codegraph) and GNU
time (`apt-get install time`). Nothing is downloaded by this script; the
update check and the global repo registry of codegraph are disabled/redirected.
The temporary copy is removed at exit (keep it with COMP_KEEP_TMP=1).
EOF
}

die() { printf 'codegraph.sh: %s\n' "$*" >&2; exit 1; }

(($# >= 1 && $# <= 2)) || { usage >&2; exit 2; }
[[ $1 == -h || $1 == --help ]] && { usage; exit 0; }
[[ -d $1 ]] || die "not a folder: $1"
tree=$(cd -- "$1" && pwd)
repo=$(basename -- "$tree")
lang=${2:-}

cli="$here/node_modules/@optave/codegraph/dist/cli.js"
[[ -f $cli ]] || die "codegraph not installed: run (cd $here && npm ci)"
version=$(node -p 'require(process.argv[1]).version' "$here/node_modules/@optave/codegraph/package.json")
timebin=/usr/bin/time
[[ -x $timebin ]] || die "GNU time missing: apt-get install time"

if [[ -z $lang && -f $here/../repos.tsv ]]; then
	lang=$(awk -F'\t' -v n="$repo" '$1 == n { print $4; exit }' "$here/../repos.tsv")
fi
case ${lang:-} in
python) exts=(py) comment='#' ;;
typescript) exts=(ts tsx) comment='//' ;;
javascript) exts=(js jsx mjs cjs) comment='//' ;;
rust) exts=(rs) comment='//' ;;
go) exts=(go) comment='//' ;;
java) exts=(java) comment='//' ;;
c) exts=(c h) comment='//' ;;
cpp | c++) exts=(cc cpp cxx hh hpp hxx h) comment='//' ;;
'') die "language unknown for $repo: pass it as 2nd argument" ;;
*) die "unsupported language: $lang" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/comp-codegraph.XXXXXX")
cleanup() {
	if [[ ${COMP_KEEP_TMP:-0} == 1 ]]; then printf 'kept %s\n' "$work" >&2; else rm -rf -- "$work"; fi
}
trap cleanup EXIT
src="$work/$repo"
mkdir -- "$src"
cp -a -- "$tree/." "$src/"
rm -rf -- "$src/.codegraph"

# Keep codegraph away from $HOME and the network.
export NO_UPDATE_CHECK=1 CI=1
export CODEGRAPH_REGISTRY_PATH="$work/registry.json"
export CODEGRAPH_UPDATE_CACHE_PATH="$work/update-check.json"

# File to touch: median size among the language's files (ties by path).
if [[ -n ${COMP_TOUCH_FILE:-} ]]; then
	touch_rel=$COMP_TOUCH_FILE
else
	name_args=()
	for e in "${exts[@]}"; do name_args+=(-o -name "*.$e"); done
	mapfile -d '' -t cands < <(cd -- "$src" && find . -path ./.codegraph -prune -o -type f \( "${name_args[@]:1}" \) -printf '%s\t%P\0' | sort -z -t $'\t' -k1,1n -k2)
	((${#cands[@]})) || die "no .${exts[0]} file in $tree"
	touch_rel=${cands[${#cands[@]} / 2]#*$'\t'}
fi
[[ -f $src/$touch_rel ]] || die "touch file not found: $touch_rel"

json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }

db="$src/.codegraph/graph.db"
run_phase() {
	local phase=$1 rc=0 log="$work/$1.log" tv="$work/$1.time" load
	load=$(cut -d' ' -f1 /proc/loadavg) # 1-min load before the run, to judge noisy numbers
	printf '[codegraph %s] %s: building %s\n' "$repo" "$phase" "$src" >&2
	"$timebin" -v -o "$tv" node "$cli" build "$src" >"$log" 2>&1 || rc=$?
	sed 's/^/  | /' "$log" | tail -n 8 >&2
	local wall user sys rss
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, a, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + a[i]; printf "%.2f", s }' "$tv")
	user=$(awk -F': ' '/User time \(seconds\)/ { print $2 }' "$tv")
	sys=$(awk -F': ' '/System time \(seconds\)/ { print $2 }' "$tv")
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tv")
	local db_bytes=0 dir_bytes=0 f
	for f in "$db" "$db-wal"; do [[ -f $f ]] && db_bytes=$((db_bytes + $(stat -c %s -- "$f"))); done
	[[ -d $src/.codegraph ]] && dir_bytes=$(du -sb -- "$src/.codegraph" | cut -f1)
	local engine nodes edges files
	engine=$(sed -n 's/.*Using \([a-z]*\) engine.*/\1/p' "$log" | head -n1)
	read -r nodes edges files < <(sed -n 's/.*completed: \([0-9]*\) nodes, \([0-9]*\) edges, \([0-9]*\) files.*/\1 \2 \3/p' "$log" | tail -n1; echo) || true
	# files codegraph re-parsed: all on a full build, N on "Incremental: N changed", 0 on "No changes"
	local changed found
	found=$(sed -n 's/.*Found \([0-9]*\) files to parse.*/\1/p' "$log" | tail -n1)
	changed=$(sed -n 's/.*Incremental: \([0-9]*\) changed.*/\1/p' "$log" | tail -n1)
	[[ -z $changed ]] && grep -q 'No changes detected' "$log" && changed=0
	[[ -z $changed ]] && changed=${files:-null}
	printf '{"tool":"codegraph","version":%s,"repo":%s,"phase":"%s","wall_s":%s,"cpu_s":%s,"user_s":%s,"sys_s":%s,"max_rss_kb":%s,"db_bytes":%s,"codegraph_dir_bytes":%s,"engine":%s,"nodes":%s,"edges":%s,"found":%s,"files":%s,"reparsed":%s,"exit":%d,"loadavg_1m":%s%s}\n' \
		"$(json_str "$version")" "$(json_str "$repo")" "$phase" "$wall" \
		"$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" "$user" "$sys" "$rss" \
		"$db_bytes" "$dir_bytes" "$(json_str "${engine:-}")" "${nodes:-null}" "${edges:-null}" "${found:-null}" "${files:-null}" "$changed" "$rc" "$load" \
		"${2:+,\"touched\":$(json_str "$2")}"
	((rc == 0)) || printf 'codegraph.sh: %s build exited %d (log above)\n' "$phase" "$rc" >&2
}

run_phase cold
run_phase rerun
cp -p -- "$src/$touch_rel" "$work/touch.orig"
printf '\n%s comP bench touch\n' "$comment" >>"$src/$touch_rel"
run_phase touch "$touch_rel"
cp -p -- "$work/touch.orig" "$src/$touch_rel"
