// pipeline: from a task to the code it needs, within a token budget (seed
// 5.1 `run_pipeline`). Reads the task (pipeline/task.h), ranks files by
// lexical evidence (BM25 over FTS5, symbol names, paths, stack frames) and
// the dependency graph, then packs the best ones, compressed, so that the
// whole answer fits `max_tokens` counted exactly (o200k_base).
// No LLM, no embeddings: local and instant.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <string>
#include <vector>

#include "graph/store.h"
#include "pipeline/task.h"

namespace comp::pack {
class CompressionCache;
}

namespace comp::pipeline {

struct FileList;

struct Request {
  std::string task;
  std::size_t max_tokens = 8000;     // hard limit on the tokens of all contents together
  int compression_level = 2;         // default level for supporting files: 0 raw, 1 no comments, 2 skeleton
  bool include_content = true;
  double price_per_million = 3.0;    // for cost_estimation (dollars per million input tokens)
  std::size_t ranking_size = 20;     // files listed in `ranking`
  // Files changed on disk since indexed, when the caller knows it: a daemon
  // whose watcher sees every change (its changes not yet re-indexed), or a
  // command that brought the index up to date just before (0). Unset: every
  // indexed file is stat'ed to count them.
  std::optional<std::size_t> stale_files;
  // The index's files, when the caller has them as the store would read
  // them now (a refresh that changed no file row: index::IndexSummary::files).
  // Unset: read from the store (or the FileListCache given).
  std::shared_ptr<const FileList> files;
  // Polled between steps; when it returns true run_pipeline throws Cancelled.
  std::function<bool()> cancelled;
};

struct PivotFile {
  std::string path;
  double score = 0;
  std::vector<std::string> symbols;  // the file's symbols the task names or the evidence points at
  std::size_t token_count = 0;       // tokens of `content`
  std::size_t raw_token_count = 0;   // tokens of the whole file
  int level = 0;                     // compression level of `content`
  std::string lines;                 // "" for the whole file, "A-B" when only those lines are sent
  std::vector<std::string> full_bodies;  // level 2: the symbols whose bodies are sent in full
  std::string documents;             // a documentation page: the sent code file it describes
  std::string required_by;           // a changelog: the pull-request template that asks for an entry
  // A neighbour in the graph of one of the two strongest files, sent for
  // that: the sent file that uses it (`used_by`), or that it uses (`uses`).
  std::string used_by, uses;
  // A file that changed in the same commits as one of the three strongest
  // (the index's version control history), sent for that: that sent file.
  std::string changed_with;
  // The build manifest (pom.xml, package.json, pyproject.toml, ...) of the
  // module that holds the strongest file, sent for that: that file.
  std::string manifest_of;
  // `content` is an outline: the first line of each definition, numbered
  // ("12: def total(self):"), "⋮" where lines are skipped (a file far down
  // the ranking whose skeleton does not fit its share).
  bool outline = false;
  std::string content;
};

struct RankedFile {
  std::string path;
  double score = 0;
  std::vector<std::string> why;  // "bm25", "symbol foo", "path", "frame", "graph"
};

struct Result {
  std::vector<PivotFile> pivot_files;  // what is sent, best first
  std::vector<RankedFile> ranking;     // the best files, sent or not
  std::vector<std::string> left_out;   // listed files not sent (budget; tests from the fifth file on)
  std::size_t tokens_sent = 0;         // tokens of the contents
  std::size_t raw_tokens = 0;          // tokens of the whole files drawn on
  std::size_t token_savings = 0;       // raw_tokens - tokens_sent
  double cost_estimation = 0;
  std::size_t max_tokens = 0;
  // Tokens of the answer as an agent reads it (render.h's to_markdown):
  // the contents, each file's heading and fence, the first and last lines.
  // At most max_tokens.
  std::size_t answer_tokens = 0;
  std::size_t stale_files = 0;         // files changed on disk since indexed
  TaskTerms terms;
  double search_ms = 0, pack_ms = 0;
};

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

// Every indexed file, with a lookup by path: what a query reads of the files
// table (on a 40,000-file tree 50-100 ms), unless a refresh just read it
// (Request::files).
struct FileList {
  std::vector<graph::IndexedFile> files;  // in the order of their rows (rowid)
  std::unordered_map<std::string_view, const graph::IndexedFile*> by_path;  // views into `files`
  static std::shared_ptr<FileList> read(graph::Store& store);
  static std::shared_ptr<FileList> of(std::vector<graph::IndexedFile> files);
  // `list` after commits that wrote, touched or removed the rows of
  // `changed` (Store::files_changed): those rows as `store` reads them now,
  // the rest as they were, in rowid order; what read() would give, without
  // reading every row. When only listed files were rewritten and nothing
  // else holds `list`, it is `list` updated in place; else a new list.
  static std::shared_ptr<FileList> patched(std::shared_ptr<FileList> list, graph::Store& store,
                                           const std::vector<std::string>& changed);
  // The files named `base` (the path's last component), in `files` order:
  // every file a mentioned path, trace frame or module can be. Built on
  // first use (thread-safe), so that a task naming thousands of paths
  // costs one pass over the list, not one per path.
  const std::vector<const graph::IndexedFile*>& named(std::string_view base) const;

