#include "graph/store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <random>

namespace comp::graph {
namespace {

namespace fs = std::filesystem;

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("comp-store-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    fs::permissions(root_, fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(root_);
  }
  fs::path root_;
};

FileRecord file_record(const std::string& path, const std::string& hash) {
  FileRecord file;
  file.path = path;
  file.language = "python";
  file.size = 10;
  file.mtime_ns = 1234567890123;
  file.sha256 = hash;
  return file;
}

NodeRecord node_record(const std::string& path, const std::string& name) {
  NodeRecord node;
  node.id = path + "::" + name;
  node.file_path = path;
  node.name = name;
  node.kind = "function";
  node.line = 1;
  node.column = 1;
  node.end_line = 2;
  node.end_column = 5;
  node.signature = "def " + name + "()";
  node.scope = "m." + name;
  return node;
}

TEST_F(StoreTest, CreatesSchemaAndRoundTrips) {
  auto store = Store::open(root_);
  EXPECT_EQ(store->schema_version(), kSchemaVersion);
  {
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha"), node_record("a.py", "beta")},
                   "def alpha(): pass\ndef beta(): pass\n");
    batch.commit();
  }
  auto states = store->file_states();
  ASSERT_EQ(states.size(), 1u);
  EXPECT_EQ(states["a.py"].sha256, "h1");
  EXPECT_EQ(states["a.py"].mtime_ns, 1234567890123);
  auto nodes = store->nodes_of_file("a.py");
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].signature, "def alpha()");
  EXPECT_EQ(store->symbols({"beta", "", "", 0}).size(), 1u);
  EXPECT_EQ(store->stats().symbols, 2);
  EXPECT_EQ(store->integrity_check(), "ok");
}

TEST_F(StoreTest, IndexedFilesAreTheFilesWithoutASkipReason) {
  auto store = Store::open(root_);
  {
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha");
    FileRecord binary = file_record("logo.png", "h2");
    binary.language = "";
    binary.skip_reason = "binary";
    batch.put_file(binary, {}, "");
    FileRecord readme = file_record("README.md", "h3");
    readme.language = "";
    readme.size = 77;
    batch.put_file(readme, {}, "read me");
    batch.commit();
  }
  std::vector<IndexedFile> files = store->indexed_files();
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "README.md");
  EXPECT_EQ(files[0].language, "");
  EXPECT_EQ(files[0].size, 77u);
  EXPECT_EQ(files[1].path, "a.py");
  EXPECT_EQ(files[1].language, "python");
  EXPECT_EQ(files[1].mtime_ns, 1234567890123);
  EXPECT_EQ(store->files().size(), 3u);
}

TEST_F(StoreTest, TokensHeldCountsTheTokensAFileHoldsAsTheTokenizerSplitsThem) {
  auto store = Store::open(root_);
  {
    Batch batch(*store);
    batch.put_file(file_record("src/ripple/TouchRipple.js", "h1"), {}, "function createRipple(event) { return null; }");
    batch.put_file(file_record("src/chip.js", "h2"), {}, "const CHIP_SIZE = 4; // ripple-free");
    batch.put_file(file_record("other.py", "h3"), {}, "def unrelated(): pass");
    batch.commit();
  }
  // "touch" and "ripple" come from the path, "create" from createRipple,
  // "size" from CHIP_SIZE: the parts of compound names count.
  std::vector<std::size_t> held = store->tokens_held({"ripple", "touch", "create", "size", "chip", "absent"},
                                                     {"src/ripple/TouchRipple.js", "src/chip.js", "other.py", "gone.js"});
  EXPECT_EQ(held, (std::vector<std::size_t>{3, 3, 0, 0}));
  // A token that is FTS5 query syntax is only a token.
  EXPECT_EQ(store->tokens_held({"or", "\"", "*"}, {"src/chip.js"}), (std::vector<std::size_t>{0}));
}

