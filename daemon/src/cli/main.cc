// comp: the command-line front end. Glue only: parses arguments, calls the
// libraries, prints their results as text or (through rpc/) JSON.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <unordered_map>

#include "compress/compress.h"
#include "docs/document.h"
#include "graph/store.h"
#include "index/indexer.h"
#include "lang/language.h"
#include "pack/cache.h"
#include "pack/pack.h"
#include "parse/symbols.h"
#include "pipeline/pipeline.h"
#include "pipeline/render.h"
#include "query/graph_query.h"
#include "rpc/codec.h"
#include "rpc/daemon.h"
#include "server/log.h"
#include "tokens/tokens.h"
#include "utf8/utf8.h"
#include "vcs/git.h"

namespace fs = std::filesystem;

namespace {

// Every path, id and scope printed for a person goes through quote_name
// (quoted as git quotes names with control characters or escape sequences),
// signatures and reference names through escape_controls; JSON output
// escapes them itself.
using comp::utf8::escape_controls;
using comp::utf8::quote_name;

// Exit codes, stable for scripts.
constexpr int kExitUsage = 2;        // bad arguments or a missing root
constexpr int kExitUnwritable = 3;   // .comp/ cannot be created or written
constexpr int kExitCorrupt = 4;      // the database is damaged or not comP's
constexpr int kExitFailure = 1;      // anything else
// A `comp query` reads its index through a memory map (SQLite caps it at
// 2 GiB): its search reads pages in place, about a fifth faster on a
// large tree (bench/swe/inspect.py, --no-refresh).
constexpr int kQueryMemoryMapMib = 2048;

struct Common {
  std::string root = ".";
  bool json = false;
};

void add_common(CLI::App* command, Common& common) {
  command->add_option("--root", common.root, "Workspace root (default: the current directory)");
  command->add_flag("--json", common.json, "Print JSON instead of text");
}

// Resolves and checks --root; prints an error and returns empty when unusable.
fs::path checked_root(const std::string& root) {
  std::error_code ec;
  fs::path path = fs::weakly_canonical(fs::path(root), ec);
  if (ec || !fs::is_directory(path, ec)) {
    std::cerr << "comp: root '" << root << "' is not a directory\n";
    return {};
  }
  return path;
}

int report_store_error(const comp::graph::StoreError& error, const fs::path& root) {
  using Kind = comp::graph::StoreError::Kind;
  switch (error.kind()) {
    case Kind::kCorrupt:
      std::cerr << "comp: the index is damaged: " << error.what() << "\n"
                << "comp: nothing was deleted. Run `comp index --root " << root.string()
                << " --rebuild` to move it aside (graph.db.corrupt-<time>) and build a new one.\n";
      return kExitCorrupt;
    case Kind::kUnwritable:
      std::cerr << "comp: cannot write the index: " << error.what() << "\n";
      return kExitUnwritable;
    case Kind::kTooNew:
      std::cerr << "comp: " << error.what() << "\n";
      return kExitFailure;
    case Kind::kOther:
      std::cerr << "comp: " << error.what() << "\n";
      return kExitFailure;
  }
  return kExitFailure;
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 3) {
    bytes /= 1000;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return buffer;
}

// A one-line progress bar on stderr, redrawn in place; only on a terminal.
void draw_progress(const comp::index::Progress& progress) {
  constexpr int kWidth = 30;
  double fraction = progress.total ? static_cast<double>(progress.done) / static_cast<double>(progress.total) : 1.0;
  int filled = static_cast<int>(fraction * kWidth);
  double rate = progress.elapsed_seconds > 0 ? static_cast<double>(progress.done) / progress.elapsed_seconds : 0;
  double eta = rate > 0 ? static_cast<double>(progress.total - progress.done) / rate : 0;
  std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu files  %s/s  ETA %.0fs \033[K", filled,
               "==============================", kWidth - filled, "", progress.done, progress.total,
               human_bytes(progress.elapsed_seconds > 0 ? static_cast<double>(progress.bytes) / progress.elapsed_seconds : 0)
                   .c_str(),
               eta);
  std::fflush(stderr);
}

void print_summary(const comp::index::IndexSummary& summary, const fs::path& root) {
  std::cout << "Indexed " << root.string() << " in " << summary.elapsed_seconds << " s (CPU "
            << summary.cpu_seconds << " s)\n";
  std::cout << "  files: " << summary.files_on_disk << " on disk, " << summary.files_parsed << " parsed, "
            << summary.files_unchanged << " unchanged, " << summary.files_touched << " same content, "
            << summary.files_removed << " removed; " << human_bytes(static_cast<double>(summary.bytes_read))
            << " read\n";
  std::cout << "  languages:";
  for (const auto& [language, count] : summary.files_by_language) std::cout << " " << language << " " << count << ";";
  std::cout << "\n  symbols: " << summary.symbols << "\n";
  if (summary.resolve.references > 0)
    std::cout << "  references resolved this run: " << summary.resolve.references << " (" << summary.resolve.resolved
              << " to a definition, " << summary.resolve.ambiguous << " ambiguous, " << summary.resolve.unresolved
              << " not found, " << summary.resolve.external << " external) in " << summary.resolve_seconds << " s\n";
  if (summary.full_text_merged)
    std::cout << "  full-text indexes merged (a tenth of the files or more rewritten since the last merge)\n";
  if (summary.history_commits > 0)
    std::cout << "  history: " << summary.history_commits << (summary.history_commits == 1 ? " commit" : " commits")
              << " read from git (which files change together)\n";
  if (!summary.skipped_by_reason.empty()) {
    std::cout << "  skipped:";
    for (const auto& [reason, count] : summary.skipped_by_reason) std::cout << " " << reason << " " << count << ";";
    std::cout << "\n";
  }
  if (!summary.errors.empty()) {
    std::cout << "  files with errors this run: " << summary.errors.size() << " (still indexed; `comp files --errors`)\n";
    for (std::size_t i = 0; i < summary.errors.size() && i < 5; ++i)
      std::cout << "    " << quote_name(summary.errors[i].path) << ": " << summary.errors[i].message.substr(0, 120)
                << "\n";
  }
  for (const std::string& error : summary.walk_errors) std::cout << "  walk: " << error << "\n";
}

void say_waiting() { std::cerr << "comp: another comp process is indexing this workspace; waiting for it\n"; }

// Brings the index up to date before a command reads it (query, diff, pack);
// with `keep_files`, returns its files when the run changed none
// (index::IndexSummary::files), for a query that would read them again.
std::optional<std::vector<comp::graph::IndexedFile>> refresh_index(const fs::path& root, unsigned jobs = 0,
                                                                   bool keep_files = false) {
  comp::index::IndexOptions options;
  options.root = root;
  options.jobs = jobs;  // 0: all cores
  options.on_waiting = say_waiting;
  options.counts = false;  // nothing prints them
  options.keep_files = keep_files;
  return std::move(comp::index::run_index(options).files);
}

int run_index_command(const Common& common, unsigned jobs, std::uint64_t max_file_size, bool rebuild, bool no_edges) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  if (rebuild && fs::exists(comp::graph::Store::database_path(root))) {
    fs::path moved = comp::graph::Store::quarantine(root);
    std::cerr << "comp: moved the old index to " << moved.string() << "\n";
  }
  comp::index::IndexOptions options;
  options.root = root;
  options.jobs = jobs;
  options.max_file_size = max_file_size;
  options.edges = !no_edges;
  options.on_waiting = say_waiting;
  bool bar = !common.json && isatty(STDERR_FILENO);
  if (bar) options.on_progress = draw_progress;
  comp::index::IndexSummary summary = comp::index::run_index(options);
  if (bar) std::fprintf(stderr, "\r\033[K");
  if (common.json)
    std::cout << comp::rpc::dump(comp::rpc::to_json(summary), 2) << "\n";
  else
    print_summary(summary, root);
  return 0;
}

