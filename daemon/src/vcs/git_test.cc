// vcs against real git, in temporary repositories with a private HOME and
// XDG_CONFIG_HOME (no user or system configuration leaks in).
#include "vcs/git.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

extern char** environ;

namespace comp::vcs {

std::ostream& operator<<(std::ostream& os, const LineRange& r) { return os << "{" << r.start << "," << r.count << "}"; }

namespace {

namespace fs = std::filesystem;
using Ranges = std::vector<LineRange>;

struct ProcessOutput {
  int exit_code = -1;
  std::string out;
};

// Runs argv (never through a shell); returns its stdout, stderr goes to the log.
ProcessOutput run_process(const std::vector<std::string>& argv) {
  ProcessOutput result;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return result;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc == 0) {
    char buf[65536];
    ssize_t n;
    while ((n = ::read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
      if (n > 0) result.out.append(buf, static_cast<std::size_t>(n));
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  ::close(fds[0]);
  return result;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string numbered_lines(int first, int last, const std::string& prefix = "line") {
  std::string s;
  for (int i = first; i <= last; ++i) s += prefix + std::to_string(i) + "\n";
  return s;
}

const FileChange* find(const std::vector<FileChange>& changes, const std::string& path) {
  for (const auto& c : changes) {
    if (c.path == path) return &c;
  }
  return nullptr;
}

std::string describe(const std::vector<FileChange>& changes) {
  std::string s;
  for (const auto& c : changes) {
    s += std::string(1, c.status) + " '" + c.old_path + "' -> '" + c.path + "'" + (c.binary ? " binary" : "") +
         " new:";
    for (const auto& r : c.new_ranges) s += " {" + std::to_string(r.start) + "," + std::to_string(r.count) + "}";
    s += " old:";
    for (const auto& r : c.old_ranges) s += " {" + std::to_string(r.start) + "," + std::to_string(r.count) + "}";
    s += "\n";
  }
  return s;
}

template <typename F>
GitError::Kind error_kind(F&& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const GitError& e) {
    if (message) *message = e.what();
    return e.kind();
  }
  ADD_FAILURE() << "no GitError thrown";
  return GitError::Kind::kFailed;
}

class VcsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "vcs_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    base_ = tmpl;
    repo_ = base_ / "repo";
    fs::create_directories(base_ / "home");
    fs::create_directories(base_ / "xdg");
    fs::create_directories(repo_);
    set_env("HOME", (base_ / "home").c_str());
    set_env("XDG_CONFIG_HOME", (base_ / "xdg").c_str());
    set_env("GIT_CONFIG_NOSYSTEM", "1");
    set_env("GIT_AUTHOR_NAME", "Test");
    set_env("GIT_AUTHOR_EMAIL", "test@example.com");
    set_env("GIT_COMMITTER_NAME", "Test");
    set_env("GIT_COMMITTER_EMAIL", "test@example.com");
    for (const char* name : {"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_DIR", "GIT_WORK_TREE",
                             "GIT_INDEX_FILE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
                             "GIT_CEILING_DIRECTORIES", "GIT_DIFF_OPTS", "GIT_EXTERNAL_DIFF"}) {
      set_env(name, nullptr);
    }
    git({"-c", "init.defaultBranch=main", "init", "-q"});
  }

  void TearDown() override {
    fs::remove_all(base_);
    for (const auto& [name, value] : saved_env_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }

  void set_env(const char* name, const char* value) {
    if (saved_env_.count(name) == 0) {
      const char* old = std::getenv(name);
      saved_env_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }

  std::string git(std::vector<std::string> args, const fs::path& dir = {}) {
    std::vector<std::string> argv = {"git", "-C", (dir.empty() ? repo_ : dir).string()};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessOutput r = run_process(argv);
    EXPECT_EQ(r.exit_code, 0) << "git " << args.front() << " failed";
    return r.out;
  }

  void write(const std::string& rel, const std::string& content) {
    const fs::path p = repo_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary | std::ios::trunc) << content;
  }

  void commit_all(const std::string& message = "c") {
    git({"add", "-A"});
    git({"commit", "-q", "--allow-empty", "-m", message});
  }

  fs::path base_;
  fs::path repo_;
  std::map<std::string, std::optional<std::string>> saved_env_;
};

TEST_F(VcsTest, CleanTreeHasNoChanges) {
  write("a.txt", "one\n");
  commit_all();
  EXPECT_TRUE(changes_since(repo_).empty());
}

TEST_F(VcsTest, ModifiedFileWithSeveralHunks) {
  write("f.txt", numbered_lines(1, 10));
  commit_all();
  // Line 2 changed, two lines inserted after line 5, lines 8-9 deleted.
  write("f.txt", "line1\nLINE2\nline3\nline4\nline5\nnew1\nnew2\nline6\nline7\nline10\n");
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  const FileChange& c = changes[0];
  EXPECT_EQ(c.path, "f.txt");
  EXPECT_EQ(c.old_path, "f.txt");
  EXPECT_EQ(c.status, 'M');
  EXPECT_FALSE(c.binary);
  EXPECT_EQ(c.new_ranges, (Ranges{{2, 1}, {6, 2}, {10, 0}}));
  EXPECT_EQ(c.old_ranges, (Ranges{{2, 1}, {6, 0}, {8, 2}}));
}

TEST_F(VcsTest, DeletingTheFirstAndLastLines) {
  write("f.txt", numbered_lines(1, 5));
  commit_all();
  write("f.txt", "line2\nline3\nline4\n");
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  EXPECT_EQ(changes[0].new_ranges, (Ranges{{1, 0}, {4, 0}}));
  EXPECT_EQ(changes[0].old_ranges, (Ranges{{1, 1}, {5, 1}}));
}

// Removed "-- x" and added "++ y" lines read "--- x" / "+++ y" in the diff.
TEST_F(VcsTest, HunkLinesThatLookLikeHeaders) {
  write("q.sql", "-- header\nselect 1;\n++ keep\n");
  commit_all();
  write("q.sql", "select 1;\n++ keep\n++ added\n");
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  EXPECT_EQ(changes[0].path, "q.sql");
  EXPECT_EQ(changes[0].status, 'M');
  EXPECT_EQ(changes[0].new_ranges, (Ranges{{1, 0}, {3, 1}}));
  EXPECT_EQ(changes[0].old_ranges, (Ranges{{1, 1}, {4, 0}}));
}

TEST_F(VcsTest, AddedFile) {
  write("a.txt", "a\n");
  commit_all();
  write("src/new.cc", "int a;\nint b;\nint c;\n");
  git({"add", "src/new.cc"});
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  EXPECT_EQ(changes[0].path, "src/new.cc");
  EXPECT_EQ(changes[0].old_path, "src/new.cc");
  EXPECT_EQ(changes[0].status, 'A');
  EXPECT_EQ(changes[0].new_ranges, (Ranges{{1, 3}}));
  EXPECT_TRUE(changes[0].old_ranges.empty());
}

TEST_F(VcsTest, DeletedFiles) {
  write("gone.txt", numbered_lines(1, 4));
  write("removed.txt", numbered_lines(1, 2));
  write("empty.txt", "");
  commit_all();
  git({"rm", "-q", "gone.txt", "empty.txt"});
  fs::remove(repo_ / "removed.txt");  // deleted in the work tree only
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 3u) << describe(changes);
  const FileChange* gone = find(changes, "gone.txt");
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(gone->status, 'D');
  EXPECT_EQ(gone->old_path, "gone.txt");
  EXPECT_EQ(gone->old_ranges, (Ranges{{1, 4}}));
  EXPECT_TRUE(gone->new_ranges.empty());
  const FileChange* removed = find(changes, "removed.txt");
  ASSERT_NE(removed, nullptr);
  EXPECT_EQ(removed->status, 'D');
  EXPECT_EQ(removed->old_ranges, (Ranges{{1, 2}}));
  const FileChange* empty = find(changes, "empty.txt");
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->status, 'D');
  EXPECT_TRUE(empty->old_ranges.empty());
}

TEST_F(VcsTest, RenamedWithEdit) {
  write("old/name.txt", numbered_lines(1, 10));
  commit_all();
  git({"mv", "old/name.txt", "new name.txt"});
  write("new name.txt", "line1\nline2\nline3\nchanged\nline5\nline6\nline7\nline8\nline9\nline10\n");
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  const FileChange& c = changes[0];
  EXPECT_EQ(c.status, 'R');
  EXPECT_EQ(c.old_path, "old/name.txt");
  EXPECT_EQ(c.path, "new name.txt");
  EXPECT_EQ(c.new_ranges, (Ranges{{4, 1}}));
  EXPECT_EQ(c.old_ranges, (Ranges{{4, 1}}));
}

TEST_F(VcsTest, PureRenameOfSpecialNames) {
  write("dir a/x b/y.txt", numbered_lines(1, 3));
  commit_all();
  git({"mv", "dir a/x b/y.txt", "été\tz.txt"});
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  EXPECT_EQ(changes[0].status, 'R');
  EXPECT_EQ(changes[0].old_path, "dir a/x b/y.txt");
  EXPECT_EQ(changes[0].path, "été\tz.txt");
  EXPECT_TRUE(changes[0].new_ranges.empty());
}

TEST_F(VcsTest, PathsWithSpacesNonAsciiAndQuotedCharacters) {
  const std::vector<std::string> names = {"with space.txt", "a b/c d.txt", "naïve/日本.txt", "tab\there.txt",
                                          "quote\"and\\back.txt", "new\nline.txt", " b/lead.txt"};
  for (const auto& n : names) write(n, "one\ntwo\n");
  write("bin ary.dat", std::string("\0\1\2", 3));
  commit_all();
  for (const auto& n : names) write(n, "one\nTWO\n");
  write("bin ary.dat", std::string("\0\1\3", 3));
  write("untracked é\t.txt", "u\n");
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), names.size() + 2) << describe(changes);
  for (const auto& n : names) {
    const FileChange* c = find(changes, n);
    ASSERT_NE(c, nullptr) << n << "\n" << describe(changes);
    EXPECT_EQ(c->status, 'M');
    EXPECT_EQ(c->old_path, n);
    EXPECT_EQ(c->new_ranges, (Ranges{{2, 1}})) << n;
  }
  const FileChange* bin = find(changes, "bin ary.dat");
  ASSERT_NE(bin, nullptr) << describe(changes);
  EXPECT_TRUE(bin->binary);
  const FileChange* u = find(changes, "untracked é\t.txt");
  ASSERT_NE(u, nullptr) << describe(changes);
  EXPECT_EQ(u->status, 'A');
}

