#include "rpc/codec.h"

namespace comp::rpc {

nlohmann::json to_json(const index::IndexSummary& summary) {
  nlohmann::json errors = nlohmann::json::array();
  for (const index::FileError& error : summary.errors) errors.push_back({{"path", error.path}, {"message", error.message}});
  return {
      {"targeted", summary.targeted},
      {"files_on_disk", summary.files_on_disk},
      {"files_parsed", summary.files_parsed},
      {"files_unchanged", summary.files_unchanged},
      {"files_touched", summary.files_touched},
      {"files_removed", summary.files_removed},
      {"bytes_read", summary.bytes_read},
      {"files_by_language", summary.files_by_language},
      {"skipped_by_reason", summary.skipped_by_reason},
      {"symbols", summary.symbols},
      {"errors", errors},
      {"walk_errors", summary.walk_errors},
      {"references", {{"resolved_this_run", summary.resolve.references},
                      {"to_definition", summary.resolve.resolved},
                      {"ambiguous", summary.resolve.ambiguous},
                      {"not_found", summary.resolve.unresolved},
                      {"external", summary.resolve.external},
                      {"rounds", summary.resolve.rounds},
                      {"seconds", summary.resolve_seconds}}},
      {"full_text_merged", summary.full_text_merged},
      {"history_commits", summary.history_commits},
      {"elapsed_seconds", summary.elapsed_seconds},
      {"cpu_seconds", summary.cpu_seconds},
  };
}

nlohmann::json to_json(const graph::NodeRecord& node) {
  return {
      {"id", node.id},         {"file", node.file_path},         {"name", node.name},
      {"kind", node.kind},     {"line", node.line},              {"column", node.column},
      {"end_line", node.end_line}, {"end_column", node.end_column}, {"signature", node.signature},
      {"is_exported", node.is_exported}, {"scope", node.scope},   {"parent", node.parent_id},
  };
}

nlohmann::json to_json(const graph::FileRecord& file) {
  return {
      {"path", file.path},
      {"language", file.language},
      {"size", file.size},
      {"mtime_ns", file.mtime_ns},
      {"sha256", file.sha256},
      {"skip_reason", file.skip_reason},
      {"error", file.error},
      {"has_syntax_errors", file.has_syntax_errors},
      {"symbols", file.symbol_count},
      {"indexed_at", file.indexed_at},
  };
}

nlohmann::json to_json(const graph::Stats& stats) {
  return {
      {"files", stats.files},
      {"indexed_files", stats.indexed_files},
      {"skipped_files", stats.skipped_files},
      {"files_with_errors", stats.files_with_errors},
      {"symbols", stats.symbols},
      {"edges", stats.edges},
      {"source_bytes", stats.source_bytes},
      {"database_bytes", stats.database_bytes},
      {"files_by_language", stats.files_by_language},
      {"symbols_by_kind", stats.symbols_by_kind},
      {"skipped_by_reason", stats.skipped_by_reason},
  };
}

nlohmann::json to_json(const parse::ParseResult& result) {
  nlohmann::json symbols = nlohmann::json::array();
  for (const auto& symbol : result.symbols)
    symbols.push_back({{"name", symbol.name}, {"kind", symbol.kind}, {"line", symbol.line},
                       {"column", symbol.column}, {"end_line", symbol.end_line}, {"end_column", symbol.end_column},
                       {"signature", symbol.signature}, {"scope", symbol.scope}, {"is_exported", symbol.is_exported}});
  nlohmann::json references = nlohmann::json::array();
  for (const auto& ref : result.references)
    references.push_back({{"kind", ref.kind}, {"name", ref.name}, {"qualifier", ref.qualifier},
                          {"alias", ref.alias}, {"binds", ref.binds}, {"line", ref.line}, {"column", ref.column},
                          {"from", ref.from >= 0 ? nlohmann::json(result.symbols[static_cast<std::size_t>(ref.from)].scope)
                                                 : nlohmann::json(nullptr)}});
  return {{"symbols", symbols}, {"references", references}, {"errors", result.errors},
          {"has_syntax_errors", result.has_syntax_errors}};
}

std::string_view to_string(graph::RefStatus status) {
  switch (status) {
    case graph::RefStatus::kPending: return "pending";
    case graph::RefStatus::kResolved: return "resolved";
    case graph::RefStatus::kAmbiguous: return "ambiguous";
    case graph::RefStatus::kUnresolved: return "unresolved";
    case graph::RefStatus::kExternal: return "external";
  }
  return "unknown";
}

nlohmann::json to_json(const graph::RefRecord& ref, const graph::NodeRecord* target) {
  nlohmann::json null;
  return {{"from", ref.from_node}, {"to", target ? nlohmann::json(target->id) : null}, {"kind", ref.kind},
          {"file", ref.file_path}, {"line", ref.line}, {"column", ref.column}, {"name", ref.name},
          {"qualifier", ref.qualifier}, {"alias", ref.alias}, {"binds", ref.binds}, {"status", to_string(ref.status)},
          {"candidates", ref.candidates},
          {"to_path", ref.target_path.empty() ? null : nlohmann::json(ref.target_path)},
          {"to_file", target ? nlohmann::json(target->file_path) : null},
          {"to_line", target ? nlohmann::json(target->line) : null},
          {"to_end_line", target ? nlohmann::json(target->end_line) : null},
          {"to_name", target ? nlohmann::json(target->name) : null},
          {"to_kind", target ? nlohmann::json(target->kind) : null}};
}

namespace {

nlohmann::json reached_json(const std::vector<query::Reached>& list) {
  nlohmann::json out = nlohmann::json::array();
  for (const query::Reached& r : list) {
    nlohmann::json item = to_json(r.node);
    item["depth"] = r.depth;
    item["via"] = r.via.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.via);
    item["edge_kinds"] = r.kinds;
    item["lines"] = r.lines;
    out.push_back(std::move(item));
  }
  return out;
}

nlohmann::json ranges_json(const std::vector<vcs::LineRange>& ranges) {
  nlohmann::json out = nlohmann::json::array();
  for (const vcs::LineRange& range : ranges) out.push_back({{"start", range.start}, {"count", range.count}});
  return out;
}

}  // namespace

