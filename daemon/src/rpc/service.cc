#include "rpc/service.h"

#include <algorithm>
#include <map>
#include <set>

#include "docs/document.h"
#include "lang/language.h"
#include "pack/cache.h"
#include "parse/symbols.h"
#include "pipeline/pipeline.h"
#include "pipeline/render.h"
#include "query/graph_query.h"
#include "rpc/codec.h"
#include "vcs/git.h"
#include "walk/walker.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace comp::rpc {
namespace {

constexpr auto kFirstIndexWait = std::chrono::seconds(120);
constexpr auto kFreshWait = std::chrono::milliseconds(1500);

std::string type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "a number";
  }
}

// A workspace-relative path from a client, or an error: absolute paths,
// `..` and comP's own files never reach the file system.
std::string relative_path_param(const json& params, const char* name) {
  std::string raw = string_param(params, name, true);
  fs::path rel = fs::path(raw).lexically_normal();
  std::string text = rel.generic_string();
  if (raw.empty() || rel.is_absolute() || text == "." || text == ".." || text.starts_with("../") ||
      raw.find('\0') != std::string::npos)
    throw Error(kInvalidParams, std::string("`") + name + "` must be a path relative to the workspace root, inside it: got '" + raw + "'");
  return text;
}

}  // namespace

const json& object_params(const json& params) {
  static const json empty = json::object();
  if (params.is_null()) return empty;
  if (!params.is_object()) throw Error(kInvalidParams, "params must be an object with named fields");
  return params;
}

std::string string_param(const json& params, const char* name, bool required, const std::string& fallback) {
  const json& object = object_params(params);
  auto found = object.find(name);
  if (found == object.end() || found->is_null()) {
    if (required) throw Error(kInvalidParams, std::string("missing `") + name + "` (a string)");
    return fallback;
  }
  if (!found->is_string())
    throw Error(kInvalidParams, std::string("`") + name + "` must be a string, not " + type_name(*found));
  return found->get<std::string>();
}

std::int64_t integer_param(const json& params, const char* name, std::int64_t fallback, std::int64_t min,
                           std::int64_t max) {
  const json& object = object_params(params);
  auto found = object.find(name);
  if (found == object.end() || found->is_null()) return fallback;
  bool integral = found->is_number_integer() ||
                  (found->is_number_float() && found->get<double>() == static_cast<double>(static_cast<std::int64_t>(found->get<double>())));
  if (!integral)
    throw Error(kInvalidParams, std::string("`") + name + "` must be an integer, not " + type_name(*found));
  std::int64_t value = found->is_number_float() ? static_cast<std::int64_t>(found->get<double>()) : found->get<std::int64_t>();
  if (found->is_number_unsigned() && found->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) value = max + 1;
  if (value < min || value > max)
    throw Error(kInvalidParams, std::string("`") + name + "` must be between " + std::to_string(min) + " and " +
                                    std::to_string(max) + ", got " + found->dump());
  return value;
}

bool bool_param(const json& params, const char* name, bool fallback) {
  const json& object = object_params(params);
  auto found = object.find(name);
  if (found == object.end() || found->is_null()) return fallback;
  if (!found->is_boolean())
    throw Error(kInvalidParams, std::string("`") + name + "` must be true or false, not " + type_name(*found));
  return found->get<bool>();
}

void Service::set_client(const std::string& name) {
  std::lock_guard lock(client_mutex_);
  client_ = name;
}

json Service::languages() {
  json names = json::array();
  for (lang::Language language : lang::all_languages()) names.push_back(std::string(lang::name(language)));
  return names;
}

json Service::index_status() {
  server::IndexState state = workspace_.state();
  return {{"ready", state.ready},
          {"indexing", state.indexing},
          {"waiting_for_writer", state.waiting_for_writer},
          {"done", state.done},
          {"total", state.total},
          {"pending_changes", state.pending_changes},
          {"watch", state.watch_mode},
          {"watched_directories", state.watched_directories},
          {"last_error", state.last_error.empty() ? json(nullptr) : json(state.last_error)},
          {"runs", state.runs},
          {"last_run_seconds", state.last_run_seconds},
          {"last_run_at", state.last_run_at == 0 ? json(nullptr) : json(state.last_run_at)},
          {"last_run", state.runs ? to_json(state.last) : json(nullptr)}};
}

