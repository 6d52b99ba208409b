// walk() against real git as the oracle: for untracked files, walk() must
// list (as files or skipped) exactly what
// `git ls-files --others --exclude-standard` lists. Trees and patterns are
// generated (fixed tricky cases plus a seeded random generator), in a
// sandbox whose HOME and XDG_CONFIG_HOME are temporary so no user config
// leaks into either side.
#include "walk/walker.h"

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace comp::walk {
namespace {

namespace fs = std::filesystem;
using PathSet = std::set<std::string>;

// Runs argv (never through a shell) and returns its stdout; stderr passes
// through to the test log.
struct ProcessOutput {
  int exit_code = -1;
  std::string out;
};

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

PathSet split_nul(const std::string& s) {
  PathSet out;
  std::size_t start = 0;
  while (start < s.size()) {
    const std::size_t end = s.find('\0', start);
    out.insert(s.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::string git_output(const fs::path& dir, std::vector<std::string> args) {
  std::vector<std::string> argv = {"git", "-C", dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOutput r = run_process(argv);
  EXPECT_EQ(r.exit_code, 0) << "git failed in " << dir;
  return r.out;
}

PathSet git_untracked(const fs::path& dir) {
  return split_nul(git_output(dir, {"ls-files", "--others", "--exclude-standard", "-z"}));
}

// Everything walk() found that is not ignored: git lists symlinks (even to
// directories or outside the tree) and too-large files alike.
PathSet walked_paths(const WalkResult& r) {
  PathSet out;
  for (const auto& f : r.files) out.insert(f.rel_path);
  for (const auto& s : r.skipped) out.insert(s.rel_path);
  return out;
}

PathSet walked_paths(const fs::path& root) {
  WalkOptions options;
  options.root = root;
  return walked_paths(walk(options));
}

std::string describe_difference(const PathSet& walked, const PathSet& git) {
  std::ostringstream out;
  for (const auto& p : walked) {
    if (git.count(p) == 0) out << "  only walk(): '" << p << "'\n";
  }
  for (const auto& p : git) {
    if (walked.count(p) == 0) out << "  only git:    '" << p << "'\n";
  }
  return out.str();
}

const SkippedEntry* find_skipped(const WalkResult& r, const std::string& path) {
  for (const auto& s : r.skipped) {
    if (s.rel_path == path) return &s;
  }
  return nullptr;
}

const WalkEntry* find_file(const WalkResult& r, const std::string& path) {
  for (const auto& f : r.files) {
    if (f.rel_path == path) return &f;
  }
  return nullptr;
}

void write_file(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A temporary git repository with a private HOME and XDG_CONFIG_HOME; the
// environment is restored afterwards.
class GitSandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "walker_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    base_ = tmpl;
    home_ = base_ / "home";
    xdg_ = base_ / "xdg";
    repo_ = base_ / "repo";
    fs::create_directories(home_);
    fs::create_directories(xdg_);
    fs::create_directories(repo_);
    set_env("HOME", home_.c_str());
    set_env("XDG_CONFIG_HOME", xdg_.c_str());
    set_env("GIT_CONFIG_NOSYSTEM", "1");
    for (const char* name : {"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_DIR", "GIT_WORK_TREE",
                             "GIT_INDEX_FILE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
                             "GIT_CEILING_DIRECTORIES"}) {
      set_env(name, nullptr);
    }
    git_output(repo_, {"-c", "init.defaultBranch=main", "init", "-q"});
    initial_config_ = read_file(repo_ / ".git" / "config");
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

  void write(const std::string& rel, const std::string& content = "x\n") {
    write_file(repo_ / rel, content);
  }

  // Removes the work tree and every ignore source, keeping the repository.
  void reset() {
    for (const auto& e : fs::directory_iterator(repo_)) {
      if (e.path().filename() != ".git") fs::remove_all(e.path());
    }
    fs::remove(repo_ / ".git" / "info" / "exclude");
    write_file(repo_ / ".git" / "config", initial_config_);
    fs::remove_all(home_);
    fs::remove_all(xdg_);
    fs::create_directories(home_);
    fs::create_directories(xdg_);
  }

  void expect_matches_git(const fs::path& root, const std::string& context) {
    const PathSet git = git_untracked(root);
    const PathSet walked = walked_paths(root);
    EXPECT_EQ(walked, git) << context << describe_difference(walked, git);
  }

  fs::path base_, home_, xdg_, repo_;
  std::string initial_config_;
  std::map<std::string, std::optional<std::string>> saved_env_;
};

// ---------------------------------------------------------------------------
// Fixed cases, one per rule

TEST_F(GitSandbox, TrickyPatternsMatchGit) {
  write(".gitignore",
        "# comment\n"
        "\\#hash\n"
        "\\!bang\n"
        "*.o\n"
        "!keep.o\n"
        "build/\n"
        "/anchored.txt\n"
        "doc/*.tmp\n"
        "**/deep\n"
        "logs/**\n"
        "!logs/important.log\n"  // re-included: "logs/**" excludes the contents, not logs/ itself
        "a/**/z.txt\n"
        "trail   \n"
        "esc\\ \n"
        "[abc].cls\n"
        "[!x]y.neg\n"
        "n[0-9][0-9].num\n"
        "excluded_dir/\n"
        "!excluded_dir/back.txt\n"
        "a**/b.weird\n"
        "crlf.txt\r\n"
        "dironly_file/\n");
  for (const char* f :
       {"#hash", "!bang", "bang", "x.o", "keep.o", "sub/x.o", "build/out", "sub/build/out", "anchored.txt",
        "sub/anchored.txt", "doc/a.tmp", "doc/sub/a.tmp", "deep", "x/y/deep", "logs/a.log", "logs/important.log",
        "logs/sub/important.log", "a/z.txt", "a/b/z.txt", "a/b/c/z.txt", "trail", "trail ", "esc ", "esc",
        "a.cls", "d.cls", "ay.neg", "xy.neg", "n12.num", "n1a.num", "excluded_dir/back.txt",
        "excluded_dir/other.txt", "ab.weird", "a/b.weird", "b.weird", "crlf.txt", "dironly_file", "plain.txt"}) {
    write(f);
  }
  // Nested .gitignore: patterns relative to their directory, deeper wins.
  write("nested/.gitignore", "/local\n*.o\n!*.o\nsub/only\n!x.o\n");
  for (const char* f : {"nested/local", "nested/deeper/local", "nested/x.o", "nested/y.o", "nested/sub/only",
                        "nested/q/sub/only"}) {
    write(f);
  }
  write("nested/deeper/.gitignore", "!local\nlocal2\n");
  write("nested/deeper/local2");
  expect_matches_git(repo_, "tricky patterns\n");

  const PathSet walked = walked_paths(repo_);
  for (const char* kept : {"bang", "keep.o", "logs/important.log", "sub/anchored.txt", "doc/sub/a.tmp", "trail ", "esc",
                           "d.cls", "xy.neg", "n1a.num", "dironly_file", "plain.txt", "nested/y.o",
                           "nested/deeper/local"}) {
    EXPECT_EQ(walked.count(kept), 1u) << kept;
  }
  for (const char* gone : {"#hash", "!bang", "x.o", "build/out", "anchored.txt", "doc/a.tmp", "x/y/deep",
                           "logs/a.log", "logs/sub/important.log", "a/b/c/z.txt", "trail", "esc ", "a.cls", "ay.neg",
                           "n12.num", "excluded_dir/back.txt", "ab.weird", "a/b.weird", "crlf.txt",
                           "nested/local", "nested/sub/only", "nested/deeper/local2"}) {
    EXPECT_EQ(walked.count(gone), 0u) << gone;
  }
}

TEST_F(GitSandbox, InfoExcludeAndCoreExcludesFileRankBelowGitignore) {
  write(".git/info/exclude", "*.info\n!keep.global\n");
  write_file(home_ / ".gitconfig", "[core]\n\texcludesFile = ~/global-ignore\n");
  write_file(home_ / "global-ignore", "*.global\n*.info2\n");
  write(".gitignore", "!reinclude.global\n");
  for (const char* f : {"a.info", "b.global", "keep.global", "reinclude.global", "c.info2", "plain"}) write(f);
  expect_matches_git(repo_, "info/exclude + core.excludesFile\n");
  const PathSet walked = walked_paths(repo_);
  EXPECT_EQ(walked.count("a.info"), 0u);
  EXPECT_EQ(walked.count("b.global"), 0u);
  EXPECT_EQ(walked.count("keep.global"), 1u);
  EXPECT_EQ(walked.count("reinclude.global"), 1u);
}

TEST_F(GitSandbox, ExcludesFileDefaultsToXdgAndRepoConfigOverridesGlobal) {
  write_file(xdg_ / "git" / "ignore", "*.xdg\n");
  for (const char* f : {"a.xdg", "b.repo", "c"}) write(f);
  expect_matches_git(repo_, "xdg default\n");
  EXPECT_EQ(walked_paths(repo_).count("a.xdg"), 0u);

  write_file(repo_ / ".git" / "config", initial_config_ + "[core]\n\texcludesfile = " +
                                            (base_ / "repo-ignore").string() + "\n");
  write_file(base_ / "repo-ignore", "*.repo\n");
  expect_matches_git(repo_, "repo config\n");
  EXPECT_EQ(walked_paths(repo_).count("a.xdg"), 1u);
  EXPECT_EQ(walked_paths(repo_).count("b.repo"), 0u);
}

TEST_F(GitSandbox, SeparateGitDirIsFoundThroughTheDotGitFile) {
  const fs::path wt = base_ / "wt";
  git_output(base_, {"-c", "init.defaultBranch=main", "init", "-q", "--separate-git-dir",
                     (base_ / "sep.git").string(), wt.string()});
  ASSERT_TRUE(fs::is_regular_file(wt / ".git"));
  write_file(base_ / "sep.git" / "info" / "exclude", "secret*\n");
  write_file(wt / "secret.txt", "s");
  write_file(wt / "public.txt", "p");
  expect_matches_git(wt, "separate git dir\n");
  EXPECT_EQ(walked_paths(wt), PathSet{"public.txt"});
}

TEST_F(GitSandbox, SubdirectoryRootUsesAncestorGitignoresWithRepoRelativeAnchors) {
  write(".gitignore", "*.log\n/sub/top-anchored\nsub/inner/x\n");
  write("sub/.gitignore", "!keep.log\n");
  for (const char* f : {"sub/a.log", "sub/keep.log", "sub/top-anchored", "sub/inner/x", "sub/inner/y",
                        "sub/sub/top-anchored"}) {
    write(f);
  }
  write(".git/info/exclude", "/sub/inner/y\n");
  expect_matches_git(repo_ / "sub", "root is a subdirectory\n");
  EXPECT_EQ(walked_paths(repo_ / "sub"), (PathSet{".gitignore", "keep.log", "sub/top-anchored"}));
}

TEST_F(GitSandbox, AnIgnoredDirectoryChosenAsRootIsStillWalked) {
  write(".gitignore", "build/\n*.o\n");
  write("build/out.bin");
  write("build/x.o");
  write("build/sub/y.txt");
  EXPECT_EQ(git_untracked(repo_), PathSet{".gitignore"});
  EXPECT_EQ(walked_paths(repo_ / "build"), (PathSet{"out.bin", "sub/y.txt"}));
}

TEST_F(GitSandbox, GitAndCompDirectoriesAreAlwaysSkipped) {
  write(".gitignore", "!.comp/\n!.git\n");
  write(".comp/index.db");
  write("sub/.comp/cache");
  write("sub/.git", "gitdir: /nowhere\n");
  write("kept.txt");
  const PathSet walked = walked_paths(repo_);
  EXPECT_EQ(walked, (PathSet{".gitignore", "kept.txt"}));
}

TEST_F(GitSandbox, DirectoriesListsWhatWasDescendedIntoSorted) {
  write(".gitignore", "node_modules/\n");
  write("node_modules/pkg/index.js");
  write(".comp/graph.db");
  write("sub/.comp/cache");
  write("src/a/b/c.cc");
  write("src/d.cc");
  write("empty/.keep");
  fs::create_directories(repo_ / "src" / "a" / "bare");
  WalkOptions options;
  options.root = repo_;
  const WalkResult result = walk(options);
  EXPECT_EQ(result.directories,
            (std::vector<std::string>{"", "empty", "src", "src/a", "src/a/b", "src/a/bare", "sub"}));
}

TEST_F(GitSandbox, SymlinksFollowTheHeaderRules) {
  write("target.txt", "12345");
  write("hidden/secret.txt", "abc");
  write("sub/file.txt");
  write(".gitignore", "hidden/\nignored_link\ndirlink2/\n");
  write_file(home_ / "outside.txt", "out");
  fs::create_symlink("target.txt", repo_ / "link_in");
  fs::create_symlink("../target.txt", repo_ / "sub" / "link_up");
  fs::create_symlink("link_in", repo_ / "chain");
  fs::create_symlink("hidden/secret.txt", repo_ / "link_hidden");
  fs::create_symlink(home_ / "outside.txt", repo_ / "link_out");
  fs::create_symlink("nope", repo_ / "dangling");
  fs::create_symlink("loop", repo_ / "loop");
  fs::create_symlink("sub", repo_ / "dirlink");
  fs::create_symlink("sub", repo_ / "dirlink2");  // "dirlink2/" does not match a link
  fs::create_symlink("target.txt", repo_ / "ignored_link");
  expect_matches_git(repo_, "symlinks\n");

  WalkOptions options;
  options.root = repo_;
  const WalkResult r = walk(options);
  const WalkEntry* in = find_file(r, "link_in");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->size, 5u);
  EXPECT_NE(find_file(r, "sub/link_up"), nullptr);
  EXPECT_NE(find_file(r, "chain"), nullptr);
  EXPECT_NE(find_file(r, "link_hidden"), nullptr);
  for (const char* outside : {"link_out", "dangling", "loop"}) {
    const SkippedEntry* s = find_skipped(r, outside);
    ASSERT_NE(s, nullptr) << outside;
    EXPECT_EQ(s->reason, SkipReason::kSymlinkOutside) << outside;
  }
  for (const char* dir_link : {"dirlink", "dirlink2"}) {
    const SkippedEntry* s = find_skipped(r, dir_link);
    ASSERT_NE(s, nullptr) << dir_link;
    EXPECT_EQ(s->reason, SkipReason::kNotRegular) << dir_link;
  }
  EXPECT_EQ(walked_paths(r).count("dirlink/file.txt"), 0u);  // never followed
  EXPECT_EQ(walked_paths(r).count("ignored_link"), 0u);

  // Through a symlinked root, "inside" is judged on the resolved root.
  fs::create_symlink(repo_, base_ / "root-link");
  options.root = base_ / "root-link";
  EXPECT_EQ(walked_paths(walk(options)), walked_paths(r));
}

TEST_F(GitSandbox, SymlinkedGitignoreIsNotFollowedLikeGit) {
  write("patterns", "a\n");
  fs::create_symlink("patterns", repo_ / ".gitignore");
  write("a");
  write("b");
  expect_matches_git(repo_, "symlinked .gitignore\n");
  WalkOptions options;
  options.root = repo_;
  const WalkResult r = walk(options);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find(".gitignore"), std::string::npos);
}

TEST_F(GitSandbox, TooLargeFilesAreSkippedAboveTheLimit) {
  write("small", std::string(100, 'a'));
  write("big", std::string(101, 'a'));
  WalkOptions options;
  options.root = repo_;
  options.max_file_size = 100;
  const WalkResult r = walk(options);
  EXPECT_NE(find_file(r, "small"), nullptr);
  const SkippedEntry* big = find_skipped(r, "big");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->reason, SkipReason::kTooLarge);
}

// Runs walk() in a child process that has dropped to `uid`/`gid`, because
// root reads everything whatever the permission bits say. Only the parts
// the caller checks travel back: skipped entries and errors.
WalkResult walk_as_user(const fs::path& root, uid_t uid, gid_t gid) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0) ::_exit(2);
    WalkOptions options;
    options.root = root;
    const WalkResult r = walk(options);
    std::string out;
    for (const auto& s : r.skipped) {
      out += "S\t" + std::to_string(static_cast<int>(s.reason)) + "\t" + s.rel_path + "\n";
    }
    for (const auto& e : r.errors) out += "E\t" + e + "\n";
    for (const auto& f : r.files) out += "F\t" + f.rel_path + "\n";
    const bool ok = ::write(fds[1], out.data(), out.size()) == static_cast<ssize_t>(out.size());
    ::_exit(ok ? 0 : 3);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "walk child failed";
  WalkResult r;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.compare(0, 2, "S\t") == 0) {
      const std::size_t tab = line.find('\t', 2);
      r.skipped.push_back(SkippedEntry{line.substr(tab + 1), static_cast<SkipReason>(std::stoi(line.substr(2))), ""});
    } else if (line.compare(0, 2, "E\t") == 0) {
      r.errors.push_back(line.substr(2));
    } else if (line.compare(0, 2, "F\t") == 0) {
      r.files.push_back(WalkEntry{line.substr(2), 0, 0});
    }
  }
  return r;
}

