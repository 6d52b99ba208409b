#include "rpc/daemon.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <memory>

#include "pipeline/pipeline.h"
#include "rpc/codec.h"
#include "rpc/jsonrpc.h"
#include "rpc/service.h"
#include "rpc/session_memory.h"
#include "server/log.h"
#include "server/workspace.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace comp::rpc {
namespace {

constexpr const char* kVersion = "0.1.0";

json text_content(const std::string& text) { return json::array({json{{"type", "text"}, {"text", text}}}); }

json compact_status(const server::IndexState& state) {
  return {{"ready", state.ready},           {"indexing", state.indexing},
          {"waiting_for_writer", state.waiting_for_writer},
          {"done", state.done},             {"total", state.total},
          {"pending_changes", state.pending_changes},
          {"watch", state.watch_mode},      {"last_error", state.last_error.empty() ? json(nullptr) : json(state.last_error)}};
}

// Paths from the editor: workspace-relative, or absolute under the root.
std::vector<std::string> changed_paths(const json& params, const fs::path& root) {
  std::vector<std::string> out;
  auto take = [&](const json& value) {
    if (!value.is_string()) return;
    fs::path path(value.get<std::string>());
    if (path.is_absolute()) {
      fs::path rel = path.lexically_normal().lexically_relative(root);
      if (rel.empty() || rel.native().starts_with("..")) return;
      path = rel;
    }
    out.push_back(path.generic_string());
  };
  if (!params.is_object()) return out;
  if (params.contains("paths") && params["paths"].is_array())
    for (const json& value : params["paths"]) take(value);
  if (params.contains("path")) take(params["path"]);
  return out;
}

// ---- MCP tool surface: small on purpose (agents pay for it every turn) ----

json mcp_tools(bool structured) {
  json object = {{"type", "object"}};
  json tools = json::array({
      {{"name", "get_context"},
       {"description",
        "Start here for any task in this repository. Finds the code the task needs and returns it within a token "
        "budget, as Markdown (a `## path` heading per file, best first): the files most likely to change (whole, or "
        "their relevant symbols in full), supporting files as skeletons (far down the ranking as outlines: numbered "
        "definition lines, a page's headings), their documentation pages, and the top of the changelog when the "
        "project's pull-request template asks for an entry. get_file shows more of a file. Pass the whole issue or "
        "error text, stack traces included."},
       {"inputSchema",
        {{"type", "object"},
         {"properties",
          {{"task", {{"type", "string"}, {"description", "The task: issue text, question, or error with stack trace"}}},
           {"max_tokens", {{"type", "integer"}, {"minimum", 64}, {"default", 8000}, {"description", "Hard limit on tokens returned"}}},
           {"compression_level",
            {{"type", "integer"}, {"enum", {0, 1, 2}}, {"default", 2},
             {"description", "Supporting files: 0 raw, 1 without comments, 2 signatures only"}}}}},
         {"required", {"task"}}}},
       {"outputSchema",
        {{"type", "object"},
         {"properties",
          {{"pivot_files", {{"type", "array"}, {"items", object}}},
           {"tokens_sent", {{"type", "integer"}}},
           {"token_savings", {{"type", "integer"}}},
           {"left_out", {{"type", "array"}, {"items", {{"type", "string"}}}}},
           {"freshness", object}}},
         {"required", {"pivot_files", "tokens_sent"}}}}},
      {{"name", "get_symbol"},
       {"description",
        "A function, class or method: its definition and source, what depends on it (blast radius, transitively) "
        "and what it uses. Call before changing a symbol's behaviour or signature."},
       {"inputSchema",
        {{"type", "object"},
         {"properties",
          {{"name", {{"type", "string"}, {"description", "Name, Class.method, or id from another answer"}}},
           {"file", {{"type", "string"}, {"description", "Only the definition in this file"}}},
           {"depth", {{"type", "integer"}, {"minimum", 1}, {"maximum", 10}, {"default", 2}}}}},
         {"required", {"name"}}}},
       {"outputSchema",
        {{"type", "object"},
         {"properties",
          {{"symbol", {{"anyOf", {object, {{"type", "null"}}}}}},
           {"choices", {{"type", "array"}, {"items", object}}},
           {"markdown", {{"type", "string"}}}}},
         {"required", {"markdown"}}}}},
      {{"name", "get_diff_context"},
       {"description",
        "The working tree's changes since a commit: changed symbols and the code that depends on them or that they "
        "use. For reviewing or finishing a change."},
       {"inputSchema",
        {{"type", "object"},
         {"properties",
          {{"base", {{"type", "string"}, {"default", "HEAD"}, {"description", "Commit, branch or tag"}}},
           {"depth", {{"type", "integer"}, {"minimum", 1}, {"maximum", 10}, {"default", 2}}}}}}},
       {"outputSchema",
        {{"type", "object"},
         {"properties",
          {{"base_commit", {{"type", "string"}}},
           {"changed_symbols", {{"type", "array"}, {"items", object}}},
           {"related", {{"type", "array"}, {"items", object}}},
           {"markdown", {{"type", "string"}}}}},
         {"required", {"base_commit", "markdown"}}}}},
      {{"name", "search_code"},
       {"description", "Find symbols and files by name or words: exact names first, then ranked matches. Cheap; "
                       "use it to locate code before reading it."},
       {"inputSchema",
        {{"type", "object"},
         {"properties",
          {{"query", {{"type", "string"}}},
           {"limit", {{"type", "integer"}, {"minimum", 1}, {"maximum", 200}, {"default", 20}}}}},
         {"required", {"query"}}}},
       {"outputSchema",
        {{"type", "object"},
         {"properties",
          {{"symbols", {{"type", "array"}, {"items", object}}},
           {"files", {{"type", "array"}, {"items", object}}},
           {"markdown", {{"type", "string"}}}}},
         {"required", {"symbols", "files", "markdown"}}}}},
      {{"name", "get_file"},
       {"description",
        "A file of this repository, whole or a line range, at a compression level, with its token count. Level 2 "
        "shows signatures only: read it first, then the lines you need at level 0."},
       {"inputSchema",
        {{"type", "object"},
         {"properties",
          {{"path", {{"type", "string"}, {"description", "Relative to the repository root"}}},
           {"level", {{"type", "integer"}, {"enum", {0, 1, 2}}, {"default", 0}}},
           {"lines", {{"type", "string"}, {"description", "\"A-B\" (of the output)"}}}}},
         {"required", {"path"}}}},
       {"outputSchema",
        {{"type", "object"},
         {"properties",
          {{"path", {{"type", "string"}}}, {"level", {{"type", "integer"}}}, {"tokens", {{"type", "integer"}}},
           {"content", {{"type", "string"}}}}},
         {"required", {"path", "content"}}}}},
  });
  for (json& tool : tools) {
    tool["annotations"] = {{"readOnlyHint", true}};
    if (!structured) tool.erase("outputSchema");
  }
  return tools;
}

std::string mcp_instructions() {
  std::string languages;
  for (const json& name : Service::languages()) languages += (languages.empty() ? "" : ", ") + name.get<std::string>();
  return "comP indexes this repository's code (" + languages +
         ") and documents (.docx, .pptx, .xlsx, .pdf pages, .parquet schemas) into a symbol graph and a search "
         "index, kept fresh as files change. Start a task with get_context, "
         "passing the whole issue or error text. Before changing a symbol, get_symbol shows what depends on it. "
         "get_diff_context shows the reach of uncommitted changes; search_code finds names; get_file reads a file "
         "at a compression level. Each answer has `freshness`: `indexing: true` means the index is catching up.";
}

}  // namespace

