// End-to-end tests of the real `comp` binary: arguments, exit codes, output,
// and the faults a user can cause (missing root, unwritable or damaged index).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string out, err;
};

// Runs `program` (looked up on PATH without a '/') with `args` (an argument vector, no shell).
Result run(const std::string& program, const std::vector<std::string>& args) {
  fs::path dir = fs::temp_directory_path() / ("comp-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path out_path = dir / "out", err_path = dir / "err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::string binary = program;
  std::vector<char*> argv{binary.data()};
  std::vector<std::string> copy = args;
  for (std::string& arg : copy) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  Result result;
  if (posix_spawnp(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ) != 0) return result;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  auto slurp = [](const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  fs::remove_all(dir);
  return result;
}

// Runs build/comp with `args`.
Result comp(const std::vector<std::string>& args) { return run(std::string(COMP_BINARY_DIR) + "/comp", args); }

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("comp-cli-root-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "pkg");
    std::ofstream(root_ / "pkg" / "core.py") << "class Parser:\n    def parse(self, text):\n        return text\n\n"
                                                "def parse_expr(s):\n    return Parser().parse(s)\n";
    std::ofstream(root_ / "lib.rs") << "pub struct Token;\npub fn lex(input: &str) -> Vec<Token> { vec![] }\n";
    std::ofstream(root_ / "logo.png") << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
    std::ofstream(root_ / ".gitignore") << "ignored/\n";
    fs::create_directories(root_ / "ignored");
    std::ofstream(root_ / "ignored" / "skip.py") << "def hidden(): pass\n";
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(CliTest, IndexPrintsASummaryAndJson) {
  // Files written an hour ago: a re-run reads none of them again (a file
  // written within seconds of its read is read once more).
  for (const auto& entry : fs::recursive_directory_iterator(root_))
    if (entry.is_regular_file()) fs::last_write_time(entry.path(), entry.last_write_time() - std::chrono::hours(1));
  Result text = comp({"index", "--root", root_.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("python 1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("rust 1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("binary 1"), std::string::npos) << text.out;
  EXPECT_EQ(text.err.find('\r'), std::string::npos) << "no progress bar when not on a terminal";

  Result json = comp({"index", "--root", root_.string(), "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json summary = nlohmann::json::parse(json.out);
  EXPECT_EQ(summary["files_unchanged"], 4);  // .gitignore, core.py, lib.rs, logo.png
  EXPECT_EQ(summary["files_parsed"], 0);
  EXPECT_EQ(summary["symbols"], 5);
  EXPECT_EQ(summary["skipped_by_reason"]["binary"], 1);
}

TEST_F(CliTest, IndexReadsGitHistoryWhenHeadMoves) {
  auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"-C", root_.string(), "-c", "user.name=Test", "-c", "user.email=test@example.com"});
    Result r = run("git", args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  };
  git({"init", "-q"});
  git({"add", "-A"});
  git({"commit", "-q", "-m", "first"});
  Result first = comp({"index", "--root", root_.string()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("history: 1 commit read from git"), std::string::npos) << first.out;
  Result again = comp({"index", "--root", root_.string(), "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["history_commits"], 0);  // HEAD where it was
  std::ofstream(root_ / "pkg" / "core.py", std::ios::app) << "# more\n";
  git({"commit", "-q", "-a", "-m", "second"});
  Result moved = comp({"index", "--root", root_.string(), "--json"});
  ASSERT_EQ(moved.exit_code, 0) << moved.err;
  EXPECT_EQ(nlohmann::json::parse(moved.out)["history_commits"], 2);
}

TEST_F(CliTest, SymbolsFilesAndStats) {
  ASSERT_EQ(comp({"index", "--root", root_.string()}).exit_code, 0);
  Result symbols = comp({"symbols", "parse", "--root", root_.string(), "--json"});
  ASSERT_EQ(symbols.exit_code, 0) << symbols.err;
  nlohmann::json list = nlohmann::json::parse(symbols.out);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["id"], "pkg/core.py::Parser.parse");
  EXPECT_EQ(list[0]["kind"], "method");
  EXPECT_EQ(list[0]["line"], 2);
  EXPECT_EQ(list[0]["signature"], "def parse(self, text)");

  Result by_kind = comp({"symbols", "--kind", "class", "--root", root_.string()});
  EXPECT_NE(by_kind.out.find("pkg.core.Parser"), std::string::npos);
  Result by_file = comp({"symbols", "--file", "lib.rs", "--root", root_.string(), "--json"});
  EXPECT_EQ(nlohmann::json::parse(by_file.out).size(), 2u);
  Result none = comp({"symbols", "no_such_symbol", "--root", root_.string()});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("no symbols"), std::string::npos);

  Result skipped = comp({"files", "--skipped", "--root", root_.string(), "--json"});
  nlohmann::json files = nlohmann::json::parse(skipped.out);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0]["path"], "logo.png");
  EXPECT_EQ(files[0]["skip_reason"], "binary");
  Result all = comp({"files", "--root", root_.string()});
  EXPECT_EQ(all.out.find("ignored/skip.py"), std::string::npos);

  Result stats = comp({"stats", "--root", root_.string(), "--json"});
  nlohmann::json numbers = nlohmann::json::parse(stats.out);
  EXPECT_EQ(numbers["symbols"], 5);
  EXPECT_EQ(numbers["symbols_by_kind"]["method"], 1);
  EXPECT_GT(numbers["database_bytes"], 0);
}

TEST_F(CliTest, BadArgumentsExitTwoWithAMessage) {
  Result none = comp({});
  EXPECT_EQ(none.exit_code, 2);
  Result unknown = comp({"frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_FALSE(unknown.err.empty());
  Result jobs = comp({"index", "--root", root_.string(), "--jobs", "many"});
  EXPECT_EQ(jobs.exit_code, 2);
  Result size = comp({"index", "--root", root_.string(), "--max-file-size", "0"});
  EXPECT_EQ(size.exit_code, 2);
  Result help = comp({"index", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--max-file-size"), std::string::npos);
}

TEST_F(CliTest, MissingRootIsAClearError) {
  Result result = comp({"index", "--root", (root_ / "nope").string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("not a directory"), std::string::npos);
  EXPECT_FALSE(fs::exists(root_ / "nope"));
  Result query = comp({"symbols", "x", "--root", root_.string()});
  EXPECT_EQ(query.exit_code, 1);
  EXPECT_NE(query.err.find("run `comp index` first"), std::string::npos);
}

TEST_F(CliTest, UnwritableIndexDirectoryIsAClearError) {
  std::ofstream(root_ / ".comp") << "a file where the index directory should be";
  Result result = comp({"index", "--root", root_.string()});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.err.find("cannot"), std::string::npos) << result.err;
}

TEST_F(CliTest, DamagedDatabaseIsReportedThenRebuiltOnRequest) {
  ASSERT_EQ(comp({"index", "--root", root_.string()}).exit_code, 0);
  fs::path db = root_ / ".comp" / "graph.db";
  fs::remove(root_ / ".comp" / "graph.db-wal");
  fs::remove(root_ / ".comp" / "graph.db-shm");
  {
    std::fstream file(db, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(0);
    file << "this is not a sqlite header at all";
  }
  auto size_before = fs::file_size(db);
  Result damaged = comp({"index", "--root", root_.string()});
  EXPECT_EQ(damaged.exit_code, 4);
  EXPECT_NE(damaged.err.find("--rebuild"), std::string::npos) << damaged.err;
  EXPECT_EQ(fs::file_size(db), size_before) << "a damaged index is never deleted or rewritten";

  Result rebuilt = comp({"index", "--root", root_.string(), "--rebuild"});
  EXPECT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  EXPECT_NE(rebuilt.err.find("graph.db.corrupt-"), std::string::npos);
  bool kept = false;
  for (const auto& entry : fs::directory_iterator(root_ / ".comp"))
    kept |= entry.path().filename().string().rfind("graph.db.corrupt-", 0) == 0;
  EXPECT_TRUE(kept);
  EXPECT_EQ(comp({"symbols", "lex", "--root", root_.string()}).exit_code, 0);
}

}  // namespace

namespace {

// Runs git in `dir` (argument vector, no shell) with a fixed identity.
int git(const fs::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> full{"-C", dir.string(), "-c", "user.name=t", "-c", "user.email=t@t", "-c",
                                "commit.gpgsign=false"};
  full.insert(full.end(), args.begin(), args.end());
  std::vector<char*> argv{const_cast<char*>("git")};
  for (std::string& arg : full) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  if (posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ) != 0) return -1;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_F(CliTest, SymbolShowsTheBlastRadiusAndEdgesListReferences) {
  std::ofstream(root_ / "pkg" / "use.py") << "from pkg.core import parse_expr\n\ndef run():\n    return parse_expr('1')\n";
  ASSERT_EQ(comp({"index", "--root", root_.string()}).exit_code, 0);
  Result symbol = comp({"symbol", "parse_expr", "--root", root_.string()});
  ASSERT_EQ(symbol.exit_code, 0) << symbol.err;
  EXPECT_NE(symbol.out.find("# function `pkg.core.parse_expr`"), std::string::npos) << symbol.out;
  EXPECT_NE(symbol.out.find("`pkg.use.run` (line 3): call at line 4"), std::string::npos) << symbol.out;
  EXPECT_NE(symbol.out.find("`pkg.core.Parser` (line 1): call from line 6"), std::string::npos) << symbol.out;
  Result json = comp({"symbol", "pkg/core.py::parse_expr", "--root", root_.string(), "--json"});
  auto report = nlohmann::json::parse(json.out);
  ASSERT_EQ(report["dependents"].size(), 2u);  // the function run and the file's import
  Result edges = comp({"edges", "--root", root_.string(), "--kind", "call", "--json"});
  ASSERT_EQ(edges.exit_code, 0);
  bool found = false;
  for (const auto& edge : nlohmann::json::parse(edges.out))
    if (edge["name"] == "parse_expr" && edge["to"] == "pkg/core.py::parse_expr" && edge["line"] == 4) found = true;
  EXPECT_TRUE(found) << edges.out;
  Result counts = comp({"dependents", "pkg/core.py", "--root", root_.string(), "--json"});
  bool counted = false;
  for (const auto& entry : nlohmann::json::parse(counts.out))
    if (entry["id"] == "pkg/core.py::parse_expr") counted = entry["dependents"] == 2;
  EXPECT_TRUE(counted) << counts.out;
  EXPECT_EQ(comp({"symbol", "nope", "--root", root_.string()}).exit_code, 1);
  EXPECT_EQ(comp({"edges", "--root", root_.string(), "--kind", "bogus"}).exit_code, 2);
}

TEST_F(CliTest, DiffFindsChangedSymbolsAndRejectsOptionLikeRefs) {
  std::ofstream(root_ / "pkg" / "use.py") << "from pkg.core import parse_expr\n\ndef run():\n    return parse_expr('1')\n";
  ASSERT_EQ(comp({"diff", "--root", root_.string()}).exit_code, 1);  // not a git repository: a clear error
  ASSERT_EQ(git(root_, {"init", "-q"}), 0);
  ASSERT_EQ(git(root_, {"add", "-A"}), 0);
  ASSERT_EQ(git(root_, {"commit", "-q", "-m", "base"}), 0);
  std::ofstream(root_ / "pkg" / "core.py") << "class Parser:\n    def parse(self, text):\n        return text\n\n"
                                              "def parse_expr(s):\n    return Parser().parse(s.strip())\n";
  Result diff = comp({"diff", "--root", root_.string(), "--json"});
  ASSERT_EQ(diff.exit_code, 0) << diff.err;
  auto report = nlohmann::json::parse(diff.out);
  ASSERT_EQ(report["changed_symbols"].size(), 1u) << diff.out;
  EXPECT_EQ(report["changed_symbols"][0]["id"], "pkg/core.py::parse_expr");
  bool upstream = false;
  for (const auto& node : report["related"])
    if (node["id"] == "pkg/use.py::run" && node["direction"] == "upstream" && node["distance"] == 1) upstream = true;
  EXPECT_TRUE(upstream) << diff.out;
  fs::path trap = root_ / "trap.txt";
  Result bad = comp({"diff", "--output=" + trap.string(), "--root", root_.string()});
  EXPECT_NE(bad.exit_code, 0);
  Result bad_ref = comp({"diff", "--root", root_.string(), "--", "--output=" + trap.string()});
  EXPECT_EQ(bad_ref.exit_code, 2) << bad_ref.err;
  EXPECT_FALSE(fs::exists(trap));
  EXPECT_EQ(comp({"diff", "no-such-ref", "--root", root_.string()}).exit_code, 2);
}

TEST_F(CliTest, QueryPacksTheRightFileWithinTheBudget) {
  std::ofstream(root_ / "pkg" / "render.py") << "def render_table(rows):\n    \"\"\"Rows as text.\"\"\"\n"
                                                "    return '\\n'.join(str(r) for r in rows)\n";
  fs::path task = root_ / "task.json";
  std::ofstream(task) << R"({"instance_id": "x", "problem_statement": "parse_expr crashes on empty input: Parser().parse returns None"})";
  Result query = comp({"query", "--root", root_.string(), "--task-file", task.string(), "--json", "--max-tokens", "300"});
  ASSERT_EQ(query.exit_code, 0) << query.err;
  auto result = nlohmann::json::parse(query.out);
  ASSERT_FALSE(result["pivot_files"].empty());
  EXPECT_EQ(result["pivot_files"][0]["path"], "pkg/core.py");
  EXPECT_LE(result["tokens_sent"].get<int>(), 300);
  EXPECT_EQ(result["ranking"][0]["path"], "pkg/core.py");
  EXPECT_TRUE(result.contains("token_savings"));
  EXPECT_TRUE(result.contains("cost_estimation"));
  EXPECT_EQ(result["freshness"]["stale_files"], 0);  // the query refreshed the index first
  EXPECT_EQ(result["task_terms"]["identifiers"][0], "parse_expr");
  // A pasted log's terms: the first 100 of each kind are listed, not all.
  fs::path log = root_ / "log.txt";
  {
    std::ofstream out(log);
    out << "parse_expr fails\nTraceback (most recent call last):\n";
    for (int i = 0; i < 300; ++i) out << "  File \"pkg/gen_" << i << ".py\", line 1, in step_" << i << "\n";
  }
  Result long_query = comp({"query", "--root", root_.string(), "--task-file", log.string(), "--json"});
  ASSERT_EQ(long_query.exit_code, 0) << long_query.err;
  auto long_result = nlohmann::json::parse(long_query.out);
  EXPECT_EQ(long_result["task_terms"]["frames"].size(), 100u);
  EXPECT_EQ(long_result["task_terms"]["frames"][0]["path"], "pkg/gen_0.py");
  EXPECT_EQ(long_result["task_terms"]["identifiers"].size(), 100u);  // of 301
  // Plain text task, readable report.
  Result text = comp({"query", "Parser parse", "--root", root_.string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("## pkg/core.py"), std::string::npos) << text.out;
  // Bad input: a clear message and exit 2.
  EXPECT_EQ(comp({"query", "--root", root_.string()}).exit_code, 2);  // no task
  EXPECT_EQ(comp({"query", "x", "--level", "5", "--root", root_.string()}).exit_code, 2);
  EXPECT_EQ(comp({"query", "--task-file", (root_ / "missing.json").string(), "--root", root_.string()}).exit_code, 2);
}

TEST_F(CliTest, QuerySendsTheDocumentationPageOfTheStrongestFile) {
  fs::create_directories(root_ / "docs" / "api");
  std::ofstream(root_ / "docs" / "api" / "core.md") << "# core\n\nThe reference of the core module.\n";
  Result query = comp({"query", "parse_expr crashes on empty input: Parser().parse returns None", "--root",
                       root_.string(), "--json", "--max-tokens", "8000"});
  ASSERT_EQ(query.exit_code, 0) << query.err;
  auto result = nlohmann::json::parse(query.out);
  ASSERT_FALSE(result["pivot_files"].empty());
  EXPECT_EQ(result["pivot_files"][0]["path"], "pkg/core.py");
  EXPECT_TRUE(result["pivot_files"][0]["documents"].is_null());
  EXPECT_EQ(result["pivot_files"][0]["outline"], false);  // the strongest file is never an outline
  const auto& last = result["pivot_files"].back();
  EXPECT_EQ(last["path"], "docs/api/core.md");
  EXPECT_EQ(last["documents"], "pkg/core.py");
  EXPECT_NE(last["content"].get<std::string>().find("reference of the core module"), std::string::npos);
  Result text = comp({"query", "parse_expr crashes on empty input: Parser().parse returns None", "--root",
                      root_.string(), "--max-tokens", "8000", "--no-refresh"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("## docs/api/core.md"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("## docs/api/core.md (documents pkg/core.py)"), std::string::npos) << text.out;
}

TEST_F(CliTest, QuerySendsTheChangelogThePullRequestTemplateAsksFor) {
  fs::create_directories(root_ / ".github");
  std::ofstream(root_ / ".github" / "PULL_REQUEST_TEMPLATE.md") << "- [ ] Tests pass\n- [ ] An entry in CHANGES.md\n";
  std::ofstream(root_ / "CHANGES.md") << "Changes\n=======\n\nNext\n----\n\n* Nothing yet.\n";
  Result query = comp({"query", "parse_expr crashes on empty input: Parser().parse returns None", "--root",
                       root_.string(), "--json", "--max-tokens", "8000"});
  ASSERT_EQ(query.exit_code, 0) << query.err;
  auto result = nlohmann::json::parse(query.out);
  ASSERT_FALSE(result["pivot_files"].empty());
  EXPECT_TRUE(result["pivot_files"][0]["required_by"].is_null());
  for (const char* relation : {"used_by", "uses", "changed_with", "manifest_of"}) {  // the codec writes them for every file
    ASSERT_TRUE(result["pivot_files"][0].contains(relation)) << relation;
    EXPECT_TRUE(result["pivot_files"][0][relation].is_null()) << relation;
  }
  const auto& last = result["pivot_files"].back();
  EXPECT_EQ(last["path"], "CHANGES.md");
  EXPECT_EQ(last["required_by"], ".github/PULL_REQUEST_TEMPLATE.md");
  EXPECT_EQ(last["content"], "Changes\n=======\n\nNext\n----\n\n* Nothing yet.\n");
  Result text = comp({"query", "parse_expr crashes on empty input: Parser().parse returns None", "--root",
                      root_.string(), "--max-tokens", "8000", "--no-refresh"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("## CHANGES.md"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("asked for by .github/PULL_REQUEST_TEMPLATE.md)\n```\nChanges\n"), std::string::npos) << text.out;
}

// A file name is data from the repository: one holding a newline or a
// terminal escape sequence is printed quoted, as git prints it, by every
// human-readable output; JSON carries the name as it is.
TEST_F(CliTest, NamesWithControlCharactersArePrintedQuoted) {
  const std::string escape_name = "clear\x1b[2J.py", newline_name = "new\nline.py";
  // The source holds an escape sequence too, inside a default value.
  std::ofstream(root_ / "pkg" / escape_name) << "def wipe_screen_now(mode=\"\x1b[2J\"):\n    return 1\n";
  std::ofstream(root_ / "pkg" / newline_name) << "def split_line_here():\n    return 2\n";
  ASSERT_EQ(comp({"index", "--root", root_.string()}).exit_code, 0);
  // Names never print raw; file contents do (as `cat` would), so outputs
  // that hold contents (query, pack) are checked on their headers.
  auto printed = [&](const Result& result, const std::string& what, bool contents = false) {
    EXPECT_EQ(result.exit_code, 0) << what << ": " << result.err;
    if (!contents) {
      EXPECT_EQ(result.out.find('\x1b'), std::string::npos) << what << ": " << result.out;
    }
    EXPECT_EQ(result.out.find("clear\x1b"), std::string::npos) << what << ": " << result.out;
    EXPECT_EQ(result.out.find("new\nline"), std::string::npos) << what << ": " << result.out;
  };
  Result files = comp({"files", "--root", root_.string()});
  printed(files, "files");
  EXPECT_NE(files.out.find("\"pkg/clear\\033[2J.py\""), std::string::npos) << files.out;
  EXPECT_NE(files.out.find("\"pkg/new\\nline.py\""), std::string::npos) << files.out;
  Result symbols = comp({"symbols", "wipe_screen_now", "--root", root_.string()});
  printed(symbols, "symbols");
  EXPECT_NE(symbols.out.find("\"pkg/clear\\033[2J.py\":1:"), std::string::npos) << symbols.out;
  EXPECT_NE(symbols.out.find("mode=\"\\033[2J\""), std::string::npos) << symbols.out;  // the signature
  Result symbol = comp({"symbol", "split_line_here", "--root", root_.string()});
  printed(symbol, "symbol");
  EXPECT_NE(symbol.out.find("Defined in `\"pkg/new\\nline.py\"`"), std::string::npos) << symbol.out;
  Result query = comp({"query", "wipe_screen_now split_line_here", "--root", root_.string(), "--no-refresh"});
  printed(query, "query", true);
  EXPECT_NE(query.out.find("## \"pkg/clear\\033[2J.py\""), std::string::npos) << query.out;
  Result pack = comp({"pack", "pkg", "--root", root_.string(), "--no-refresh"});
  printed(pack, "pack", true);
  EXPECT_NE(pack.out.find("File: \"pkg/new\\nline.py\"\n"), std::string::npos) << pack.out;
  Result json = comp({"files", "--root", root_.string(), "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::set<std::string> paths;
  for (const auto& file : nlohmann::json::parse(json.out)) paths.insert(file["path"].get<std::string>());
  EXPECT_TRUE(paths.count("pkg/" + escape_name));
  EXPECT_TRUE(paths.count("pkg/" + newline_name));
}

TEST_F(CliTest, FilePrintsALevelWithTokenCounts) {
  std::ofstream(root_ / "pkg" / "doc.py") << "# a comment\ndef f(x):\n    \"\"\"Doubles.\"\"\"\n    y = x * 2\n"
                                             "    return y\n";
  Result raw = comp({"file", "pkg/doc.py", "--root", root_.string(), "--json"});
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  auto level0 = nlohmann::json::parse(raw.out);
  EXPECT_EQ(level0["tokens"], level0["raw_tokens"]);
  Result skeleton = comp({"file", "pkg/doc.py", "--level", "2", "--root", root_.string(), "--json"});
  auto level2 = nlohmann::json::parse(skeleton.out);
  EXPECT_EQ(level2["level"], 2);
  EXPECT_LT(level2["tokens"].get<int>(), level0["tokens"].get<int>());
  EXPECT_EQ(level2["content"].get<std::string>().find("a comment"), std::string::npos);
  EXPECT_NE(level2["content"].get<std::string>().find("..."), std::string::npos);
  Result lines = comp({"file", "pkg/doc.py", "--lines", "2-3", "--root", root_.string()});
  EXPECT_EQ(lines.out, "def f(x):\n    \"\"\"Doubles.\"\"\"\n");
  EXPECT_EQ(comp({"file", "../etc/passwd", "--root", root_.string()}).exit_code, 2);
  EXPECT_EQ(comp({"file", "/etc/passwd", "--root", root_.string()}).exit_code, 2);
  EXPECT_EQ(comp({"file", "pkg/doc.py", "--lines", "3-1", "--root", root_.string()}).exit_code, 2);
  // A Latin-1 file is not UTF-8: the JSON answer still comes, with U+FFFD.
  std::ofstream(root_ / "pkg" / "latin.py") << "def caf\xe9():\n    return '\xe9t\xe9'\n";
  Result latin = comp({"file", "pkg/latin.py", "--root", root_.string(), "--json"});
  ASSERT_EQ(latin.exit_code, 0) << latin.err;
  EXPECT_NE(nlohmann::json::parse(latin.out)["content"].get<std::string>().find("\xef\xbf\xbd"), std::string::npos);
  Result query = comp({"query", "caf latin", "--root", root_.string(), "--json"});
  ASSERT_EQ(query.exit_code, 0) << query.err;
  EXPECT_NO_THROW(nlohmann::json::parse(query.out));
}

// `comp pack` output split at its file headers: path -> text as printed.
std::map<std::string, std::string> split_pack(const std::string& out) {
  std::map<std::string, std::string> files;
  const std::string open = "================\nFile: ", close = "\n================\n";
  std::size_t at = out.find(open);
  while (at != std::string::npos) {
    std::size_t name_end = out.find(close, at);
    if (name_end == std::string::npos) break;
    std::string path = out.substr(at + open.size(), name_end - at - open.size());
    std::size_t body = name_end + close.size();
    std::size_t next = out.find(open, body);
    std::string text = out.substr(body, (next == std::string::npos ? out.size() : next) - body);
    if (!text.empty() && text.back() == '\n') text.pop_back();  // the blank line between files
    files[path] = text;
    at = next;
  }
  return files;
}

TEST_F(CliTest, PackPrintsEachSourceFileAsCompFileDoesAndCachesIt) {
  std::ofstream(root_ / "pkg" / "util.py") << "# helpers\ndef double(x):\n    \"\"\"Twice x.\"\"\"\n    return x * 2\n";
  std::ofstream(root_ / "README.md") << "# not a source file\n";
  Result cold = comp({"pack", "--root", root_.string(), "--jobs", "2"});
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  std::map<std::string, std::string> packed = split_pack(cold.out);
  std::vector<std::string> paths;
  for (const auto& [path, text] : packed) paths.push_back(path);
  EXPECT_EQ(paths, (std::vector<std::string>{"lib.rs", "pkg/core.py", "pkg/util.py"}));
  for (const auto& [path, text] : packed) {
    Result file = comp({"file", path, "--level", "2", "--root", root_.string()});
    ASSERT_EQ(file.exit_code, 0) << file.err;
    EXPECT_EQ(text, file.out) << path;
  }
  EXPECT_EQ(packed["pkg/util.py"].find("helpers"), std::string::npos);
  EXPECT_NE(cold.err.find("3 files"), std::string::npos) << cold.err;
  EXPECT_NE(cold.err.find("3 misses, 3 written"), std::string::npos) << cold.err;

  Result warm = comp({"pack", "--root", root_.string()});
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(warm.out, cold.out);
  EXPECT_NE(warm.err.find("3 hits, 0 misses"), std::string::npos) << warm.err;

  // An edit is seen (the index is refreshed first) and only that file misses.
  std::ofstream(root_ / "pkg" / "util.py", std::ios::app) << "\ndef triple(x):\n    return x * 3\n";
  Result edited = comp({"pack", "--root", root_.string()});
  ASSERT_EQ(edited.exit_code, 0) << edited.err;
  EXPECT_NE(split_pack(edited.out)["pkg/util.py"].find("def triple(x):"), std::string::npos);
  EXPECT_NE(edited.err.find("2 hits, 1 misses"), std::string::npos) << edited.err;

  Result raw = comp({"pack", "--level", "0", "--root", root_.string()});
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_EQ(split_pack(raw.out)["lib.rs"], "pub struct Token;\npub fn lex(input: &str) -> Vec<Token> { vec![] }\n");
  EXPECT_NE(raw.err.find("level 0 is not cached"), std::string::npos) << raw.err;

  fs::path output = root_.parent_path() / (root_.filename().string() + "-pack.txt");
  Result to_file = comp({"pack", "pkg", "--level", "1", "--output", output.string(), "--root", root_.string()});
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  EXPECT_TRUE(to_file.out.empty());
  std::ifstream in(output);
  std::stringstream written;
  written << in.rdbuf();
  std::map<std::string, std::string> level1 = split_pack(written.str());
  EXPECT_EQ(level1.size(), 2u);
  EXPECT_EQ(level1["pkg/core.py"], comp({"file", "pkg/core.py", "--level", "1", "--root", root_.string()}).out);
  fs::remove(output);
}

TEST_F(CliTest, PackRejectsBadArguments) {
  auto pack = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "pack");
    args.push_back("--root");
    args.push_back(root_.string());
    return comp(args);
  };
  EXPECT_EQ(pack({"--level", "3"}).exit_code, 2);
  EXPECT_EQ(pack({"--jobs", "0"}).exit_code, 2);
  EXPECT_EQ(pack({"--bogus"}).exit_code, 2);
  Result outside = pack({"../elsewhere"});
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_NE(outside.err.find("not inside the root"), std::string::npos) << outside.err;
  EXPECT_TRUE(outside.out.empty());
  EXPECT_EQ(pack({"/etc"}).exit_code, 2);
  Result nothing = pack({"no/such/dir"});
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_NE(nothing.err.find("no indexed source file under 'no/such/dir'"), std::string::npos) << nothing.err;
  EXPECT_EQ(pack({"--output", "/nonexistent-dir/pack.txt"}).exit_code, 1);
  EXPECT_EQ(comp({"pack", "--root", (root_ / "missing").string()}).exit_code, 2);
}