int run_symbols_command(const Common& common, const comp::graph::SymbolFilter& filter) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  auto store = comp::graph::Store::open_existing(root);
  std::vector<comp::graph::NodeRecord> nodes = store->symbols(filter);
  if (common.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& node : nodes) out.push_back(comp::rpc::to_json(node));
    std::cout << comp::rpc::dump(out, 2) << "\n";
    return 0;
  }
  for (const auto& node : nodes)
    std::cout << quote_name(node.file_path) << ":" << node.line << ":" << node.column << "  " << node.kind << "  "
              << quote_name(node.scope) << (node.is_exported ? "" : "  (private)") << "\n    " << escape_controls(node.signature)
              << "\n";
  if (nodes.empty()) std::cerr << "comp: no symbols match\n";
  return nodes.empty() ? kExitFailure : 0;
}

int run_files_command(const Common& common, bool skipped_only, bool errors_only) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  auto store = comp::graph::Store::open_existing(root);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& file : store->files()) {
    if (skipped_only && file.skip_reason.empty()) continue;
    if (errors_only && file.error.empty()) continue;
    if (common.json) {
      out.push_back(comp::rpc::to_json(file));
      continue;
    }
    std::cout << quote_name(file.path) << "  " << (file.language.empty() ? "-" : file.language) << "  " << file.size
              << " B  " << file.symbol_count << " symbols";
    if (!file.skip_reason.empty()) std::cout << "  skipped: " << file.skip_reason;
    if (!file.error.empty()) std::cout << "  error: " << file.error.substr(0, 160);
    std::cout << "\n";
  }
  if (common.json) std::cout << comp::rpc::dump(out, 2) << "\n";
  return 0;
}