TEST_F(VcsTest, BinaryFile) {
  write("img.png", std::string("\x89PNG\0\0\0\rIHDR", 12));
  commit_all();
  write("img.png", std::string("\x89PNG\0\0\0\rIHDX", 12));
  write("new.bin", std::string("ab\0cd\n", 6));
  git({"add", "new.bin"});
  write("untracked.bin", std::string("x\0y", 3));
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 3u) << describe(changes);
  const FileChange* img = find(changes, "img.png");
  ASSERT_NE(img, nullptr);
  EXPECT_EQ(img->status, 'M');
  EXPECT_TRUE(img->binary);
  EXPECT_TRUE(img->new_ranges.empty());
  EXPECT_TRUE(img->old_ranges.empty());
  const FileChange* added = find(changes, "new.bin");
  ASSERT_NE(added, nullptr);
  EXPECT_EQ(added->status, 'A');
  EXPECT_TRUE(added->binary);
  const FileChange* untracked = find(changes, "untracked.bin");
  ASSERT_NE(untracked, nullptr);
  EXPECT_EQ(untracked->status, 'A');
  EXPECT_TRUE(untracked->binary);
  EXPECT_TRUE(untracked->new_ranges.empty());
}

TEST_F(VcsTest, UntrackedFiles) {
  write(".gitignore", "*.log\nbuild/\n");
  commit_all();
  write("notes.md", "a\nb\nc\n");
  write("no_newline.txt", "a\nb");
  write("empty.txt", "");
  write("sub/deep/x.py", "x = 1\n");
  write("debug.log", "ignored\n");
  write("build/out.txt", "ignored\n");
  write("../outside.txt", "secret\n");
  fs::create_symlink(base_ / "outside.txt", repo_ / "link_out.txt");
  fs::create_symlink("notes.md", repo_ / "link_in.txt");
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 4u) << describe(changes);
  const FileChange* notes = find(changes, "notes.md");
  ASSERT_NE(notes, nullptr);
  EXPECT_EQ(notes->status, 'A');
  EXPECT_EQ(notes->old_path, "notes.md");
  EXPECT_EQ(notes->new_ranges, (Ranges{{1, 3}}));
  EXPECT_TRUE(notes->old_ranges.empty());
  EXPECT_EQ(find(changes, "no_newline.txt")->new_ranges, (Ranges{{1, 2}}));
  ASSERT_NE(find(changes, "empty.txt"), nullptr);
  EXPECT_TRUE(find(changes, "empty.txt")->new_ranges.empty());
  ASSERT_NE(find(changes, "sub/deep/x.py"), nullptr);
  EXPECT_EQ(find(changes, "link_out.txt"), nullptr);
  EXPECT_EQ(find(changes, "link_in.txt"), nullptr);
  EXPECT_EQ(find(changes, "debug.log"), nullptr);
  // Sorted by path.
  for (std::size_t i = 1; i < changes.size(); ++i) EXPECT_LT(changes[i - 1].path, changes[i].path);
}