const std::vector<std::string>& mcp_versions() {
  static const std::vector<std::string> versions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
  return versions;
}

std::string negotiate_mcp_version(const std::string& requested) {
  const auto& versions = mcp_versions();
  return std::find(versions.begin(), versions.end(), requested) != versions.end() ? requested : versions.front();
}

int run_daemon(const DaemonOptions& options, int in_fd, int out_fd) {
  ::signal(SIGPIPE, SIG_IGN);  // a vanished client shows as a write error, not a signal
  const bool mcp = options.protocol == Protocol::kMcp;
  std::atomic<bool> output_broken{false}, exit_requested{false}, initialized{false}, shutting_down{false};
  Endpoint endpoint(
      [&](const std::string& line) {
        if (output_broken) return;
        std::string framed = line + "\n";
        std::size_t written = 0;
        while (written < framed.size()) {
          ssize_t n = ::write(out_fd, framed.data() + written, framed.size() - written);
          if (n < 0 && errno == EINTR) continue;
          if (n <= 0) {
            output_broken = true;
            return;
          }
          written += static_cast<std::size_t>(n);
        }
      },
      options.workers);
  endpoint.set_cancellation(mcp ? "notifications/cancelled" : "$/cancelRequest", mcp ? "requestId" : "id",
                            /*answer_cancelled=*/!mcp);
  SessionMemory memory(options.root);

  // The workspace calls back from its thread: `service` is set before start().
  std::atomic<Service*> service_ptr{nullptr};
  std::mutex progress_mutex;
  std::chrono::steady_clock::time_point last_progress{};
  bool last_indexing = false;
  server::Workspace::Options workspace_options;
  workspace_options.root = options.root;
  workspace_options.watch = options.watch;
  workspace_options.jobs = options.jobs;
  workspace_options.on_progress = [&](const server::IndexState& state) {
    if (mcp || !initialized) return;
    std::lock_guard lock(progress_mutex);
    auto now = std::chrono::steady_clock::now();
    if (state.indexing == last_indexing && now - last_progress < std::chrono::milliseconds(250)) return;
    last_progress = now;
    last_indexing = state.indexing;
    endpoint.notify("index_progress", compact_status(state));
  };
  std::once_flag warmed;
  workspace_options.on_indexed = [&](const server::IndexState&) {
    if (Service* service = service_ptr.load()) {
      service->refresh_session_memory();
      std::call_once(warmed, [service] { service->warm_up(); });
    }
  };
  auto workspace = std::make_unique<server::Workspace>(workspace_options);
  Service service(*workspace, memory);
  service_ptr = &service;

  if (mcp) {
    auto negotiated = std::make_shared<std::string>(mcp_versions().front());
    endpoint.on_request(
        "initialize",
        [&, negotiated](const json& params, Call&) {
          const json& object = object_params(params);
          std::string requested = object.value("protocolVersion", "");
          *negotiated = negotiate_mcp_version(requested);
          if (object.contains("clientInfo") && object["clientInfo"].is_object())
            service.set_client(object["clientInfo"].value("name", ""));
          initialized = true;
          return json{{"protocolVersion", *negotiated},
                      {"capabilities", {{"tools", {{"listChanged", false}}}}},
                      {"serverInfo", {{"name", "comp"}, {"title", "comP code context"}, {"version", kVersion}}},
                      {"instructions", mcp_instructions()}};
        },
        true);
    endpoint.on_request("ping", [](const json&, Call&) { return json::object(); }, true);
    endpoint.on_request(
        "tools/list",
        [negotiated](const json&, Call&) { return json{{"tools", mcp_tools(*negotiated >= "2025-06-18")}}; }, true);
    endpoint.on_request("tools/call", [&, negotiated](const json& params, Call& call) {
      const json& object = object_params(params);
      std::string name = string_param(object, "name", true);
      json arguments = object.value("arguments", json::object());
      if (!arguments.is_object()) throw Error(kInvalidParams, "`arguments` must be an object");
      json token = object.contains("_meta") && object["_meta"].is_object() ? object["_meta"].value("progressToken", json())
                                                                            : json();
      auto counter = std::make_shared<int>(0);
      Service::Progress progress;
      if (token.is_string() || token.is_number_integer())
        progress = [&call, token, counter](double, double, const std::string& message) {
          call.notify("notifications/progress", {{"progressToken", token}, {"progress", ++*counter}, {"message", message}});
        };
      json result;
      std::string text;  // what the agent reads, when not the JSON of `result`
      try {
        if (name == "get_context")
          result = service.run_pipeline(arguments, call, progress, name, &text);
        else if (name == "get_symbol")
          result = service.get_symbol(arguments, call, progress, name);
        else if (name == "get_diff_context")
          result = service.diff_context(arguments, call, progress, name);
        else if (name == "search_code")
          result = service.search(arguments, call, progress, name);
        else if (name == "get_file")
          result = service.get_file(arguments, call, progress, name, &text);
        else
          throw Error(kInvalidParams, "unknown tool: " + name);
      } catch (const Error& error) {
        if (error.code() == kInvalidParams && error.what() == "unknown tool: " + name) throw;
        return json{{"content", text_content(error.what())}, {"isError", true}};
      } catch (const pipeline::Cancelled&) {
        throw;
      } catch (const std::exception& error) {
        return json{{"content", text_content(std::string("comP failed: ") + error.what())}, {"isError", true}};
      }
      // Agents read the text block: where the answer has a Markdown form,
      // that is the text, and the JSON stays in structuredContent.
      // get_context's (pipeline::to_markdown) fits its budget, where the
      // JSON was 2.2 times it at the median, 2.8 at most (escaped code, a
      // dozen fields per file, the ranking's evidence); an answer with a
      // `markdown` report (get_symbol, get_diff_context, search_code) has
      // it without the same data again as JSON (a diff of this repository's
      // last three commits: 9,279 tokens against 35,784); get_file's is the
      // file under its heading, unescaped.
      if (text.empty() && result.contains("markdown") && result["markdown"].is_string())
        text = result["markdown"].get<std::string>();
      json answer = {{"content", text_content(text.empty() ? dump(result) : text)}};
      if (*negotiated >= "2025-06-18") answer["structuredContent"] = std::move(result);
      return answer;
    });
    endpoint.on_notification("notifications/initialized", [](const json&) {});
  } else {
    endpoint.set_gate([&](const std::string& method) {
      if (shutting_down && method != "exit") throw Error(kInvalidRequest, "the daemon is shutting down");
    });
    endpoint.on_request(
        "initialize",
        [&](const json& params, Call&) {
          const json& object = object_params(params);
          std::string root = string_param(object, "root", false);
          if (!root.empty()) {
            std::error_code ec;
            fs::path given = fs::weakly_canonical(fs::path(root), ec);
            if (ec || given != options.root)
              throw Error(kInvalidParams, "this daemon serves " + options.root.string() + ", not " + root +
                                              ": start one per workspace folder with --root");
          }
          if (object.contains("clientInfo") && object["clientInfo"].is_object())
            service.set_client(object["clientInfo"].value("name", ""));
          initialized = true;
          return json{{"name", "comp"},
                      {"version", kVersion},
                      {"root", options.root.string()},
                      {"capabilities",
                       {{"methods",
                         {"initialize", "run_pipeline", "get_symbol", "get_git_diff_context", "search", "get_file",
                          "dependents_count", "index_status", "reindex", "session_memory", "shutdown"}},
                        {"notifications", {{"client", {"file_changed", "$/cancelRequest", "exit"}},
                                           {"server", {"index_progress"}}}}}},
                      {"languages", Service::languages()},
                      {"documents", json::array({"docx", "pptx", "xlsx", "pdf", "parquet"})},
                      {"index", compact_status(workspace->state())}};
        },
        true);
    endpoint.on_request("run_pipeline", [&](const json& p, Call& c) {
      // The answer as a model reads it too (MCP's text), for the editor to
      // hand to one: it is what max_tokens bounds.
      std::string markdown;
      json out = service.run_pipeline(p, c, {}, "run_pipeline", &markdown);
      out["markdown"] = std::move(markdown);
      return out;
    });
    endpoint.on_request("get_symbol", [&](const json& p, Call& c) { return service.get_symbol(p, c, {}, "get_symbol"); });
    endpoint.on_request("get_git_diff_context",
                        [&](const json& p, Call& c) { return service.diff_context(p, c, {}, "get_git_diff_context"); });
    endpoint.on_request("search", [&](const json& p, Call& c) { return service.search(p, c, {}, "search"); });
    endpoint.on_request("get_file", [&](const json& p, Call& c) { return service.get_file(p, c, {}, "get_file"); });
    endpoint.on_request("dependents_count", [&](const json& p, Call& c) { return service.dependents_count(p, c); });
    endpoint.on_request("index_status", [&](const json&, Call&) { return service.index_status(); }, true);
    endpoint.on_request(
        "reindex",
        [&](const json& params, Call&) {
          workspace->reindex(bool_param(params, "rebuild", false));
          return json{{"scheduled", true}};
        },
        true);
    endpoint.on_request("session_memory", [&](const json& params, Call&) {
      if (bool_param(params, "clear", false)) memory.clear();
      return memory.load();
    });
    endpoint.on_request(
        "shutdown",
        [&](const json&, Call&) {
          shutting_down = true;
          return json(nullptr);
        },
        true);
    endpoint.on_notification("exit", [&](const json&) { exit_requested = true; });
    // The initialize answer carries the index state of its moment, and a
    // progress notification sent while it was on its way may reach the
    // client first: once the client says it has the answer, the current
    // state follows, so the client's last word is never an older one.
    endpoint.on_notification("initialized", [&](const json&) {
      std::lock_guard lock(progress_mutex);
      server::IndexState state = workspace->state();
      last_progress = std::chrono::steady_clock::now();
      last_indexing = state.indexing;
      endpoint.notify("index_progress", compact_status(state));
    });
  }
  endpoint.on_notification("file_changed", [&](const json& params) {
    workspace->files_changed(changed_paths(params, options.root));
  });

  workspace->start();
  server::log(server::LogLevel::kInfo, std::string(mcp ? "mcp" : "serve") + " ready on " + options.root.string());

  LineSplitter splitter;
  std::vector<char> buffer(1 << 16);
  auto on_line = [&](std::string_view line) { endpoint.handle_line(line); };
  auto on_overflow = [&] { endpoint.send_error(kInvalidRequest, "message too long (over 16 MiB)"); };
  while (!exit_requested && !output_broken) {
    pollfd descriptor{in_fd, POLLIN, 0};
    int ready = ::poll(&descriptor, 1, 200);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    ssize_t n = ::read(in_fd, buffer.data(), buffer.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;  // end of input: the client is gone
    splitter.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)), on_line, on_overflow);
  }
  if (!exit_requested) splitter.finish(on_line);
  endpoint.drain();
  workspace.reset();  // stops indexing (a run stops early, consistently) before the service goes
  server::log(server::LogLevel::kInfo, "stopped");
  return 0;
}

}  // namespace comp::rpc
