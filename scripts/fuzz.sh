#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/ and runs
# each target named on the command line for a while.
#
#   scripts/fuzz.sh [--seconds N] TARGET...     e.g. scripts/fuzz.sh --seconds 600 office_fuzz
#   (targets: office_fuzz, parquet_fuzz, pdf_fuzz, task_fuzz, source_fuzz, pack_fuzz)
#
# Each target's corpus lives in build-fuzz/corpus/<target>, seeded from
# daemon/tests/docs/fixtures (files of the target's extensions); what crashes,
# leaks or hangs goes to build-fuzz/artifacts/<target>/. A crashing input
# belongs in daemon/tests/docs/fixtures/regressions/ once fixed (office_test
# runs every file there). Exits non-zero when a target found something.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build-fuzz"
seconds=1800
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seconds=*) seconds="${1#--seconds=}"; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "usage: scripts/fuzz.sh [--seconds N] TARGET... (e.g. office_fuzz)" >&2
  exit 2
fi

CC=clang CXX=clang++ cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCOMP_FUZZ=ON -DCOMP_BUILD_TESTS=OFF -DCOMP_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j1 --target "${targets[@]}"

# The fixture extensions that seed a target: office_fuzz -> docx pptx xlsx,
# parquet_fuzz -> parquet, pdf_fuzz -> pdf (task_fuzz: daemon/fuzz/task_seeds).
extensions_of() {
  case "$1" in
    office_fuzz) echo docx pptx xlsx ;;
    task_fuzz|source_fuzz|pack_fuzz) ;;
    *) echo "${1%_fuzz}" ;;
  esac
}