TEST_F(VcsTest, StagedOnlyChange) {
  write("s.txt", numbered_lines(1, 3));
  commit_all();
  write("s.txt", "line1\nstaged\nline3\n");
  git({"add", "s.txt"});
  ASSERT_EQ(git({"diff"}), "");  // nothing unstaged
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  EXPECT_EQ(changes[0].status, 'M');
  EXPECT_EQ(changes[0].new_ranges, (Ranges{{2, 1}}));
}

TEST_F(VcsTest, StagedAndUnstagedChangesCombine) {
  write("s.txt", numbered_lines(1, 5));
  commit_all();
  write("s.txt", "line1\nstaged\nline3\nline4\nline5\n");
  git({"add", "s.txt"});
  write("s.txt", "line1\nstaged\nline3\nline4\nunstaged\n");
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  EXPECT_EQ(changes[0].new_ranges, (Ranges{{2, 1}, {5, 1}}));
}

TEST_F(VcsTest, IntentToAddFileIsAnAddition) {
  write("a.txt", "a\n");
  commit_all();
  write("ita.txt", "1\n2\n");
  git({"add", "-N", "ita.txt"});
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  EXPECT_EQ(changes[0].path, "ita.txt");
  EXPECT_EQ(changes[0].status, 'A');
  EXPECT_EQ(changes[0].new_ranges, (Ranges{{1, 2}}));
}

