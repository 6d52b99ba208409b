#include "pack/cache.h"

#include "digest/sha256.h"
#include "index/writer_lock.h"
#include "tokens/tokens.h"

namespace comp::pack {

graph::CompressedRecord compute(lang::Language language, std::string_view source, const std::string& sha256,
                                compress::Level level, bool* cacheable) {
  compress::Compressed compressed = compress::compress(language, source, level);
  graph::CompressedRecord record;
  record.sha256 = sha256;
  record.language = std::string(lang::name(language));
  record.level = static_cast<int>(level);
  record.compressor = compress::kVersion;
  record.level_reached = static_cast<int>(compressed.level);
  record.reparsed_clean = compressed.reparsed_clean;
  record.errors = std::move(compressed.errors);
  record.raw_tokens = static_cast<std::int64_t>(tokens::count(source));
  record.text = std::move(compressed.text);
  record.tokens = compressed.level == compress::Level::kRaw ? record.raw_tokens
                                                             : static_cast<std::int64_t>(tokens::count(record.text));
  if (cacheable) *cacheable = !compressed.timed_out;
  return record;
}

compress::Compressed to_compressed(graph::CompressedRecord record) {
  compress::Compressed out;
  out.text = std::move(record.text);
  out.level = static_cast<compress::Level>(record.level_reached);
  out.reparsed_clean = record.reparsed_clean;
  out.errors = std::move(record.errors);
  return out;
}

std::optional<graph::CompressedRecord> CompressionCache::find(const std::string& sha256, lang::Language language,
                                                              compress::Level level) {
  return lookup(sha256, std::string(lang::name(language)), static_cast<int>(level));
}

std::optional<graph::CompressedRecord> CompressionCache::lookup(const std::string& sha256, const std::string& language,
                                                                int level) {
  for (const graph::CompressedRecord& row : kept_)
    if (row.sha256 == sha256 && row.language == language && row.level == level) return row;
  return store_.compressed(sha256, language, level, compress::kVersion);
}

graph::CompressedRecord CompressionCache::compress(lang::Language language, std::string_view source,
                                                   compress::Level level, std::string sha256) {
  if (sha256.empty()) sha256 = digest::sha256_hex(source);
  if (auto hit = find(sha256, language, level)) return std::move(*hit);
  bool cacheable = true;
  graph::CompressedRecord record = compute(language, source, sha256, level, &cacheable);
  if (cacheable && level != compress::Level::kRaw) keep(record);
  return record;
}

std::size_t CompressionCache::text_tokens(std::string_view source) {
  if (source.size() < kLeastCachedText) return tokens::count(source);
  std::string sha256 = digest::sha256_hex(source);
  const std::string language(kTextLanguage);
  if (auto hit = lookup(sha256, language, 0)) return static_cast<std::size_t>(hit->raw_tokens);
  graph::CompressedRecord record;
  record.sha256 = std::move(sha256);
  record.language = language;
  record.compressor = compress::kVersion;
  record.raw_tokens = record.tokens = static_cast<std::int64_t>(tokens::count(source));
  std::size_t count = static_cast<std::size_t>(record.raw_tokens);
  keep(std::move(record));
  return count;
}

void CompressionCache::keep(graph::CompressedRecord record) {
  if (deferred_)
    kept_.push_back(std::move(record));
  else
    write({record});
}

bool CompressionCache::flush() {
  if (!write(kept_)) return false;
  kept_.clear();
  return true;
}

bool CompressionCache::write(const std::vector<graph::CompressedRecord>& rows) {
  if (rows.empty()) return true;
  try {
    index::WriterLock lock(root_);
    if (!lock.try_lock()) return false;  // an index run (here or elsewhere) is writing
    graph::Batch batch(store_);
    for (const graph::CompressedRecord& row : rows) batch.put_compressed(row);
    batch.commit();
    return true;
  } catch (const std::exception&) {
    // A cache that cannot be written (read-only .comp/, a full disk) costs
    // speed only: the caller has its answer.
    return false;
  }
}

}  // namespace comp::pack