// PRAGMA integrity_check plus FTS5's own checks: "ok" and exit 0, or the
// problems and exit 4 (nothing is changed).
int run_check_command(const Common& common) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  auto store = comp::graph::Store::open_existing(root);
  std::string verdict = store->integrity_check();
  if (common.json)
    std::cout << comp::rpc::dump(nlohmann::json{{"ok", verdict == "ok"}, {"details", verdict}}) << "\n";
  else
    std::cout << verdict << "\n";
  return verdict == "ok" ? 0 : kExitCorrupt;
}

int run_stats_command(const Common& common) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  auto store = comp::graph::Store::open_existing(root);
  comp::graph::Stats stats = store->stats();
  if (common.json) {
    std::cout << comp::rpc::dump(comp::rpc::to_json(stats), 2) << "\n";
    return 0;
  }
  std::cout << "files: " << stats.files << " (" << stats.indexed_files << " indexed, " << stats.skipped_files
            << " skipped, " << stats.files_with_errors << " with errors)\n"
            << "symbols: " << stats.symbols << "\nedges: " << stats.edges << "\n"
            << "source: " << human_bytes(static_cast<double>(stats.source_bytes))
            << "  database: " << human_bytes(static_cast<double>(stats.database_bytes));
  if (stats.source_bytes > 0)
    std::cout << " (" << static_cast<double>(stats.database_bytes) / static_cast<double>(stats.source_bytes)
              << "x the source)";
  std::cout << "\nfiles by language:";
  for (const auto& [language, count] : stats.files_by_language)
    std::cout << " " << (language.empty() ? "other" : language) << " " << count << ";";
  std::cout << "\nsymbols by kind:";
  for (const auto& [kind, count] : stats.symbols_by_kind) std::cout << " " << kind << " " << count << ";";
  if (!stats.skipped_by_reason.empty()) {
    std::cout << "\nskipped:";
    for (const auto& [reason, count] : stats.skipped_by_reason) std::cout << " " << reason << " " << count << ";";
  }
  std::cout << "\n";
  return 0;
}

// A user-given path must name a regular file inside the root: relative, no
// "..", and still inside once symlinks are resolved. Prints why not.
bool file_inside(const fs::path& root, const std::string& file, fs::path& rel, fs::path& resolved) {
  rel = fs::path(file).lexically_normal();
  std::error_code ec;
  bool inside = !rel.is_absolute() && !rel.empty() && *rel.begin() != "..";
  if (inside) {
    resolved = fs::weakly_canonical(root / rel, ec);
    auto [root_end, unused] = std::mismatch(root.begin(), root.end(), resolved.begin(), resolved.end());
    (void)unused;
    inside = !ec && root_end == root.end() && fs::is_regular_file(resolved, ec);
  }
  if (!inside) std::cerr << "comp: '" << file << "' is not a regular file inside the root\n";
  return inside;
}

// Parses one file as the indexer would and prints what comP sees in it: its
// symbols and the references that become edges. Reads nothing but the file.
int run_outline_command(const Common& common, const std::string& file) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  fs::path rel, resolved;
  if (!file_inside(root, file, rel, resolved)) return kExitUsage;
  std::ifstream in(resolved, std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string rel_path = rel.generic_string();
  auto language = comp::lang::detect(rel_path, std::string_view(content).substr(0, comp::lang::kDetectHeadBytes));
  if (!language) {
    std::cerr << "comp: no parser for '" << file << "'\n";
    return kExitFailure;
  }
  comp::parse::SymbolExtractor extractor;
  comp::parse::ParseResult result = extractor.extract(*language, content, rel_path);
  if (common.json) {
    std::cout << comp::rpc::dump(comp::rpc::to_json(result), 2) << "\n";
    return 0;
  }
  for (const auto& symbol : result.symbols)
    std::cout << symbol.line << ":" << symbol.column << "-" << symbol.end_line << ":" << symbol.end_column << "  "
              << symbol.kind << "  " << quote_name(symbol.scope) << "\n";
  for (const auto& ref : result.references) {
    std::cout << ref.line << ":" << ref.column << "  " << ref.kind << "  ";
    if (!ref.qualifier.empty()) std::cout << escape_controls(ref.qualifier) << (ref.kind == "import" ? " : " : ".");
    std::cout << escape_controls(ref.name);
    if (!ref.alias.empty()) std::cout << " as " << escape_controls(ref.alias);
    std::cout << "  (in "
              << (ref.from >= 0 ? quote_name(result.symbols[static_cast<std::size_t>(ref.from)].scope) : "<top level>")
              << ")\n";
  }
  for (const auto& error : result.errors) std::cout << "error: " << error << "\n";
  return 0;
}

