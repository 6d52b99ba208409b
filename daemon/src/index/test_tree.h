// Test support for index/: temporary workspaces and whole-database snapshots.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <memory>

#include "graph/store.h"
#include "index/indexer.h"

namespace comp::index::testing {

// A temporary directory removed at destruction.
class TempTree {
 public:
  explicit TempTree(const std::string& name);
  ~TempTree();
  const std::filesystem::path& root() const { return root_; }
  void write(const std::string& rel_path, const std::string& content);
  void remove(const std::string& rel_path);
  void rename(const std::string& from, const std::string& to);
  // Sets a file's mtime to `seconds` since the epoch (to force or avoid re-reads).
  void set_mtime(const std::string& rel_path, long seconds);
  // Moves every file's mtime `seconds` back, as if written that long ago:
  // an index run reads again a file written within seconds of its last read
  // (racily clean), so tests of what a run skips age the tree first.
  void backdate(long seconds = 3600);

 private:
  std::filesystem::path root_;
};

// Runs `git -C <tree> args...` (an argument vector, no shell) with a test
// identity and no user or system configuration; its exit code, and its
// standard output in `out` when given.
int git(const TempTree& tree, const std::vector<std::string>& args, std::string* out = nullptr);

// Indexes the tree (comp index); indexed() also opens the index.
IndexSummary index_tree(const TempTree& tree, unsigned jobs = 2);
std::unique_ptr<graph::Store> indexed(const TempTree& tree);

// Everything the index holds that a user can observe, in a stable order, as
// text lines: files (path, language, size, hash, skip reason), nodes (all
// columns) and edges. Two databases with equal snapshots answer alike.
std::vector<std::string> snapshot(graph::Store& store);

// A Python/TypeScript/Go/Rust file with `count` functions and a class,
// varied by `seed`.
std::string generated_source(const std::string& extension, int seed, int count);

}  // namespace comp::index::testing