nlohmann::json to_json(const query::SymbolReport& report) {
  nlohmann::json ambiguous = nlohmann::json::array();
  for (const graph::RefRecord& ref : report.ambiguous)
    ambiguous.push_back({{"line", ref.line}, {"name", ref.name}, {"qualifier", ref.qualifier},
                         {"candidates", ref.candidates}, {"kind", ref.kind}});
  return {{"symbol", to_json(report.symbol)},
          {"source", report.source},
          {"dependents", reached_json(report.dependents)},
          {"dependencies", reached_json(report.dependencies)},
          {"ambiguous", ambiguous},
          {"ambiguous_inbound", report.ambiguous_inbound},
          {"truncated", report.truncated}};
}

nlohmann::json to_json(const query::DiffReport& report) {
  nlohmann::json changes = nlohmann::json::array();
  for (const vcs::FileChange& change : report.changes)
    changes.push_back({{"path", change.path}, {"old_path", change.old_path}, {"status", std::string(1, change.status)},
                       {"binary", change.binary}, {"new_ranges", ranges_json(change.new_ranges)},
                       {"old_ranges", ranges_json(change.old_ranges)}});
  nlohmann::json changed = nlohmann::json::array();
  for (const query::ChangedSymbol& symbol : report.changed) {
    nlohmann::json item = to_json(symbol.node);
    item["hunks"] = ranges_json(symbol.ranges);
    changed.push_back(std::move(item));
  }
  nlohmann::json related = nlohmann::json::array();
  for (const query::RankedNode& ranked : report.related) {
    nlohmann::json item = to_json(ranked.node);
    item["distance"] = ranked.distance;
    item["direction"] = ranked.direction;
    item["via"] = ranked.via;
    related.push_back(std::move(item));
  }
  return {{"base_commit", report.base_commit}, {"changes", changes}, {"changed_symbols", changed},
          {"related", related}};
}

