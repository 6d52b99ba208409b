// The cache of compressed outputs and `pack`: a hit is exactly a fresh
// compression, an edited file is never answered from its old row, index runs
// prune rows no file has any more, and writes give way to an index writer.
#include "pack/pack.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "digest/sha256.h"
#include "index/indexer.h"
#include "index/test_tree.h"
#include "index/writer_lock.h"
#include "pack/cache.h"
#include "tokens/tokens.h"
#include "walk/walker.h"

namespace comp::pack {
namespace {

using index::testing::TempTree;
using index::testing::index_tree;
using index::testing::indexed;

const char* const kModule =
    "# A module.\n"
    "def total(items):\n"
    "    \"\"\"Sum of the prices.\"\"\"\n"
    "    return sum(i.price for i in items)\n\n"
    "class Cart:\n"
    "    def add(self, item):\n"
    "        self.items.append(item)\n";

std::map<std::string, PackedFile> pack_all(graph::Store& store, const std::filesystem::path& root,
                                           compress::Level level, PackSummary* summary = nullptr,
                                           std::vector<std::string> prefixes = {}) {
  PackOptions options;
  options.root = root;
  options.level = level;
  options.jobs = 2;
  options.prefixes = std::move(prefixes);
  std::map<std::string, PackedFile> out;
  std::vector<std::string> order;
  PackSummary got = pack(store, options, [&](const PackedFile& file) {
    order.push_back(file.path);
    out[file.path] = file;
  });
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
  if (summary) *summary = got;
  return out;
}

TEST(CompressionCacheTest, AHitReturnsWhatAFreshCompressionReturns) {
  TempTree tree("pack-cache-hit");
  tree.write("m.py", kModule);
  auto store = indexed(tree);
  CompressionCache cache(*store, tree.root());
  std::string sha = digest::sha256_hex(kModule);
  EXPECT_FALSE(cache.find(sha, lang::Language::kPython, compress::Level::kSkeleton));

  graph::CompressedRecord first = cache.compress(lang::Language::kPython, kModule, compress::Level::kSkeleton);
  std::optional<graph::CompressedRecord> hit = cache.find(sha, lang::Language::kPython, compress::Level::kSkeleton);
  ASSERT_TRUE(hit) << "a miss writes its row";
  compress::Compressed fresh = compress::compress(lang::Language::kPython, kModule, compress::Level::kSkeleton);
  EXPECT_EQ(hit->text, fresh.text);
  EXPECT_EQ(first.text, fresh.text);
  EXPECT_NE(fresh.text, kModule);
  EXPECT_EQ(hit->level_reached, static_cast<int>(fresh.level));
  EXPECT_EQ(hit->reparsed_clean, fresh.reparsed_clean);
  EXPECT_EQ(hit->errors, fresh.errors);
  EXPECT_EQ(hit->raw_tokens, static_cast<std::int64_t>(tokens::count(kModule)));
  EXPECT_EQ(hit->tokens, static_cast<std::int64_t>(tokens::count(fresh.text)));
  // Levels and languages are separate rows.
  EXPECT_FALSE(cache.find(sha, lang::Language::kPython, compress::Level::kNoComments));
  EXPECT_FALSE(cache.find(sha, lang::Language::kRuby, compress::Level::kSkeleton));
}

TEST(CompressionCacheTest, NothingIsWrittenWhileAnIndexWriterHoldsTheLock) {
  TempTree tree("pack-cache-busy");
  tree.write("m.py", kModule);
  auto store = indexed(tree);
  CompressionCache cache(*store, tree.root());
  {
    index::WriterLock writer(tree.root());
    ASSERT_TRUE(writer.try_lock());
    graph::CompressedRecord record = cache.compress(lang::Language::kPython, kModule, compress::Level::kSkeleton);
    EXPECT_EQ(record.text, compress::compress(lang::Language::kPython, kModule, compress::Level::kSkeleton).text);
    EXPECT_FALSE(cache.find(digest::sha256_hex(kModule), lang::Language::kPython, compress::Level::kSkeleton));
    PackSummary summary;
    pack_all(*store, tree.root(), compress::Level::kSkeleton, &summary);
    EXPECT_EQ(summary.files, 1u);
    EXPECT_EQ(summary.written, 0u);
    EXPECT_TRUE(summary.cache_busy);
  }
  cache.compress(lang::Language::kPython, kModule, compress::Level::kSkeleton);
  EXPECT_TRUE(cache.find(digest::sha256_hex(kModule), lang::Language::kPython, compress::Level::kSkeleton));
}

// A page's count (the pipeline reports every page's whole tokens) is kept
// as a row of its own: exact, found again by content, left to the next
// index run when no file holds that text any more.
TEST(CompressionCacheTest, TextCountsAreKeptByContent) {
  TempTree tree("pack-text-count");
  std::string page = "# Guide\n\n";
  for (int i = 0; page.size() < 3 * kLeastCachedText; ++i)
    page += "## Step " + std::to_string(i) + "\n\nRun `comp index --root .` and read the summary, then ask.\n\n";
  tree.write("docs/guide.md", page);
  tree.write("m.py", kModule);
  auto store = indexed(tree);
  CompressionCache cache(*store, tree.root());
  const std::string language(kTextLanguage), sha = digest::sha256_hex(page);
  EXPECT_FALSE(store->compressed(sha, language, 0, compress::kVersion));

  EXPECT_EQ(cache.text_tokens(page), tokens::count(page));
  std::optional<graph::CompressedRecord> row = store->compressed(sha, language, 0, compress::kVersion);
  ASSERT_TRUE(row) << "a miss writes the count";
  EXPECT_EQ(row->raw_tokens, static_cast<std::int64_t>(tokens::count(page)));
  EXPECT_TRUE(row->text.empty()) << "the count only, not a copy of the page";
  EXPECT_EQ(cache.text_tokens(page), tokens::count(page)) << "a hit is the same count";
  EXPECT_FALSE(lang::from_name(kTextLanguage)) << "no language's rows share the key";

  // A short text is counted, not looked up or written.
  std::string note = "A short note.\n";
  EXPECT_EQ(cache.text_tokens(note), tokens::count(note));
  EXPECT_FALSE(store->compressed(digest::sha256_hex(note), language, 0, compress::kVersion));

  // While an index run writes, the count is answered and nothing is written.
  std::string other = page + "## Later\n";
  {
    index::WriterLock writer(tree.root());
    ASSERT_TRUE(writer.try_lock());
    EXPECT_EQ(cache.text_tokens(other), tokens::count(other));
  }
  EXPECT_FALSE(store->compressed(digest::sha256_hex(other), language, 0, compress::kVersion));

  // An index run that changes something keeps the row of a file's text and
  // prunes one no file holds.
  EXPECT_EQ(cache.text_tokens(other), tokens::count(other));
  ASSERT_TRUE(store->compressed(digest::sha256_hex(other), language, 0, compress::kVersion));
  tree.write("n.py", "def other():\n    return 1\n");
  index_tree(tree);
  EXPECT_TRUE(store->compressed(sha, language, 0, compress::kVersion));
  EXPECT_FALSE(store->compressed(digest::sha256_hex(other), language, 0, compress::kVersion));
}

TEST(PackTest, SecondPackIsAllHitsWithTheSameOutput) {
  TempTree tree("pack-warm");
  tree.write("m.py", kModule);
  tree.write("src/lib.rs", "/// Lexes.\npub fn lex(input: &str) -> usize {\n    input.len()\n}\n");
  tree.write("README.md", "# docs are not packed\n");
  auto store = indexed(tree);
  PackSummary cold, warm;
  auto first = pack_all(*store, tree.root(), compress::Level::kSkeleton, &cold);
  auto second = pack_all(*store, tree.root(), compress::Level::kSkeleton, &warm);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(cold.hits, 0u);
  EXPECT_EQ(cold.misses, 2u);
  EXPECT_EQ(cold.written, 2u);
  EXPECT_EQ(warm.hits, 2u);
  EXPECT_EQ(warm.misses, 0u);
  EXPECT_EQ(warm.tokens, cold.tokens);
  EXPECT_EQ(warm.raw_tokens, cold.raw_tokens);
  for (const auto& [path, file] : first) {
    EXPECT_FALSE(file.cached);
    EXPECT_TRUE(second[path].cached);
    EXPECT_EQ(second[path].text, file.text) << path;
    std::string source = walk::read_in_root(tree.root(), path, 1 << 20);
    auto language = lang::detect(path, source);
    ASSERT_TRUE(language);
    EXPECT_EQ(file.text, compress::compress(*language, source, compress::Level::kSkeleton).text);
  }
  // Level 0 is the files themselves, never cached.
  PackSummary raw;
  auto level0 = pack_all(*store, tree.root(), compress::Level::kRaw, &raw);
  EXPECT_EQ(level0["m.py"].text, kModule);
  EXPECT_EQ(raw.hits, 0u);
  EXPECT_EQ(raw.tokens, raw.raw_tokens);
  EXPECT_EQ(raw.raw_tokens, cold.raw_tokens);
}

TEST(PackTest, AnEditedFileMissesAndItsOldRowIsPrunedByTheNextIndexRun) {
  TempTree tree("pack-edit");
  tree.write("m.py", kModule);
  tree.write("n.py", "def other():\n    return 1\n");
  auto store = indexed(tree);
  pack_all(*store, tree.root(), compress::Level::kSkeleton);
  std::string old_sha = digest::sha256_hex(kModule);
  ASSERT_TRUE(store->compressed(old_sha, "python", 2, compress::kVersion));

  std::string edited = std::string(kModule) + "\ndef added(x):\n    return x * 2\n";
  tree.write("m.py", edited);
  tree.set_mtime("m.py", 2000000000);
  // Not re-indexed: the index row no longer matches the disk, so the file is
  // read, and its current content is what is packed (never the old row).
  PackSummary summary;
  auto packed = pack_all(*store, tree.root(), compress::Level::kSkeleton, &summary);
  EXPECT_EQ(summary.hits, 1u);
  EXPECT_EQ(summary.misses, 1u);
  EXPECT_NE(packed["m.py"].text.find("def added(x):"), std::string::npos);
  std::string new_sha = digest::sha256_hex(edited);
  EXPECT_TRUE(store->compressed(new_sha, "python", 2, compress::kVersion));

  index_tree(tree);
  EXPECT_FALSE(store->compressed(old_sha, "python", 2, compress::kVersion)) << "stale row pruned";
  EXPECT_TRUE(store->compressed(new_sha, "python", 2, compress::kVersion));
  EXPECT_TRUE(store->compressed(digest::sha256_hex("def other():\n    return 1\n"), "python", 2, compress::kVersion));
  pack_all(*store, tree.root(), compress::Level::kSkeleton, &summary);
  EXPECT_EQ(summary.hits, 2u);

  tree.remove("n.py");
  index_tree(tree);
  EXPECT_FALSE(store->compressed(digest::sha256_hex("def other():\n    return 1\n"), "python", 2, compress::kVersion));
}

TEST(PackTest, PrefixesSelectFilesAndReportThoseMatchingNothing) {
  TempTree tree("pack-prefix");
  tree.write("src/a.py", "def a():\n    return 1\n");
  tree.write("src/b/c.py", "def c():\n    return 1\n");
  tree.write("srcx/d.py", "def d():\n    return 1\n");
  auto store = indexed(tree);
  PackSummary summary;
  auto packed = pack_all(*store, tree.root(), compress::Level::kSkeleton, &summary, {"src", "nothing"});
  EXPECT_EQ(packed.size(), 2u);
  EXPECT_TRUE(packed.count("src/a.py") && packed.count("src/b/c.py"));
  EXPECT_EQ(summary.unmatched_prefixes, std::vector<std::string>{"nothing"});
}

TEST(PackTest, AFileReachedThroughASymlinkIsLeftOutNotFollowed) {
  TempTree tree("pack-symlink");
  tree.write("src/a.py", "def a():\n    return 1\n");
  std::filesystem::create_symlink("a.py", tree.root() / "src" / "b.py");
  auto store = indexed(tree);
  ASSERT_TRUE(store->file("src/b.py"));  // the walk indexes an in-root link at its own path
  PackSummary summary;
  auto packed = pack_all(*store, tree.root(), compress::Level::kSkeleton, &summary);
  EXPECT_EQ(packed.size(), 1u);
  EXPECT_TRUE(packed.count("src/a.py"));
  EXPECT_EQ(summary.unreadable, std::vector<std::string>{"src/b.py"});
}

TEST(PackTest, PrefixesAreNormalizedAndMayNotLeaveTheRoot) {
  EXPECT_EQ(normalize_prefix("./src//b/"), "src/b");
  EXPECT_EQ(normalize_prefix("."), "");
  EXPECT_EQ(normalize_prefix("src/../lib"), "lib");
  EXPECT_FALSE(normalize_prefix(".."));
  EXPECT_FALSE(normalize_prefix("../x"));
  EXPECT_FALSE(normalize_prefix("src/../../x"));
  EXPECT_FALSE(normalize_prefix("/etc"));
  EXPECT_TRUE(under_prefix("src/a.py", "src"));
  EXPECT_TRUE(under_prefix("src", "src"));
  EXPECT_FALSE(under_prefix("srcx/a.py", "src"));
  EXPECT_TRUE(under_prefix("anything", ""));
}

}  // namespace
}  // namespace comp::pack
