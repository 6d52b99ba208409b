#include "index/indexer.h"

#include <ctime>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <random>

#include "index/test_tree.h"

namespace comp::index {
namespace {

using testing::index_tree;
using testing::TempTree;

std::vector<std::string> snapshot_of(const TempTree& tree) {
  auto store = graph::Store::open(tree.root());
  return testing::snapshot(*store);
}

TEST(Indexer, IndexesSymbolsOfEveryFile) {
  TempTree tree("idx-basic");
  tree.write("pkg/a.py", "def alpha():\n    pass\n\nclass Beta:\n    def gamma(self):\n        pass\n");
  tree.write("src/b.ts", "export function delta(x: number) { return x; }\n");
  tree.write("README.md", "# Readme\n");
  IndexSummary summary = index_tree(tree);
  EXPECT_EQ(summary.files_parsed, 3u);
  EXPECT_EQ(summary.files_by_language["python"], 1u);
  EXPECT_EQ(summary.files_by_language["typescript"], 1u);
  EXPECT_EQ(summary.files_by_language["other"], 1u);
  auto store = graph::Store::open(tree.root());
  auto gamma = store->symbols({"gamma", "", "", 0});
  ASSERT_EQ(gamma.size(), 1u);
  EXPECT_EQ(gamma[0].id, "pkg/a.py::Beta.gamma");
  EXPECT_EQ(gamma[0].parent_id, "pkg/a.py::Beta");
  EXPECT_EQ(gamma[0].scope, "pkg.a.Beta.gamma");
  EXPECT_EQ(gamma[0].kind, "method");
  EXPECT_EQ(gamma[0].line, 5u);
}

TEST(Indexer, UnchangedTreeIsNotRead) {
  TempTree tree("idx-unchanged");
  for (int i = 0; i < 20; ++i) tree.write("m" + std::to_string(i) + ".py", testing::generated_source(".py", i, 3));
  tree.backdate();
  index_tree(tree);
  IndexSummary again = index_tree(tree);
  EXPECT_EQ(again.files_unchanged, 20u);
  EXPECT_EQ(again.files_parsed, 0u);
  EXPECT_EQ(again.bytes_read, 0u);
}

// A refresh that changed no file row hands the index's files to a query
// (IndexOptions::keep_files), exactly as the store would read them: the
// same rows, in the same (row) order, skipped files left out.
TEST(Indexer, AnUnchangedRefreshHandsOverTheIndexedFiles) {
  TempTree tree("idx-keep");
  for (int i = 0; i < 6; ++i) tree.write("m" + std::to_string(i) + ".py", testing::generated_source(".py", i, 2));
  tree.write("notes.txt", "plain words\n");
  tree.write("blob.bin", std::string("ab\0cd", 5));  // skipped: binary
  tree.backdate();
  index_tree(tree);
  // m0.py removed and written again: its new row follows the others, so
  // the rows' order is not the paths'.
  tree.remove("m0.py");
  index_tree(tree);
  tree.write("m0.py", "def again():\n    return 0\n");
  tree.backdate();
  index_tree(tree);

  auto as_rows = [](const std::vector<graph::IndexedFile>& files) {
    std::vector<std::string> rows;
    for (const graph::IndexedFile& file : files)
      rows.push_back(file.path + "|" + file.language + "|" + std::to_string(file.size) + "|" +
                     std::to_string(file.mtime_ns) + "|" + std::to_string(file.row));
    return rows;
  };
  IndexOptions refresh;
  refresh.root = tree.root();
  refresh.counts = false;
  refresh.keep_files = true;
  IndexSummary unchanged = run_index(refresh);
  ASSERT_TRUE(unchanged.files.has_value());
  std::vector<graph::IndexedFile> stored = graph::Store::open(tree.root())->indexed_files();
  EXPECT_EQ(as_rows(*unchanged.files), as_rows(stored));
  ASSERT_EQ(stored.size(), 7u);  // six modules and the notes, not the binary
  EXPECT_EQ(stored.back().path, "m0.py");

  // Not asked for, a targeted run, or a run that wrote a row: none.
  IndexOptions plain = refresh;
  plain.keep_files = false;
  EXPECT_FALSE(run_index(plain).files.has_value());
  IndexOptions targeted = refresh;
  targeted.only = std::vector<std::string>{"m1.py"};
  EXPECT_FALSE(run_index(targeted).files.has_value());
  tree.write("m2.py", "def edited():\n    return 2\n");
  EXPECT_FALSE(run_index(refresh).files.has_value());
  tree.remove("m3.py");
  EXPECT_FALSE(run_index(refresh).files.has_value());
  tree.write("blob.bin", std::string(2u << 20, 'x'));  // its skip reason changes: binary -> too large
  EXPECT_FALSE(run_index(refresh).files.has_value());
  // Files written within the tick of their last read are read again by
  // every run (racily clean) until their times are older: then none changes.
  tree.backdate();
  run_index(refresh);
  EXPECT_TRUE(run_index(refresh).files.has_value());
}

TEST(Indexer, SameContentNewMtimeIsOnlyTouched) {
  TempTree tree("idx-touch");
  tree.write("a.py", "def a(): pass\n");
  tree.set_mtime("a.py", 1000000);
  index_tree(tree);
  tree.set_mtime("a.py", 2000000);
  IndexSummary again = index_tree(tree);
  EXPECT_EQ(again.files_touched, 1u);
  EXPECT_EQ(again.files_parsed, 0u);
  auto store = graph::Store::open(tree.root());
  EXPECT_EQ(store->file_states()["a.py"].mtime_ns, 2000000LL * 1000000000LL);
  IndexSummary third = index_tree(tree);
  EXPECT_EQ(third.files_unchanged, 1u);
}

TEST(Indexer, AnEditWithinTheTickOfTheLastReadIsSeen) {
  // Rewritten in the same second as the read that indexed it, with the same
  // size and mtime (a coarse clock, or a rename over it): read again.
  TempTree tree("idx-racy");
  long now = static_cast<long>(std::time(nullptr));
  tree.write("a.py", "def first(): pass\n");
  tree.set_mtime("a.py", now);
  index_tree(tree);
  tree.write("a.py", "def other(): pass\n");
  tree.set_mtime("a.py", now);
  index_tree(tree);
  auto store = graph::Store::open(tree.root());
  EXPECT_FALSE(store->symbols({"other", "", "", 0}).empty());
  EXPECT_TRUE(store->symbols({"first", "", "", 0}).empty());
}

TEST(Indexer, AFileStampedInTheFutureIsNotReadAgain) {
  // An mtime far ahead of the clock (an archive from a skewed machine) is
  // not racy: re-runs do not read it again and again.
  TempTree tree("idx-future");
  tree.write("a.py", "def a(): pass\n");
  tree.set_mtime("a.py", static_cast<long>(std::time(nullptr)) + 86400);
  index_tree(tree);
  IndexSummary again = index_tree(tree);
  EXPECT_EQ(again.files_unchanged, 1u);
  EXPECT_EQ(again.files_touched, 0u);
}

TEST(Indexer, ChangedDeletedAndRenamedFiles) {
  TempTree tree("idx-change");
  tree.write("a.py", "def old_name(): pass\n");
  tree.write("b.py", "def keep(): pass\n");
  tree.write("c.py", "def moving(): pass\n");
  index_tree(tree);
  tree.write("a.py", "def new_name(): pass\n\n\n");
  tree.remove("b.py");
  tree.rename("c.py", "sub/c2.py");
  IndexSummary again = index_tree(tree);
  EXPECT_EQ(again.files_parsed, 2u);
  EXPECT_EQ(again.files_removed, 2u);
  auto store = graph::Store::open(tree.root());
  EXPECT_TRUE(store->symbols({"old_name", "", "", 0}).empty());
  EXPECT_EQ(store->symbols({"new_name", "", "", 0}).size(), 1u);
  EXPECT_TRUE(store->symbols({"keep", "", "", 0}).empty());
  auto moved = store->symbols({"moving", "", "", 0});
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].file_path, "sub/c2.py");
  EXPECT_EQ(moved[0].id, "sub/c2.py::moving");
}

