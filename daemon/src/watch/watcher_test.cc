// Watcher on real temporary directories. Waits use condition variables with
// generous timeouts: the only timing claims are "arrives within 5 s" and
// "nothing arrives within 500 ms".
#include "watch/watcher.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace comp::watch {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kArrives = 5s;
constexpr auto kQuiet = 500ms;

// Collects the changes the watcher delivers, from its thread.
class Recorder {
 public:
  std::function<void(Change)> callback() {
    return [this](Change change) {
      std::lock_guard<std::mutex> lock(mutex_);
      changes_.push_back(std::move(change));
      cv_.notify_all();
    };
  }

  // True once every path in `paths` has been reported since the last clear().
  bool wait_for_paths(const std::set<std::string>& paths) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, kArrives, [&] {
      const std::set<std::string> seen = seen_locked();
      return std::includes(seen.begin(), seen.end(), paths.begin(), paths.end());
    });
  }

  // True when no change at all arrives within kQuiet.
  bool stays_quiet() {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::size_t before = changes_.size();
    return !cv_.wait_for(lock, kQuiet, [&] { return changes_.size() != before; });
  }

  std::set<std::string> seen() {
    std::lock_guard<std::mutex> lock(mutex_);
    return seen_locked();
  }

  std::size_t count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return changes_.size();
  }

  // True once a change saying HEAD moved has arrived since the last clear().
  bool wait_for_head_moved() {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, kArrives, [&] {
      return std::any_of(changes_.begin(), changes_.end(), [](const Change& c) { return c.head_moved; });
    });
  }

  bool any_head_moved() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::any_of(changes_.begin(), changes_.end(), [](const Change& c) { return c.head_moved; });
  }

  bool any_overflow() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::any_of(changes_.begin(), changes_.end(), [](const Change& c) { return c.overflow; });
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    changes_.clear();
  }

 private:
  std::set<std::string> seen_locked() const {
    std::set<std::string> seen;
    for (const Change& c : changes_) seen.insert(c.paths.begin(), c.paths.end());
    return seen;
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<Change> changes_;
};

class WatcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "watcher_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const std::string& rel, const std::string& content = "x\n") {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel, std::ios::binary | std::ios::trunc) << content;
  }

  void append(const std::string& rel, const std::string& content) {
    std::ofstream(root_ / rel, std::ios::binary | std::ios::app) << content;
  }

  static void watch(Watcher& watcher, const std::vector<std::string>& dirs) {
    std::string error;
    ASSERT_TRUE(watcher.watch(dirs, &error)) << error;
  }

  // watched() changes on the watcher's thread; poll it, 5 s at most.
  static bool watched_becomes(const Watcher& watcher, std::size_t n) {
    const auto until = std::chrono::steady_clock::now() + kArrives;
    while (watcher.watched() != n) {
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::sleep_for(10ms);
    }
    return true;
  }

  fs::path root_;
  Recorder recorder_;  // declared before any Watcher: outlives its thread
};

TEST_F(WatcherTest, CreateModifyDeleteAndRenameAreReported) {
  Watcher watcher(root_, recorder_.callback(), 50ms);
  watch(watcher, {""});
  EXPECT_EQ(watcher.watched(), 1u);

  write("a.txt");
  EXPECT_TRUE(recorder_.wait_for_paths({"a.txt"}));

  recorder_.clear();
  append("a.txt", "more\n");
  EXPECT_TRUE(recorder_.wait_for_paths({"a.txt"}));

  recorder_.clear();
  fs::rename(root_ / "a.txt", root_ / "b.txt");
  EXPECT_TRUE(recorder_.wait_for_paths({"a.txt", "b.txt"}));

  recorder_.clear();
  fs::remove(root_ / "b.txt");
  EXPECT_TRUE(recorder_.wait_for_paths({"b.txt"}));
  EXPECT_FALSE(recorder_.any_overflow());
}

TEST_F(WatcherTest, ABurstOfWritesIsDebouncedIntoFewCallbacks) {
  write("burst.txt", "");
  Watcher watcher(root_, recorder_.callback(), 300ms, 5000ms);
  watch(watcher, {""});
  for (int i = 0; i < 50; ++i) append("burst.txt", "line " + std::to_string(i) + "\n");
  ASSERT_TRUE(recorder_.wait_for_paths({"burst.txt"}));
  EXPECT_TRUE(recorder_.stays_quiet());
  EXPECT_LE(recorder_.count(), 3u) << "50 writes should coalesce";
  EXPECT_EQ(recorder_.seen(), (std::set<std::string>{"burst.txt"}));
}