TEST_F(VcsTest, ModeOnlyChange) {
  write("run.sh", "echo\n");
  commit_all();
  fs::permissions(repo_ / "run.sh", fs::perms::owner_exec, fs::perm_options::add);
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 1u) << describe(changes);
  EXPECT_EQ(changes[0].status, 'M');
  EXPECT_EQ(changes[0].path, "run.sh");
  EXPECT_TRUE(changes[0].new_ranges.empty());
}

TEST_F(VcsTest, RootIsASubdirectory) {
  write("pkg/a.txt", numbered_lines(1, 3));
  write("pkg/inner/b.txt", numbered_lines(1, 3));
  write("other/c.txt", numbered_lines(1, 3));
  write("top.txt", numbered_lines(1, 3));
  commit_all();
  write("pkg/a.txt", "line1\nX\nline3\n");
  write("pkg/inner/b.txt", "line1\nline2\nline3\nline4\n");
  write("other/c.txt", "changed\n");
  write("top.txt", "changed\n");
  write("pkg/untracked.txt", "u\n");
  write("other/untracked.txt", "u\n");
  git({"mv", "other/c.txt", "pkg/moved_in.txt"});
  git({"mv", "pkg/a.txt", "pkg/inner/a2.txt"});

  const auto changes = changes_since(repo_ / "pkg");
  ASSERT_EQ(changes.size(), 4u) << describe(changes);
  const FileChange* a2 = find(changes, "inner/a2.txt");
  ASSERT_NE(a2, nullptr) << describe(changes);
  EXPECT_EQ(a2->status, 'R');
  EXPECT_EQ(a2->old_path, "a.txt");
  EXPECT_EQ(a2->new_ranges, (Ranges{{2, 1}}));
  const FileChange* b = find(changes, "inner/b.txt");
  ASSERT_NE(b, nullptr) << describe(changes);
  EXPECT_EQ(b->new_ranges, (Ranges{{4, 1}}));
  EXPECT_EQ(b->old_ranges, (Ranges{{4, 0}}));
  // Moved in from outside root: an addition (its source is out of view).
  const FileChange* moved = find(changes, "moved_in.txt");
  ASSERT_NE(moved, nullptr) << describe(changes);
  EXPECT_EQ(moved->status, 'A');
  ASSERT_NE(find(changes, "untracked.txt"), nullptr);
  for (const auto& c : changes) {
    EXPECT_EQ(c.path.find(".."), std::string::npos) << c.path;
    EXPECT_NE(c.path.rfind("other/", 0), 0u) << c.path;
    EXPECT_NE(c.path, "top.txt");
  }
}