// A targeted run (a watcher's report) reads, adds and removes only under its
// paths; the rest of the index stays as it was, even where the disk changed.
TEST(Indexer, ATargetedRunIndexesOnlyItsPaths) {
  TempTree tree("idx-targeted");
  tree.write(".gitignore", "build/\n");
  tree.write("a.py", "def a_old(): pass\n");
  tree.write("b.py", "def b_old(): pass\n");
  tree.write("dir/c.py", "def c(): pass\n");
  tree.write("dir/d.py", "def d(): pass\n");
  tree.write("gone/e.py", "def e(): pass\n");
  tree.backdate();
  index_tree(tree);
  tree.write("a.py", "def a_new(): pass\n\n");
  tree.write("b.py", "def b_new(): pass\n\n");  // changed, not reported
  tree.remove("dir/c.py");
  tree.write("dir/sub/f.py", "def f(): pass\n");
  tree.write("build/g.py", "def g(): pass\n");  // ignored, though reported
  tree.remove("gone/e.py");
  std::filesystem::remove(tree.root() / "gone");
  IndexOptions options;
  options.root = tree.root();
  options.only = std::vector<std::string>{"a.py", "dir", "build/g.py", "gone"};
  IndexSummary summary = run_index(options);
  EXPECT_TRUE(summary.targeted);
  EXPECT_EQ(summary.files_parsed, 2u);   // a.py, dir/sub/f.py
  EXPECT_EQ(summary.files_removed, 2u);  // dir/c.py, gone/e.py
  EXPECT_EQ(summary.files_unchanged, 1u);  // dir/d.py
  EXPECT_EQ(summary.files_on_disk, 5u);  // the index's files: .gitignore, a.py, b.py, dir/d.py, dir/sub/f.py
  auto store = graph::Store::open(tree.root());
  auto has = [&](const std::string& name) { return !store->symbols({name, "", "", 0}).empty(); };
  EXPECT_TRUE(has("a_new"));
  EXPECT_FALSE(has("a_old"));
  EXPECT_TRUE(has("b_old")) << "b.py was not reported: not read";
  EXPECT_FALSE(has("c"));
  EXPECT_TRUE(has("d"));
  EXPECT_TRUE(has("f"));
  EXPECT_FALSE(has("g"));
  EXPECT_FALSE(has("e"));
  // A whole run then finds b.py and nothing else to do.
  IndexSummary whole = index_tree(tree);
  EXPECT_FALSE(whole.targeted);
  EXPECT_EQ(whole.files_parsed, 1u);
  EXPECT_EQ(whole.files_removed, 0u);
}

