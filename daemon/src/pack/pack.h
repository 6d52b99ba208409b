// pack: every indexed source file of a workspace at one compression level,
// in path order (what `comp pack` prints, like `repomix --compress`), through
// the index's cache of compressed outputs (pack/cache.h). Knows no JSON and
// prints nothing: the caller formats each file.
//
// Paths come from the index, so only files the walk accepted (inside the
// root, not ignored, no directory symlink followed) are read; they are read
// with walk::read_in_root. A file whose size and mtime still match its index
// row is looked up by the row's hash without being read; any other file is
// read and hashed, so the output always is the file's current content.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compress/compress.h"
#include "graph/store.h"

namespace comp::pack {

struct PackOptions {
  std::filesystem::path root;  // canonical; the workspace `store` indexes
  compress::Level level = compress::Level::kSkeleton;
  unsigned jobs = 0;           // threads computing cache misses (0: all cores)
  // Only files equal to or under one of these (normalize_prefix'd); all when empty.
  std::vector<std::string> prefixes;
  std::size_t max_file_bytes = 16u << 20;
};

struct PackedFile {
  std::string path;
  std::string text;
  int level = 0;  // reached (lower than asked when a level failed its check)
  std::size_t raw_tokens = 0, tokens = 0;
  bool cached = false;
  std::vector<std::string> errors;
};

struct PackSummary {
  std::size_t files = 0;
  std::size_t raw_tokens = 0, tokens = 0;  // o200k_base, level 0 and the level
  std::size_t hits = 0, misses = 0;        // misses are computed (always at level 0: not cached)
  std::size_t written = 0;                 // cache rows written
  bool cache_busy = false;                 // rows left unwritten: another process held the writer lock
  // In the index, unreadable now (removed since, permissions) or a symlink
  // (walk::read_in_root never follows one; get_file and the pipeline alike).
  std::vector<std::string> unreadable;
  std::vector<std::string> unmatched_prefixes;  // prefixes no source file is under
  double seconds = 0;
};

// Calls `emit` once per file, in path order, after every file is computed.
PackSummary pack(graph::Store& store, const PackOptions& options, const std::function<void(const PackedFile&)>& emit);

// A user's PATH-PREFIX as the index spells paths ("./src//a/" -> "src/a";
// "." -> "" for everything); nullopt when it is absolute or leaves the root.
std::optional<std::string> normalize_prefix(std::string_view prefix);

// True when `path` is `prefix` or inside it ("" holds everything).
bool under_prefix(std::string_view path, std::string_view prefix);

}  // namespace comp::pack