TEST_F(VcsTest, UserDiffConfigurationDoesNotChangeTheResult) {
  write("f.txt", numbered_lines(1, 10));
  write("old.txt", numbered_lines(1, 10, "o"));
  commit_all();
  write("f.txt", "line1\nX\nline3\nline4\nY\nline6\nline7\nline8\nline9\nline10\n");
  git({"mv", "old.txt", "renamed.txt"});
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"diff.noprefix", "true"},
           {"diff.mnemonicPrefix", "true"},
           {"diff.interHunkContext", "10"},
           {"diff.context", "5"},
           {"diff.external", "false"},
           {"diff.renames", "false"},
           {"diff.relative", "false"},
           {"diff.submodule", "log"},
           {"color.ui", "always"},
           {"color.diff", "always"},
           {"core.pager", "false"},
           {"core.quotepath", "true"}}) {
    git({"config", key, value});
  }
  set_env("GIT_DIFF_OPTS", "--unified=3");
  set_env("GIT_EXTERNAL_DIFF", "false");
  const auto changes = changes_since(repo_);
  ASSERT_EQ(changes.size(), 2u) << describe(changes);
  EXPECT_EQ(changes[0].path, "f.txt");
  EXPECT_EQ(changes[0].new_ranges, (Ranges{{2, 1}, {5, 1}}));
  EXPECT_EQ(changes[1].path, "renamed.txt");
  EXPECT_EQ(changes[1].old_path, "old.txt");
  EXPECT_EQ(changes[1].status, 'R');
}

TEST_F(VcsTest, DiffAgainstAnOlderCommit) {
  write("f.txt", numbered_lines(1, 3));
  commit_all("first");
  write("f.txt", "line1\nline2\nline3\nline4\n");
  write("g.txt", "g\n");
  commit_all("second");
  write("f.txt", "LINE1\nline2\nline3\nline4\n");
  const auto changes = changes_since(repo_, "HEAD~1");
  ASSERT_EQ(changes.size(), 2u) << describe(changes);
  EXPECT_EQ(changes[0].path, "f.txt");
  EXPECT_EQ(changes[0].new_ranges, (Ranges{{1, 1}, {4, 1}}));
  EXPECT_EQ(changes[1].path, "g.txt");
  EXPECT_EQ(changes[1].status, 'A');
}

TEST_F(VcsTest, ResolveCommit) {
  write("f.txt", "x\n");
  commit_all();
  git({"tag", "v1"});
  const std::string head = git({"rev-parse", "HEAD"}).substr(0, 40);
  EXPECT_EQ(resolve_commit(repo_, "HEAD"), head);
  EXPECT_EQ(resolve_commit(repo_, "v1"), head);
  EXPECT_EQ(resolve_commit(repo_, "main"), head);
  EXPECT_EQ(resolve_commit(repo_, head.substr(0, 10)), head);
  EXPECT_EQ(resolve_commit(repo_, head), head);
}

