#!/usr/bin/env bash
# Dump universal-ctags symbols of a tree as JSON lines (a reference symbol set
# for comP) and report how long ctags took.
set -euo pipefail

usage() {
	cat <<'EOF'
usage: bench/ctags_symbols.sh TREE OUT.jsonl [LANGUAGES]

Runs universal-ctags (5.9) recursively over TREE and writes its JSON tag
stream to OUT.jsonl (paths relative to TREE, unsorted):

  ctags --quiet=yes --options=NONE --output-format=json --fields=+nKzSe --sort=no
        --links=no --map-TypeScript=+.tsx --exclude=.git --exclude=node_modules
        --exclude=.codegraph --exclude=.comp -R --languages=LANGUAGES -f OUT

LANGUAGES is a ctags language list (default, or $COMP_CTAGS_LANGUAGES):
  Python,TypeScript,JavaScript,Go,Rust,Java,C,C++
Fields: n line, K/z kind (long name, "kind" key), S signature, e end line;
scope/scopeKind/typeref/file come by default. .tsx is mapped to TypeScript
(ctags 5.9 maps only *.ts).

On stdout it prints one JSON line:
  {"tool":"ctags","repo":..,"languages":..,"files":..,"bytes":..,
   "wall_s":..,"cpu_s":..,"max_rss_kb":..,"mb_per_s":..,"tags":..}
files/bytes count the files matching the languages' ctags file-name maps
(ctags --list-maps) under TREE, same excludes; MB = 10^6 bytes.
EOF
}

die() { printf 'ctags_symbols.sh: %s\n' "$*" >&2; exit 1; }
[[ ${1:-} == -h || ${1:-} == --help ]] && { usage; exit 0; }
(($# == 2 || $# == 3)) || { usage >&2; exit 2; }
[[ -d $1 ]] || die "not a folder: $1"
command -v ctags >/dev/null || die "ctags not found (apt-get install universal-ctags)"
ctags --version | grep -q 'Universal Ctags' || die "ctags is not universal-ctags"
timebin=/usr/bin/time
[[ -x $timebin ]] || die "GNU time missing: apt-get install time"

tree=$(cd -- "$1" && pwd)
repo=$(basename -- "$tree")
outdir=$(dirname -- "$2")
mkdir -p -- "$outdir"
out="$(cd -- "$outdir" && pwd)/$(basename -- "$2")"
langs=${3:-${COMP_CTAGS_LANGUAGES:-Python,TypeScript,JavaScript,Go,Rust,Java,C,C++}}
[[ $langs =~ ^[A-Za-z0-9+#,._-]+$ ]] || die "bad language list: $langs"

common=(--quiet=yes --options=NONE --map-TypeScript=+.tsx)
excludes=(.git node_modules .codegraph .comp)
args=("${common[@]}" --output-format=json --fields=+nKzSe --sort=no --links=no)
for x in "${excludes[@]}"; do args+=("--exclude=$x"); done
# ctags refuses to overwrite a file that does not look like a tags file: write
# a fresh temp file next to OUT and move it in place.
tmpout="$out.tmp.$$"
args+=(-R "--languages=$langs" -f "$tmpout")

# Size of the input: files whose names match the selected languages' maps.
name_args=()
IFS=, read -r -a lang_list <<<"$langs"
for l in "${lang_list[@]}"; do
	while read -r -a map; do
		for p in "${map[@]:1}"; do name_args+=(-o -name "$p"); done
	done < <(ctags "${common[@]}" --list-maps="$l" 2>/dev/null)
done
((${#name_args[@]})) || die "no file-name maps for languages: $langs"
prune=()
for x in "${excludes[@]}"; do prune+=(-o -name "$x"); done
read -r files bytes < <(cd -- "$tree" && find . -type d \( "${prune[@]:1}" \) -prune -o -type f \( "${name_args[@]:1}" \) -printf '%s\n' |
	awk '{ n++; s += $1 } END { printf "%d %d\n", n, s }')

tv=$(mktemp "${TMPDIR:-/tmp}/comp-ctags-time.XXXXXX")
trap 'rm -f -- "$tv" "$tmpout"' EXIT
rm -f -- "$tmpout"
rc=0
load=$(cut -d' ' -f1 /proc/loadavg) # 1-min load before the run
t0=$(date +%s%N)
(cd -- "$tree" && "$timebin" -v -o "$tv" ctags "${args[@]}") || rc=$?
t1=$(date +%s%N)
((rc == 0)) || die "ctags exited $rc"
mv -f -- "$tmpout" "$out"

wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
cpu=$(awk -F': ' '/User time \(seconds\)/ { u = $2 } /System time \(seconds\)/ { s = $2 } END { printf "%.2f", u + s }' "$tv")
rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tv")
tags=$(grep -c '"_type": "tag"' "$out" || true)
mbps=$(awk -v b="$bytes" -v w="$wall" 'BEGIN { if (w > 0) printf "%.2f", b / 1e6 / w; else print "null" }')
json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
printf '{"tool":"ctags","repo":%s,"languages":%s,"files":%d,"bytes":%d,"wall_s":%s,"cpu_s":%s,"max_rss_kb":%s,"mb_per_s":%s,"tags":%d,"loadavg_1m":%s,"out":%s}\n' \
	"$(json_str "$repo")" "$(json_str "$langs")" "$files" "$bytes" "$wall" "$cpu" "$rss" "$mbps" "$tags" "$load" "$(json_str "$out")"