// The summary's counts come from one pass over the files, whose rows
// alternate between languages and skip reasons in path order.
TEST(Indexer, CountsFollowRowsThatAlternate) {
  TempTree tree("idx-counts");
  tree.write("a.py", "def a():\n    pass\n");
  tree.write("b.dat", std::string("b\0", 2));
  tree.write("c.ts", "export function c() {}\nexport function c2() {}\n");
  tree.write("d.py", "def d():\n    pass\n");
  tree.write("e.dat", std::string("e\0", 2));
  tree.write("f.txt", "notes\n");
  tree.write("g.py", "class G:\n    def g(self):\n        pass\n");
  IndexSummary summary = index_tree(tree);
  EXPECT_EQ(summary.files_by_language,
            (std::map<std::string, std::size_t>{{"other", 1}, {"python", 3}, {"typescript", 1}}));
  EXPECT_EQ(summary.skipped_by_reason, (std::map<std::string, std::size_t>{{"binary", 2}}));
  auto store = graph::Store::open(tree.root());
  graph::Stats stats = store->stats();
  EXPECT_EQ(stats.indexed_files, 5);
  EXPECT_EQ(stats.skipped_files, 2);
  EXPECT_EQ(stats.files, 7);
  EXPECT_EQ(summary.symbols, static_cast<std::size_t>(store->symbols({"", "", "", 0}).size()));
  EXPECT_GE(summary.symbols, 6u);
  // Removing a file and adding another in one run: the removal is seen.
  tree.remove("d.py");
  tree.write("h.py", "def h():\n    pass\n");
  IndexSummary again = index_tree(tree);
  EXPECT_EQ(again.files_removed, 1u);
  EXPECT_EQ(again.files_by_language["python"], 3u);
  EXPECT_FALSE(store->file("d.py").has_value());
  // A refresh that only needs the index current skips the counts, not the work.
  tree.write("i.py", "def i():\n    pass\n");
  IndexOptions refresh;
  refresh.root = tree.root();
  refresh.counts = false;
  IndexSummary quiet = run_index(refresh);
  EXPECT_EQ(quiet.files_parsed, 1u);
  EXPECT_TRUE(quiet.files_by_language.empty());
  EXPECT_TRUE(quiet.skipped_by_reason.empty());
  EXPECT_EQ(quiet.symbols, 0u);
  EXPECT_TRUE(store->file("i.py").has_value());
}