TEST_F(VcsTest, BadRefs) {
  write("f.txt", "x\n");
  commit_all();
  const fs::path target = base_ / "x";
  std::string message;
  EXPECT_EQ(error_kind([&] { changes_since(repo_, "--output=" + target.string()); }, &message),
            GitError::Kind::kBadRef);
  EXPECT_NE(message.find("--output="), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { resolve_commit(repo_, "--output=" + target.string()); }), GitError::Kind::kBadRef);
  EXPECT_EQ(error_kind([&] { file_at(repo_, "--output=" + target.string(), "f.txt"); }), GitError::Kind::kBadRef);
  EXPECT_EQ(error_kind([&] { changes_since(repo_, "-p"); }), GitError::Kind::kBadRef);
  EXPECT_FALSE(fs::exists(target));
  // Spaces keep it one argument: still no option.
  EXPECT_EQ(error_kind([&] { changes_since(repo_, "HEAD --output=" + target.string()); }), GitError::Kind::kBadRef);
  EXPECT_FALSE(fs::exists(target));

  EXPECT_EQ(error_kind([&] { changes_since(repo_, "nonexistent"); }, &message), GitError::Kind::kBadRef);
  EXPECT_NE(message.find("nonexistent"), std::string::npos) << message;
  EXPECT_EQ(message.find("no commits yet"), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { changes_since(repo_, ""); }), GitError::Kind::kBadRef);
  EXPECT_EQ(error_kind([&] { changes_since(repo_, std::string_view("HEAD\0x", 6)); }), GitError::Kind::kBadRef);
  EXPECT_EQ(error_kind([&] { changes_since(repo_, "HEAD~5"); }), GitError::Kind::kBadRef);
  // Objects that are no commit.
  EXPECT_EQ(error_kind([&] { changes_since(repo_, "HEAD^{tree}"); }), GitError::Kind::kBadRef);
  EXPECT_EQ(error_kind([&] { changes_since(repo_, "HEAD:f.txt"); }), GitError::Kind::kBadRef);
  write("g^{commit}", "blob\n");
  commit_all();
  EXPECT_EQ(error_kind([&] { changes_since(repo_, "HEAD:g"); }), GitError::Kind::kBadRef);
}

TEST_F(VcsTest, RepositoryWithoutCommits) {
  write("f.txt", "x\n");
  std::string message;
  EXPECT_EQ(error_kind([&] { changes_since(repo_); }, &message), GitError::Kind::kBadRef);
  EXPECT_NE(message.find("HEAD"), std::string::npos) << message;
  EXPECT_NE(message.find("no commits yet"), std::string::npos) << message;
}

TEST_F(VcsTest, NotARepository) {
  const fs::path plain = base_ / "plain";
  fs::create_directories(plain);
  set_env("GIT_CEILING_DIRECTORIES", base_.c_str());  // do not find a repository above /tmp
  std::string message;
  EXPECT_EQ(error_kind([&] { changes_since(plain); }, &message), GitError::Kind::kNotARepository);
  EXPECT_NE(message.find("not a git repository: " + plain.string()), std::string::npos) << message;
  EXPECT_EQ(error_kind([&] { resolve_commit(plain, "HEAD"); }), GitError::Kind::kNotARepository);
  EXPECT_EQ(error_kind([&] { file_at(plain, "HEAD", "f.txt"); }), GitError::Kind::kNotARepository);
  EXPECT_EQ(error_kind([&] { changes_since(base_ / "missing"); }), GitError::Kind::kNotARepository);
  // Inside .git is no work tree either.
  write("f.txt", "x\n");
  commit_all();
  EXPECT_EQ(error_kind([&] { changes_since(repo_ / ".git"); }), GitError::Kind::kNotARepository);
}

TEST_F(VcsTest, GitMissing) {
  const fs::path empty = base_ / "empty_path";
  fs::create_directories(empty);
  set_env("PATH", empty.c_str());
  EXPECT_EQ(error_kind([&] { changes_since(repo_); }), GitError::Kind::kGitMissing);
  EXPECT_EQ(error_kind([&] { resolve_commit(repo_, "HEAD"); }), GitError::Kind::kGitMissing);
}

