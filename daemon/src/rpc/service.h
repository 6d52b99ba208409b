// service: the operations both protocols offer (`comp serve` methods and
// `comp mcp` tools), on one Workspace, with JSON parameters and results.
// Parameter errors throw rpc::Error(kInvalidParams) with a message that says
// what to send instead; each call that hands out code is recorded in the
// session memory.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "rpc/jsonrpc.h"
#include "rpc/session_memory.h"
#include "pipeline/pipeline.h"
#include "server/workspace.h"

namespace comp::rpc {

// Codes of the daemon's own errors (JSON-RPC's server-defined range).
enum ServiceError : int {
  kIndexNotReady = -32001,  // the first index is still being built
  kNotFound = -32004,       // no such symbol / file in the index
  kGitFailed = -32010,      // git refused (bad ref, not a repository)
};

class Service {
 public:
  // Progress of a long call: done out of total (total 0 when unknown).
  using Progress = std::function<void(double done, double total, const std::string& message)>;

  Service(server::Workspace& workspace, SessionMemory& memory) : workspace_(workspace), memory_(memory) {}

  void set_client(const std::string& name);
  // `tool` names the call in the session memory ("run_pipeline", "get_context", ...).
  // `markdown`, when given, receives the answer as an agent reads it
  // (pipeline::to_markdown): MCP's text block.
  nlohmann::json run_pipeline(const nlohmann::json& params, Call& call, const Progress& progress, const std::string& tool,
                              std::string* markdown = nullptr);
  nlohmann::json get_symbol(const nlohmann::json& params, Call& call, const Progress& progress, const std::string& tool);
  nlohmann::json diff_context(const nlohmann::json& params, Call& call, const Progress& progress, const std::string& tool);
  nlohmann::json search(const nlohmann::json& params, Call& call, const Progress& progress, const std::string& tool);
  // `text`, when given, receives the file as an agent reads it: a `## path`
  // heading (level, lines) and the content in a fence (pipeline/render.h).
  nlohmann::json get_file(const nlohmann::json& params, Call& call, const Progress& progress, const std::string& tool,
                          std::string* text = nullptr);
  nlohmann::json dependents_count(const nlohmann::json& params, Call& call);
  nlohmann::json index_status();
  nlohmann::json freshness(std::size_t stale_files = 0);
  // Languages and document formats comP reads, for initialize answers.
  static nlohmann::json languages();

  // After each index run: marks session-memory entries whose files changed.
  void refresh_session_memory();
  // After the first index run: reads the file list into the pipeline's cache
  // and compiles the symbol queries of the tree's main languages, so that
  // the first request does not pay for them (on material-ui, most of a
  // first get_context's 0.8 s).
  void warm_up();

 private:
  // Waits for a first index (with progress) and for pending changes to be
  // indexed (briefly), unless params say `"refresh": false`.
  void ensure_fresh(const nlohmann::json& params, const Progress& progress);
  void record(const std::string& tool, const std::string& query, const nlohmann::json& files,
              const nlohmann::json& symbols, std::size_t sent, std::size_t saved);

  server::Workspace& workspace_;
  SessionMemory& memory_;
  // The index's file list, kept between pipeline runs while the index is unchanged.
  pipeline::FileListCache file_lists_;
  std::mutex client_mutex_;
  std::string client_;
};

// Parameter readers: absent → fallback; wrong type or out of range → Error(kInvalidParams).
const nlohmann::json& object_params(const nlohmann::json& params);
std::string string_param(const nlohmann::json& params, const char* name, bool required, const std::string& fallback = {});
std::int64_t integer_param(const nlohmann::json& params, const char* name, std::int64_t fallback, std::int64_t min,
                           std::int64_t max);
bool bool_param(const nlohmann::json& params, const char* name, bool fallback);

}  // namespace comp::rpc
