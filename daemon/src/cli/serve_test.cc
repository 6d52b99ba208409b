// End-to-end tests of `comp serve`: the real binary, driven through its real
// protocol (JSON-RPC 2.0, one message per line on stdin/stdout), as the
// editor extension drives it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tokens/tokens.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

// Runs a program to completion, returning its stdout (no shell).
std::string run(const std::vector<std::string>& args, const fs::path& cwd = {}) {
  int out[2];
  if (pipe(out) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> copy = args;
  if (!cwd.empty()) {
    copy.insert(copy.begin() + 1, {"-C", cwd.string()});
  }
  std::vector<char*> argv;
  for (std::string& arg : copy) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  std::string text;
  char buffer[4096];
  ssize_t n;
  while ((n = read(out[0], buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return text;
}

// A running `comp serve` with pipes to its stdin and stdout.
class Daemon {
 public:
  explicit Daemon(const fs::path& root, std::vector<std::string> extra = {}, const std::string& mode = "serve") {
    int in[2], out[2];
    EXPECT_EQ(pipe(in), 0);
    EXPECT_EQ(pipe(out), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, in[1]);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    fs::path log = root.parent_path() / (root.filename().string() + ".log");
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    std::string binary = std::string(COMP_BINARY_DIR) + "/comp";
    std::vector<std::string> args = {binary, mode, "--root", root.string(), "--log-level", "debug"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    EXPECT_EQ(posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~Daemon() {
    if (to_ >= 0) close(to_);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(from_);
  }

  void send_raw(const std::string& text) {
    std::string line = text + "\n";
    ASSERT_EQ(write(to_, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  }
  void send(const json& message) { send_raw(message.dump()); }
  void send_partial(const std::string& text) {  // no newline: the message is cut
    ASSERT_EQ(write(to_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  void close_input() {
    close(to_);
    to_ = -1;
  }

  // The next message from the daemon (every line must be JSON), or null after `timeout`.
  json next(std::chrono::milliseconds timeout = 20s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      std::size_t newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        json message = json::parse(line, nullptr, false);
        EXPECT_FALSE(message.is_discarded()) << "not JSON on stdout: " << line;
        return message;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return nullptr;
      pollfd descriptor{from_, POLLIN, 0};
      if (poll(&descriptor, 1, static_cast<int>(left.count())) <= 0) return nullptr;
      char chunk[65536];
      ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) return nullptr;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  // The next message that is not a notification.
  json next_answer() {
    json message = next();
    while (message.is_object() && message.contains("method")) {
      notifications.push_back(message);
      message = next();
    }
    return message;
  }

  // Sends a request and returns its answer, keeping notifications aside.
  json call(const std::string& method, const json& params, const json& id = json()) {
    json request_id = id.is_null() ? json(++counter_) : id;
    json message = {{"jsonrpc", "2.0"}, {"id", request_id}, {"method", method}};
    if (!params.is_null()) message["params"] = params;
    send(message);
    return answer_for(request_id);
  }
  json answer_for(const json& id) {
    while (true) {
      json message = next();
      if (message.is_null()) return nullptr;
      if (message.is_object() && message.contains("method")) {
        notifications.push_back(message);
        continue;
      }
      if (message.is_object() && message.contains("id") && message["id"] == id) return message;
      others.push_back(message);
    }
  }
  // Exit status after the process ends by itself (or -1 after `timeout`).
  int wait_exit(std::chrono::milliseconds timeout = 20s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(20ms);
    }
    return -1;
  }

  std::vector<json> notifications, others;

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  int counter_ = 100;
  std::string buffer_;
};

class ServeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("comp-serve-" + std::to_string(getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "app");
    write("app/config.py",
          "import json\n\n\ndef parse_config(text):\n    \"\"\"Reads the settings.\"\"\"\n    data = json.loads(text)\n"
          "    return data.get('timeout', 30)\n");
    write("app/main.py",
          "from app.config import parse_config\n\n\ndef start(path):\n    with open(path) as f:\n"
          "        return parse_config(f.read())\n");
    write("web/client.ts", "export class Client {\n  fetchAll(url: string): Promise<string[]> {\n    return fetch(url).then(r => r.json());\n  }\n}\n");
    write(".gitignore", "secret/\n");
    write("secret/token.py", "API_TOKEN = 'do-not-leak'\n");
    run({"git", "init", "-q"}, root_);
    run({"git", "add", "."}, root_);
    run({"git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}, root_);
    root_ = fs::canonical(root_);
  }
  void TearDown() override {
    fs::remove_all(root_);
    // The daemons' stderr (Daemon writes it beside the root) is kept only to read a failure by.
    if (!HasFailure()) fs::remove(root_.parent_path() / (root_.filename().string() + ".log"));
  }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  fs::path root_;
};

TEST_F(ServeTest, InitializeAnswersAtOnceWithCapabilities) {
  Daemon daemon(root_);
  json answer = daemon.call("initialize", {{"root", root_.string()}, {"clientInfo", {{"name", "vscode"}}}}, 0);
  ASSERT_TRUE(answer.is_object());
  EXPECT_EQ(answer["id"], 0);
  const json& result = answer["result"];
  EXPECT_EQ(result["name"], "comp");
  EXPECT_EQ(result["root"], root_.string());
  EXPECT_FALSE(result["languages"].empty());
  for (const char* method : {"run_pipeline", "get_symbol", "get_git_diff_context", "search", "get_file",
                             "dependents_count", "index_status", "reindex", "session_memory", "shutdown"})
    EXPECT_NE(std::find(result["capabilities"]["methods"].begin(), result["capabilities"]["methods"].end(), method),
              result["capabilities"]["methods"].end())
        << method;
  json wrong = daemon.call("initialize", {{"root", "/"}});
  EXPECT_EQ(wrong["error"]["code"], -32602);
}

// A task with a 400,000-character run (a pasted blob) killed the daemon:
// std::regex recursed once per character. It is answered, and the daemon
// goes on serving.
TEST_F(ServeTest, AHugeTaskIsAnsweredAndTheDaemonKeepsServing) {
  Daemon daemon(root_);
  daemon.call("initialize", json::object());
  std::string task = "parse_config ignores the timeout\nat " + std::string(400'000, 'x') + ".js:1:2\n";
  json pipeline = daemon.call("run_pipeline", {{"task", task}, {"max_tokens", 2000}});
  ASSERT_TRUE(pipeline.contains("result")) << pipeline.dump().substr(0, 300);
  ASSERT_FALSE(pipeline["result"]["pivot_files"].empty());
  EXPECT_EQ(pipeline["result"]["pivot_files"][0]["path"], "app/config.py");
  json status = daemon.call("index_status", json::object());
  EXPECT_TRUE(status.contains("result")) << status.dump();
}

TEST_F(ServeTest, MethodsAnswerLikeTheCli) {
  Daemon daemon(root_);
  daemon.call("initialize", json::object());
  std::string task = "parse_config ignores the timeout setting when the file is empty";
  json pipeline = daemon.call("run_pipeline", {{"task", task}, {"max_tokens", 2000}});
  ASSERT_TRUE(pipeline.contains("result")) << pipeline.dump();
  const json& result = pipeline["result"];
  ASSERT_FALSE(result["pivot_files"].empty());
  EXPECT_EQ(result["pivot_files"][0]["path"], "app/config.py");
  EXPECT_LE(result["tokens_sent"].get<int>(), 2000);
  EXPECT_TRUE(result["freshness"].contains("pending_changes"));
  // The same object as `comp query --json` on the same index.
  json cli = json::parse(run({std::string(COMP_BINARY_DIR) + "/comp", "query", "--root", root_.string(), "--json",
                              "--no-refresh", "--max-tokens", "2000", task}));
  ASSERT_EQ(cli["pivot_files"].size(), result["pivot_files"].size());
  for (std::size_t i = 0; i < cli["pivot_files"].size(); ++i) {
    EXPECT_EQ(cli["pivot_files"][i]["path"], result["pivot_files"][i]["path"]);
    EXPECT_EQ(cli["pivot_files"][i]["content"], result["pivot_files"][i]["content"]);
  }
  EXPECT_EQ(cli["tokens_sent"], result["tokens_sent"]);

  json symbol = daemon.call("get_symbol", {{"name", "parse_config"}});
  ASSERT_TRUE(symbol.contains("result")) << symbol.dump();
  EXPECT_EQ(symbol["result"]["symbol"]["file"], "app/config.py");
  ASSERT_FALSE(symbol["result"]["dependents"].empty());
  EXPECT_EQ(symbol["result"]["dependents"][0]["file"], "app/main.py");
  EXPECT_NE(symbol["result"]["markdown"].get<std::string>().find("parse_config"), std::string::npos);

  json search = daemon.call("search", {{"query", "parse_config"}});
  ASSERT_FALSE(search["result"]["symbols"].empty());
  EXPECT_EQ(search["result"]["symbols"][0]["name"], "parse_config");
  std::string listed = search["result"]["markdown"].get<std::string>();
  EXPECT_EQ(listed.rfind("# Search `parse_config`: ", 0), 0u) << listed;
  EXPECT_NE(listed.find("- function `"), std::string::npos) << listed;
  EXPECT_NE(listed.find("parse_config` in `app/config.py` lines "), std::string::npos) << listed;

  json file0 = daemon.call("get_file", {{"path", "app/config.py"}});
  json file2 = daemon.call("get_file", {{"path", "app/config.py"}, {"level", 2}});
  EXPECT_LT(file2["result"]["tokens"].get<int>(), file0["result"]["tokens"].get<int>());
  // `comp pack` (reading the cache get_file filled) prints the same text.
  std::string packed = run({std::string(COMP_BINARY_DIR) + "/comp", "pack", "app/config.py", "--no-refresh", "--root",
                            root_.string()});
  EXPECT_EQ(packed, "================\nFile: app/config.py\n================\n" +
                        file2["result"]["content"].get<std::string>() + "\n");
  json slice = daemon.call("get_file", {{"path", "app/config.py"}, {"lines", "4-5"}});
  EXPECT_EQ(slice["result"]["content"], "def parse_config(text):\n    \"\"\"Reads the settings.\"\"\"\n");

  json counts = daemon.call("dependents_count", {{"path", "app/config.py"}});
  bool found = false;
  for (const json& item : counts["result"]["symbols"])
    if (item["name"] == "parse_config") found = item["dependents"].get<int>() >= 1;
  EXPECT_TRUE(found) << counts.dump();

  write("app/config.py", "import json\n\n\ndef parse_config(text):\n    return json.loads(text or '{}')\n");
  json diff = daemon.call("get_git_diff_context", {{"base", "HEAD"}});
  ASSERT_TRUE(diff.contains("result")) << diff.dump();
  bool changed = false;
  for (const json& item : diff["result"]["changed_symbols"]) changed = changed || item["name"] == "parse_config";
  EXPECT_TRUE(changed) << diff.dump();

  json memory = daemon.call("session_memory", json::object());
  std::vector<std::string> tools;
  for (const json& entry : memory["result"]["entries"]) tools.push_back(entry["tool"]);
  EXPECT_EQ(tools.front(), "run_pipeline");
  EXPECT_NE(std::find(tools.begin(), tools.end(), "get_file"), tools.end());
  EXPECT_TRUE(fs::exists(root_ / ".comp" / "session-memory.json"));
  // The file changed after run_pipeline returned it: that entry goes stale.
  bool stale = false;
  for (int i = 0; i < 100 && !stale; ++i) {
    json again = daemon.call("session_memory", json::object());
    stale = again["result"]["entries"][0]["stale"].get<bool>();
    if (!stale) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(stale);

  json status = daemon.call("index_status", nullptr);
  EXPECT_TRUE(status["result"]["ready"].get<bool>());
  EXPECT_EQ(status["result"]["watch"], "inotify");
}

TEST_F(ServeTest, BadRequestsGetErrorsAndTheDaemonKeepsServing) {
  Daemon daemon(root_);
  daemon.call("initialize", json::object());
  EXPECT_EQ(daemon.call("run_pipeline", {{"task", "x"}, {"max_tokens", "many"}})["error"]["code"], -32602);
  EXPECT_EQ(daemon.call("run_pipeline", {{"max_tokens", 100}})["error"]["code"], -32602);
  EXPECT_EQ(daemon.call("run_pipeline", json::array({"task"}))["error"]["code"], -32602);
  EXPECT_EQ(daemon.call("get_symbol", {{"name", "no_such_symbol"}})["error"]["code"], -32004);
  EXPECT_EQ(daemon.call("get_git_diff_context", {{"base", "--output=/tmp/x"}})["error"]["code"], -32602);
  EXPECT_EQ(daemon.call("nonexistent", json::object())["error"]["code"], -32601);
  // Paths leaving the root, absolute paths, ignored files: never read.
  for (const char* path : {"../../etc/passwd", "/etc/passwd", "secret/token.py", ".comp/graph.db", "app/../../x"}) {
    json answer = daemon.call("get_file", {{"path", path}});
    ASSERT_TRUE(answer.contains("error")) << path << ": " << answer.dump();
    EXPECT_EQ(answer.dump().find("do-not-leak"), std::string::npos);
  }
  daemon.send_raw("{\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]");
  json parse_error = daemon.next_answer();
  EXPECT_EQ(parse_error["error"]["code"], -32700);
  daemon.send_raw("[]");
  EXPECT_EQ(daemon.next_answer()["error"]["code"], -32600);
  daemon.send_raw(std::string("{\"jsonrpc\":\"2.0\",\"id\":\"u\",\"method\":\"search\",\"params\":{\"query\":\"") +
                  "\xff\xfe parse\"}}");  // invalid UTF-8
  json bad_utf8 = daemon.next_answer();
  EXPECT_TRUE(bad_utf8.contains("error"));
  // A batch mixing a request, a notification and garbage.
  daemon.send(json::array({{{"jsonrpc", "2.0"}, {"id", "b1"}, {"method", "search"}, {"params", {{"query", "Client"}}}},
                           {{"jsonrpc", "2.0"}, {"method", "file_changed"}, {"params", {{"paths", {"web/client.ts"}}}}},
                           1}));
  json batch;
  for (int i = 0; i < 10 && !batch.is_array(); ++i) batch = daemon.next_answer();
  ASSERT_TRUE(batch.is_array());
  EXPECT_EQ(batch.size(), 2u);
  json ok = daemon.call("search", {{"query", "Client"}});
  EXPECT_EQ(ok["result"]["symbols"][0]["name"], "Client");
  // A 50 MB message: refused as a whole, and the next one is served.
  std::string huge = R"({"jsonrpc":"2.0","id":"huge","method":"run_pipeline","params":{"task":")" +
                     std::string(50u << 20, 'x') + "\"}}";
  daemon.send_raw(huge);
  json too_long = daemon.next_answer();
  EXPECT_EQ(too_long["error"]["code"], -32600);
  // A task over 1 MiB inside a message that fits: invalid params.
  EXPECT_EQ(daemon.call("run_pipeline", {{"task", std::string(2u << 20, 'y')}})["error"]["code"], -32602);
  json after = daemon.call("search", {{"query", "parse_config"}});
  EXPECT_EQ(after["result"]["symbols"][0]["name"], "parse_config");
}

// A client that has the initialize answer hears the index state of now,
// even when the first index ended while the answer was on its way (the
// editor's status bar must not stay on "indexing").
TEST_F(ServeTest, InitializedIsFollowedByTheCurrentIndexState) {
  Daemon daemon(root_);
  bool ready = false;
  for (int i = 0; i < 200 && !ready; ++i) {
    json status = daemon.call("index_status", json::object());
    ready = status.contains("result") && status["result"].value("ready", false) && !status["result"].value("indexing", true);
    if (!ready) std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(ready);
  daemon.call("initialize", {{"root", root_.string()}});
  daemon.notifications.clear();
  daemon.send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
  // A run may start after the idle state read above (the catch-up run the
  // workspace schedules after the first, or a watcher event): its own
  // notifications then follow, and what counts is the client's last word
  // once the daemon is idle.
  json last;
  auto settled = [&] { return !last.is_null() && !last.value("indexing", true); };
  for (int i = 0; i < 300 && !settled(); ++i) {
    daemon.call("index_status", json::object());  // reads what arrived meanwhile
    for (const json& note : daemon.notifications)
      if (note["method"] == "index_progress") last = note["params"];
    if (!settled()) std::this_thread::sleep_for(20ms);
  }
  ASSERT_FALSE(last.is_null());
  EXPECT_TRUE(last["ready"].get<bool>());
  EXPECT_FALSE(last["indexing"].get<bool>());
}

TEST_F(ServeTest, FileChangedNotificationsKeepTheIndexFreshWithoutWatching) {
  Daemon daemon(root_, {"--no-watch"});
  daemon.call("initialize", json::object());
  ASSERT_TRUE(daemon.call("search", {{"query", "parse_config"}}).contains("result"));
  write("app/extra.py", "def brand_new_helper():\n    return 1\n");
  daemon.send({{"jsonrpc", "2.0"}, {"method", "file_changed"}, {"params", {{"paths", {(root_ / "app/extra.py").string()}}}}});
  bool found = false;
  for (int i = 0; i < 100 && !found; ++i) {
    json answer = daemon.call("search", {{"query", "brand_new_helper"}});
    found = !answer["result"]["symbols"].empty() && answer["result"]["symbols"][0]["name"] == "brand_new_helper";
    if (!found) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(found);
  bool progress = false;
  for (const json& note : daemon.notifications) progress = progress || note["method"] == "index_progress";
  EXPECT_TRUE(progress);
}

TEST_F(ServeTest, ShutdownThenExitEndsTheProcessAndSoDoesEndOfInput) {
  {
    Daemon daemon(root_);
    daemon.call("initialize", json::object());
    json shutdown = daemon.call("shutdown", nullptr);
    EXPECT_TRUE(shutdown.contains("result"));
    EXPECT_EQ(daemon.call("search", {{"query", "x"}})["error"]["code"], -32600);
    daemon.send({{"jsonrpc", "2.0"}, {"method", "exit"}});
    EXPECT_EQ(daemon.wait_exit(), 0);
  }
  {
    Daemon daemon(root_);
    daemon.call("initialize", json::object());
    daemon.close_input();
    EXPECT_EQ(daemon.wait_exit(), 0);
  }
  {  // end of input in the middle of a message: a parse error, then a clean exit
    Daemon daemon(root_);
    daemon.call("initialize", json::object());
    daemon.send_partial(R"({"jsonrpc":"2.0","id":9,"method":"sea)");
    daemon.close_input();
    json answer = daemon.next_answer();
    EXPECT_EQ(answer["error"]["code"], -32700);
    EXPECT_EQ(daemon.wait_exit(), 0);
  }
}

TEST_F(ServeTest, DocumentsAreServedAsText) {
  fs::path fixtures = fs::path(COMP_SOURCE_DIR) / "daemon" / "tests" / "docs" / "fixtures";
  fs::create_directories(root_ / "docs");
  fs::copy_file(fixtures / "slides.pptx", root_ / "docs" / "slides.pptx");
  Daemon daemon(root_);
  daemon.call("initialize", json::object());
  json file = daemon.call("get_file", {{"path", "docs/slides.pptx"}});
  ASSERT_TRUE(file.contains("result")) << file.dump();
  EXPECT_NE(file["result"]["content"].get<std::string>().find("# Slide 2: Introduction"), std::string::npos);
  json search = daemon.call("search", {{"query", "Introduction"}});
  bool slide = false;
  for (const json& symbol : search["result"]["symbols"]) slide = slide || symbol["kind"] == "slide";
  EXPECT_TRUE(slide) << search.dump();
}

TEST_F(ServeTest, TwoDaemonsShareOneIndex) {
  Daemon first(root_), second(root_);
  first.call("initialize", json::object());
  second.call("initialize", json::object());
  json a = first.call("run_pipeline", {{"task", "parse_config timeout"}});
  json b = second.call("run_pipeline", {{"task", "parse_config timeout"}});
  ASSERT_TRUE(a.contains("result")) << a.dump();
  ASSERT_TRUE(b.contains("result")) << b.dump();
  EXPECT_EQ(a["result"]["pivot_files"][0]["path"], b["result"]["pivot_files"][0]["path"]);
  write("app/later.py", "def added_later():\n    pass\n");
  bool both = false;
  for (int i = 0; i < 100 && !both; ++i) {
    json x = first.call("search", {{"query", "added_later"}});
    json y = second.call("search", {{"query", "added_later"}});
    both = !x["result"]["symbols"].empty() && !y["result"]["symbols"].empty();
    if (!both) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(both);
}

// Agents pay for the tool descriptions on every turn: the whole tools/list
// answer stays under 2,000 o200k tokens.
TEST_F(ServeTest, McpToolsListCostsUnderTwoThousandTokens) {
  Daemon daemon(root_, {}, "mcp");
  json init = daemon.call("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                                         {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
  ASSERT_EQ(init["result"]["protocolVersion"], "2025-11-25");
  json tools = daemon.call("tools/list", json::object());
  ASSERT_TRUE(tools.contains("result"));
  ASSERT_EQ(tools["result"]["tools"].size(), 5u);
  std::size_t cost = comp::tokens::count(tools["result"].dump());
  RecordProperty("tools_list_tokens", static_cast<int>(cost));
  std::cout << "tools/list: " << cost << " tokens\n";
  EXPECT_LT(cost, 2000u);
  for (const json& tool : tools["result"]["tools"]) {
    EXPECT_TRUE(tool.contains("inputSchema")) << tool["name"];
    EXPECT_TRUE(tool.contains("outputSchema")) << tool["name"];
  }
}

}  // namespace