TEST_F(VcsTest, FileAt) {
  write("f.txt", "first\n");
  write("pkg/g.txt", "g1\n");
  commit_all("one");
  const std::string first = resolve_commit(repo_, "HEAD");
  write("f.txt", "second\n");
  write("pkg/g.txt", "g2\n");
  write("has space é.txt", "s\n");
  commit_all("two");
  fs::remove(repo_ / "f.txt");

  EXPECT_EQ(file_at(repo_, first, "f.txt"), std::optional<std::string>("first\n"));
  EXPECT_EQ(file_at(repo_, "HEAD", "f.txt"), std::optional<std::string>("second\n"));
  EXPECT_EQ(file_at(repo_, "HEAD", "has space é.txt"), std::optional<std::string>("s\n"));
  EXPECT_EQ(file_at(repo_, first, "has space é.txt"), std::nullopt);
  EXPECT_EQ(file_at(repo_, "HEAD", "pkg"), std::nullopt);  // a directory
  EXPECT_EQ(file_at(repo_, "HEAD", "missing.txt"), std::nullopt);
  // Relative to root when root is a subdirectory.
  EXPECT_EQ(file_at(repo_ / "pkg", first, "g.txt"), std::optional<std::string>("g1\n"));
  EXPECT_EQ(file_at(repo_ / "pkg", first, "f.txt"), std::nullopt);

  EXPECT_EQ(error_kind([&] { file_at(repo_ / "pkg", first, "../f.txt"); }), GitError::Kind::kFailed);
  EXPECT_EQ(error_kind([&] { file_at(repo_, first, "pkg/../../x"); }), GitError::Kind::kFailed);
  EXPECT_EQ(error_kind([&] { file_at(repo_, first, ".."); }), GitError::Kind::kFailed);
  EXPECT_EQ(error_kind([&] { file_at(repo_, first, "/etc/passwd"); }), GitError::Kind::kFailed);
  EXPECT_EQ(error_kind([&] { file_at(repo_, first, ""); }), GitError::Kind::kFailed);
  EXPECT_EQ(error_kind([&] { file_at(repo_, "nonexistent", "f.txt"); }), GitError::Kind::kBadRef);
}

TEST_F(VcsTest, FileAtReturnsBinaryContentExactly) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  bytes += bytes;
  write("b.bin", bytes);
  commit_all();
  EXPECT_EQ(file_at(repo_, "HEAD", "b.bin"), std::optional<std::string>(bytes));
}

TEST_F(VcsTest, DoesNotWriteTheIndex) {
  write("f.txt", "x\n");
  commit_all();
  write("f.txt", "y\n");
  const auto before = fs::last_write_time(repo_ / ".git" / "index");
  const std::string before_bytes = read_file(repo_ / ".git" / "index");
  changes_since(repo_);
  EXPECT_EQ(fs::last_write_time(repo_ / ".git" / "index"), before);
  EXPECT_EQ(read_file(repo_ / ".git" / "index"), before_bytes);
  EXPECT_FALSE(fs::exists(repo_ / ".git" / "index.lock"));
}

TEST_F(VcsTest, HeadCommitIsEmptyWithoutHistory) {
  EXPECT_EQ(head(repo_).commit, "");  // no commit yet
  EXPECT_EQ(head(base_ / "home").commit, "");  // not a repository
  write("a.txt", "a\n");
  commit_all();
  const std::string head = vcs::head(repo_).commit;
  EXPECT_EQ(head + "\n", git({"rev-parse", "HEAD"}));
  EXPECT_EQ(head.size(), 40u);
}

TEST_F(VcsTest, HeadNamesGitsDirectoryWhereverTheRootIs) {
  const fs::path git_dir = fs::canonical(repo_ / ".git");
  Head none = head(repo_);  // no commit yet: the directory is known, HEAD is not
  EXPECT_EQ(none.git_dir, git_dir);
  EXPECT_EQ(none.commit, "");
  write("pkg/a.txt", "a\n");
  commit_all();
  const std::string id = git({"rev-parse", "HEAD"});
  Head top = head(repo_);
  EXPECT_EQ(top.git_dir, git_dir);
  EXPECT_EQ(top.commit + "\n", id);
  // A root below the repository's top: its history is the repository's.
  Head below = head(repo_ / "pkg");
  EXPECT_EQ(below.git_dir, git_dir);
  EXPECT_EQ(below.commit, top.commit);
  // A linked worktree has a `.git` file; git's directory for it is in the
  // main repository, and its HEAD is its own.
  git({"worktree", "add", "-q", "-b", "side", (base_ / "wt").string()});
  write("b.txt", "b\n");
  commit_all();
  ASSERT_TRUE(fs::is_regular_file(base_ / "wt" / ".git"));
  Head linked = head(base_ / "wt");
  EXPECT_EQ(linked.git_dir, git_dir / "worktrees" / "wt");
  EXPECT_EQ(linked.commit + "\n", id);
  EXPECT_NE(head(repo_).commit, linked.commit);
  // Not a work tree: nothing, and no throw.
  Head outside = head(base_ / "home");
  EXPECT_TRUE(outside.git_dir.empty());
  EXPECT_EQ(outside.commit, "");
  EXPECT_TRUE(head(repo_ / ".git").git_dir.empty());  // git's directory itself has no work tree
  EXPECT_TRUE(head(base_ / "no-such-dir").git_dir.empty());
}