TEST_F(WatcherTest, MaxDelayBoundsAnEndlessBurst) {
  write("busy.txt", "");
  // Writes every 20 ms never leave 60 s of quiet: only max_delay can deliver.
  Watcher watcher(root_, recorder_.callback(), 60s, 300ms);
  watch(watcher, {""});
  const auto until = std::chrono::steady_clock::now() + kArrives;
  while (recorder_.count() == 0 && std::chrono::steady_clock::now() < until) {
    append("busy.txt", "x");
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(recorder_.seen(), (std::set<std::string>{"busy.txt"}));
}

TEST_F(WatcherTest, NewDirectoriesAreWatchedAndTheirEarlyContentsReported) {
  Watcher watcher(root_, recorder_.callback(), 50ms);
  watch(watcher, {""});

  // The file races the watch on sub/: the event or the listing reports it.
  write("sub/f.txt");
  EXPECT_TRUE(recorder_.wait_for_paths({"sub", "sub/f.txt"}));
  EXPECT_TRUE(watched_becomes(watcher, 2));

  recorder_.clear();
  append("sub/f.txt", "edit\n");
  EXPECT_TRUE(recorder_.wait_for_paths({"sub/f.txt"}));

  // A whole chain at once (mkdir -p), deeper than one event can announce.
  recorder_.clear();
  write("deep/a/b/c/x.txt");
  EXPECT_TRUE(recorder_.wait_for_paths({"deep", "deep/a", "deep/a/b", "deep/a/b/c", "deep/a/b/c/x.txt"}));
  EXPECT_TRUE(watched_becomes(watcher, 6));
  recorder_.clear();
  write("deep/a/b/c/y.txt");
  EXPECT_TRUE(recorder_.wait_for_paths({"deep/a/b/c/y.txt"}));
  EXPECT_FALSE(recorder_.any_overflow());
}

TEST_F(WatcherTest, CompAndGitDirectoriesNeverTriggerACallback) {
  fs::create_directories(root_ / "sub" / ".comp");
  Watcher watcher(root_, recorder_.callback(), 50ms);
  // Even when asked for, they are not watched.
  watch(watcher, {"", "sub", "sub/.comp", ".git", ".comp/x"});
  EXPECT_EQ(watcher.watched(), 2u);

  write(".comp/graph.db");
  append(".comp/graph.db", "wal");
  write(".comp/cache/nested/file");
  write(".git/HEAD");
  write(".git/objects/ab/cdef");
  write("sub/.comp/graph.db");
  write("sub/.git", "gitdir: elsewhere\n");
  fs::rename(root_ / ".comp" / "graph.db", root_ / ".comp" / "graph.db.old");
  fs::remove_all(root_ / ".comp");
  EXPECT_TRUE(recorder_.stays_quiet());
  EXPECT_EQ(recorder_.count(), 0u);
  EXPECT_EQ(watcher.watched(), 2u);

  // The watcher still works, and nothing from .comp/.git waited in the burst.
  write("real.txt");
  ASSERT_TRUE(recorder_.wait_for_paths({"real.txt"}));
  EXPECT_EQ(recorder_.seen(), (std::set<std::string>{"real.txt"}));
}

// Of git's files only HEAD's moves are reported, as head_moved and no
// path: git writes these files as a commit (the reflog appended) and a
// checkout (HEAD.lock renamed over HEAD) do.
TEST_F(WatcherTest, OnlyGitsHeadMovingIsReported) {
  write(".git/HEAD", "ref: refs/heads/main\n");
  write(".git/refs/heads/main", "1111\n");
  Watcher watcher(root_, recorder_.callback(), 50ms);
  watch(watcher, {""});
  EXPECT_EQ(watcher.watched(), 1u);  // git's directories are not counted

  // The first commit creates logs/ (its logs/HEAD may come before a watch).
  write(".git/logs/HEAD", "0000 1111 A <a@example.com> 0 +0000\tcommit (initial): a\n");
  ASSERT_TRUE(recorder_.wait_for_head_moved());
  EXPECT_TRUE(recorder_.stays_quiet());
  recorder_.clear();

  // What git status, fetch, gc, tag and a branch's own reflog write: nothing.
  write(".git/index", "DIRC");
  write(".git/index.lock", "DIRC");
  write(".git/FETCH_HEAD", "1111\n");
  write(".git/ORIG_HEAD", "1111\n");
  write(".git/packed-refs", "1111 refs/tags/v0\n");
  write(".git/refs/tags/v1", "1111\n");
  write(".git/logs/refs/heads/main", "1111 2222\n");
  write(".git/objects/ab/cdef");
  write(".git/HEAD.lock", "ref: refs/heads/other\n");
  fs::remove(root_ / ".git" / "HEAD.lock");
  EXPECT_TRUE(recorder_.stays_quiet());
  EXPECT_EQ(recorder_.count(), 0u);

  // A commit appends to the reflog.
  append(".git/logs/HEAD", "1111 2222 A <a@example.com> 0 +0000\tcommit: b\n");
  ASSERT_TRUE(recorder_.wait_for_head_moved());
  EXPECT_TRUE(recorder_.seen().empty());
  recorder_.clear();
  // A checkout renames HEAD.lock over HEAD.
  write(".git/HEAD.lock", "ref: refs/heads/other\n");
  fs::rename(root_ / ".git" / "HEAD.lock", root_ / ".git" / "HEAD");
  ASSERT_TRUE(recorder_.wait_for_head_moved());
  EXPECT_TRUE(recorder_.seen().empty());
  recorder_.clear();

  // A .git that is a symlink (to a repository outside the root) is never
  // watched, nor is one that is a file (a worktree's).
  const fs::path outside = root_.string() + ".outside";
  fs::create_directories(outside / "logs");
  fs::remove_all(root_ / ".git");
  ASSERT_TRUE(recorder_.stays_quiet());
  fs::create_directory_symlink(outside, root_ / ".git");
  watch(watcher, {""});
  std::ofstream(outside / "logs" / "HEAD", std::ios::app) << "2222 3333\n";
  std::ofstream(outside / "HEAD") << "ref: refs/heads/main\n";
  EXPECT_TRUE(recorder_.stays_quiet());
  fs::remove(root_ / ".git");
  write(".git", "gitdir: " + outside.string() + "\n");
  watch(watcher, {""});
  std::ofstream(outside / "logs" / "HEAD", std::ios::app) << "3333 4444\n";
  EXPECT_TRUE(recorder_.stays_quiet());
  EXPECT_EQ(recorder_.count(), 0u);
  fs::remove_all(outside);

  // The watcher still reports the tree.
  write("real.txt");
  ASSERT_TRUE(recorder_.wait_for_paths({"real.txt"}));
}

TEST_F(WatcherTest, HeadIsWatchedWhereGitSaysItsDirectoryIs) {
  // A linked worktree's (or a submodule's) git directory is outside the
  // root, named by a `.git` file; watch_head() names it.
  const fs::path outside = root_.string() + ".common/worktrees/wt";
  fs::create_directories(outside / "logs");
  std::ofstream(outside / "HEAD") << "ref: refs/heads/side\n";
  write(".git", "gitdir: " + outside.string() + "\n");
  write(".git.own/HEAD", "ref: refs/heads/main\n");  // not git's directory: a folder of the tree
  Watcher watcher(root_, recorder_.callback(), 50ms);
  watcher.watch_head(outside);
  watch(watcher, {""});
  EXPECT_EQ(watcher.watched(), 1u);
  std::ofstream(outside / "logs" / "HEAD", std::ios::app) << "1111 2222\tcommit: b\n";
  ASSERT_TRUE(recorder_.wait_for_head_moved());
  EXPECT_TRUE(recorder_.seen().empty());
  recorder_.clear();
  std::ofstream(outside / "index") << "DIRC";  // git status: quiet
  std::ofstream(outside / "ORIG_HEAD") << "1111\n";
  EXPECT_TRUE(recorder_.stays_quiet());
  // A checkout renames HEAD.lock over HEAD.
  std::ofstream(outside / "HEAD.lock") << "ref: refs/heads/main\n";
  fs::rename(outside / "HEAD.lock", outside / "HEAD");
  ASSERT_TRUE(recorder_.wait_for_head_moved());
  recorder_.clear();

  // Named through a symlink, its real path is watched.
  const fs::path link = root_.string() + ".link";
  fs::create_directory_symlink(outside, link);
  watcher.watch_head(link);
  std::ofstream(outside / "logs" / "HEAD", std::ios::app) << "2222 3333\n";
  ASSERT_TRUE(recorder_.wait_for_head_moved());
  recorder_.clear();

  // Back to the root's own .git (a directory again): the old one is quiet.
  fs::remove(root_ / ".git");
  write(".git/HEAD", "ref: refs/heads/main\n");
  fs::create_directories(root_ / ".git" / "logs");
  watcher.watch_head({});
  std::ofstream(outside / "logs" / "HEAD", std::ios::app) << "3333 4444\n";
  EXPECT_TRUE(recorder_.stays_quiet());
  append(".git/logs/HEAD", "4444 5555\tcommit: c\n");
  ASSERT_TRUE(recorder_.wait_for_head_moved());
  recorder_.clear();

  // A git directory inside the root but not under a .git folder is the
  // tree's: its files are reported as paths, not as HEAD moving.
  watch(watcher, {"", ".git.own"});
  watcher.watch_head(root_ / ".git.own");
  write(".git.own/HEAD", "ref: refs/heads/other\n");
  ASSERT_TRUE(recorder_.wait_for_paths({".git.own/HEAD"}));
  EXPECT_FALSE(recorder_.any_head_moved());
  fs::remove(link);
  fs::remove_all(root_.string() + ".common");
}

TEST_F(WatcherTest, WatchWithASmallerSetStopsReportsForRemovedDirectories) {
  write("a/keep.txt");
  write("b/keep.txt");
  Watcher watcher(root_, recorder_.callback(), 50ms);
  watch(watcher, {"", "a", "b"});
  EXPECT_EQ(watcher.watched(), 3u);
  write("a/x");
  write("b/x");
  EXPECT_TRUE(recorder_.wait_for_paths({"a/x", "b/x"}));

  watch(watcher, {"", "a"});
  EXPECT_EQ(watcher.watched(), 2u);
  recorder_.clear();
  write("b/y");
  EXPECT_TRUE(recorder_.stays_quiet());
  write("a/y");
  EXPECT_TRUE(recorder_.wait_for_paths({"a/y"}));
  EXPECT_EQ(recorder_.seen().count("b/y"), 0u);

  watch(watcher, {});
  EXPECT_EQ(watcher.watched(), 0u);
}

TEST_F(WatcherTest, DeletedAndMovedDirectoriesDropOrFollowTheirWatches) {
  write("gone/f");
  write("old/g");
  Watcher watcher(root_, recorder_.callback(), 50ms);
  watch(watcher, {"", "gone", "old"});
  EXPECT_EQ(watcher.watched(), 3u);

  fs::remove_all(root_ / "gone");
  EXPECT_TRUE(recorder_.wait_for_paths({"gone"}));
  EXPECT_TRUE(watched_becomes(watcher, 2));

  recorder_.clear();
  fs::rename(root_ / "old", root_ / "new");
  EXPECT_TRUE(recorder_.wait_for_paths({"old", "new", "new/g"}));
  EXPECT_TRUE(watched_becomes(watcher, 2));
  recorder_.clear();
  append("new/g", "edit");
  EXPECT_TRUE(recorder_.wait_for_paths({"new/g"}));
  EXPECT_EQ(recorder_.seen().count("old/g"), 0u);
}

TEST_F(WatcherTest, SymlinksAreNeverFollowed) {
  const fs::path outside = root_.string() + ".outside";
  fs::create_directories(outside);
  fs::create_directory_symlink(outside, root_ / "link");
  fs::create_directories(root_ / "real");
  fs::create_directory_symlink(root_ / "real", root_ / "inner_link");
  Watcher watcher(root_, recorder_.callback(), 50ms);
  watch(watcher, {"", "link", "inner_link", "../" + root_.filename().string() + ".outside"});
  EXPECT_EQ(watcher.watched(), 1u);

  // A link created later is reported as an entry, not watched.
  fs::create_directory_symlink(outside, root_ / "later");
  EXPECT_TRUE(recorder_.wait_for_paths({"later"}));
  recorder_.clear();
  std::ofstream(outside / "out.txt") << "x";
  EXPECT_TRUE(recorder_.stays_quiet());
  EXPECT_EQ(watcher.watched(), 1u);
  fs::remove_all(outside);
}

TEST_F(WatcherTest, DestructorReturnsPromptlyAndDropsThePendingBurst) {
  const auto started = std::chrono::steady_clock::now();
  {
    Watcher watcher(root_, recorder_.callback(), 60s, 60s);
    watch(watcher, {""});
    write("pending.txt");
    std::this_thread::sleep_for(50ms);  // let the thread see it (not asserted)
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, kArrives);
  EXPECT_EQ(recorder_.count(), 0u);
}

TEST_F(WatcherTest, MissingRootIsAnError) {
  Watcher watcher(root_ / "missing", recorder_.callback());
  std::string error;
  EXPECT_FALSE(watcher.watch({""}, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(watcher.watched(), 0u);
}

}  // namespace
}  // namespace comp::watch
