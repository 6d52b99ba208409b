#include "index/test_tree.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

#include <fstream>

extern char** environ;

namespace comp::index::testing {

namespace fs = std::filesystem;

int git(const TempTree& tree, const std::vector<std::string>& args, std::string* out) {
  std::vector<std::string> argv = {"git", "-C", tree.root().string(), "-c", "user.name=Test",
                                   "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> argv_ptrs;
  for (std::string& arg : argv) argv_ptrs.push_back(arg.data());
  argv_ptrs.push_back(nullptr);
  std::vector<std::string> env = {"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C"};
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    if (entry.rfind("GIT_", 0) != 0 && entry.rfind("LC_ALL=", 0) != 0) env.push_back(entry);
  }
  std::vector<char*> env_ptrs;
  for (std::string& entry : env) env_ptrs.push_back(entry.data());
  env_ptrs.push_back(nullptr);
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, "git", &actions, nullptr, argv_ptrs.data(), env_ptrs.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  std::string text;
  char buffer[4096];
  ssize_t n = 0;
  while (rc == 0 && (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  if (rc != 0) return -1;
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (out) *out = std::move(text);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

IndexSummary index_tree(const TempTree& tree, unsigned jobs) {
  IndexOptions options;
  options.root = tree.root();
  options.jobs = jobs;
  return run_index(options);
}

std::unique_ptr<graph::Store> indexed(const TempTree& tree) {
  index_tree(tree);
  return graph::Store::open_existing(tree.root());
}

TempTree::TempTree(const std::string& name) {
  root_ = fs::temp_directory_path() / ("comp-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(root_);
  fs::create_directories(root_);
}

TempTree::~TempTree() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

void TempTree::write(const std::string& rel_path, const std::string& content) {
  fs::path path = root_ / rel_path;
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
}

void TempTree::remove(const std::string& rel_path) { fs::remove(root_ / rel_path); }

void TempTree::rename(const std::string& from, const std::string& to) {
  fs::create_directories((root_ / to).parent_path());
  fs::rename(root_ / from, root_ / to);
}

void TempTree::set_mtime(const std::string& rel_path, long seconds) {
  struct utimbuf times {
    seconds, seconds
  };
  ::utime((root_ / rel_path).c_str(), &times);
}

void TempTree::backdate(long seconds) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root_)) {
    if (!entry.is_regular_file() || entry.path().string().find("/.comp/") != std::string::npos) continue;
    struct stat st {};
    if (::stat(entry.path().c_str(), &st) != 0) continue;
    struct utimbuf times {
      st.st_mtime - seconds, st.st_mtime - seconds
    };
    ::utime(entry.path().c_str(), &times);
  }
}

std::vector<std::string> snapshot(graph::Store& store) {
  std::vector<std::string> lines;
  auto dump = [&](const char* sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(store.handle(), sql, -1, &statement, nullptr) != SQLITE_OK) {
      lines.push_back(std::string("error: ") + sqlite3_errmsg(store.handle()));
      return;
    }
    while (sqlite3_step(statement) == SQLITE_ROW) {
      std::string line;
      for (int i = 0; i < sqlite3_column_count(statement); ++i) {
        const unsigned char* text = sqlite3_column_text(statement, i);
        line += (i ? "|" : "") + std::string(text ? reinterpret_cast<const char*>(text) : "NULL");
      }
      lines.push_back(std::move(line));
    }
    sqlite3_finalize(statement);
  };
  dump("SELECT 'file', path, language, size, hash, skip_reason, error, symbol_count FROM files ORDER BY path");
  dump("SELECT 'node', id, file_path, name, kind, line, \"column\", end_line, end_column, signature, is_exported, "
       "scope, parent_id FROM nodes ORDER BY id");
  dump("SELECT 'ref', file_path, from_node, kind, name, qualifier, alias, line, \"column\", status, "
       "coalesce(target, '-'), coalesce(target_path, '-'), candidates, binds, more_sites FROM refs ORDER BY 2, 8, 9, 4, 5, 7");
  dump("SELECT 'fts-symbol', name, signature, scope FROM symbols_fts ORDER BY 2, 3, 4");
  dump("SELECT 'fts-file', path, length(body) FROM files_fts ORDER BY 2");
  return lines;
}

std::string generated_source(const std::string& extension, int seed, int count) {
  std::string out;
  auto n = [&](int i) { return std::to_string(seed) + "_" + std::to_string(i); };
  if (extension == ".py") {
    out += "import os\n\nclass Widget" + std::to_string(seed) + ":\n    def method(self):\n        return 1\n\n";
    for (int i = 0; i < count; ++i) out += "def func_" + n(i) + "(a, b):\n    return a + b\n\n";
  } else if (extension == ".ts") {
    out += "export class Widget" + std::to_string(seed) + " {\n  constructor() {}\n  render(): void {}\n}\n";
    for (int i = 0; i < count; ++i) out += "export function func_" + n(i) + "(a: number): number { return a; }\n";
  } else if (extension == ".go") {
    out += "package p\n\ntype Widget" + std::to_string(seed) + " struct{}\n\nfunc (w *Widget" + std::to_string(seed) +
           ") Render() {}\n";
    for (int i = 0; i < count; ++i) out += "func Func_" + n(i) + "(a int) int { return a }\n";
  } else if (extension == ".rs") {
    out += "pub struct Widget" + std::to_string(seed) + ";\nimpl Widget" + std::to_string(seed) +
           " {\n    pub fn render(&self) {}\n}\n";
    for (int i = 0; i < count; ++i) out += "pub fn func_" + n(i) + "(a: i32) -> i32 { a }\n";
  } else {
    for (int i = 0; i < count; ++i) out += "line " + n(i) + "\n";
  }
  return out;
}

}  // namespace comp::index::testing