TEST(Indexer, BinaryAndLargeFilesAreSkippedWithReasons) {
  TempTree tree("idx-skip");
  tree.write("bin.dat", std::string("abc\0def", 7));
  tree.write("big.py", std::string(5000, '#'));
  tree.write("ok.py", "def ok(): pass\n");
  IndexOptions options;
  options.root = tree.root();
  options.max_file_size = 1000;
  IndexSummary summary = run_index(options);
  EXPECT_EQ(summary.skipped_by_reason["binary"], 1u);
  EXPECT_EQ(summary.skipped_by_reason["too-large"], 1u);
  auto store = graph::Store::open(tree.root());
  EXPECT_EQ(store->file("bin.dat")->skip_reason, "binary");
  EXPECT_EQ(store->file("big.py")->skip_reason, "too-large");
  EXPECT_EQ(store->symbols({"ok", "", "", 0}).size(), 1u);
}

TEST(Indexer, SyntaxErrorsAreRecordedNotFatal) {
  TempTree tree("idx-syntax");
  tree.write("bad.py", "def fine():\n    pass\n\ndef broken(:\n");
  IndexSummary summary = index_tree(tree);
  ASSERT_EQ(summary.errors.size(), 1u);
  EXPECT_EQ(summary.errors[0].path, "bad.py");
  auto store = graph::Store::open(tree.root());
  EXPECT_TRUE(store->file("bad.py")->has_syntax_errors);
  EXPECT_EQ(store->symbols({"fine", "", "", 0}).size(), 1u);
}

TEST(Indexer, OverloadsGetDistinctStableIds) {
  TempTree tree("idx-overload");
  tree.write("A.java",
             "public class A {\n  public void f(int x) {}\n  public void f(String s) {}\n}\n");
  index_tree(tree);
  auto store = graph::Store::open(tree.root());
  auto overloads = store->symbols({"f", "", "", 0});
  ASSERT_EQ(overloads.size(), 2u);
  EXPECT_EQ(overloads[0].id, "A.java::A.f");
  EXPECT_EQ(overloads[1].id, "A.java::A.f#2");
}

TEST(Indexer, ResultDoesNotDependOnThreadCount) {
  TempTree tree("idx-threads");
  for (int i = 0; i < 40; ++i) {
    const char* extensions[] = {".py", ".ts", ".go", ".rs"};
    std::string extension = extensions[i % 4];
    tree.write("d" + std::to_string(i % 5) + "/f" + std::to_string(i) + extension,
               testing::generated_source(extension, i, 5));
  }
  index_tree(tree, 1);
  std::vector<std::string> one = snapshot_of(tree);
  std::filesystem::remove_all(tree.root() / ".comp");
  index_tree(tree, 4);
  EXPECT_EQ(one, snapshot_of(tree));
}