struct EdgesFilter {
  std::string file, kind, status;
};

int run_edges_command(const Common& common, const EdgesFilter& filter) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  auto store = comp::graph::Store::open_existing(root);
  std::vector<comp::graph::RefRecord> refs = filter.file.empty() ? store->all_refs() : store->refs_of_file(filter.file);
  std::unordered_map<std::string, std::optional<comp::graph::NodeRecord>> targets;
  auto target_of = [&](const std::string& id) -> const comp::graph::NodeRecord* {
    if (id.empty()) return nullptr;
    auto found = targets.find(id);
    if (found == targets.end()) found = targets.emplace(id, store->node(id)).first;
    return found->second ? &*found->second : nullptr;
  };
  nlohmann::json out = nlohmann::json::array();
  for (const auto& ref : refs) {
    if (!filter.kind.empty() && ref.kind != filter.kind) continue;
    if (!filter.status.empty() && comp::rpc::to_string(ref.status) != filter.status) continue;
    const comp::graph::NodeRecord* target = target_of(ref.target);
    if (common.json) {  // one object per site
      comp::graph::RefRecord site = ref;
      site.more_sites.clear();
      for (const auto& [line, column] : comp::graph::sites_of(ref)) {
        site.line = line;
        site.column = column;
        out.push_back(comp::rpc::to_json(site, target));
      }
      continue;
    }
    std::cout << quote_name(ref.file_path) << ":" << ref.line << ":" << ref.column
              << (ref.more_sites.empty() ? ""
                                         : " (+" + std::to_string(comp::graph::sites_of(ref).size() - 1) + " more)")
              << "  " << ref.kind << "  "
              << escape_controls((ref.qualifier.empty() ? "" : ref.qualifier + (ref.kind == "import" ? " : " : ".")) +
                                 ref.name + (ref.alias.empty() ? "" : " as " + ref.alias))
              << "  -> ";
    if (target)
      std::cout << quote_name(target->id) << " (" << quote_name(target->file_path) << ":" << target->line << ")";
    else if (!ref.target_path.empty())
      std::cout << quote_name(ref.target_path);
    else
      std::cout << comp::rpc::to_string(ref.status)
                << (ref.candidates > 1 ? " (" + std::to_string(ref.candidates) + " candidates)" : "");
    std::cout << "\n";
  }
  if (common.json) std::cout << comp::rpc::dump(out, 1) << "\n";
  return 0;
}

int run_symbol_command(const Common& common, const std::string& name, const std::string& file, int depth,
                       std::size_t limit) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  auto store = comp::graph::Store::open_existing(root);
  std::vector<comp::graph::NodeRecord> found = comp::query::find_symbols(*store, name, file);
  if (found.empty()) {
    std::cerr << "comp: no symbol named '" << name << "'" << (file.empty() ? "" : " in " + file) << "\n";
    return kExitFailure;
  }
  if (found.size() > 1) {
    if (common.json) {
      nlohmann::json choices = nlohmann::json::array();
      for (const auto& node : found) choices.push_back(comp::rpc::to_json(node));
      std::cout << comp::rpc::dump(nlohmann::json{{"choices", choices}}, 2) << "\n";
    } else {
      std::cout << comp::query::to_markdown(found, name);
    }
    return 0;
  }
  comp::query::SymbolReport report = comp::query::symbol_report(*store, root, found[0], depth, limit);
  if (common.json)
    std::cout << comp::rpc::dump(comp::rpc::to_json(report), 2) << "\n";
  else
    std::cout << comp::query::to_markdown(report);
  return 0;
}

int run_diff_command(const Common& common, const std::string& base, int depth, std::size_t limit, bool refresh) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  if (refresh) refresh_index(root);  // the index must describe the working tree being compared
  auto store = comp::graph::Store::open_existing(root);
  try {
    comp::query::DiffReport report = comp::query::diff_report(*store, root, base, depth, limit);
    if (common.json)
      std::cout << comp::rpc::dump(comp::rpc::to_json(report), 2) << "\n";
    else
      std::cout << comp::query::to_markdown(report);
  } catch (const comp::vcs::GitError& error) {
    std::cerr << "comp: " << error.what() << "\n";
    return error.kind() == comp::vcs::GitError::Kind::kBadRef ? kExitUsage : kExitFailure;
  }
  return 0;
}