// A token in at least half the files has BM25's floor idf (1e-6): it adds
// nothing to any score, so dropping it from an OR query keeps the ranking.
TEST_F(StoreTest, TokenRowsCountTheRowsHoldingEachTokenAndTheIndex) {
  auto store = Store::open(root_);
  {
    Batch batch(*store);
    // "material" in 3 of 4 files, "theme" in exactly 2 (half), "ripple" in 1.
    batch.put_file(file_record("a.js", "h1"), {node_record("a.js", "materialRipple")},
                   "material ripple ripple ripple theme");
    batch.put_file(file_record("b.js", "h2"), {node_record("b.js", "materialTheme")}, "material theme");
    batch.put_file(file_record("c.js", "h3"), {node_record("c.js", "material")}, "material button button");
    batch.put_file(file_record("d.js", "h4"), {node_record("d.js", "unrelated")}, "unrelated text here");
    batch.commit();
  }
  using FullText = Store::FullText;
  Store::TokenRows files = store->token_rows(FullText::kFiles, {"material", "theme", "ripple", "absent"});
  EXPECT_EQ(files.total, 4);
  EXPECT_EQ(files.rows, (std::vector<std::int64_t>{3, 2, 1, 0}));
  EXPECT_TRUE(files.weightless(0));
  EXPECT_TRUE(files.weightless(1));  // exactly half: log((4 - 2 + 0.5) / (2 + 0.5)) = 0
  EXPECT_FALSE(files.weightless(2));
  EXPECT_FALSE(files.weightless(3));
  EXPECT_TRUE(store->token_rows(FullText::kFiles, {}).rows.empty());
  Store::TokenRows absent = store->token_rows(FullText::kFiles, {"absent"});
  EXPECT_EQ(absent.rows, (std::vector<std::int64_t>{0}));
  EXPECT_FALSE(absent.weightless(0));
  // Symbols count against the symbol rows: "material" names 3 of 4.
  Store::TokenRows symbols = store->token_rows(FullText::kSymbols, {"material", "ripple", "unrelated"});
  EXPECT_EQ(symbols.total, 4);
  EXPECT_EQ(symbols.rows, (std::vector<std::int64_t>{3, 1, 1}));
  // The ranking without them is the ranking with them.
  auto with = store->search_files("\"material\" OR \"theme\" OR \"ripple\" OR \"button\"", 10);
  auto without = store->search_files("\"ripple\" OR \"button\"", 10);
  ASSERT_EQ(without.size(), 2u);
  ASSERT_GE(with.size(), 2u);
  for (std::size_t i = 0; i < without.size(); ++i) {
    EXPECT_EQ(with[i].first, without[i].first);
    EXPECT_NEAR(with[i].second, without[i].second, 1e-5);
  }
}

// `comp query` reads through a memory map: it answers as a reader without
// one does, and sees what a writer commits later, also once the database
// file has grown past what was mapped (the commits here pass SQLite's
// checkpoint threshold, so the file itself grows, not only the WAL).
TEST_F(StoreTest, AMemoryMappedReaderAnswersAsAnyReaderAndSeesLaterCommits) {
  auto writer = Store::open(root_);
  {
    Batch batch(*writer);
    batch.put_file(file_record("a.js", "h1"), {node_record("a.js", "rippleTouch")}, "ripple touch ripple");
    batch.put_file(file_record("b.js", "h2"), {node_record("b.js", "chipSize")}, "chip size ripple");
    batch.commit();
  }
  auto mapped = Store::open(root_);
  mapped->set_memory_map_mib(64);
  const std::string query = "\"ripple\" OR \"chip\"";
  EXPECT_EQ(mapped->search_files(query, 10), writer->search_files(query, 10));
  ASSERT_EQ(mapped->search_files(query, 10).size(), 2u);
  auto size_before = fs::file_size(root_ / ".comp" / "graph.db");
  std::string filler;
  for (int i = 0; i < 2000; ++i) filler += " filler" + std::to_string(i);
  for (int round = 0; round < 4; ++round) {
    Batch batch(*writer);
    for (int i = 0; i < 100; ++i) {
      std::string path = "grown/" + std::to_string(round) + "_" + std::to_string(i) + ".js";
      batch.put_file(file_record(path, "g" + path), {node_record(path, "grownChip")}, "chip" + filler);
    }
    batch.commit();
  }
  EXPECT_GT(fs::file_size(root_ / ".comp" / "graph.db"), size_before);
  auto hits = mapped->search_files("\"chip\"", 1000);
  EXPECT_EQ(hits.size(), 401u);
  EXPECT_EQ(hits, writer->search_files("\"chip\"", 1000));
  EXPECT_EQ(mapped->indexed_files().size(), 402u);
}