TEST_F(GitSandbox, UnreadableFilesAndDirectoriesAreReported) {
  write("locked.txt");
  write("locked_dir/inner.txt");
  write("open.txt");
  fs::permissions(repo_ / "locked.txt", fs::perms::none);
  fs::permissions(repo_ / "locked_dir", fs::perms::none);
  WalkResult r;
  if (::geteuid() == 0) {
    fs::permissions(base_, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec |
                               fs::perms::group_read | fs::perms::others_read);
    r = walk_as_user(repo_, 65534, 65534);  // nobody
  } else {
    WalkOptions options;
    options.root = repo_;
    r = walk(options);
  }
  fs::permissions(repo_ / "locked_dir", fs::perms::owner_all);
  const SkippedEntry* s = find_skipped(r, "locked.txt");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->reason, SkipReason::kUnreadable);
  EXPECT_NE(find_file(r, "open.txt"), nullptr);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("locked_dir"), std::string::npos);
}

TEST_F(GitSandbox, FifosAreNotRegularAndGitDoesNotListThem) {
  ASSERT_EQ(::mkfifo((repo_ / "pipe").c_str(), 0644), 0);
  ASSERT_EQ(::mkfifo((repo_ / "ignored.pipe").c_str(), 0644), 0);
  write(".gitignore", "*.pipe\n");
  WalkOptions options;
  options.root = repo_;
  const WalkResult r = walk(options);
  const SkippedEntry* s = find_skipped(r, "pipe");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->reason, SkipReason::kNotRegular);
  EXPECT_EQ(find_skipped(r, "ignored.pipe"), nullptr);
  EXPECT_EQ(git_untracked(repo_), PathSet{".gitignore"});
}