int run_dependents_command(const Common& common, const std::string& file) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  auto store = comp::graph::Store::open_existing(root);
  if (!store->file(file)) {
    std::cerr << "comp: '" << file << "' is not in the index\n";
    return kExitFailure;
  }
  auto counts = comp::query::dependents_count(*store, file);
  if (common.json) {
    std::cout << comp::rpc::dump(comp::rpc::to_json(counts), 2) << "\n";
    return 0;
  }
  for (const auto& [node, count] : counts)
    std::cout << node.line << "  " << count << " dependents  " << node.kind << " "
              << quote_name(node.kind == "file" ? node.file_path : node.scope) << "\n";
  return 0;
}

struct QueryOptions {
  std::string task, task_file;
  std::size_t max_tokens = 8000;
  int level = 2;
  double price = 3.0;
  bool no_refresh = false;
};

int run_query_command(const Common& common, const QueryOptions& query) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  std::string task = query.task;
  if (!query.task_file.empty()) {
    std::ifstream in(query.task_file, std::ios::binary);
    if (!in) {
      std::cerr << "comp: cannot read task file '" << query.task_file << "'\n";
      return kExitUsage;
    }
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    task = comp::rpc::task_text(content);
  }
  if (task.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::cerr << "comp: the task is empty: give it as an argument or with --task-file\n";
    return kExitUsage;
  }
  std::optional<std::vector<comp::graph::IndexedFile>> files;
  if (!query.no_refresh) files = refresh_index(root, 0, /*keep_files=*/true);  // never answer from a stale index
  auto store = comp::graph::Store::open_existing(root);
  store->set_memory_map_mib(kQueryMemoryMapMib);
  comp::pipeline::Request request;
  if (files) request.files = comp::pipeline::FileList::of(std::move(*files));
  if (!query.no_refresh) request.stale_files = 0;  // the refresh just compared every file with the disk
  request.task = task;
  request.max_tokens = query.max_tokens;
  request.compression_level = query.level;
  request.price_per_million = query.price;
  comp::pipeline::Result result = comp::pipeline::run_pipeline(*store, root, request);
  if (common.json) {
    std::cout << comp::rpc::dump(comp::rpc::to_json(result), 1) << "\n";
    return 0;
  }
  std::cout << comp::pipeline::to_markdown(result);
  return 0;
}

int run_file_command(const Common& common, const std::string& file, int level, const std::string& lines) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  fs::path rel, resolved;
  if (!file_inside(root, file, rel, resolved)) return kExitUsage;
  std::uint32_t first = 0, last = 0;
  if (!lines.empty() && !comp::pipeline::parse_line_range(lines, first, last)) {
    std::cerr << "comp: --lines wants A-B with 1 <= A <= B\n";
    return kExitUsage;
  }
  std::string rel_path = rel.generic_string();
  std::string content;
  if (auto format = comp::docs::format_of(rel_path)) {  // a document: its extracted text
    comp::docs::Document document = comp::docs::extract_file(*format, resolved);
    if (!document.skip_reason.empty()) {
      std::cerr << "comp: cannot read '" << file << "': " << document.skip_reason << "\n";
      return kExitFailure;
    }
    for (const auto& error : document.errors) std::cerr << "comp: " << error << "\n";
    content = comp::docs::render(document);
  } else {
    std::ifstream in(resolved, std::ios::binary);
    content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The index's cache of compressed outputs, when there is an index (a file
  // is printed without one too); a damaged index only costs the cache.
  std::unique_ptr<comp::graph::Store> store;
  std::optional<comp::pack::CompressionCache> cache;
  if (level > 0 && fs::exists(comp::graph::Store::database_path(root))) {
    try {
      store = comp::graph::Store::open_existing(root);
      cache.emplace(*store, root);
    } catch (const comp::graph::StoreError&) {
    }
  }
  comp::pipeline::FileView view =
      comp::pipeline::view_file(rel_path, content, level, first, last, cache ? &*cache : nullptr);
  for (const auto& error : view.errors) std::cerr << "comp: " << error << "\n";
  if (common.json) {
    std::cout << comp::rpc::dump(comp::rpc::to_json(view, rel_path, lines), 1) << "\n";
    return 0;
  }
  std::cout << view.text << (view.text.empty() || view.text.back() == '\n' ? "" : "\n");
  std::cerr << quote_name(rel_path) << ": level " << view.level << ", " << view.tokens
            << " tokens (whole file at level 0: " << view.raw_tokens << ")\n";
  return 0;
}