// Reads through a snapshot see the index as it was at the first of them,
// whatever another connection commits meanwhile; after it, the commit.
TEST_F(StoreTest, AReadSnapshotSeesOneStateOfTheIndexAcrossItsReads) {
  auto writer = Store::open(root_);
  {
    Batch batch(*writer);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha ripple");
    batch.commit();
  }
  auto reader = Store::open(root_);
  auto change = [&] {
    Batch batch(*writer);
    batch.remove_file("a.py");
    batch.put_file(file_record("b.py", "h2"), {node_record("b.py", "beta")}, "beta ripple");
    batch.commit();
  };
  {
    ReadSnapshot snapshot(*reader);
    ASSERT_EQ(reader->indexed_files().size(), 1u);
    EXPECT_FALSE(sqlite3_get_autocommit(reader->handle()));
    change();
    {
      ReadSnapshot nested(*reader);  // inside the open one: the same state
      EXPECT_EQ(reader->indexed_files().size(), 1u);
    }
    EXPECT_FALSE(sqlite3_get_autocommit(reader->handle())) << "a nested snapshot leaves the outer one open";
    EXPECT_EQ(reader->symbols({"alpha", "", "", 0}).size(), 1u);
    EXPECT_TRUE(reader->symbols({"beta", "", "", 0}).empty());
    auto hits = reader->search_files("\"ripple\"", 10);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].first, "a.py");
    EXPECT_TRUE(reader->file("a.py"));
    EXPECT_FALSE(reader->file("b.py"));
    EXPECT_TRUE(writer->symbols({"alpha", "", "", 0}).empty()) << "the writer sees its commit";
  }
  EXPECT_TRUE(sqlite3_get_autocommit(reader->handle()));
  EXPECT_TRUE(reader->symbols({"alpha", "", "", 0}).empty());
  EXPECT_EQ(reader->symbols({"beta", "", "", 0}).size(), 1u);
  ASSERT_EQ(reader->indexed_files().size(), 1u);
  EXPECT_EQ(reader->indexed_files()[0].path, "b.py");
  // Without one, each read sees the latest commit: the reads above would
  // have mixed two states.
  Batch batch(*reader);  // and the connection writes again
  batch.remove_file("b.py");
  batch.commit();
  EXPECT_TRUE(writer->indexed_files().empty());
}

TEST_F(StoreTest, PutFileReplacesNodesAndText) {
  auto store = Store::open(root_);
  {
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha");
    batch.commit();
  }
  {
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h2"), {node_record("a.py", "gamma")}, "gamma");
    batch.commit();
  }
  EXPECT_TRUE(store->symbols({"alpha", "", "", 0}).empty());
  EXPECT_EQ(store->symbols({"gamma", "", "", 0}).size(), 1u);
  sqlite3_stmt* statement = nullptr;
  sqlite3_prepare_v2(store->handle(), "SELECT count(*) FROM files_fts WHERE files_fts MATCH 'alpha'", -1, &statement,
                     nullptr);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(statement, 0), 0);
  sqlite3_finalize(statement);
  sqlite3_prepare_v2(store->handle(), "SELECT count(*) FROM symbols_fts WHERE symbols_fts MATCH 'gamma'", -1,
                     &statement, nullptr);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(statement, 0), 1);
  sqlite3_finalize(statement);
}

TEST_F(StoreTest, UncommittedBatchRollsBack) {
  auto store = Store::open(root_);
  {
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha");
  }
  EXPECT_TRUE(store->file_states().empty());
  EXPECT_EQ(store->stats().symbols, 0);
}

TEST_F(StoreTest, RemoveFileDropsEverything) {
  auto store = Store::open(root_);
  {
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha");
    batch.put_file(file_record("b.py", "h2"), {node_record("b.py", "beta")}, "beta");
    batch.commit();
  }
  {
    Batch batch(*store);
    batch.remove_file("a.py");
    batch.commit();
  }
  EXPECT_EQ(store->file_states().count("a.py"), 0u);
  EXPECT_EQ(store->stats().symbols, 1);
  EXPECT_EQ(store->integrity_check(), "ok");
}

TEST_F(StoreTest, TouchUpdatesOnlyMtime) {
  auto store = Store::open(root_);
  {
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha");
    batch.commit();
  }
  {
    Batch batch(*store);
    batch.touch_file("a.py", 99, 1);
    batch.commit();
  }
  EXPECT_EQ(store->file_states()["a.py"].mtime_ns, 99);
  EXPECT_EQ(store->file_states()["a.py"].sha256, "h1");
  EXPECT_EQ(store->stats().symbols, 1);
}

TEST_F(StoreTest, ReopenKeepsData) {
  {
    auto store = Store::open(root_);
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha");
    batch.commit();
  }
  auto store = Store::open(root_);
  EXPECT_EQ(store->stats().symbols, 1);
}

