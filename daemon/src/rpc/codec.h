// rpc: the only layer that knows JSON. Converts the libraries' plain structs
// to JSON for `--json` output now and for JSON-RPC/MCP later.
#pragma once

#include <nlohmann/json.hpp>

#include "graph/store.h"
#include "index/indexer.h"
#include "pipeline/pipeline.h"
#include "query/graph_query.h"

namespace comp::rpc {

// JSON text of `value`. Invalid UTF-8 in strings (a Latin-1 source file, a
// binary-ish task) becomes U+FFFD instead of failing the whole answer.
std::string dump(const nlohmann::json& value, int indent = -1);

nlohmann::json to_json(const index::IndexSummary& summary);
nlohmann::json to_json(const graph::NodeRecord& node);
nlohmann::json to_json(const graph::FileRecord& file);
nlohmann::json to_json(const graph::Stats& stats);
nlohmann::json to_json(const parse::ParseResult& result);
// A reference with its target node (null when unresolved).
nlohmann::json to_json(const graph::RefRecord& ref, const graph::NodeRecord* target);
std::string_view to_string(graph::RefStatus status);
nlohmann::json to_json(const query::SymbolReport& report);
// run_pipeline's result (seed 5.1 plus ranking, left_out, freshness).
nlohmann::json to_json(const pipeline::Result& result);
// The text of a task file: JSON with a `problem_statement` or `task` string,
// else the content itself.
std::string task_text(const std::string& content);
// A file view (comp file --json, get_file): path, level, raw_tokens, tokens, lines, content.
nlohmann::json to_json(const pipeline::FileView& view, const std::string& path, const std::string& lines);
nlohmann::json to_json(const query::DiffReport& report);
nlohmann::json to_json(const std::vector<std::pair<graph::NodeRecord, std::int64_t>>& counts);

}  // namespace comp::rpc