nlohmann::json to_json(const std::vector<std::pair<graph::NodeRecord, std::int64_t>>& counts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [node, count] : counts)
    out.push_back({{"id", node.id}, {"name", node.name}, {"kind", node.kind}, {"line", node.line},
                   {"end_line", node.end_line}, {"dependents", count}});
  return out;
}

nlohmann::json to_json(const pipeline::Result& result) {
  nlohmann::json pivots = nlohmann::json::array();
  for (const pipeline::PivotFile& pivot : result.pivot_files)
    pivots.push_back({{"path", pivot.path}, {"score", pivot.score}, {"symbols", pivot.symbols},
                      {"token_count", pivot.token_count}, {"raw_token_count", pivot.raw_token_count},
                      {"compression_level", pivot.level}, {"full_bodies", pivot.full_bodies},
                      {"lines", pivot.lines.empty() ? nlohmann::json(nullptr) : nlohmann::json(pivot.lines)},
                      {"documents", pivot.documents.empty() ? nlohmann::json(nullptr) : nlohmann::json(pivot.documents)},
                      {"required_by", pivot.required_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(pivot.required_by)},
                      {"used_by", pivot.used_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(pivot.used_by)},
                      {"uses", pivot.uses.empty() ? nlohmann::json(nullptr) : nlohmann::json(pivot.uses)},
                      {"changed_with", pivot.changed_with.empty() ? nlohmann::json(nullptr) : nlohmann::json(pivot.changed_with)},
                      {"manifest_of", pivot.manifest_of.empty() ? nlohmann::json(nullptr) : nlohmann::json(pivot.manifest_of)},
                      {"outline", pivot.outline},
                      {"content", pivot.content}});
  nlohmann::json ranking = nlohmann::json::array();
  for (const pipeline::RankedFile& ranked : result.ranking)
    ranking.push_back({{"path", ranked.path}, {"score", ranked.score}, {"why", ranked.why}});
  // What comP read in the task, the first 100 of each kind: a pasted log's
  // tens of thousands of names would make the answer megabytes (MCP sends
  // this JSON as structuredContent beside the Markdown).
  const pipeline::TaskTerms& terms = result.terms;
  static constexpr std::size_t kMostTerms = 100;
  auto first = [](const std::vector<std::string>& all) {
    return std::vector<std::string>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), kMostTerms)));
  };
  nlohmann::json frames = nlohmann::json::array();
  for (std::size_t i = 0; i < terms.frames.size() && i < kMostTerms; ++i)
    frames.push_back({{"path", terms.frames[i].path}, {"line", terms.frames[i].line}, {"function", terms.frames[i].function}});
  return {{"pivot_files", pivots},
          {"token_savings", result.token_savings},
          {"cost_estimation", result.cost_estimation},
          {"tokens_sent", result.tokens_sent},
          {"answer_tokens", result.answer_tokens},
          {"raw_tokens", result.raw_tokens},
          {"max_tokens", result.max_tokens},
          {"ranking", ranking},
          {"left_out", result.left_out},
          {"freshness", {{"stale_files", result.stale_files}}},
          {"task_terms", {{"identifiers", first(terms.identifiers)}, {"dotted", first(terms.dotted)},
                          {"paths", first(terms.paths)}, {"frames", frames}, {"quoted", first(terms.quoted)},
                          {"words", first(terms.words)}, {"compounds", first(terms.compounds)}}},
          {"timing_ms", {{"search", result.search_ms}, {"pack", result.pack_ms}}}};
}

std::string task_text(const std::string& content) {
  nlohmann::json json = nlohmann::json::parse(content, nullptr, /*allow_exceptions=*/false);
  if (json.is_object()) {
    for (const char* key : {"problem_statement", "task"}) {
      auto found = json.find(key);
      if (found != json.end() && found->is_string()) return found->get<std::string>();
    }
  }
  return content;
}

nlohmann::json to_json(const pipeline::FileView& view, const std::string& path, const std::string& lines) {
  return {{"path", path},          {"level", view.level},   {"raw_tokens", view.raw_tokens},
          {"tokens", view.tokens}, {"lines", lines.empty() ? nlohmann::json(nullptr) : nlohmann::json(lines)},
          {"content", view.text}};
}

std::string dump(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace comp::rpc