// After any sequence of edits, adds, deletes and renames, the incremental
// index equals one built from scratch.
TEST(Indexer, IncrementalEqualsFromScratchAfterRandomEdits) {
  TempTree tree("idx-random");
  std::mt19937 random(12345);
  const char* extensions[] = {".py", ".ts", ".go", ".rs", ".txt"};
  std::vector<std::string> files;
  auto new_file = [&](int id) {
    std::string extension = extensions[random() % 5];
    std::string path = "dir" + std::to_string(random() % 4) + "/file" + std::to_string(id) + extension;
    tree.write(path, testing::generated_source(extension, static_cast<int>(random() % 1000), 1 + random() % 6));
    files.push_back(path);
  };
  for (int i = 0; i < 30; ++i) new_file(i);
  int next_id = 30;
  for (int round = 0; round < 8; ++round) {
    index_tree(tree);
    for (int step = 0; step < 10; ++step) {
      int action = static_cast<int>(random() % 4);
      if (files.empty()) action = 0;
      std::size_t pick = files.empty() ? 0 : random() % files.size();
      if (action == 0) {
        new_file(next_id++);
      } else if (action == 1) {
        std::string extension = files[pick].substr(files[pick].rfind('.'));
        tree.write(files[pick], testing::generated_source(extension, static_cast<int>(random() % 1000), 1 + random() % 6));
        tree.set_mtime(files[pick], 1700000000 + round * 100 + step);
      } else if (action == 2) {
        tree.remove(files[pick]);
        files.erase(files.begin() + static_cast<long>(pick));
      } else {
        std::string extension = files[pick].substr(files[pick].rfind('.'));
        std::string target = "moved/r" + std::to_string(next_id++) + extension;
        tree.rename(files[pick], target);
        files[pick] = target;
      }
    }
    index_tree(tree);
    {
      auto store = graph::Store::open(tree.root());
      ASSERT_EQ(store->integrity_check(), "ok") << "round " << round;  // FTS5 agrees with its content
    }
    std::vector<std::string> incremental = snapshot_of(tree);
    std::filesystem::rename(tree.root() / ".comp", tree.root() / "../comp-random-saved");
    index_tree(tree);
    std::vector<std::string> scratch = snapshot_of(tree);
    std::filesystem::remove_all(tree.root() / ".comp");
    std::filesystem::rename(tree.root() / "../comp-random-saved", tree.root() / ".comp");
    ASSERT_EQ(incremental, scratch) << "round " << round;
  }
}

// A checkout rewrites much of a tree: the run merges the full-text indexes,
// so that they read like those of an index built from scratch (whose first
// run merged them too), not like a stack of segments holding every old
// version; a one-file edit leaves them to FTS5's automerge.
TEST(Indexer, ARunThatRewritesATenthOfTheFilesMergesTheFullTextIndexes) {
  auto write_tree = [](TempTree& tree, int round) {
    for (int i = 0; i < 60; ++i)
      tree.write("pkg/m" + std::to_string(i) + ".py", testing::generated_source(".py", i + 1000 * round, 12));
  };
  TempTree tree("idx-merge");
  write_tree(tree, 0);
  EXPECT_TRUE(index_tree(tree).full_text_merged);
  tree.write("pkg/m0.py", testing::generated_source(".py", 7, 12));
  EXPECT_FALSE(index_tree(tree).full_text_merged);
  // Small runs add up: 1 + 4 files rewritten since the merge are fewer
  // than a tenth of 60; the sixth is not.
  for (int i = 1; i <= 4; ++i) tree.write("pkg/m" + std::to_string(i) + ".py", testing::generated_source(".py", 70 + i, 12));
  EXPECT_FALSE(index_tree(tree).full_text_merged);
  tree.write("pkg/m5.py", testing::generated_source(".py", 75, 12));
  EXPECT_TRUE(index_tree(tree).full_text_merged);
  EXPECT_EQ(indexed(tree)->full_text_churn(), 0);
  for (int round = 1; round <= 4; ++round) {
    write_tree(tree, round);
    IndexSummary checkout = index_tree(tree);
    EXPECT_EQ(checkout.files_parsed, 60u);
    EXPECT_TRUE(checkout.full_text_merged);
  }
  TempTree scratch("idx-merge-scratch");
  write_tree(scratch, 4);
  index_tree(scratch);
  auto store = indexed(tree);
  auto fresh = indexed(scratch);
  EXPECT_EQ(store->full_text_pages(), fresh->full_text_pages());
  const std::string query = "\"widget\" OR \"method\" OR \"m3\"";
  auto hits = store->search_files(query, 100), fresh_hits = fresh->search_files(query, 100);
  std::sort(hits.begin(), hits.end());  // equal scores come in rowid order
  std::sort(fresh_hits.begin(), fresh_hits.end());
  EXPECT_EQ(hits, fresh_hits);
  EXPECT_EQ(store->integrity_check(), "ok");
}