struct PackFlags {
  int level = 2;
  unsigned jobs = 0;
  std::string output;
  bool no_refresh = false;
  std::vector<std::string> prefixes;
};

// Every indexed source file at a level, in repomix's plain layout (a header
// per file, then its text), through the index's cache of compressed outputs.
int run_pack_command(const Common& common, const PackFlags& flags) {
  fs::path root = checked_root(common.root);
  if (root.empty()) return kExitUsage;
  comp::pack::PackOptions options;
  options.root = root;
  options.level = static_cast<comp::compress::Level>(flags.level);
  options.jobs = flags.jobs;
  for (const std::string& prefix : flags.prefixes) {
    std::optional<std::string> normal = comp::pack::normalize_prefix(prefix);
    if (!normal) {
      std::cerr << "comp: path prefix '" << prefix << "' is not inside the root (give a path relative to it)\n";
      return kExitUsage;
    }
    options.prefixes.push_back(*normal);
  }
  std::ofstream file;
  if (!flags.output.empty()) {
    file.open(flags.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "comp: cannot write '" << flags.output << "'\n";
      return kExitFailure;
    }
  }
  std::ostream& out = flags.output.empty() ? std::cout : file;
  if (!flags.no_refresh) refresh_index(root, flags.jobs);  // the files as they are now, and their hashes for the cache
  auto store = comp::graph::Store::open_existing(root);
  comp::pack::PackSummary summary = comp::pack::pack(*store, options, [&](const comp::pack::PackedFile& packed) {
    out << "================\nFile: " << quote_name(packed.path) << "\n================\n"
        << packed.text << (packed.text.empty() || packed.text.back() == '\n' ? "" : "\n") << "\n";
  });
  out.flush();
  if (!out) {
    std::cerr << "comp: writing the output failed\n";
    return kExitFailure;
  }
  for (const std::string& prefix : summary.unmatched_prefixes)
    std::cerr << "comp: no indexed source file under '" << prefix << "'\n";
  for (const std::string& path : summary.unreadable)
    std::cerr << "comp: " << quote_name(path)
              << " left out: unreadable now, or a symlink (never followed when reading)\n";
  std::string cache = "level 0 is not cached";
  if (flags.level > 0) {
    cache = "cache " + std::to_string(summary.hits) + " hits, " + std::to_string(summary.misses) + " misses, " +
            std::to_string(summary.written) + " written";
    if (summary.cache_busy) cache += " (not written: another process is indexing)";
  }
  std::fprintf(stderr, "comp pack: %zu files, %zu tokens at level %d (level 0: %zu); %s; %.2f s\n", summary.files,
               summary.tokens, flags.level, summary.raw_tokens, cache.c_str(), summary.seconds);
  return summary.unmatched_prefixes.empty() ? 0 : kExitUsage;
}

struct DaemonFlags {
  std::string root = ".";
  std::string log_level = "info";
  bool no_watch = false;
  unsigned jobs = 0;
};