TEST_F(GitSandbox, ReportsSizeAndNanosecondMtimeSorted) {
  write("b/z", "12");
  write("a.c", "1");
  write("a/b", "123");
  const struct timespec times[2] = {{0, UTIME_OMIT}, {1'600'000'000, 123'456'789}};
  ASSERT_EQ(::utimensat(AT_FDCWD, (repo_ / "a/b").c_str(), times, 0), 0);
  WalkOptions options;
  options.root = repo_;
  const WalkResult r = walk(options);
  std::vector<std::string> paths;
  for (const auto& f : r.files) paths.push_back(f.rel_path);
  EXPECT_EQ(paths, (std::vector<std::string>{"a.c", "a/b", "b/z"}));  // byte order: '.' < '/'
  const WalkEntry* ab = find_file(r, "a/b");
  ASSERT_NE(ab, nullptr);
  EXPECT_EQ(ab->size, 3u);
  EXPECT_EQ(ab->mtime_ns, 1'600'000'000'123'456'789LL);
  EXPECT_TRUE(r.errors.empty());
}

// A query's stale count: the files whose stamp is not the one they were
// indexed with, from the walk's own stamps, on one thread or several
// helping each other; a final symlink is not followed, a folder that is
// gone or is now a file makes its files stale.
TEST_F(GitSandbox, AStaleCountFindsEveryFileChangedSinceItWasStamped) {
  for (int d = 0; d < 30; ++d)
    for (int f = 0; f < 40; ++f) write("d" + std::to_string(d) + "/sub/f" + std::to_string(f) + ".c", "int x;\n");
  write("top.c", "int top;\n");
  write("gone/a.c", "int a;\n");
  write("filed/b.c", "int b;\n");
  write("linked.c", "int l;\n");
  WalkOptions options;
  options.root = repo_;
  const WalkResult before = walk(options);
  ASSERT_EQ(before.files.size(), 30u * 40 + 4);
  auto count = [&](int threads) {
    StaleCount stale(repo_, before.files.size(), [&](std::size_t i) {
      return StaleCount::File{before.files[i].rel_path, {before.files[i].size, before.files[i].mtime_ns}};
    });
    std::vector<std::thread> helpers;
    for (int t = 1; t < threads; ++t) helpers.emplace_back([&] { stale.help(); });
    stale.help();
    for (std::thread& helper : helpers) helper.join();
    return stale.count();
  };
  EXPECT_EQ(count(1), 0u);
  EXPECT_EQ(count(3), 0u);
  write("d3/sub/f7.c", "int x, y;\n");  // size
  const struct timespec times[2] = {{0, UTIME_OMIT}, {1'600'000'000, 1}};
  ASSERT_EQ(::utimensat(AT_FDCWD, (repo_ / "d17/sub/f0.c").c_str(), times, 0), 0);  // mtime only
  ASSERT_EQ(::utimensat(AT_FDCWD, (repo_ / "top.c").c_str(), times, 0), 0);          // in the root
  fs::remove(repo_ / "d29/sub/f39.c");                                               // removed
  fs::remove_all(repo_ / "gone");                                                    // its folder too
  fs::remove_all(repo_ / "filed");
  write("filed", "a file where the folder was\n");
  // A symlink to a file of the same size and time is not the file.
  const WalkEntry* linked = find_file(before, "linked.c");
  ASSERT_NE(linked, nullptr);
  write("elsewhere/target.c", "int t;\n");
  const struct timespec linked_time[2] = {{0, UTIME_OMIT},
                                          {linked->mtime_ns / 1'000'000'000, linked->mtime_ns % 1'000'000'000}};
  ASSERT_EQ(::utimensat(AT_FDCWD, (repo_ / "elsewhere/target.c").c_str(), linked_time, 0), 0);
  fs::remove(repo_ / "linked.c");
  fs::create_symlink("elsewhere/target.c", repo_ / "linked.c");
  ASSERT_EQ(stamp_of((repo_ / "elsewhere/target.c").string())->mtime_ns, linked->mtime_ns);
  EXPECT_EQ(count(1), 7u);
  EXPECT_EQ(count(2), 7u);
  EXPECT_EQ(count(4), 7u);
  StaleCount none(repo_, 0, [&](std::size_t) -> StaleCount::File { ADD_FAILURE() << "no file to read"; return {}; });
  none.help();
  EXPECT_EQ(none.count(), 0u);
}

// A walk shared between threads (each walks whole subtrees with its own
// copy of the ignore rules) answers exactly what one thread does, and what
// git lists: a tree wide enough to be shared, with ignore files at every
// depth (negations, directory patterns), too-large files, symlinks and an
// unreadable .gitignore (an error).
TEST_F(GitSandbox, AWalkOnSeveralThreadsEqualsOneOnOne) {
  write(".gitignore", "*.log\n!keep.log\nbuild/\n");
  for (int d = 0; d < 40; ++d) {
    const std::string top = "d" + std::to_string(d);
    if (d % 3 == 0) write(top + "/.gitignore", "s1/\n!*.md\n");
    for (int s = 0; s < 3; ++s) {
      const std::string dir = top + "/s" + std::to_string(s);
      write(dir + "/a.py", std::string(static_cast<std::size_t>(d + s), 'x'));
      write(dir + "/b.log");
      write(dir + "/keep.log");
      write(dir + "/c.txt");
      write(dir + "/deep/er/e.md");
      write(dir + "/build/out.js");
      if (d % 5 == 0) write(dir + "/.gitignore", "c.txt\n/deep/\n");
      if (d % 7 == 0) write(dir + "/big.bin", std::string(3000, 'y'));
      if (d % 11 == 0) {
        fs::create_symlink("a.py", repo_ / dir / "link.py");
        fs::create_symlink("/etc/hostname", repo_ / dir / "outside");
      }
    }
  }
  write("d4/s1/.gitignore", "*\n");
  fs::permissions(repo_ / "d4/s1/.gitignore", fs::perms::none);
  auto walk_on = [&](unsigned threads) {
    WalkOptions options;
    options.root = repo_;
    options.max_file_size = 2000;
    options.threads = threads;
    return walk(options);
  };
  const WalkResult one = walk_on(1);
  auto text_of = [](const WalkResult& r) {
    std::ostringstream out;
    for (const auto& f : r.files) out << "F " << f.rel_path << " " << f.size << " " << f.mtime_ns << "\n";
    for (const auto& s : r.skipped) out << "S " << s.rel_path << " " << to_string(s.reason) << " " << s.detail << "\n";
    for (const auto& e : r.errors) out << "E " << e << "\n";
    for (const auto& d : r.directories) out << "D " << d << "\n";
    return out.str();
  };
  EXPECT_GE(one.directories.size(), 200u);
  EXPECT_FALSE(one.skipped.empty());
  for (unsigned threads : {2u, 3u, 4u}) EXPECT_EQ(text_of(walk_on(threads)), text_of(one)) << threads << " threads";
  fs::permissions(repo_ / "d4/s1/.gitignore", fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(walked_paths(walk_on(4)), git_untracked(repo_));
}

TEST_F(GitSandbox, ATargetedWalkIsTheWholeWalkUnderItsPaths) {
  // What a watcher reports changed is walked alone, under the same rules: the
  // files and skips of a targeted walk are exactly the whole walk's under its
  // paths, whatever the paths (files, folders, ignored ones, missing ones).
  write(".gitignore", "*.log\n!keep.log\nbuild/\n");
  std::vector<std::string> candidates = {"missing.py", "d1/missing", "build", "d2/s0/build/out.js"};
  for (int d = 0; d < 6; ++d) {
    const std::string top = "d" + std::to_string(d);
    if (d % 3 == 0) write(top + "/.gitignore", "s1/\n!*.md\n");
    candidates.push_back(top);
    for (int s = 0; s < 3; ++s) {
      const std::string dir = top + "/s" + std::to_string(s);
      for (const std::string name : {"a.py", "b.log", "keep.log", "c.txt", "deep/er/e.md", "build/out.js"})
        write(dir + "/" + name, std::string(static_cast<std::size_t>(d + s), 'x'));
      if (d % 2 == 0) write(dir + "/.gitignore", "c.txt\n/deep/\n");
      if (d == 4) write(dir + "/big.bin", std::string(3000, 'y'));
      candidates.insert(candidates.end(), {dir, dir + "/a.py", dir + "/b.log", dir + "/c.txt", dir + "/deep",
                                           dir + "/deep/er/e.md", dir + "/big.bin"});
    }
  }
  fs::create_symlink("../d2/s0/a.py", repo_ / "d1/link.py");
  fs::create_symlink("nowhere.py", repo_ / "d3/s2/dangling.py");
  candidates.insert(candidates.end(), {"d1/link.py", "d3/s2/dangling.py"});
  auto walk_of = [&](std::optional<std::vector<std::string>> only) {
    WalkOptions options;
    options.root = repo_;
    options.max_file_size = 2000;
    options.only = std::move(only);
    return walk(options);
  };
  const WalkResult whole = walk_of(std::nullopt);
  EXPECT_EQ(whole.links, (std::vector<std::string>{"d1/link.py", "d3/s2/dangling.py"}));
  auto under = [](const std::string& path, const std::vector<std::string>& targets) {
    return std::any_of(targets.begin(), targets.end(),
                       [&](const std::string& t) { return path == t || path.starts_with(t + "/"); });
  };
  std::mt19937 random(7);
  for (int round = 0; round < 40; ++round) {
    std::vector<std::string> targets;
    for (std::size_t n = 1 + random() % 4; targets.size() < n;) targets.push_back(candidates[random() % candidates.size()]);
    const WalkResult targeted = walk_of(targets);
    std::vector<std::string> expected, got;
    for (const auto& f : whole.files)
      if (under(f.rel_path, targets)) expected.push_back("F " + f.rel_path + " " + std::to_string(f.size));
    for (const auto& s : whole.skipped)
      if (under(s.rel_path, targets)) expected.push_back("S " + s.rel_path + " " + to_string(s.reason));
    for (const auto& f : targeted.files) got.push_back("F " + f.rel_path + " " + std::to_string(f.size));
    for (const auto& s : targeted.skipped) got.push_back("S " + s.rel_path + " " + to_string(s.reason));
    for (const auto& l : whole.links)
      if (under(l, targets)) expected.push_back("L " + l);
    for (const auto& l : targeted.links) got.push_back("L " + l);
    std::string shown;
    for (const std::string& t : targets) shown += t + " ";
    EXPECT_EQ(got, expected) << "targets: " << shown;
  }
  // "" is the whole tree.
  EXPECT_EQ(walked_paths(walk_of(std::vector<std::string>{"d1", ""})), walked_paths(whole));
}

TEST_F(GitSandbox, OutsideAnyRepositoryGitignoreAndGlobalExcludesStillApply) {
  const fs::path plain = base_ / "plain";
  write_file(plain / ".gitignore", "*.tmp\n");
  write_file(plain / "a.tmp", "");
  write_file(plain / "b.txt", "");
  write_file(plain / "c.global", "");
  write_file(xdg_ / "git" / "ignore", "*.global\n");
  EXPECT_EQ(walked_paths(plain), (PathSet{".gitignore", "b.txt"}));
}

TEST(Walk, MissingRootThrows) {
  WalkOptions options;
  options.root = "/nonexistent/walk/root";
  EXPECT_THROW(walk(options), fs::filesystem_error);
}

TEST(Walk, LooksBinaryChecksTheFirst8KiBForNul) {
  EXPECT_FALSE(looks_binary(""));
  EXPECT_FALSE(looks_binary("plain text\n"));
  EXPECT_TRUE(looks_binary(std::string("a\0b", 3)));
  std::string late(9000, 'a');
  late[8500] = '\0';
  EXPECT_FALSE(looks_binary(late));
  late[8191] = '\0';
  EXPECT_TRUE(looks_binary(late));
}

TEST(Walk, SkipReasonsHaveNames) {
  EXPECT_STREQ(to_string(SkipReason::kTooLarge), "too-large");
  EXPECT_STREQ(to_string(SkipReason::kSymlinkOutside), "symlink-outside");
  EXPECT_STREQ(to_string(SkipReason::kUnreadable), "unreadable");
  EXPECT_STREQ(to_string(SkipReason::kBinary), "binary");
  EXPECT_STREQ(to_string(SkipReason::kNotRegular), "not-regular");
}

// ---------------------------------------------------------------------------
// .compignore and .vscodeignore: walk() must agree with git once their
// patterns are placed where they rank (.compignore right after the root
// .gitignore, .vscodeignore below the global excludes file).

TEST_F(GitSandbox, CompignoreAndVscodeignoreRankAsDocumented) {
  write(".gitignore", "*.log\n");
  write(".compignore", "!debug.log\nsecret/\n");
  write(".vscodeignore", "*.vsix\n!keep.glob\n");
  write_file(xdg_ / "git" / "ignore", "*.glob\n");
  write("sub/.gitignore", "!*.vsix\nlocal.txt\n");
  write("sub/.compignore", "plain\n");  // only the root's counts
  for (const char* f : {"a.log", "debug.log", "secret/key", "x.vsix", "sub/y.vsix", "keep.glob", "z.glob",
                        "sub/local.txt", "plain"}) {
    write(f);
  }
  EXPECT_EQ(walked_paths(repo_), (PathSet{".compignore", ".gitignore", ".vscodeignore", "debug.log", "plain",
                                          "sub/.compignore", "sub/.gitignore", "sub/y.vsix"}));
}

// ---------------------------------------------------------------------------
// Seeded random trees and patterns

class RandomCase {
 public:
  RandomCase(unsigned seed, fs::path top) : rng_(seed), top_(std::move(top)) {}

  // Writes a random tree with random ignore files; returns a description.
  std::string build(const fs::path& home, const fs::path& xdg, bool with_symlinks) {
    make_dir("", 0);
    if (files_.empty()) add_file("", "a");
    std::ostringstream log;
    for (const std::string& dir : dirs_) {
      if (!chance(dir.empty() ? 70 : 35)) continue;
      const std::string text = ignore_text(dir, 1 + pick(6));
      write_file(top_ / dir / ".gitignore", text);
      log << "--- " << (dir.empty() ? "" : dir + "/") << ".gitignore\n" << text;
    }
    if (chance(30)) {
      const std::string text = ignore_text("", 1 + pick(3));
      write_file(top_ / ".git" / "info" / "exclude", text);
      log << "--- .git/info/exclude\n" << text;
    }
    switch (pick(4)) {
      case 0:
        break;
      case 1: {
        const std::string text = ignore_text("", 1 + pick(3));
        write_file(xdg / "git" / "ignore", text);
        log << "--- $XDG_CONFIG_HOME/git/ignore\n" << text;
        break;
      }
      case 2: {
        const std::string text = ignore_text("", 1 + pick(3));
        write_file(home / ".gitconfig", "[core]\n\texcludesFile = ~/global-ignore\n");
        write_file(home / "global-ignore", text);
        log << "--- ~/global-ignore (via ~/.gitconfig)\n" << text;
        break;
      }
      default: {
        const std::string text = ignore_text("", 1 + pick(3));
        std::ofstream(top_ / ".git" / "config", std::ios::app)
            << "[Core]\n\tExcludesFile = \"" << (home / "repo ignore").string() << "\"\n";
        write_file(home / "repo ignore", text);
        log << "--- repo core.excludesFile\n" << text;
        break;
      }
    }
    if (with_symlinks) {
      const std::string& target = files_[pick(files_.size())];
      const std::string& dir = dirs_[pick(dirs_.size())];
      const std::string link = (dir.empty() ? "" : dir + "/") + "lnk";
      if (!fs::exists(fs::symlink_status(top_ / link))) {
        fs::create_symlink(top_ / target, top_ / link);
        log << "--- symlink " << link << " -> " << target << "\n";
      }
      if (!fs::exists(fs::symlink_status(top_ / "dlnk"))) fs::create_symlink(top_ / dir, top_ / "dlnk");
    }
    log << "--- files:";
    for (const auto& f : files_) log << " '" << f << "'";
    log << "\n";
    return log.str();
  }

  std::string random_ignore_text() { return ignore_text("", 1 + pick(4)); }
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  bool chance(int percent) { return static_cast<int>(pick(100)) < percent; }

 private:
  static const std::vector<std::string>& names() {
    static const std::vector<std::string> kNames = {
        "a", "b", "ab", "abc", "a.c", "b.c", "x.o", "foo", "bar", "Foo", "log.txt", "d", "dd", "#hash",
        "!bang", "sp ace", "trail ", "q?", "st*r", "br[1]", "back\\slash", "-dash", "]x", "build",
        ".hidden", "a.b.c", "z"};
    return kNames;
  }

  static const std::vector<std::string>& segments() {
    static const std::vector<std::string> kSegments = {
        "*", "?", "**", "a*", "*.c", "*.o", "[ab]", "[!a]*", "[a-c]*", "*o*", "b?", "[[:alpha:]]*", "[]x]",
        "\\#hash", "\\!bang", "trail\\ ", "q\\?", "st\\*r", "br\\[1]", "back\\\\slash", "[^a]b", "a[.]c",
        "*.txt", "d*", "**/a", "a/**", "x*/", "a**", "**b", "[a-", "[", "a\\", "*[", "[!]]", "[]x]*",
        "[[:digit:]]*", "[[:bogus:]]", "**/", "/**"};
    return kSegments;
  }

  void add_file(const std::string& dir, const std::string& name) {
    const std::string rel = dir.empty() ? name : dir + "/" + name;
    write_file(top_ / rel, "x");
    files_.push_back(rel);
  }

  void make_dir(const std::string& dir, int depth) {
    dirs_.push_back(dir);
    std::set<std::string> used;
    const std::size_t n = 1 + pick(5);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& name = names()[pick(names().size())];
      if (!used.insert(name).second) continue;
      if (depth < 3 && chance(30)) {
        const std::string child = dir.empty() ? name : dir + "/" + name;
        fs::create_directories(top_ / child);
        make_dir(child, depth + 1);
      } else {
        add_file(dir, name);
      }
    }
  }

  std::string random_segment() {
    if (chance(50)) return names()[pick(names().size())];
    return segments()[pick(segments().size())];
  }

  // One pattern for an ignore file in `dir`.
  std::string pattern_line(const std::string& dir) {
    std::string p;
    const std::size_t kind = pick(10);
    if (kind < 4) {
      p = random_segment();
    } else if (kind < 7) {
      p = random_segment();
      for (std::size_t i = 0, n = 1 + pick(2); i < n; ++i) p += "/" + random_segment();
    } else {
      // A real path below `dir`, sometimes with a wildcard component.
      std::vector<std::string> below;
      for (const auto& f : files_) {
        if (dir.empty() || f.compare(0, dir.size() + 1, dir + "/") == 0) {
          below.push_back(dir.empty() ? f : f.substr(dir.size() + 1));
        }
      }
      if (below.empty()) return random_segment();
      p = below[pick(below.size())];
      if (chance(30)) {
        const std::size_t slash = p.rfind('/');
        p = (slash == std::string::npos ? "" : p.substr(0, slash + 1)) + segments()[pick(segments().size())];
      }
      if (chance(30)) {
        const std::size_t slash = p.rfind('/');
        if (slash != std::string::npos) p = p.substr(0, slash);  // its directory
      }
    }
    // Names with glob characters or leading '#', '!' only match when escaped;
    // half the time escape them so the literal file can be hit.
    if (chance(50) && (p[0] == '#' || p[0] == '!')) p = "\\" + p;
    if (chance(20)) p = "/" + p;
    if (chance(20)) p += "/";
    if (chance(25)) p = "!" + p;
    if (chance(10)) p += "  ";
    if (chance(5)) p += "\r";
    return p;
  }

  std::string ignore_text(const std::string& dir, std::size_t lines) {
    std::string text;
    for (std::size_t i = 0; i < lines; ++i) {
      if (chance(5)) text += "# comment\n";
      if (chance(5)) text += "\n";
      text += pattern_line(dir) + "\n";
    }
    if (chance(10)) text.pop_back();  // no final newline
    return text;
  }

  std::mt19937 rng_;
  fs::path top_;
  std::vector<std::string> files_;
  std::vector<std::string> dirs_;
};

// COMP_TEST_RANDOM_CASES raises the case count for a longer soak.
unsigned random_case_count(unsigned fallback) {
  const char* v = std::getenv("COMP_TEST_RANDOM_CASES");
  return v != nullptr && std::atoi(v) > 0 ? static_cast<unsigned>(std::atoi(v)) : fallback;
}

TEST_F(GitSandbox, RandomTreesAndPatternsMatchGit) {
  const unsigned kCases = random_case_count(300);
  int failures = 0;
  for (unsigned seed = 1; seed <= kCases && failures < 3; ++seed) {
    reset();
    RandomCase c(seed, repo_);
    const std::string log = c.build(home_, xdg_, seed % 10 == 0);
    const PathSet git = git_untracked(repo_);
    const PathSet walked = walked_paths(repo_);
    if (walked != git) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << "\n" << log << describe_difference(walked, git);
      continue;
    }
    // The same tree seen from a subdirectory git also descends into.
    std::vector<std::string> subdirs;
    for (const auto& p : git) {
      const std::size_t slash = p.find('/');
      if (slash != std::string::npos) subdirs.push_back(p.substr(0, slash));
    }
    if (subdirs.empty()) continue;
    const fs::path sub = repo_ / subdirs[c.pick(subdirs.size())];
    const PathSet git_sub = git_untracked(sub);
    const PathSet walked_sub = walked_paths(sub);
    if (walked_sub != git_sub) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << " from " << sub << "\n" << log << describe_difference(walked_sub, git_sub);
    }
  }
}

TEST_F(GitSandbox, RandomCompignoreAndVscodeignoreMatchTheirGitEquivalent) {
  const unsigned kCases = random_case_count(300) / 3;
  int failures = 0;
  for (unsigned seed = 1001; seed <= 1000 + kCases && failures < 3; ++seed) {
    reset();
    RandomCase c(seed, repo_);
    std::string log = c.build(home_, xdg_, false);
    const std::string comp = c.random_ignore_text();
    const std::string vscode = c.random_ignore_text();
    write(".compignore", comp);
    write(".vscodeignore", vscode);
    log += "--- .compignore\n" + comp + "\n--- .vscodeignore\n" + vscode + "\n";
    const PathSet walked = walked_paths(repo_);

    // Rewrite for git: .compignore appended to the root .gitignore,
    // .vscodeignore prepended to the global excludes file.
    const bool had_gitignore = fs::exists(repo_ / ".gitignore");
    write(".gitignore", (had_gitignore ? read_file(repo_ / ".gitignore") + "\n" : "") + comp);
    write_file(xdg_ / "git" / "ignore", vscode + "\n" + read_file(xdg_ / "git" / "ignore"));
    write_file(home_ / ".gitconfig", "");
    // The repo-config variant points elsewhere; point it at the rewritten file.
    std::string cfg = read_file(repo_ / ".git" / "config");
    if (cfg.find("ExcludesFile") != std::string::npos) {
      write_file(xdg_ / "git" / "ignore", vscode + "\n" + read_file(home_ / "repo ignore"));
      write_file(repo_ / ".git" / "config", initial_config_);
    } else if (fs::exists(home_ / "global-ignore")) {
      write_file(xdg_ / "git" / "ignore", vscode + "\n" + read_file(home_ / "global-ignore"));
    }
    PathSet git = git_untracked(repo_);
    if (!had_gitignore) git.erase(".gitignore");
    if (walked != git) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << "\n" << log << describe_difference(walked, git);
    }
  }
}

// ---------------------------------------------------------------------------
// Whole repositories, tracked files included

// What walk() should list for a work tree with commits: tracked files that
// still exist and are not ignored, plus untracked files that are not
// ignored; gitlinks (submodules) and nested repositories are left out.
PathSet git_expected_for_work_tree(const fs::path& root) {
  PathSet cached = split_nul(git_output(root, {"ls-files", "--cached", "-z"}));
  for (const auto& p : split_nul(git_output(root, {"ls-files", "--deleted", "-z"}))) cached.erase(p);
  for (const auto& p :
       split_nul(git_output(root, {"ls-files", "--cached", "--ignored", "--exclude-standard", "-z"}))) {
    cached.erase(p);
  }
  // Stage lines are "<mode> <oid> <stage>\t<path>"; 160000 is a gitlink.
  const std::string staged = git_output(root, {"ls-files", "--stage", "-z"});
  for (const auto& line : split_nul(staged)) {
    if (line.compare(0, 7, "160000 ") == 0) cached.erase(line.substr(line.find('\t') + 1));
  }
  for (const auto& p : git_untracked(root)) cached.insert(p);
  return cached;
}

// Drops walk() paths inside submodules and nested repositories, which git
// reports as a single "dir" or "dir/" entry.
PathSet without_nested_repositories(PathSet walked, PathSet* expected) {
  std::vector<std::string> nested;
  for (const auto& p : *expected) {
    if (!p.empty() && p.back() == '/') nested.push_back(p);
  }
  for (const auto& n : nested) expected->erase(n);
  for (auto it = walked.begin(); it != walked.end();) {
    bool inside = it->compare(0, 6, ".comp/") == 0;
    for (const auto& n : nested) inside = inside || it->compare(0, n.size(), n) == 0;
    it = inside ? walked.erase(it) : std::next(it);
  }
  for (auto it = expected->begin(); it != expected->end();) {
    it = it->compare(0, 6, ".comp/") == 0 ? expected->erase(it) : std::next(it);
  }
  return walked;
}

TEST(RealRepository, OwnCheckoutOrCompTestRealRepoMatchesGit) {
  // Default: comP's own checkout (CI runs in a clone), else any work tree named.
  const char* repo = std::getenv("COMP_TEST_REAL_REPO");
  if ((repo == nullptr || *repo == '\0') && fs::exists(fs::path(COMP_SOURCE_DIR) / ".git")) repo = COMP_SOURCE_DIR;
  if (repo == nullptr || *repo == '\0') {
    GTEST_SKIP() << "set COMP_TEST_REAL_REPO to a git work tree to compare walk() with git on it";
  }
  if (fs::exists(fs::path(repo) / ".compignore") || fs::exists(fs::path(repo) / ".vscodeignore")) {
    GTEST_SKIP() << "the repository has a .compignore or .vscodeignore, which git does not know";
  }
  PathSet expected = git_expected_for_work_tree(repo);
  // Submodule checkouts are directories in the tree but gitlinks for git.
  const std::string staged = git_output(repo, {"ls-files", "--stage", "-z"});
  for (const auto& line : split_nul(staged)) {
    if (line.compare(0, 7, "160000 ") == 0) expected.insert(line.substr(line.find('\t') + 1) + "/");
  }
  WalkOptions options;
  options.root = repo;
  const auto start = std::chrono::steady_clock::now();
  const WalkResult r = walk(options);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const PathSet walked = without_nested_repositories(walked_paths(r), &expected);
  EXPECT_EQ(walked, expected) << describe_difference(walked, expected);
  std::cout << "[ walk     ] " << repo << ": " << r.files.size() << " files, " << r.skipped.size()
            << " skipped in " << ms << " ms\n";
}

// A realistic project: ~2,000 indexed files, ignored build output and
// dependencies, nested .gitignore files, committed history with deletions
// and a force-added ignored file. Also prints walk()'s time on it (shown,
// not asserted: speed belongs in bench/, and these machines are shared).
TEST_F(GitSandbox, RealisticRepositoryMatchesGit) {
  write(".gitignore",
        "# build output\n/build/\nnode_modules/\n*.o\n*.log\n!important.log\n.cache/\n**/tmp/**\n"
        "/dist\n*.pyc\n__pycache__/\n.DS_Store\n");
  write(".git/info/exclude", "*.local\n");
  write_file(xdg_ / "git" / "ignore", ".idea/\n*.swp\n");
  std::size_t count = 0;
  for (int m = 0; m < 25; ++m) {
    const std::string mod = "src/module" + std::to_string(m);
    for (int f = 0; f < 20; ++f) {
      write(mod + "/file" + std::to_string(f) + ".cc", "int f" + std::to_string(f) + "() { return 0; }\n");
      write(mod + "/file" + std::to_string(f) + ".h", "int f" + std::to_string(f) + "();\n");
      write(mod + "/file" + std::to_string(f) + ".o", "obj");
      count += 2;
    }
    write(mod + "/tmp/scratch.txt");
    write(mod + "/.gitignore", "generated_*\n!generated_keep.cc\n");
    write(mod + "/generated_a.cc");
    write(mod + "/generated_keep.cc");
    count += 2;
  }
  for (int i = 0; i < 300; ++i) write("include/comp/header" + std::to_string(i) + ".h");
  for (int i = 0; i < 200; ++i) write("docs/guide/page" + std::to_string(i) + ".md");
  for (int i = 0; i < 400; ++i) write("tests/fixtures/case" + std::to_string(i / 20) + "/in" + std::to_string(i) + ".txt");
  for (int i = 0; i < 100; ++i) write("tools/script" + std::to_string(i) + ".py");
  count += 1000;
  for (int i = 0; i < 300; ++i) write("node_modules/pkg" + std::to_string(i / 10) + "/index" + std::to_string(i) + ".js");
  for (int i = 0; i < 100; ++i) write("build/obj/out" + std::to_string(i) + ".bin");
  for (const char* f : {"app.log", "important.log", "notes.local", ".idea/workspace.xml", "main.swp", "dist",
                        "tools/__pycache__/x.pyc", ".cache/c"}) {
    write(f);
  }
  git_output(repo_, {"add", "-A"});
  git_output(repo_, {"add", "-f", "build/obj/out0.bin"});  // tracked, yet ignored
  git_output(repo_, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init"});
  for (int i = 0; i < 10; ++i) fs::remove(repo_ / ("docs/guide/page" + std::to_string(i) + ".md"));
  for (int i = 0; i < 30; ++i) write("src/new/untracked" + std::to_string(i) + ".cc");

  PathSet expected = git_expected_for_work_tree(repo_);
  WalkOptions options;
  options.root = repo_;
  const WalkResult first = walk(options);
  const PathSet walked = walked_paths(first);
  EXPECT_EQ(walked, expected) << describe_difference(walked, expected);
  EXPECT_GE(first.files.size(), 1900u);

  std::vector<double> ms;
  for (int i = 0; i < 7; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const WalkResult r = walk(options);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    ASSERT_EQ(r.files.size(), first.files.size());
  }
  std::sort(ms.begin(), ms.end());
  std::cout << "[ walk     ] " << first.files.size() << " files: median " << ms[ms.size() / 2] << " ms, best "
            << ms.front() << " ms\n";
}

}  // namespace
}  // namespace comp::walk
