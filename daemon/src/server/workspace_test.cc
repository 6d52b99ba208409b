#include "server/workspace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "index/test_tree.h"
#include "index/writer_lock.h"
#include "server/log.h"

namespace comp::server {
namespace {

using index::testing::TempTree;
using namespace std::chrono_literals;

Workspace::Options options_for(const TempTree& tree, bool watch = true) {
  Workspace::Options options;
  options.root = std::filesystem::canonical(tree.root());
  options.watch = watch;
  options.jobs = 1;
  options.debounce = std::chrono::milliseconds(50);
  return options;
}

bool has_symbol(Workspace& workspace, const std::string& name) {
  auto reader = workspace.read();
  return !reader->symbols({name, "", "", 0}).empty();
}

// Polls `condition` for up to 10 s.
template <typename Condition>
bool eventually(Condition condition) {
  for (int i = 0; i < 200; ++i) {
    if (condition()) return true;
    std::this_thread::sleep_for(50ms);
  }
  return condition();
}

// A log line is one line, whatever a path in its message holds: a newline
// or a terminal escape sequence is escaped, not obeyed.
TEST(Log, AMessageStaysOneLineAndControlsAreEscaped) {
  testing::internal::CaptureStderr();
  log(LogLevel::kError, "indexing failed: cannot read 'a\nb\x1b[2J.py'");
  std::string line = testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;
  EXPECT_NE(line.find("comp error: indexing failed: cannot read 'a\\nb\\033[2J.py'\n"), std::string::npos) << line;
}

TEST(Workspace, IndexesInTheBackgroundAndBecomesReady) {
  TempTree tree("ws-ready");
  tree.write("a.py", "def alpha():\n    pass\n");
  Workspace workspace(options_for(tree));
  EXPECT_FALSE(workspace.state().ready);
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  EXPECT_TRUE(has_symbol(workspace, "alpha"));
  EXPECT_TRUE(workspace.wait_idle(10s));
  IndexState state = workspace.state();
  EXPECT_GE(state.runs, 1u);
  EXPECT_EQ(state.watch_mode, "inotify");
  EXPECT_TRUE(state.last_error.empty());
}

TEST(Workspace, ReindexesFilesChangedOnDiskWithoutBeingAsked) {
  TempTree tree("ws-watch");
  tree.write("a.py", "def alpha():\n    pass\n");
  Workspace workspace(options_for(tree));
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  ASSERT_TRUE(workspace.wait_idle(10s));
  tree.write("a.py", "def alpha():\n    pass\n\ndef beta():\n    pass\n");
  EXPECT_TRUE(eventually([&] { return has_symbol(workspace, "beta"); }));
  ASSERT_TRUE(workspace.wait_idle(10s));
  IndexState state = workspace.state();
  EXPECT_TRUE(state.last.targeted) << "the watcher's paths alone are walked (runs " << state.runs << ")";
  tree.write("sub/dir/new.py", "def gamma():\n    pass\n");  // a new directory
  EXPECT_TRUE(eventually([&] { return has_symbol(workspace, "gamma"); }));
  tree.write("sub/dir/new.py", "def delta():\n    pass\n");  // then an edit inside it
  EXPECT_TRUE(eventually([&] { return has_symbol(workspace, "delta") && !has_symbol(workspace, "gamma"); }));
  tree.rename("sub/dir/new.py", "sub/renamed.py");
  EXPECT_TRUE(eventually([&] {
    auto reader = workspace.read();
    auto found = reader->symbols({"delta", "", "", 0});
    return found.size() == 1 && found[0].file_path == "sub/renamed.py";
  }));
  tree.remove("a.py");
  EXPECT_TRUE(eventually([&] { return !has_symbol(workspace, "alpha"); }));
}

// An ignore file's change may change what is indexed anywhere under it: the
// run after it walks the whole tree.
TEST(Workspace, AnIgnoreFileChangeIsFollowedByAWholeWalk) {
  TempTree tree("ws-ignore");
  tree.write("a.py", "def alpha():\n    pass\n");
  tree.write("lib/b.py", "def beta():\n    pass\n");
  Workspace workspace(options_for(tree));
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  ASSERT_TRUE(workspace.wait_idle(10s));
  tree.write(".gitignore", "lib/\n");
  EXPECT_TRUE(eventually([&] { return !has_symbol(workspace, "beta"); }));
  ASSERT_TRUE(workspace.wait_idle(10s));
  EXPECT_FALSE(workspace.state().last.targeted);
  EXPECT_TRUE(has_symbol(workspace, "alpha"));
  tree.write("lib/.gitignore", "!nothing\n");
  tree.remove(".gitignore");
  EXPECT_TRUE(eventually([&] { return has_symbol(workspace, "beta"); }));
}

// After a targeted run the watcher watches what a whole walk would: a new
// folder, not an ignored one (a package manager's thousands of folders).
TEST(Workspace, TargetedRunsKeepTheWatchesOfAWholeWalk) {
  TempTree tree("ws-watches");
  tree.write(".gitignore", "node_modules/\n");
  tree.write("a.py", "def alpha():\n    pass\n");
  Workspace workspace(options_for(tree));
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  ASSERT_TRUE(workspace.wait_idle(10s));
  std::size_t before = workspace.state().watched_directories;
  EXPECT_EQ(before, 1u);  // the root
  tree.write("node_modules/pkg/lib/deep/x.js", "function x() {}\n");
  tree.write("src/app/b.py", "def beta():\n    pass\n");
  EXPECT_TRUE(eventually([&] { return has_symbol(workspace, "beta"); }));
  EXPECT_TRUE(eventually([&] {
    IndexState state = workspace.state();
    return state.last.targeted && state.watched_directories == before + 2;  // src, src/app
  })) << workspace.state().watched_directories;
  EXPECT_FALSE(has_symbol(workspace, "x"));
}

// A symlink's entry follows its target: an edit reported under the target's
// path reaches the link too.
TEST(Workspace, ALinkFollowsItsTargetsEdits) {
  TempTree tree("ws-link");
  tree.write("real/a.py", "def alpha():\n    pass\n");
  std::filesystem::create_directories(tree.root() / "links");
  std::filesystem::create_symlink("../real/a.py", tree.root() / "links/a.py");
  Workspace workspace(options_for(tree));
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  ASSERT_TRUE(workspace.wait_idle(10s));
  tree.write("real/a.py", "def beta():\n    pass\n");
  auto files_defining = [&](const std::string& name) {
    std::set<std::string> files;
    for (const auto& symbol : workspace.read()->symbols({name, "", "", 0})) files.insert(symbol.file_path);
    return files;
  };
  EXPECT_TRUE(eventually([&] { return files_defining("beta") == std::set<std::string>{"links/a.py", "real/a.py"}; }));
  ASSERT_TRUE(workspace.wait_idle(10s));
  EXPECT_TRUE(workspace.state().last.targeted);
  EXPECT_TRUE(files_defining("alpha").empty());
}

TEST(Workspace, WithoutWatchingFollowsTheEditorsNotifications) {
  TempTree tree("ws-notify");
  tree.write("a.py", "def alpha():\n    pass\n");
  Workspace workspace(options_for(tree, /*watch=*/false));
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  ASSERT_TRUE(workspace.wait_idle(10s));
  EXPECT_EQ(workspace.state().watch_mode, "off");
  tree.write("a.py", "def beta():\n    pass\n");
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(has_symbol(workspace, "beta"));  // nobody said so
  workspace.files_changed({"a.py", "../outside.py", "/etc/passwd", ".comp/graph.db"});
  EXPECT_TRUE(eventually([&] { return has_symbol(workspace, "beta"); }));
  EXPECT_TRUE(workspace.wait_idle(10s));
  EXPECT_EQ(workspace.state().pending_changes, 0u);
}

TEST(Workspace, WaitsForAnotherWriterAndAnswersMeanwhile) {
  TempTree tree("ws-writer");
  tree.write("a.py", "def alpha():\n    pass\n");
  {
    Workspace first(options_for(tree, false));
    first.start();
    ASSERT_TRUE(first.wait_ready(10s));
    ASSERT_TRUE(first.wait_idle(10s));
  }
  index::WriterLock other(tree.root());
  ASSERT_TRUE(other.try_lock());  // another process is "writing"
  tree.write("b.py", "def beta():\n    pass\n");
  Workspace workspace(options_for(tree, false));
  EXPECT_TRUE(workspace.state().ready);  // an index exists: readers need not wait
  workspace.start();
  EXPECT_TRUE(eventually([&] { return workspace.state().waiting_for_writer; }));
  EXPECT_TRUE(has_symbol(workspace, "alpha"));  // reads the committed state meanwhile
  EXPECT_FALSE(workspace.wait_idle(200ms));
  other.unlock();
  EXPECT_TRUE(workspace.wait_idle(10s));
  EXPECT_TRUE(has_symbol(workspace, "beta"));
}

TEST(Workspace, StopsPromptlyWhileIndexing) {
  TempTree tree("ws-stop");
  for (int i = 0; i < 400; ++i)
    tree.write("pkg/m" + std::to_string(i) + ".py", index::testing::generated_source(".py", i, 40));
  auto started = std::chrono::steady_clock::now();
  {
    Workspace workspace(options_for(tree));
    workspace.start();
    std::this_thread::sleep_for(100ms);
  }
  // Destruction cancels the run; nothing here asserts time (shared machines),
  // only that the database is consistent and the next run completes it.
  (void)started;
  Workspace again(options_for(tree, false));
  again.start();
  ASSERT_TRUE(again.wait_ready(30s));
  ASSERT_TRUE(again.wait_idle(60s));
  auto reader = again.read();
  EXPECT_EQ(reader->integrity_check(), "ok");
  EXPECT_EQ(reader->symbols({"", "pkg/m399.py", "", 0}).empty(), false);
}

TEST(Workspace, RebuildStartsOverAndReadersFollow) {
  TempTree tree("ws-rebuild");
  tree.write("a.py", "def alpha():\n    pass\n");
  Workspace workspace(options_for(tree, false));
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  ASSERT_TRUE(workspace.wait_idle(10s));
  { auto reader = workspace.read(); }  // a pooled connection to the old file
  workspace.reindex(/*rebuild=*/true);
  EXPECT_TRUE(eventually([&] { return workspace.state().runs >= 2 && !workspace.state().indexing; }));
  EXPECT_TRUE(has_symbol(workspace, "alpha"));
  bool quarantined = false;
  for (const auto& entry : std::filesystem::directory_iterator(tree.root() / ".comp"))
    quarantined = quarantined || entry.path().filename().string().starts_with("graph.db.corrupt-");
  EXPECT_TRUE(quarantined);
}

// A pooled read connection never hands a request an old snapshot: one given
// back inside a transaction is closed, and the next request reads the
// index as it is now.
TEST(Workspace, AReaderLeftInATransactionIsNotPooled) {
  TempTree tree("ws-reader-transaction");
  tree.write("a.py", "def alpha():\n    pass\n");
  Workspace workspace(options_for(tree, false));
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  ASSERT_TRUE(workspace.wait_idle(10s));
  {
    auto reader = workspace.read();
    ASSERT_EQ(sqlite3_exec(reader->handle(), "BEGIN", nullptr, nullptr, nullptr), SQLITE_OK);
    EXPECT_FALSE(reader->symbols({"alpha", "", "", 0}).empty());  // the snapshot starts here
  }
  tree.write("b.py", "def beta():\n    pass\n");
  workspace.files_changed({"b.py"});
  EXPECT_TRUE(eventually([&] { return has_symbol(workspace, "beta"); }));
  auto reader = workspace.read();
  EXPECT_TRUE(sqlite3_get_autocommit(reader->handle()));
}

// A commit moves HEAD without changing a file in the tree: the daemon
// reads the history again (what changed with what), as a whole walk does.
TEST(Workspace, ACommitIsFollowedThoughNoFileChanged) {
  TempTree tree("ws-history");
  tree.write("a.py", "def alpha():\n    pass\n");
  tree.write("b.py", "def beta():\n    pass\n");
  tree.write("c.py", "def gamma():\n    pass\n");
  ASSERT_EQ(index::testing::git(tree, {"init", "-q"}), 0);
  ASSERT_EQ(index::testing::git(tree, {"add", "-A"}), 0);
  ASSERT_EQ(index::testing::git(tree, {"commit", "-q", "-m", "first"}), 0);
  auto head = [&] {
    std::string out;
    EXPECT_EQ(index::testing::git(tree, {"rev-parse", "HEAD"}, &out), 0);
    return out.substr(0, out.find('\n'));
  };
  tree.write("a.py", "def alpha():\n    return 1\n");  // edited before the daemon starts
  tree.write("b.py", "def beta():\n    return 2\n");
  Workspace workspace(options_for(tree));
  workspace.start();
  ASSERT_TRUE(workspace.wait_ready(10s));
  ASSERT_TRUE(workspace.wait_idle(10s));
  EXPECT_EQ(workspace.read()->history_head(), head());
  auto with = workspace.read()->changed_with("a.py", 5);  // one commit of the three files
  ASSERT_EQ(with.size(), 2u);
  EXPECT_EQ(with[0].second, with[1].second);

  const std::size_t runs = workspace.state().runs;
  ASSERT_EQ(index::testing::git(tree, {"commit", "-q", "-a", "-m", "alpha and beta"}), 0);
  const std::string committed = head();
  EXPECT_TRUE(eventually([&] { return workspace.read()->history_head() == committed; }));
  ASSERT_TRUE(workspace.wait_idle(10s));
  EXPECT_GT(workspace.state().runs, runs);
  EXPECT_FALSE(workspace.state().last.targeted);
  with = workspace.read()->changed_with("a.py", 5);  // and one of a.py and b.py
  ASSERT_EQ(with.size(), 2u);
  EXPECT_EQ(with[0].first, "b.py");
  EXPECT_GT(with[0].second, with[1].second);

  // A checkout of the first commit moves HEAD back (and the two files).
  ASSERT_EQ(index::testing::git(tree, {"checkout", "-q", "HEAD~1"}), 0);
  EXPECT_TRUE(eventually([&] { return workspace.read()->history_head() != committed; }));
  EXPECT_TRUE(eventually([&] { return workspace.read()->history_head() == head(); }));
}

// A linked worktree's git directory is in the main repository, and a root
// below a repository's top has none of its own: HEAD's moves are watched
// where git says they are written.
TEST(Workspace, ACommitIsFollowedInALinkedWorktreeAndBelowTheTop) {
  TempTree main("ws-main");
  main.write("pkg/a.py", "def alpha():\n    pass\n");
  main.write("b.py", "def beta():\n    pass\n");
  ASSERT_EQ(index::testing::git(main, {"init", "-q"}), 0);
  ASSERT_EQ(index::testing::git(main, {"add", "-A"}), 0);
  ASSERT_EQ(index::testing::git(main, {"commit", "-q", "-m", "first"}), 0);
  TempTree linked("ws-worktree");  // empty: git worktree add fills it
  ASSERT_EQ(index::testing::git(main, {"worktree", "add", "-q", "-b", "side", linked.root().string()}), 0);
  auto head = [](const TempTree& tree) {
    std::string out;
    EXPECT_EQ(index::testing::git(tree, {"rev-parse", "HEAD"}, &out), 0);
    return out.substr(0, out.find('\n'));
  };
  for (bool below : {false, true}) {
    SCOPED_TRACE(below ? "a root below the top" : "a linked worktree");
    const TempTree& repo = below ? main : linked;
    Workspace::Options options = options_for(repo);
    if (below) options.root /= "pkg";
    Workspace workspace(options);
    workspace.start();
    ASSERT_TRUE(workspace.wait_ready(10s));
    ASSERT_TRUE(workspace.wait_idle(10s));
    EXPECT_EQ(workspace.read()->history_head(), head(repo));
    ASSERT_EQ(index::testing::git(repo, {"commit", "-q", "--allow-empty", "-m", "nothing changed"}), 0);
    const std::string committed = head(repo);
    EXPECT_TRUE(eventually([&] { return workspace.read()->history_head() == committed; }));
  }
}

}  // namespace
}  // namespace comp::server
