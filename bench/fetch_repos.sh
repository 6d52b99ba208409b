#!/usr/bin/env bash
# Extract the pinned benchmark trees listed in bench/repos.tsv from local bare
# git mirrors. Nothing is downloaded here: see usage().
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)

usage() {
	cat <<'EOF'
usage: fetch_repos.sh [options] [MIRRORS_DIR] OUT_DIR

Extracts every repository of repos.tsv, at its pinned commit, with
`git archive <commit> | tar -x` into OUT_DIR/<name>/.

MIRRORS_DIR holds bare git mirrors laid out as <owner>+<name>/repo (or
<owner>+<name> being the bare repository itself), e.g.
  /work/.mirror/sympy+sympy/repo
If MIRRORS_DIR is not given, $COMP_BENCH_MIRRORS is used.

This script never downloads anything and never contacts a remote. The
mirrors must already be on disk: they are brought by the agent `fetch`
tool (fetch "github:<owner>/<name>"), or you may point MIRRORS_DIR at any
local bare clones laid out the same way. The commit pinned in repos.tsv
must be present in the mirror.

Blobs absent from a partial (promisor) mirror are skipped with a warning
and listed; the rest of the tree is still extracted.

options:
  -r, --repos FILE   repos TSV (default: repos.tsv next to this script)
  -o, --only NAME    extract only this name (may repeat)
  -f, --force        re-extract even if OUT_DIR/<name> is already at the commit
  -h, --help         this text

repos.tsv columns (tab separated, header line "name ..." and #-lines ignored):
  name  owner/repo  commit(40 hex)  language
EOF
}

die() { printf 'fetch_repos.sh: %s\n' "$*" >&2; exit 1; }

repos_tsv="$here/repos.tsv"
force=0
only=()
pos=()
while (($#)); do
	case $1 in
	-r | --repos) (($# >= 2)) || die "$1 needs an argument"; repos_tsv=$2; shift 2 ;;
	-o | --only) (($# >= 2)) || die "$1 needs an argument"; only+=("$2"); shift 2 ;;
	-f | --force) force=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; pos+=("$@"); break ;;
	-*) usage >&2; die "unknown option: $1" ;;
	*) pos+=("$1"); shift ;;
	esac
done

case ${#pos[@]} in
1) mirrors=${COMP_BENCH_MIRRORS:-}; out=${pos[0]} ;;
2) mirrors=${pos[0]}; out=${pos[1]} ;;
*) usage >&2; exit 2 ;;
esac
[[ -n $mirrors ]] || die "no MIRRORS_DIR given and COMP_BENCH_MIRRORS is unset"
[[ -d $mirrors ]] || die "mirrors folder not found: $mirrors"
[[ -f $repos_tsv ]] || die "repos file not found: $repos_tsv"
mkdir -p -- "$out"
out=$(cd -- "$out" && pwd)

# Never let git reach out to a promisor remote or any transport.
export GIT_NO_LAZY_FETCH=1 GIT_TERMINAL_PROMPT=0
gitc() { git -c protocol.allow=never --git-dir="$gd" "$@"; }

want() {
	((${#only[@]} == 0)) && return 0
	local o
	for o in "${only[@]}"; do [[ $o == "$1" ]] && return 0; done
	return 1
}

status=0
found_any=0
while IFS=$'\t' read -r name repo commit lang _rest || [[ -n ${name:-} ]]; do
	[[ -z $name || $name == \#* || $name == name ]] && continue
	want "$name" || continue
	found_any=1
	[[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "bad name in $repos_tsv: $name"
	[[ $repo =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] || die "bad owner/repo for $name: $repo"
	[[ $commit =~ ^[0-9a-f]{40}$ ]] || die "bad commit for $name: $commit"

	base="$mirrors/${repo%%/*}+${repo#*/}"
	gd=""
	for cand in "$base/repo" "$base" "$base.git"; do
		if [[ -d $cand ]] && git --git-dir="$cand" rev-parse --git-dir >/dev/null 2>&1; then gd=$cand; break; fi
	done
	if [[ -z $gd ]]; then
		printf 'fetch_repos.sh: %s: no mirror at %s/repo (bring it with fetch "github:%s")\n' "$name" "$base" "$repo" >&2
		status=1; continue
	fi
	if ! gitc rev-parse --verify --quiet --end-of-options "$commit^{commit}" >/dev/null; then
		printf 'fetch_repos.sh: %s: commit %s not in %s (fetch the mirror again)\n' "$name" "$commit" "$gd" >&2
		status=1; continue
	fi

	dest="$out/$name"
	stamp="$out/.$name.commit"
	if ((!force)) && [[ -d $dest && -f $stamp && $(<"$stamp") == "$commit" ]]; then
		printf '%s: already at %s in %s\n' "$name" "$commit" "$dest"
		continue
	fi

	# Find blobs of the tree that a partial mirror lacks; exclude them by path.
	blob_oid=() blob_path=()
	while IFS= read -r -d '' rec; do
		meta=${rec%%$'\t'*}
		read -r _mode type oid <<<"$meta"
		[[ $type == blob ]] || continue
		blob_oid+=("$oid")
		blob_path+=("${rec#*$'\t'}")
	done < <(gitc ls-tree -r -z --full-tree --end-of-options "$commit")
	expected=${#blob_oid[@]}
	declare -A absent=()
	while read -r oid what _; do
		[[ $what == missing ]] && absent[$oid]=1
	done < <(((expected)) && printf '%s\n' "${blob_oid[@]}" | sort -u | gitc cat-file --batch-check='%(objectname) %(objecttype)')
	pathspec=(.)
	missing=0
	if ((${#absent[@]})); then
		for i in "${!blob_oid[@]}"; do
			[[ -n ${absent[${blob_oid[i]}]:-} ]] || continue
			pathspec+=(":(exclude,literal)${blob_path[i]}")
			missing=$((missing + 1))
			printf 'fetch_repos.sh: %s: warning: blob %s absent from mirror, skipping %s\n' "$name" "${blob_oid[i]}" "${blob_path[i]}" >&2
		done
	fi
	unset absent

	tmp="$out/.$name.partial"
	rm -rf -- "$tmp"
	mkdir -p -- "$tmp"
	# git prints "invalid object" for excluded missing blobs while walking the
	# tree; that noise is dropped, any other stderr line is shown.
	if ! gitc archive --format=tar --end-of-options "$commit" "${pathspec[@]}" \
		2> >(grep -v '^error: invalid object ' >&2) |
		tar -x --no-same-owner -C "$tmp" -f -; then
		printf 'fetch_repos.sh: %s: git archive | tar failed\n' "$name" >&2
		rm -rf -- "$tmp"; status=1; continue
	fi
	got=$(find "$tmp" \( -type f -o -type l \) | wc -l)
	rm -rf -- "$dest"
	mv -- "$tmp" "$dest"
	printf '%s\n' "$commit" >"$stamp"
	printf '%s\t%s\t%s\t%s\tfiles=%d (tree blobs=%d, missing=%d) -> %s\n' \
		"$name" "$repo" "$commit" "$lang" "$got" "$expected" "$missing" "$dest"
	if ((got != expected - missing)); then
		printf 'fetch_repos.sh: %s: note: %d files extracted, tree has %d blobs (%d missing); export-ignore attributes?\n' \
			"$name" "$got" "$expected" "$missing" >&2
	fi
done <"$repos_tsv"

((found_any)) || die "no repository selected from $repos_tsv"
exit "$status"
