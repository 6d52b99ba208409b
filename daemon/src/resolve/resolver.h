// resolve: turns references (calls, imports, bases, type names) into edges
// between nodes, across files. Reads the committed index through graph::Store
// and writes each reference's resolution back; knows languages' import rules
// (Python packages, TS/JS paths and tsconfig, Go modules, Rust crates, Java
// packages, C includes) but nothing of parsing or JSON protocols.
//
// Precision before recall: a name with several possible definitions gets no
// edge; it is recorded as ambiguous with the number of candidates.
//
// Determinism: a reference's resolution depends only on the index's current
// content (files, nodes, the raw references of the files it imports), never
// on the order in which files were indexed, so an incrementally maintained
// index equals one built from scratch. graph::Batch marks the references a
// change may affect as pending; resolve_pending() settles them all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

#include "graph/store.h"

namespace comp::resolve {

struct ResolveSummary {
  std::size_t references = 0;  // resolved this run (imports included)
  std::size_t resolved = 0, ambiguous = 0, unresolved = 0, external = 0;
  std::size_t rounds = 0;
};

// True for files whose content decides where imports lead: tsconfig.json,
// jsconfig.json, package.json, go.mod, Cargo.toml. When one changes, every
// import is resolved again.
bool decides_imports(std::string_view rel_path);

// What every resolve pass reads about the workspace: the indexed files'
// paths, languages, folders and module names, and the project files
// (tsconfig.json, package.json, go.mod, Cargo.toml). Reading them takes
// tens of ms on a 42k-file tree, most of a one-file edit's index run. A
// caller that resolves after every edit (the daemon) keeps one cache: a pass
// reuses the tables while the index's files digest (Store::files_digest over
// the indexed paths and languages and the project files' hashes) is the one
// they were read at, whichever process wrote the index since, and reads them
// again otherwise. A content edit keeps the digest; a file added, removed,
// skipped or changing language, or a project file's new content, changes it.
// Used by one thread at a time.
class FileTablesCache {
 public:
  FileTablesCache();
  ~FileTablesCache();
  FileTablesCache(const FileTablesCache&) = delete;
  FileTablesCache& operator=(const FileTablesCache&) = delete;
  // How many times the tables were read (for tests).
  std::size_t builds() const { return builds_; }

  struct Tables;  // defined in resolver.cc

 private:
  friend ResolveSummary resolve_pending(graph::Store&, const std::filesystem::path&, std::size_t, FileTablesCache*);
  std::shared_ptr<const Tables> tables_;
  std::uint64_t digest_ = 0;
  std::filesystem::path root_;
  std::size_t builds_ = 0;
};

// Resolves every pending reference, in rounds until none is pending (a
// changed import or base class makes its file's other references pending).
// Each round is one transaction.
// With more than `bulk_threshold` pending references, every node and import
// is read into memory first (a first index); with fewer, they are queried as
// needed (an edit). Both give the same answers.
// `cache`, when given, keeps the file tables between passes (above).
inline constexpr std::size_t kBulkThreshold = 20000;
ResolveSummary resolve_pending(graph::Store& store, const std::filesystem::path& root,
                               std::size_t bulk_threshold = kBulkThreshold, FileTablesCache* cache = nullptr);

}  // namespace comp::resolve
