#include "pack/pack.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "digest/sha256.h"
#include "lang/language.h"
#include "pack/cache.h"
#include "walk/walker.h"

namespace comp::pack {
namespace {

namespace fs = std::filesystem;

struct Item {
  const graph::FileRecord* file = nullptr;
  lang::Language language{};
  bool current = false;  // size and mtime on disk match the index row: its hash is the content's
  std::optional<graph::CompressedRecord> result;
  bool hit = false;
  bool cacheable = false;
  bool unreadable = false;
};

bool matches_disk(const fs::path& root, const graph::FileRecord& file) {
  std::optional<walk::Stamp> stamp = walk::stamp_of((root / file.path).string());
  return stamp && stamp->size == file.size && stamp->mtime_ns == file.mtime_ns;
}

}  // namespace

std::optional<std::string> normalize_prefix(std::string_view prefix) {
  fs::path path = fs::path(prefix).lexically_normal();
  if (path.is_absolute()) return std::nullopt;
  std::string text = path.generic_string();
  while (!text.empty() && text.back() == '/') text.pop_back();
  if (text == "." || text.empty()) return std::string();
  if (text == ".." || text.starts_with("../")) return std::nullopt;
  return text;
}

bool under_prefix(std::string_view path, std::string_view prefix) {
  if (prefix.empty()) return true;
  return path.starts_with(prefix) && (path.size() == prefix.size() || path[prefix.size()] == '/');
}

PackSummary pack(graph::Store& store, const PackOptions& options, const std::function<void(const PackedFile&)>& emit) {
  auto started = std::chrono::steady_clock::now();
  PackSummary summary;
  std::vector<graph::FileRecord> files = store.files();  // in path order
  std::vector<bool> prefix_used(options.prefixes.size(), false);
  std::vector<Item> items;
  for (const graph::FileRecord& file : files) {
    if (!file.skip_reason.empty()) continue;
    std::optional<lang::Language> language = lang::from_name(file.language);
    if (!language) continue;  // documents and text comP does not parse
    bool wanted = options.prefixes.empty();
    for (std::size_t i = 0; i < options.prefixes.size(); ++i)
      if (under_prefix(file.path, options.prefixes[i])) wanted = prefix_used[i] = true;
    if (!wanted) continue;
    Item item;
    item.file = &file;
    item.language = *language;
    items.push_back(std::move(item));
  }
  for (std::size_t i = 0; i < options.prefixes.size(); ++i)
    if (!prefix_used[i]) summary.unmatched_prefixes.push_back(options.prefixes[i]);

  CompressionCache cache(store, options.root);
  std::vector<std::size_t> misses;
  for (std::size_t i = 0; i < items.size(); ++i) {
    Item& item = items[i];
    item.current = matches_disk(options.root, *item.file);
    if (item.current && options.level != compress::Level::kRaw)
      item.result = cache.find(item.file->sha256, item.language, options.level);
    item.hit = item.result.has_value();
    if (item.hit)
      ++summary.hits;
    else
      misses.push_back(i);
  }
  summary.misses = misses.size();

  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(misses.size(), 1)));
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t m; (m = next.fetch_add(1)) < misses.size();) {
      Item& item = items[misses[m]];
      std::string content = walk::read_in_root(options.root, item.file->path, options.max_file_bytes);
      if (content.empty()) {  // an empty file, or one that cannot be read
        std::optional<walk::Stamp> stamp = walk::stamp_of((options.root / item.file->path).string());
        if (!stamp || stamp->size != 0) {
          item.unreadable = true;
          continue;
        }
      }
      // Hashed again even when the index row matched the disk: the file may
      // have changed since; a row is always keyed by what it was made of.
      std::string sha256 = digest::sha256_hex(content);
      item.result = compute(item.language, content, sha256, options.level, &item.cacheable);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(work);
  work();
  for (std::thread& thread : threads) thread.join();

  if (options.level != compress::Level::kRaw) {
    std::vector<graph::CompressedRecord> rows;
    for (std::size_t i : misses)
      if (items[i].result && items[i].cacheable) rows.push_back(*items[i].result);
    if (!rows.empty()) {
      if (cache.write(rows))
        summary.written = rows.size();
      else
        summary.cache_busy = true;
    }
  }

  for (Item& item : items) {
    if (item.unreadable || !item.result) {
      summary.unreadable.push_back(item.file->path);
      continue;
    }
    PackedFile packed;
    packed.path = item.file->path;
    packed.text = std::move(item.result->text);
    packed.level = item.result->level_reached;
    packed.raw_tokens = static_cast<std::size_t>(item.result->raw_tokens);
    packed.tokens = static_cast<std::size_t>(item.result->tokens);
    packed.cached = item.hit;
    packed.errors = std::move(item.result->errors);
    item.result.reset();
    ++summary.files;
    summary.raw_tokens += packed.raw_tokens;
    summary.tokens += packed.tokens;
    emit(packed);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return summary;
}

}  // namespace comp::pack