TEST(Indexer, KeepsTheFilesThatChangedTogetherInGitHistory) {
  TempTree tree("idx-history");
  ASSERT_EQ(testing::git(tree, {"init", "-q"}), 0);
  tree.write("a.py", "def a():\n    pass\n");
  tree.write("b.json", "{}\n");
  ASSERT_EQ(testing::git(tree, {"add", "-A"}), 0);
  ASSERT_EQ(testing::git(tree, {"commit", "-q", "-m", "a and b"}), 0);
  tree.write("a.py", "def a():\n    return 1\n");
  tree.write("b.json", "{\"a\": 1}\n");
  for (int i = 0; i < 31; ++i) tree.write("many/f" + std::to_string(i) + ".txt", "x\n");
  tree.write("many/with_a.txt", "x\n");
  ASSERT_EQ(testing::git(tree, {"add", "a.py", "b.json"}), 0);
  ASSERT_EQ(testing::git(tree, {"commit", "-q", "-m", "a and b again"}), 0);
  ASSERT_EQ(testing::git(tree, {"add", "-A"}), 0);  // 32 files: changed together by chance
  ASSERT_EQ(testing::git(tree, {"commit", "-q", "-m", "many"}), 0);
  std::string head;
  ASSERT_EQ(testing::git(tree, {"rev-parse", "HEAD"}, &head), 0);
  head.pop_back();

  IndexSummary summary = index_tree(tree);
  EXPECT_EQ(summary.history_commits, 3u);
  {
    auto store = graph::Store::open(tree.root());
    EXPECT_EQ(store->history_head(), head);
    EXPECT_EQ(store->changed_with("a.py", 10), (std::vector<std::pair<std::string, double>>{{"b.json", 2.0}}));
    EXPECT_TRUE(store->changed_with("many/f0.txt", 10).empty());
  }
  // HEAD where it was: history is not read again.
  EXPECT_EQ(index_tree(tree).history_commits, 0u);

  // A new commit: read again, with it.
  tree.write("a.py", "def a():\n    return 2\n");
  tree.write("docs/a.md", "# a\n");
  ASSERT_EQ(testing::git(tree, {"add", "a.py", "docs/a.md"}), 0);
  ASSERT_EQ(testing::git(tree, {"commit", "-q", "-m", "a and its page"}), 0);
  EXPECT_EQ(index_tree(tree).history_commits, 4u);
  {
    auto store = graph::Store::open(tree.root());
    EXPECT_EQ(store->changed_with("a.py", 10),
              (std::vector<std::pair<std::string, double>>{{"b.json", 2.0}, {"docs/a.md", 1.0}}));
  }
  // No repository any more: the history is forgotten.
  std::filesystem::remove_all(tree.root() / ".git");
  EXPECT_EQ(index_tree(tree).history_commits, 0u);
  auto store = graph::Store::open(tree.root());
  EXPECT_EQ(store->history_head(), "");
  EXPECT_TRUE(store->changed_with("a.py", 10).empty());
}

TEST(Indexer, MissingRootThrows) {
  IndexOptions options;
  options.root = "/nonexistent/comp/root";
  EXPECT_ANY_THROW(run_index(options));
}

}  // namespace
}  // namespace comp::index