int run_daemon_command(const DaemonFlags& flags, comp::rpc::Protocol protocol) {
  fs::path root = checked_root(flags.root);
  if (root.empty()) return kExitUsage;
  comp::server::set_log_level(*comp::server::parse_log_level(flags.log_level));
  comp::rpc::DaemonOptions options;
  options.root = root;
  options.protocol = protocol;
  options.watch = !flags.no_watch;
  options.jobs = flags.jobs;
  return comp::rpc::run_daemon(options, STDIN_FILENO, STDOUT_FILENO);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"comP: a local code-context engine for AI coding agents"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "comp 0.1.0");

  Common index_common;
  unsigned jobs = 0;
  std::uint64_t max_file_size = 1u << 20;
  bool rebuild = false;
  CLI::App* index = app.add_subcommand("index", "Build or update the index at <root>/.comp/graph.db");
  add_common(index, index_common);
  index->add_option("--jobs,-j", jobs, "Parser threads (default: all cores)")->check(CLI::Range(0u, 1024u));
  index->add_option("--max-file-size", max_file_size, "Skip files larger than this many bytes (default 1 MiB)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 32));
  index->add_flag("--rebuild", rebuild, "Move the existing database aside and index from scratch");
  bool no_edges = false;
  index->add_flag("--no-edges", no_edges, "Symbols only: no references, no dependency edges (for benchmarks)");

  Common symbols_common;
  comp::graph::SymbolFilter filter;
  CLI::App* symbols = app.add_subcommand("symbols", "List indexed symbols");
  add_common(symbols, symbols_common);
  symbols->add_option("name", filter.name, "Exact symbol name");
  symbols->add_option("--file", filter.file_path, "Only symbols of this file (path relative to the root)");
  symbols->add_option("--kind", filter.kind, "Only this kind (function, method, class, ...)");
  symbols->add_option("--limit", filter.limit, "At most this many");

  Common files_common;
  bool skipped_only = false, errors_only = false;
  CLI::App* files = app.add_subcommand("files", "List indexed files");
  add_common(files, files_common);
  files->add_flag("--skipped", skipped_only, "Only files skipped, with the reason");
  files->add_flag("--errors", errors_only, "Only files with parse or read errors");

  Common stats_common;
  CLI::App* stats = app.add_subcommand("stats", "Summarise the index");
  add_common(stats, stats_common);

  Common check_common;
  CLI::App* check = app.add_subcommand("check", "Check the index for damage (SQLite and full-text integrity)");
  add_common(check, check_common);

  Common outline_common;
  std::string outline_file;
  CLI::App* outline = app.add_subcommand("outline", "Parse one file and print its symbols and references");
  add_common(outline, outline_common);
  outline->add_option("file", outline_file, "File to parse (relative to the root)")->required();

  Common edges_common;
  EdgesFilter edges_filter;
  CLI::App* edges = app.add_subcommand("edges", "List references and what they resolve to (the dependency edges)");
  add_common(edges, edges_common);
  edges->add_option("--file", edges_filter.file, "Only references from this file");
  edges->add_option("--kind", edges_filter.kind, "Only this kind")
      ->check(CLI::IsMember({"import", "call", "inherit", "implement", "reference"}));
  edges->add_option("--status", edges_filter.status, "Only this status")
      ->check(CLI::IsMember({"resolved", "ambiguous", "unresolved", "external", "pending"}));

  Common symbol_common;
  std::string symbol_name, symbol_file;
  int symbol_depth = 2;
  std::size_t symbol_limit = 200;
  CLI::App* symbol = app.add_subcommand("symbol", "Show a symbol: definition, source, dependents (blast radius), dependencies");
  add_common(symbol, symbol_common);
  symbol->add_option("name", symbol_name, "Name, qualified name (Class.method) or node id")->required();
  symbol->add_option("--file", symbol_file, "The definition in this file (path relative to the root)");
  symbol->add_option("--depth", symbol_depth, "Follow dependents and dependencies this far (default 2)")
      ->check(CLI::Range(1, 10));
  symbol->add_option("--limit", symbol_limit, "At most this many dependents and dependencies (default 200)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));

  Common diff_common;
  std::string diff_base = "HEAD";
  int diff_depth = 2;
  std::size_t diff_limit = 200;
  bool diff_no_refresh = false;
  CLI::App* diff = app.add_subcommand("diff", "Changed symbols since a commit and what depends on them or they use");
  add_common(diff, diff_common);
  diff->add_option("base", diff_base, "Base commit (default HEAD); the working tree is compared with it");
  diff->add_option("--depth", diff_depth, "How far to follow the graph (default 2)")->check(CLI::Range(1, 10));
  diff->add_option("--limit", diff_limit, "At most this many related symbols (default 200)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  diff->add_flag("--no-refresh", diff_no_refresh, "Do not bring the index up to date first");

  Common dependents_common;
  std::string dependents_file;
  CLI::App* dependents = app.add_subcommand("dependents", "Count the direct dependents of each symbol of a file");
  add_common(dependents, dependents_common);
  dependents->add_option("file", dependents_file, "File (relative to the root)")->required();

  Common query_common;
  QueryOptions query_options;
  CLI::App* query = app.add_subcommand("query", "The code a task needs, packed into a token budget (run_pipeline)");
  add_common(query, query_common);
  query->add_option("task", query_options.task, "The task: an issue, a question, a stack trace");
  query->add_option("--task-file", query_options.task_file,
                    "Read the task from a file (text, or JSON with problem_statement or task)");
  query->add_option("--max-tokens", query_options.max_tokens, "Token budget (o200k_base, default 8000)")
      ->check(CLI::Range(std::size_t{64}, std::size_t{2000000}));
  query->add_option("--level", query_options.level, "Compression of supporting files: 0 raw, 1 no comments, 2 skeleton")
      ->check(CLI::Range(0, 2));
  query->add_option("--price", query_options.price, "Dollars per million input tokens, for cost_estimation")
      ->check(CLI::Range(0.0, 10000.0));
  query->add_flag("--no-refresh", query_options.no_refresh, "Do not bring the index up to date first");

  Common file_common;
  std::string file_path, file_lines;
  int file_level = 0;
  CLI::App* file = app.add_subcommand("file", "Print a file at a compression level, with its token counts");
  add_common(file, file_common);
  file->add_option("path", file_path, "File (relative to the root)")->required();
  file->add_option("--level", file_level, "0 raw, 1 no comments, 2 skeleton")->check(CLI::Range(0, 2));
  file->add_option("--lines", file_lines, "Only lines A-B (of the output)");

  Common pack_common;
  PackFlags pack_flags;
  CLI::App* pack = app.add_subcommand(
      "pack", "Print every indexed source file at a compression level (like repomix --compress), cached in the index");
  pack->add_option("--root", pack_common.root, "Workspace root (default: the current directory)");
  pack->add_option("paths", pack_flags.prefixes, "Only files under these paths (relative to the root)");
  pack->add_option("--level", pack_flags.level, "0 raw, 1 no comments, 2 skeleton (default 2)")->check(CLI::Range(0, 2));
  pack->add_option("--jobs,-j", pack_flags.jobs, "Threads for files not in the cache (default: all cores)")
      ->check(CLI::Range(1u, 1024u));
  pack->add_option("--output,-o", pack_flags.output, "Write to this file instead of stdout");
  pack->add_flag("--no-refresh", pack_flags.no_refresh, "Do not bring the index up to date first");

  DaemonFlags serve_flags, mcp_flags;
  auto add_daemon = [&](const char* name, const char* help, DaemonFlags& flags) {
    CLI::App* command = app.add_subcommand(name, help);
    command->add_option("--root", flags.root, "Workspace root (default: the current directory)");
    command->add_option("--log-level", flags.log_level, "Log on stderr: error, warn, info (default), debug")
        ->check(CLI::IsMember({"error", "warn", "info", "debug"}));
    command->add_flag("--no-watch", flags.no_watch, "Do not watch the files (re-index on file_changed or reindex only)");
    command->add_option("--jobs,-j", flags.jobs, "Parser threads (default: all cores)")->check(CLI::Range(0u, 1024u));
    return command;
  };
  CLI::App* serve = add_daemon("serve", "The daemon for the editor: JSON-RPC 2.0 on stdin/stdout, one message per line", serve_flags);
  CLI::App* mcp = add_daemon("mcp", "The daemon for agents: an MCP server on stdin/stdout", mcp_flags);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    return code == 0 ? 0 : kExitUsage;
  }

  const Common& active = index->parsed() ? index_common
                         : symbols->parsed() ? symbols_common
                         : files->parsed()   ? files_common
                         : outline->parsed() ? outline_common
                         : edges->parsed()   ? edges_common
                         : query->parsed()   ? query_common
                         : file->parsed()    ? file_common
                         : symbol->parsed()  ? symbol_common
                         : diff->parsed()    ? diff_common
                         : dependents->parsed() ? dependents_common
                         : pack->parsed()    ? pack_common
                         : check->parsed()   ? check_common
                                             : stats_common;
  try {
    if (serve->parsed()) return run_daemon_command(serve_flags, comp::rpc::Protocol::kJsonRpc);
    if (mcp->parsed()) return run_daemon_command(mcp_flags, comp::rpc::Protocol::kMcp);
    if (index->parsed()) return run_index_command(index_common, jobs, max_file_size, rebuild, no_edges);
    if (symbols->parsed()) return run_symbols_command(symbols_common, filter);
    if (files->parsed()) return run_files_command(files_common, skipped_only, errors_only);
    if (stats->parsed()) return run_stats_command(stats_common);
    if (check->parsed()) return run_check_command(check_common);
    if (edges->parsed()) return run_edges_command(edges_common, edges_filter);
    if (query->parsed()) return run_query_command(query_common, query_options);
    if (file->parsed()) return run_file_command(file_common, file_path, file_level, file_lines);
    if (pack->parsed()) return run_pack_command(pack_common, pack_flags);
    if (symbol->parsed()) return run_symbol_command(symbol_common, symbol_name, symbol_file, symbol_depth, symbol_limit);
    if (diff->parsed()) return run_diff_command(diff_common, diff_base, diff_depth, diff_limit, !diff_no_refresh);
    if (dependents->parsed()) return run_dependents_command(dependents_common, dependents_file);
    if (outline->parsed()) return run_outline_command(outline_common, outline_file);
  } catch (const comp::graph::StoreError& error) {
    return report_store_error(error, checked_root(active.root));
  } catch (const std::exception& error) {
    std::cerr << "comp: " << error.what() << "\n";
    return kExitFailure;
  }
  return kExitUsage;
}