TEST_F(StoreTest, GarbageFileIsReportedCorruptAndKept) {
  fs::create_directories(root_ / ".comp");
  {
    std::ofstream out(root_ / ".comp" / "graph.db", std::ios::binary);
    std::mt19937 random(7);
    for (int i = 0; i < 8192; ++i) out.put(static_cast<char>(random()));
  }
  try {
    Store::open(root_);
    FAIL() << "expected StoreError";
  } catch (const StoreError& error) {
    EXPECT_EQ(error.kind(), StoreError::Kind::kCorrupt) << error.what();
  }
  EXPECT_EQ(fs::file_size(root_ / ".comp" / "graph.db"), 8192u);  // never deleted
  fs::path moved = Store::quarantine(root_);
  EXPECT_TRUE(fs::exists(moved));
  EXPECT_FALSE(fs::exists(root_ / ".comp" / "graph.db"));
  EXPECT_NO_THROW(Store::open(root_));
}

TEST_F(StoreTest, ForeignSqliteDatabaseIsNotTouched) {
  fs::create_directories(root_ / ".comp");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((root_ / ".comp" / "graph.db").c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "CREATE TABLE other(x); INSERT INTO other VALUES (1);", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  try {
    Store::open(root_);
    FAIL() << "expected StoreError";
  } catch (const StoreError& error) {
    EXPECT_EQ(error.kind(), StoreError::Kind::kCorrupt);
  }
}

TEST_F(StoreTest, NewerSchemaIsRefused) {
  { Store::open(root_); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((root_ / ".comp" / "graph.db").c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "PRAGMA user_version = 999", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  try {
    Store::open(root_);
    FAIL() << "expected StoreError";
  } catch (const StoreError& error) {
    EXPECT_EQ(error.kind(), StoreError::Kind::kTooNew);
  }
}

TEST_F(StoreTest, UnwritableDirectoryIsReported) {
  if (::geteuid() == 0) GTEST_SKIP() << "root can write anywhere";
  fs::permissions(root_, fs::perms::owner_read | fs::perms::owner_exec);
  try {
    Store::open(root_);
    FAIL() << "expected StoreError";
  } catch (const StoreError& error) {
    EXPECT_EQ(error.kind(), StoreError::Kind::kUnwritable);
  }
}

TEST_F(StoreTest, CompPathIsAFile) {
  std::ofstream(root_ / ".comp") << "not a directory";
  try {
    Store::open(root_);
    FAIL() << "expected StoreError";
  } catch (const StoreError& error) {
    EXPECT_EQ(error.kind(), StoreError::Kind::kUnwritable);
  }
}

CompressedRecord compressed_record(const std::string& hash, int compressor) {
  CompressedRecord record;
  record.sha256 = hash;
  record.language = "python";
  record.level = 2;
  record.compressor = compressor;
  record.text = "def f(): ...\n";
  record.level_reached = 1;
  record.reparsed_clean = false;
  record.errors = {"python level 2: output parses with 1 errors (input 0); level 1 used", "second"};
  record.raw_tokens = 40;
  record.tokens = 7;
  return record;
}

TEST_F(StoreTest, CompressedRowsRoundTripAndArePrunedWhenNoFileHasTheirContent) {
  auto store = Store::open(root_);
  {
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {}, "x");
    batch.put_file(file_record("b.py", "h2"), {}, "y");
    batch.put_compressed(compressed_record("h1", 1));
    batch.put_compressed(compressed_record("h2", 1));
    batch.put_compressed(compressed_record("h2", 0));     // an older compressor's output
    batch.put_compressed(compressed_record("gone", 1));   // content no file has
    batch.commit();
  }
  auto row = store->compressed("h1", "python", 2, 1);
  ASSERT_TRUE(row);
  CompressedRecord expected = compressed_record("h1", 1);
  EXPECT_EQ(row->text, expected.text);
  EXPECT_EQ(row->level_reached, 1);
  EXPECT_FALSE(row->reparsed_clean);
  EXPECT_EQ(row->errors, expected.errors);
  EXPECT_EQ(row->raw_tokens, 40);
  EXPECT_EQ(row->tokens, 7);
  EXPECT_FALSE(store->compressed("h1", "python", 1, 1));
  EXPECT_FALSE(store->compressed("h1", "go", 2, 1));
  EXPECT_FALSE(store->compressed("h1", "python", 2, 2));
  {
    Batch batch(*store);
    batch.remove_file("b.py");
    EXPECT_EQ(batch.prune_compressed(1), 3);  // h2 twice (no file), gone; h2@0 also an old version
    batch.commit();
  }
  EXPECT_TRUE(store->compressed("h1", "python", 2, 1));
  EXPECT_FALSE(store->compressed("h2", "python", 2, 1));
  EXPECT_FALSE(store->compressed("gone", "python", 2, 1));
}

// files_version moves with the commits that change file rows (written,
// touched, removed) and with no other: the daemons keep their file list
// until it does.
TEST_F(StoreTest, FilesVersionCountsTheCommitsThatChangedFileRows) {
  auto store = Store::open(root_);
  std::int64_t version = store->files_version();
  auto committed = [&](const std::function<void(Batch&)>& write) {
    Batch batch(*store);
    write(batch);
    batch.commit();
    std::int64_t now = store->files_version();
    bool moved = now != version;
    version = now;
    return moved;
  };
  EXPECT_TRUE(committed([](Batch& b) { b.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha"); }));
  EXPECT_FALSE(committed([](Batch& b) { b.put_compressed(compressed_record("h1", 1)); }));
  EXPECT_FALSE(committed([](Batch& b) { b.replace_history("c1", {{"a.py", "b.py"}}); }));
  EXPECT_FALSE(committed([](Batch& b) { b.remove_file("never-indexed.py"); }));
  EXPECT_FALSE(committed([](Batch&) {}));
  EXPECT_TRUE(committed([](Batch& b) { b.touch_file("a.py", 99, 100); }));
  EXPECT_TRUE(committed([](Batch& b) { b.remove_file("a.py"); }));
  {
    Batch rolled_back(*store);
    rolled_back.put_file(file_record("b.py", "h2"), {}, "beta");
  }
  EXPECT_EQ(store->files_version(), version) << "a batch rolled back moves nothing";
  auto other = Store::open(root_);  // another connection sees the same count
  EXPECT_EQ(other->files_version(), version);
}

TEST_F(StoreTest, HistoryNamesTheFilesChangedTogetherAndIsReplacedWhole) {
  auto store = Store::open(root_);
  EXPECT_EQ(store->history_head(), "");
  EXPECT_TRUE(store->changed_with("a.py", 10).empty());
  {
    Batch batch(*store);
    batch.replace_history("c3", {{"a.py", "b.json"},              // 1 / 1 each
                                 {"a.py"},                        // alone: not kept
                                 {"a.py", "b.json", "c.md"},      // 1 / 2 each
                                 {"c.md", "d.txt"}});             // without a.py
    batch.commit();
  }
  EXPECT_EQ(store->history_head(), "c3");
  auto partners = store->changed_with("a.py", 10);
  ASSERT_EQ(partners.size(), 2u);
  EXPECT_EQ(partners[0].first, "b.json");
  EXPECT_DOUBLE_EQ(partners[0].second, 1.5);
  EXPECT_EQ(partners[1].first, "c.md");
  EXPECT_DOUBLE_EQ(partners[1].second, 0.5);
  EXPECT_EQ(store->changed_with("a.py", 1).size(), 1u);
  EXPECT_EQ(store->changed_with("d.txt", 10), (std::vector<std::pair<std::string, double>>{{"c.md", 1.0}}));
  {
    Batch batch(*store);
    batch.replace_history("", {});
    batch.commit();
  }
  EXPECT_EQ(store->history_head(), "");
  EXPECT_TRUE(store->changed_with("a.py", 10).empty());
}

TEST_F(StoreTest, AVersion2IndexGainsTheCacheAndKeepsItsFiles) {
  {
    auto store = Store::open(root_);
    Batch batch(*store);
    batch.put_file(file_record("a.py", "h1"), {node_record("a.py", "alpha")}, "alpha text");
    batch.commit();
  }
  // What comP before the cache left: no `compressed` table (nor the later
  // index of imports by target, churn count, history, files version and its
  // log, database token), user_version 2.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((root_ / ".comp" / "graph.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "DROP TABLE compressed; DROP INDEX refs_import_target; DROP TABLE full_text_churn; "
                              "DROP TABLE history_head; DROP TABLE history_commits; DROP TABLE history; "
                              "DROP TABLE files_version; DROP TABLE files_changes; DROP TABLE database_token; "
                              "PRAGMA user_version = 2", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto store = Store::open(root_);
  EXPECT_EQ(store->schema_version(), kSchemaVersion);
  // Its full-text indexes were never merged: every file counts as churn,
  // so the next index run merges them.
  EXPECT_EQ(store->full_text_churn(), 1);
  {
    sqlite3_stmt* statement = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(store->handle(), "SELECT count(*) FROM sqlite_master WHERE name = 'refs_import_target'",
                                 -1, &statement, nullptr),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(statement, 0), 1);
    sqlite3_finalize(statement);
  }
  ASSERT_TRUE(store->file("a.py"));
  EXPECT_EQ(store->file("a.py")->sha256, "h1");
  EXPECT_EQ(store->nodes_of_file("a.py").size(), 1u);
  EXPECT_EQ(store->database_token().size(), 32u);  // drawn by the migration
  EXPECT_FALSE(store->compressed("h1", "python", 2, 1));
  {
    Batch batch(*store);
    batch.put_compressed(compressed_record("h1", 1));
    batch.commit();
  }
  EXPECT_TRUE(store->compressed("h1", "python", 2, 1));
  std::int64_t files = store->files_version();
  {
    Batch batch(*store);
    batch.touch_file("a.py", 5, 6);
    batch.commit();
  }
  EXPECT_EQ(store->files_version(), files + 1);
  // The log began with the migration: the commit after it is listed, the
  // ones before it are not.
  EXPECT_EQ(store->files_changed(files, files + 1), std::vector<std::string>{"a.py"});
  EXPECT_FALSE(store->files_changed(files - 1, files + 1));
  EXPECT_EQ(store->integrity_check(), "ok");
}

TEST_F(StoreTest, FilesChangedListsThePathsOfTheCommitsBetweenTwoVersions) {
  auto store = Store::open(root_);
  auto committed = [&](const std::function<void(Batch&)>& write) {
    Batch batch(*store);
    write(batch);
    batch.commit();
    return store->files_version();
  };
  std::int64_t start = store->files_version();
  std::int64_t one = committed([](Batch& b) {
    b.put_file(file_record("a.py", "h1"), {}, "alpha");
    b.put_file(file_record("b.py", "h2"), {}, "beta");
  });
  std::int64_t two = committed([](Batch& b) { b.touch_file("a.py", 5, 6); });
  std::int64_t none = committed([](Batch& b) { b.put_compressed(compressed_record("h1", 1)); });
  std::int64_t three = committed([](Batch& b) {
    b.remove_file("b.py");
    b.put_file(file_record("c.py", "h3"), {}, "gamma");
    b.touch_file("c.py", 7, 8);  // twice in one commit: listed once
  });
  EXPECT_EQ(none, two) << "a commit that changed no file row is not a version";
  using Paths = std::vector<std::string>;
  EXPECT_EQ(store->files_changed(start, one), (Paths{"a.py", "b.py"}));
  EXPECT_EQ(store->files_changed(one, two), (Paths{"a.py"}));
  EXPECT_EQ(store->files_changed(one, three), (Paths{"a.py", "b.py", "c.py"}));
  EXPECT_EQ(store->files_changed(start, three), (Paths{"a.py", "b.py", "c.py"}));
  EXPECT_EQ(store->files_changed(three, three), Paths{});
  EXPECT_FALSE(store->files_changed(start - 1, three)) << "a commit the log never held";
  EXPECT_FALSE(store->files_changed(three, three + 1)) << "a commit not made yet";

  // A commit of more files than the log lists: readers must read every row.
  std::int64_t many = committed([](Batch& b) {
    for (std::size_t i = 0; i <= Batch::kFilesChangesListed; ++i)
      b.touch_file("f" + std::to_string(i) + ".py", 1, 1);
  });
  EXPECT_EQ(many, three + 1);
  EXPECT_FALSE(store->files_changed(three, many));
  std::int64_t after = committed([](Batch& b) { b.touch_file("a.py", 9, 9); });
  EXPECT_EQ(store->files_changed(many, after), Paths{"a.py"});

  // The log keeps the last kFilesChangesKept commits.
  std::int64_t last = after;
  for (std::int64_t i = 0; i < Batch::kFilesChangesKept; ++i)
    last = committed([i](Batch& b) { b.touch_file("a.py", 10 + i, 10 + i); });
  EXPECT_FALSE(store->files_changed(after - 1, last));
  EXPECT_EQ(store->files_changed(last - Batch::kFilesChangesKept, last), Paths{"a.py"});
  auto other = Store::open(root_);  // another connection reads the same log
  EXPECT_EQ(other->files_changed(one, two), std::nullopt) << "pruned";
  EXPECT_EQ(other->files_changed(last - 1, last), Paths{"a.py"});
}

}  // namespace
}  // namespace comp::graph