TEST_F(VcsTest, CommitFilesListsEachCommitsFilesNewestFirst) {
  write("pkg/a.py", "a\n");
  write("pkg/b.json", "{}\n");
  write("top.txt", "t\n");
  commit_all("first");
  write("pkg/a.py", "a2\n");
  write("pkg/b.json", "{\"x\": 1}\n");
  commit_all("together");
  write("top.txt", "t2\n");
  write("pkg/é \"q\".txt", "q\n");
  commit_all("outside and quoted");
  git({"mv", "pkg/b.json", "pkg/c.json"});
  commit_all("rename");
  // A merge is left out; the side branch's own commit is not.
  git({"checkout", "-q", "-b", "side", "HEAD~1"});
  write("pkg/side.py", "s\n");
  commit_all("side");
  git({"checkout", "-q", "main"});
  git({"merge", "-q", "--no-edit", "side"});

  const auto commits = commit_files(repo_, "HEAD", 100);
  using Files = std::vector<std::string>;
  ASSERT_EQ(commits.size(), 5u);
  // The side commit and the rename: git log orders them by date, which ties here.
  EXPECT_TRUE((commits[0] == Files{"pkg/side.py"} && commits[1] == (Files{"pkg/b.json", "pkg/c.json"})) ||
              (commits[1] == Files{"pkg/side.py"} && commits[0] == (Files{"pkg/b.json", "pkg/c.json"})));
  EXPECT_EQ(commits[2], (Files{"pkg/é \"q\".txt", "top.txt"}));
  EXPECT_EQ(commits[3], (Files{"pkg/a.py", "pkg/b.json"}));
  EXPECT_EQ(commits[4], (Files{"pkg/a.py", "pkg/b.json", "top.txt"}));
  EXPECT_EQ(commit_files(repo_, "HEAD", 2).size(), 2u);

  // From a subdirectory: its paths, relative to it; commits outside it are empty.
  const auto under = commit_files(repo_ / "pkg", "HEAD~2", 100);
  ASSERT_EQ(under.size(), 3u);
  EXPECT_EQ(under[0], (Files{"é \"q\".txt"}));
  EXPECT_EQ(under[1], (Files{"a.py", "b.json"}));

  // A repository's configuration runs nothing: signatures are not checked
  // (log.showSignature would run gpg.program), no diff driver or textconv.
  const fs::path marker = base_ / "ran";
  const fs::path program = base_ / "program.sh";
  std::ofstream(program) << "#!/bin/sh\ntouch '" << marker.string() << "'\nexit 1\n";
  fs::permissions(program, fs::perms::owner_all);
  git({"config", "log.showSignature", "true"});
  git({"config", "gpg.program", program.string()});
  git({"config", "diff.external", program.string()});
  write(".gitattributes", "*.py diff=conv\n");
  git({"config", "diff.conv.textconv", program.string()});
  git({"add", ".gitattributes"});
  git({"-c", "commit.gpgSign=false", "commit", "-q", "-m", "attributes"});
  // A signed commit on top (its signature is never checked, so it need not verify).
  std::string tree = git({"rev-parse", "HEAD^{tree}"}), parent = git({"rev-parse", "HEAD"});
  tree.pop_back();
  parent.pop_back();
  std::ofstream(base_ / "signed") << "tree " << tree << "\nparent " << parent
                                  << "\nauthor Test <test@example.com> 1700000000 +0000\n"
                                     "committer Test <test@example.com> 1700000000 +0000\n"
                                     "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n"
                                     " -----END PGP SIGNATURE-----\n\nsigned\n";
  std::string signed_commit = git({"hash-object", "-t", "commit", "-w", (base_ / "signed").string()});
  signed_commit.pop_back();
  git({"update-ref", "HEAD", signed_commit});
  EXPECT_EQ(commit_files(repo_, "HEAD", 100).size(), 7u);
  EXPECT_FALSE(fs::exists(marker)) << "git ran a program the repository's configuration names";

  std::string message;
  EXPECT_EQ(error_kind([&] { commit_files(repo_, "--all", 10); }, &message), GitError::Kind::kBadRef) << message;
  EXPECT_EQ(error_kind([&] { commit_files(base_ / "home", "HEAD", 10); }), GitError::Kind::kNotARepository);
}

}  // namespace
}  // namespace comp::vcs