# office_fuzz's second kind of input: a tag byte (D, S, X) and the package's
# XML parts separated by NUL bytes, in the order of parts_layouts() in
# daemon/tests/docs/zip_in_memory.h.
office_part_seeds() {
  local corpus="$1" tag file seed part
  command -v unzip >/dev/null || { echo "unzip not found: no XML-part seeds" >&2; return 0; }
  for file in "$here"/daemon/tests/docs/fixtures/*.{docx,pptx,xlsx}; do
    case "$file" in
      *.docx) tag=D; parts=(_rels/.rels word/document.xml word/_rels/document.xml.rels word/styles.xml
                             word/footnotes.xml word/comments.xml) ;;
      *.pptx) tag=S; parts=(_rels/.rels ppt/presentation.xml ppt/_rels/presentation.xml.rels ppt/slides/slide1.xml
                             ppt/slides/_rels/slide1.xml.rels ppt/notesSlides/notesSlide1.xml ppt/slides/slide2.xml) ;;
      *.xlsx) tag=X; parts=(_rels/.rels xl/workbook.xml xl/_rels/workbook.xml.rels xl/sharedStrings.xml
                             xl/worksheets/sheet1.xml xl/worksheets/sheet2.xml) ;;
    esac
    seed="$corpus/parts-$(basename "$file")"
    {
      printf '%s' "$tag"
      local first=1
      for part in "${parts[@]}"; do
        [[ $first -eq 1 ]] || printf '\0'
        first=0
        unzip -p "$file" "$part" 2>/dev/null || true
      done
    } > "$seed"
  done
}

# parquet_fuzz's second kind of input: 'F' and a footer alone (the fuzz
# target wraps it in magic and length), cut from each Parquet fixture.
parquet_footer_seeds() {
  local corpus="$1" file size length
  for file in "$here"/daemon/tests/docs/fixtures/*.parquet; do
    size=$(stat -c %s "$file")
    length=$(tail -c 8 "$file" | head -c 4 | od -An -tu4 | tr -d ' ')
    [[ -n $length && $((length + 12)) -le $size ]] || continue
    { printf 'F'; tail -c $((length + 8)) "$file" | head -c "$length"; } > "$corpus/footer-$(basename "$file")"
  done
}

# source_fuzz's inputs: a byte choosing the language (its index in
# lang::all_languages(), the order below) and a source file: the compression
# and symbol golden fixtures of each language.
source_seeds() {
  local corpus="$1" index=0 language file
  for language in rust typescript tsx javascript python go html java c cpp csharp ruby php kotlin swift lua bash; do
    for file in "$here"/daemon/tests/compress/"$language"/sample.* "$here"/daemon/tests/golden/"$language"/*; do
      case "$file" in *.level1|*.level2|*.symbols) continue ;; esac
      [[ -f $file ]] || continue
      { printf "\\$(printf '%03o' "$index")"; cat "$file"; } \
        > "$corpus/$language-$(basename "$(dirname "$(dirname "$file")")")-$(basename "$file")"
    done
    index=$((index + 1))
  done
}

# pack_fuzz's inputs: a page, NUL, words (one per line), NUL, indexed paths
# (one per line): this project's Markdown pages with the words of their
# first heading and the project's files, and a pull-request checklist.
pack_seeds() {
  local corpus="$1" page paths
  paths=$(git -C "$here" ls-files 2>/dev/null | head -n 400 || true)
  for page in "$here"/*.md "$here"/bench/README.md "$here"/extension/README.md; do
    [[ -f $page ]] || continue
    {
      head -c 200000 "$page"
      printf '\0'
      { grep -m1 '^#' "$page" || true; } | tr -cs 'A-Za-z0-9' '\n'
      printf '\0%s\n' "$paths"
    } > "$corpus/page-$(basename "$(dirname "$page")")-$(basename "$page")"
  done
  printf '%s\0%s\0%s' $'## Checklist\n- [ ] Add a [`CHANGES` log](https://github.com/o/r/blob/main/CHANGES.md) entry\n- [x] Tests\n' \
    $'changes\nentry\n2-9' $'src/Chip/Chip.js\nlib/functions/MathFunctions.java\ndocs/chip.md\ndocs/functions/math.rst\nCHANGES.md\nhistory.rst\n' \
    > "$corpus/checklist"
}

status=0
summary=()
for target in "${targets[@]}"; do
  binary=$(find "$build" -type f -name "$target" -perm -u+x | head -n 1)
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  log="$build/$target.log"
  mkdir -p "$corpus" "$artifacts"
  for extension in $(extensions_of "$target"); do
    find "$here/daemon/tests/docs/fixtures" -type f -name "*.$extension" -exec cp -n {} "$corpus/" \;
  done
  if [[ $target == office_fuzz ]]; then office_part_seeds "$corpus"; fi
  if [[ $target == parquet_fuzz ]]; then parquet_footer_seeds "$corpus"; fi
  if [[ $target == task_fuzz ]]; then cp -n "$here"/daemon/fuzz/task_seeds/* "$corpus/"; fi
  if [[ $target == source_fuzz ]]; then source_seeds "$corpus"; fi
  if [[ $target == pack_fuzz ]]; then pack_seeds "$corpus"; fi
  started="$build/.started-$target"
  touch "$started"
  echo "== $target: ${seconds}s, corpus $corpus ($(find "$corpus" -type f | wc -l) files)"
  set +e
  "$binary" "$corpus" -max_total_time="$seconds" -max_len=4000000 -rss_limit_mb=2048 -timeout=30 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | tee "$log" | grep -E '^#[0-9]+[[:space:]]+(pulse|DONE)|^Done|ERROR|SUMMARY' | tail -n 40
  code=${PIPESTATUS[0]}
  set -e
  executions=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
  found=$(find "$artifacts" -type f -newer "$started" \
             \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  summary+=("$target: $executions executions, exit $code, $found new crash/leak/timeout/oom inputs in $artifacts")
  if [[ $code -ne 0 || $found -ne 0 ]]; then status=1; fi
done

echo
printf '%s\n' "${summary[@]}"
exit $status
