// pack/cache: compress::compress through the index's cache of compressed
// outputs (graph::Store's `compressed` table). Knows no JSON.
//
// A row is keyed by the SHA-256 of the input, its language, the level asked
// and compress::kVersion, so a lookup can only find the output of exactly
// this content: the cache is derived data and is never stale. Rows whose
// content no indexed file has any more are deleted by index runs.
//
// Writes are best-effort and never compete with an index run: they happen
// only while this process can take the workspace's writer lock
// (index/writer_lock.h) without waiting; otherwise nothing is written (the
// answer is the same, only the next request recomputes it).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compress/compress.h"
#include "graph/store.h"
#include "lang/language.h"

namespace comp::pack {

// Compresses `source` (whose SHA-256 is `sha256`) and counts the tokens of
// input and output: the row a cache miss writes. Level 0 is the input.
// `cacheable` is false when a parse timed out (the result then depends on
// the machine's load, not only on the input).
graph::CompressedRecord compute(lang::Language language, std::string_view source, const std::string& sha256,
                                compress::Level level, bool* cacheable = nullptr);

// The row as the compressor's own result type.
compress::Compressed to_compressed(graph::CompressedRecord record);

// The `compressed` table's language of text_tokens' rows: no lang::name().
inline constexpr std::string_view kTextLanguage = "text";
inline constexpr std::size_t kLeastCachedText = 4096;

class CompressionCache {
 public:
  // `store` must outlive the cache; `root` is the workspace it indexes.
  CompressionCache(graph::Store& store, std::filesystem::path root) : store_(store), root_(std::move(root)) {}

  std::optional<graph::CompressedRecord> find(const std::string& sha256, lang::Language language,
                                              compress::Level level);
  // find(), else compute() and write the row (best-effort). `sha256` may be
  // empty: it is then computed from `source`.
  graph::CompressedRecord compress(lang::Language language, std::string_view source, compress::Level level,
                                   std::string sha256 = {});
  // The o200k_base tokens of a text no language compresses (a page, a
  // changelog, a lock file, a document's text), through the same table: a
  // row under the language kTextLanguage, level 0, that keeps the count and
  // no output. Texts under kLeastCachedText bytes are counted (faster than
  // a lookup and a write).
  std::size_t text_tokens(std::string_view source);
  // Writes the rows in one transaction when the writer lock is free now.
  // False (nothing written) when another writer holds it.
  bool write(const std::vector<graph::CompressedRecord>& rows);
  // From now on compress() and text_tokens() keep the rows a miss would
  // write (find() sees them) until flush(): for a caller reading through a
  // graph::ReadSnapshot, inside which no write can begin.
  void defer_writes() { deferred_ = true; }
  // Writes the rows kept so far in one transaction, as write() does (kept
  // for a later flush() when the writer lock is taken); true when none are left.
  bool flush();

  graph::Store& store() { return store_; }
  const std::filesystem::path& root() const { return root_; }

 private:
  void keep(graph::CompressedRecord record);
  // A deferred row, else the table's (this compressor version's).
  std::optional<graph::CompressedRecord> lookup(const std::string& sha256, const std::string& language, int level);
  graph::Store& store_;
  std::filesystem::path root_;
  bool deferred_ = false;
  std::vector<graph::CompressedRecord> kept_;  // deferred rows, oldest first
};

}  // namespace comp::pack