json Service::freshness(std::size_t stale_files) {
  server::IndexState state = workspace_.state();
  return {{"stale_files", stale_files},
          {"pending_changes", state.pending_changes},
          {"indexing", state.indexing || state.waiting_for_writer},
          {"ready", state.ready},
          {"last_indexed_at", state.last_run_at == 0 ? json(nullptr) : json(state.last_run_at)}};
}

void Service::ensure_fresh(const json& params, const Progress& progress) {
  if (!workspace_.state().ready) {
    bool ready = workspace_.wait_ready(kFirstIndexWait, [&](const server::IndexState& state) {
      if (progress)
        progress(static_cast<double>(state.done), static_cast<double>(state.total),
                 "indexing the workspace: " + std::to_string(state.done) + " of " + std::to_string(state.total) + " files");
    });
    if (!ready) {
      server::IndexState state = workspace_.state();
      throw Error(kIndexNotReady,
                  state.last_error.empty()
                      ? "the index is still being built (" + std::to_string(state.done) + " of " +
                            std::to_string(state.total) + " files); try again in a moment"
                      : "the index could not be built: " + state.last_error);
    }
  }
  if (bool_param(params, "refresh", true)) workspace_.wait_idle(kFreshWait);
}

void Service::record(const std::string& tool, const std::string& query, const json& files, const json& symbols,
                     std::size_t sent, std::size_t saved) {
  std::string client;
  {
    std::lock_guard lock(client_mutex_);
    client = client_;
  }
  try {
    memory_.record({{"tool", tool},
                    {"client", client},
                    {"query", query.size() > 2000 ? query.substr(0, 2000) : query},
                    {"files", files},
                    {"symbols", symbols},
                    {"tokens_sent", sent},
                    {"tokens_saved", saved}});
  } catch (const std::exception&) {
    // The memory is a convenience: nothing here may fail the call (the entry
    // is written after the answer, by the memory's own thread).
  }
}

void Service::refresh_session_memory() {
  try {
    auto reader = workspace_.read();
    memory_.refresh([&](const std::string& path) -> std::optional<std::string> {
      auto file = reader->file(path);
      if (!file || !file->skip_reason.empty()) return std::nullopt;
      return file->sha256;
    });
  } catch (const std::exception&) {
  }
}

void Service::warm_up() {
  try {
    auto reader = workspace_.read();
    std::shared_ptr<const pipeline::FileList> list;
    {
      graph::ReadSnapshot snapshot(reader.store());  // the list and its version of one state
      list = file_lists_.get(reader.store());
    }
    std::map<std::string_view, std::size_t> by_language;
    for (const graph::IndexedFile& file : list->files)
      if (!file.language.empty()) ++by_language[file.language];
    std::size_t sources = 0;
    for (const auto& [language, count] : by_language) sources += count;
    // The languages of at least one source file in twenty: those the packs
    // parse (a stray script's language waits for its first use).
    for (const auto& [name, count] : by_language)
      if (auto language = lang::from_name(name); language && count * 20 >= sources) parse::compile_queries(*language);
  } catch (const std::exception&) {
    // Only speed is lost: the first request reads and compiles instead.
  }
}

