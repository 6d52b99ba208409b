// libFuzzer target for the pack's readers of text that is not code: a
// page's outline and its best section (`page_outline`, `section_start`), the
// changelog a pull-request template's checklist asks for
// (`changelog_named_in`), the pages that document code files
// (`companion_docs`), the path classes that rank and skip files
// (`is_test_path` and the like) and `--lines` ranges (`parse_line_range`).
// The input is three parts separated by NUL bytes: a page (or checklist),
// the task's words (one per line) and indexed paths (one per line; a path
// ending in a code extension is code, the first four are the code sent).
// Whatever the bytes, each must return, and keep its promise: an outline
// within its limit and counted exactly, a section start inside the page, a
// changelog and companions taken from the index.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "graph/store.h"
#include "pipeline/pipeline.h"
#include "tokens/tokens.h"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "pack_fuzz: broken promise: %s\n", what);
  std::abort();
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool listed(const std::vector<comp::graph::IndexedFile>& indexed, const std::string& path) {
  for (const comp::graph::IndexedFile& file : indexed)
    if (file.path == path) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace pipeline = comp::pipeline;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t first_nul = input.find('\0');
  std::string_view page = input.substr(0, first_nul);
  std::string_view rest = first_nul == std::string_view::npos ? std::string_view() : input.substr(first_nul + 1);
  std::size_t second_nul = rest.find('\0');
  std::vector<std::string> words = lines_of(rest.substr(0, second_nul));
  std::vector<std::string> paths =
      second_nul == std::string_view::npos ? std::vector<std::string>() : lines_of(rest.substr(second_nul + 1));

  // The outline: within the limit, its count exact, nothing when empty.
  std::size_t limit = 40 + size % 400, tokens = 12345;
  std::string outline = pipeline::page_outline(page, words, limit, tokens);
  check(tokens <= limit, "outline over its limit");
  check(tokens == comp::tokens::count(outline), "outline's count is not its tokens");
  check(!outline.empty() || tokens == 0, "empty outline with tokens");

  std::size_t newlines = 0;
  for (char c : page) newlines += c == '\n';
  std::size_t start = pipeline::section_start(page, words);
  check(start >= 1 && start <= newlines + 1, "section start outside the page");

  std::vector<comp::graph::IndexedFile> indexed;
  std::vector<std::string> code;
  for (const std::string& path : paths) {
    bool is_code = path.ends_with(".js") || path.ends_with(".ts") || path.ends_with(".py") || path.ends_with(".java");
    indexed.push_back({path, is_code ? "code" : "", path.size(), 0});
    if (code.size() < 4) code.push_back(path);
    (void)pipeline::is_test_path(path);
    (void)pipeline::is_vendored_path(path);
    (void)pipeline::is_generated_path(path);
    (void)pipeline::is_example_path(path);
    (void)pipeline::is_doc_page(path);
    (void)pipeline::is_text_page(path);
  }
  std::string changelog = pipeline::changelog_named_in(page, indexed);
  check(changelog.empty() || listed(indexed, changelog), "a changelog that is not indexed");
  for (const auto& [doc, described] : pipeline::companion_docs(indexed, code)) {
    check(listed(indexed, doc), "a companion page that is not indexed");
    check(std::find(code.begin(), code.end(), described) != code.end(), "a companion of no sent file");
  }

  std::uint32_t first = 0, last = 0;
  if (!words.empty() && pipeline::parse_line_range(words.front(), first, last))
    check(first >= 1 && first <= last, "a line range out of order");
  return 0;
}