 private:
  mutable std::once_flag by_base_once_;
  mutable std::unordered_map<std::string_view, std::vector<const graph::IndexedFile*>> by_base_;
};

// Keeps the file list between queries of a long-lived process (the
// daemons). Each call compares the index's files_version, as the caller's
// connection reads it, with the kept list's: the same, the list is
// returned as it is; moved by commits that logged the rows they changed
// (an edit's index run, by this process or another), it is patched with
// those rows; else (many files changed, another database: its token differs) read
// again whole.
class FileListCache {
 public:
  FileListCache();
  ~FileListCache();
  // The list as `store` reads it now (call it inside the caller's read
  // snapshot, graph::ReadSnapshot, for a list of that snapshot). Thread-safe.
  std::shared_ptr<const FileList> get(graph::Store& store);
  // How many times get() read every row (for tests).
  std::size_t whole_reads() const;

 private:
  mutable std::mutex mutex_;
  std::string token_;  // Store::database_token() of the database the list was read from
  std::int64_t files_version_ = 0;        // the index's files_version of list_
  std::shared_ptr<FileList> list_;        // callers get it const: only patched() changes it, when they let go
  std::size_t whole_reads_ = 0;
};

// `file_lists`, when given, keeps the file list between calls.
Result run_pipeline(graph::Store& store, const std::filesystem::path& root, const Request& request,
                    FileListCache* file_lists = nullptr);

// One file as `comp file` and the protocols' get_file show it: at a
// compression level (falling back to a lower one when a level would not
// parse), optionally only lines first-last of the output (1-based,
// inclusive; 0 for all), with exact token counts. With `cache`, compressed
// outputs (and their token counts) come from and go to the index's cache.
struct FileView {
  std::string text;
  int level = 0;                 // the level applied
  std::size_t raw_tokens = 0;    // the whole file at level 0
  std::size_t tokens = 0;        // of `text`
  std::vector<std::string> errors;
};
FileView view_file(const std::string& rel_path, const std::string& content, int level, std::uint32_t first = 0,
                   std::uint32_t last = 0, pack::CompressionCache* cache = nullptr);
// "A-B" or "A" into 1 <= first <= last; false when malformed.
bool parse_line_range(const std::string& text, std::uint32_t& first, std::uint32_t& last);

// Test and vendored files rank lower unless the task is about them.
bool is_test_path(std::string_view path);
bool is_vendored_path(std::string_view path);
// Generated files: lock files, protobuf/gRPC output, `generated/` folders,
// `.generated.` names. Rarely where a change goes, unless the task names them.
bool is_generated_path(std::string_view path);
// Examples, documentation and its web site, benchmarks, scripts, scaffolding
// templates and test fixtures: rarely where a change goes.
bool is_example_path(std::string_view path);
// Documentation pages: Markdown, reStructuredText and AsciiDoc files, and
// JSON under a docs folder (API pages generated from the code); not the
// project's own (README, CHANGELOG, LICENSE...), tests or vendored files.
bool is_doc_page(std::string_view path);
// The documentation of `code_paths`, as packs send it beside them: pages
// named as each file's module (Chip/Chip.js -> chip.md, chip.json;
// events/stream/index.js -> streams.md; invokeLocal/ -> invoke-local.md;
// within a folder naming its category: MathFunctions.java -> functions/math.rst),
// the ones sharing most folders with the file, at most two per file; none
// for a name more than eight pages carry. Each page with the file it describes.
std::vector<std::pair<std::string, std::string>> companion_docs(const std::vector<graph::IndexedFile>& indexed,
                                                                const std::vector<std::string>& code_paths);
// The changelog an item of `checklist` (a pull-request template's
// "- [ ] ..." lines) asks a change to update: an indexed text file named
// CHANGELOG, CHANGES, HISTORY, NEWS, RELEASE-NOTES or WHATSNEW (any
// extension) that an item names by its path or whole name, or by its stem
// ("the CHANGES log", "a ChangeLog entry"). "" when none.
std::string changelog_named_in(std::string_view checklist, const std::vector<graph::IndexedFile>& indexed);
// The 1-based line of the heading (Markdown "#", reStructuredText title)
// whose section holds most of `words` (case-insensitive); 1 when none holds any.
std::size_t section_start(std::string_view text, const std::vector<std::string>& words);
// A Markdown or reStructuredText page (.md, .markdown, .mdx, .rst).
bool is_text_page(std::string_view path);
// A page's outline as the pack sends it far down: its headings, numbered,
// "⋮" between them, those whose section holds one of `words` first when
// not all fit in `limit` tokens (tokens_out: the outline's count). Empty
// when the page has no heading or none fits.
std::string page_outline(std::string_view text, const std::vector<std::string>& words, std::size_t limit,
                         std::size_t& tokens_out);

}  // namespace comp::pipeline