json Service::run_pipeline(const json& params, Call& call, const Progress& progress, const std::string& tool,
                           std::string* markdown) {
  pipeline::Request request;
  request.task = string_param(params, "task", true);
  if (request.task.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(kInvalidParams, "`task` is empty: give the issue, question or stack trace to find code for");
  if (request.task.size() > (1u << 20))
    throw Error(kInvalidParams, "`task` is over 1 MiB: give the issue text and the relevant part of the log");
  request.max_tokens = static_cast<std::size_t>(integer_param(params, "max_tokens", 8000, 64, 2000000));
  request.compression_level = static_cast<int>(integer_param(params, "compression_level", 2, 0, 2));
  request.include_content = bool_param(params, "include_content", true);
  const json& object = object_params(params);
  if (object.contains("price_per_million")) {
    if (!object["price_per_million"].is_number() || object["price_per_million"].get<double>() < 0)
      throw Error(kInvalidParams, "`price_per_million` must be a non-negative number (dollars)");
    request.price_per_million = object["price_per_million"].get<double>();
  }
  request.cancelled = [&call] { return call.cancelled(); };
  ensure_fresh(params, progress);
  // A watcher sees every change: what it has not re-indexed yet is what is
  // stale, without a stat of every file per query (polling or no watch: the
  // pipeline counts).
  if (server::IndexState state = workspace_.state(); state.watch_mode == "inotify")
    request.stale_files = state.pending_changes;
  if (progress) progress(1, 2, "ranking files");
  auto reader = workspace_.read();
  pipeline::Result result = pipeline::run_pipeline(reader.store(), workspace_.root(), request, &file_lists_);
  if (progress) progress(2, 2, "packed");
  if (markdown) *markdown = pipeline::to_markdown(result);
  json out = to_json(result);
  if (!request.include_content)
    for (json& pivot : out["pivot_files"]) pivot.erase("content");
  out["freshness"] = freshness(result.stale_files);
  json files = json::array(), symbols = json::array();
  for (const pipeline::PivotFile& pivot : result.pivot_files) {
    auto file = reader->file(pivot.path);
    files.push_back({{"path", pivot.path}, {"sha256", file ? file->sha256 : ""}, {"tokens", pivot.token_count}});
    for (const std::string& symbol : pivot.symbols)
      if (symbols.size() < 100) symbols.push_back(symbol);
  }
  record(tool, request.task, files, symbols, result.tokens_sent, result.token_savings);
  return out;
}

json Service::get_symbol(const json& params, Call&, const Progress& progress, const std::string& tool) {
  std::string name = string_param(params, "name", true);
  std::string file = string_param(params, "file", false);
  int depth = static_cast<int>(integer_param(params, "depth", 2, 1, 10));
  std::size_t limit = static_cast<std::size_t>(integer_param(params, "limit", 200, 1, 100000));
  ensure_fresh(params, progress);
  auto reader = workspace_.read();
  std::vector<graph::NodeRecord> found = query::find_symbols(reader.store(), name, file);
  if (found.empty())
    throw Error(kNotFound, "no symbol named '" + name + "'" + (file.empty() ? "" : " in " + file) +
                               "; search for similar names");
  if (found.size() > 1) {
    json choices = json::array();
    for (const auto& node : found) choices.push_back(to_json(node));
    return {{"symbol", nullptr}, {"choices", choices}, {"markdown", query::to_markdown(found, name)},
            {"freshness", freshness()}};
  }
  query::SymbolReport report = query::symbol_report(reader.store(), workspace_.root(), found[0], depth, limit);
  json out = to_json(report);
  out["choices"] = json::array();
  out["markdown"] = query::to_markdown(report);
  out["freshness"] = freshness();
  auto record_file = reader->file(report.symbol.file_path);
  record(tool, name,
         json::array({{{"path", report.symbol.file_path}, {"sha256", record_file ? record_file->sha256 : ""},
                       {"tokens", 0}}}),
         json::array({report.symbol.id}), 0, 0);
  return out;
}

json Service::diff_context(const json& params, Call&, const Progress& progress, const std::string& tool) {
  std::string base = string_param(params, "base", false, "HEAD");
  int depth = static_cast<int>(integer_param(params, "depth", 2, 1, 10));
  std::size_t limit = static_cast<std::size_t>(integer_param(params, "limit", 200, 1, 100000));
  ensure_fresh(params, progress);
  auto reader = workspace_.read();
  query::DiffReport report;
  try {
    report = query::diff_report(reader.store(), workspace_.root(), base, depth, limit);
  } catch (const vcs::GitError& error) {
    throw Error(error.kind() == vcs::GitError::Kind::kBadRef ? int{kInvalidParams} : int{kGitFailed}, error.what());
  }
  json out = to_json(report);
  out["markdown"] = query::to_markdown(report);
  out["freshness"] = freshness();
  json files = json::array(), symbols = json::array();
  for (const vcs::FileChange& change : report.changes) {
    auto file = reader->file(change.path);
    files.push_back({{"path", change.path}, {"sha256", file ? file->sha256 : ""}, {"tokens", 0}});
  }
  for (const query::ChangedSymbol& changed : report.changed)
    if (symbols.size() < 100) symbols.push_back(changed.node.id);
  record(tool, "diff " + base, files, symbols, 0, 0);
  return out;
}

json Service::search(const json& params, Call&, const Progress& progress, const std::string& tool) {
  std::string text = string_param(params, "query", true);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(kInvalidParams, "`query` is empty: give a name, words or a dotted name");
  std::size_t limit = static_cast<std::size_t>(integer_param(params, "limit", 20, 1, 200));
  ensure_fresh(params, progress);
  auto reader = workspace_.read();
  query::SearchResult result = query::search(reader.store(), text, limit);
  json symbols = json::array(), files = json::array();
  for (const auto& [node, score] : result.symbols)
    symbols.push_back({{"id", node.id}, {"name", node.name}, {"kind", node.kind}, {"file", node.file_path},
                       {"line", node.line}, {"end_line", node.end_line}, {"signature", node.signature},
                       {"score", score}});
  for (const auto& [path, score] : result.files) files.push_back({{"path", path}, {"score", score}});
  (void)tool;  // searches hand out no code: not recorded
  return {{"symbols", symbols}, {"files", files}, {"markdown", query::to_markdown(result, text)},
          {"freshness", freshness()}};
}

json Service::get_file(const json& params, Call&, const Progress& progress, const std::string& tool,
                       std::string* text) {
  std::string path = relative_path_param(params, "path");
  int level = static_cast<int>(integer_param(params, "level", 0, 0, 2));
  std::string lines = string_param(params, "lines", false);
  std::uint32_t first = 0, last = 0;
  if (!lines.empty() && !pipeline::parse_line_range(lines, first, last))
    throw Error(kInvalidParams, "`lines` must be \"A-B\" with 1 <= A <= B, or \"A\"");
  ensure_fresh(params, progress);
  auto reader = workspace_.read();
  // Only files the index holds: the walk never leaves the root, follows no
  // directory symlink and honours the ignore rules, so neither does this.
  auto file = reader->file(path);
  if (!file) throw Error(kNotFound, "'" + path + "' is not a file in the index (ignored, outside the root or absent)");
  if (!file->skip_reason.empty())
    throw Error(kNotFound, "'" + path + "' is not indexed: " + file->skip_reason);
  bool document = docs::format_of(path).has_value();  // binary on disk: its text is in the index
  std::string content = document ? reader->file_text(path).value_or("")
                                 : walk::read_in_root(workspace_.root(), path, 16u << 20);
  std::error_code ec;
  if (!document && content.empty() && fs::file_size(workspace_.root() / path, ec) != 0)
    throw Error(kNotFound, "'" + path + "' cannot be read now (changed or removed since indexed)");
  pack::CompressionCache cache(reader.store(), workspace_.root());
  pipeline::FileView view = pipeline::view_file(path, content, level, first, last, &cache);
  if (text) {
    pipeline::PivotFile shown;
    shown.path = path;
    shown.level = view.level;
    shown.lines = lines;
    shown.content = view.text;
    *text = pipeline::to_markdown(shown);
  }
  json out = to_json(view, path, lines);
  out["freshness"] = freshness(0);
  record(tool, path, json::array({{{"path", path}, {"sha256", file->sha256}, {"tokens", view.tokens}}}), json::array(),
         view.tokens, view.raw_tokens > view.tokens ? view.raw_tokens - view.tokens : 0);
  return out;
}

json Service::dependents_count(const json& params, Call&) {
  std::string path = relative_path_param(params, "path");
  auto reader = workspace_.read();
  if (!reader->file(path)) throw Error(kNotFound, "'" + path + "' is not in the index");
  return {{"path", path}, {"symbols", to_json(query::dependents_count(reader.store(), path))},
          {"freshness", freshness()}};
}

}  // namespace comp::rpc
