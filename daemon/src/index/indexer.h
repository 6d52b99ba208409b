// index: brings <root>/.comp/graph.db up to date with the files on disk.
// Glue between walk (which files), parse (their symbols) and graph (storage);
// knows nothing of the CLI or JSON.
//
// Incremental rule per file: same size and mtime as recorded -> not read;
// otherwise read and hashed: same SHA-256 -> only the mtime is updated; else
// parsed again and its rows replaced. Files gone from disk lose their rows.
// Parsing runs on `jobs` worker threads; one writer thread commits batches,
// each one transaction, so a run killed at any moment leaves a consistent
// database that the next run completes.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "docs/document.h"
#include "graph/store.h"
#include "parse/symbols.h"
#include "resolve/resolver.h"

namespace comp::index {

struct Progress {
  std::size_t done = 0;   // files read (or skipped) so far in this run
  std::size_t total = 0;  // files that needed reading in this run
  std::uint64_t bytes = 0;
  double elapsed_seconds = 0;
};

struct IndexOptions {
  std::filesystem::path root;
  unsigned jobs = 0;                      // 0: all cores
  std::uint64_t max_file_size = 1u << 20;
  unsigned parse_timeout_ms = 10000;      // per file
  std::size_t batch_files = 256;          // files per transaction at most
  bool edges = true;                      // resolve references into edges after the files
  docs::Limits documents;                 // bounds for Office, PDF and Parquet extraction
  // Take the workspace's writer lock (index/writer_lock.h) for the run,
  // waiting for another process's run to end; false when the caller holds it.
  bool take_lock = true;
  std::function<void()> on_waiting;       // called once when the lock is busy and the run waits
  // Set from another thread to stop early: what was parsed is committed, the
  // rest (and reference resolution) is left for the next run.
  const std::atomic<bool>* cancel = nullptr;
  // Called from the writer thread at most every ~100 ms and once at the end.
  std::function<void(const Progress&)> on_progress;
  // Index only these paths (files or folders, relative to the root) and what
  // is under the folders: files gone from them are removed, the rest of the
  // index is left as it is (walk::WalkOptions::only). What a watcher reports
  // changed; nullopt: the whole tree. A caller asks for the whole tree when
  // an ignore file changed.
  std::optional<std::vector<std::string>> only;
  // Kept by a caller that indexes again and again (the daemon): the resolve
  // pass's file tables, read again only when the set of files changed
  // (resolve/resolver.h). Null: read on each run.
  resolve::FileTablesCache* resolve_cache = nullptr;
  // Fill the summary's files per language, skips per reason and symbols (a
  // scan of the file rows: 9 ms on 42k files). A caller that only needs the
  // index current (a query's refresh) leaves them at 0.
  bool counts = true;
  // Hand the index's files to the caller (IndexSummary::files) when the run
  // changed no row of the file table, so that a query's refresh does not
  // read them again (the second read was 50-70 ms of a 0.4 s query on a
  // 42k-file tree). Whole-tree runs only.
  bool keep_files = false;
  // Keep the files each of the last commits changed (graph::Store::
  // changed_with: what changes together), read from git when HEAD moved
  // since the last run. Whole-tree runs only; nothing when the root is not
  // in a git work tree.
  bool history = true;
};

struct FileError {
  std::string path;
  std::string message;
};

struct IndexSummary {
  bool targeted = false;              // only IndexOptions::only was walked
  std::size_t files_on_disk = 0;      // walked files, skipped ones included (targeted: the index's files after the run, with `counts`)
  std::size_t files_parsed = 0;       // new or changed content, parsed this run
  std::size_t files_unchanged = 0;    // size and mtime as recorded: not read
  std::size_t files_touched = 0;      // read and hashed: same content
  std::size_t files_removed = 0;
  std::uint64_t bytes_read = 0;
  std::map<std::string, std::size_t> files_by_language;     // whole index after the run
  std::map<std::string, std::size_t> skipped_by_reason;     // whole index after the run
  std::size_t symbols = 0;                                  // whole index after the run
  std::vector<FileError> errors;      // this run's parse/read errors (files still indexed)
  std::vector<std::string> walk_errors;
  std::vector<std::string> directories;  // directories walked (for watchers)
  std::vector<std::string> links;        // symlinks walked (walk::WalkResult::links)
  resolve::ResolveSummary resolve;    // this run's reference resolution
  double resolve_seconds = 0;
  bool cancelled = false;             // stopped through IndexOptions::cancel
  bool full_text_merged = false;      // rewrote or removed a tenth of the files or more: FTS5 segments merged
  double elapsed_seconds = 0;
  double cpu_seconds = 0;
  // Commits whose files this run read from version control (0: HEAD had
  // not moved, or there is no history to read).
  std::size_t history_commits = 0;
  // Git's directory for the root (vcs::Head::git_dir), read by whole runs
  // with IndexOptions::history; empty otherwise or outside a git work tree.
  std::filesystem::path git_dir;
  // With IndexOptions::keep_files, when no file row was written or removed:
  // what graph::Store::indexed_files() would read now, in its order.
  std::optional<std::vector<graph::IndexedFile>> files;
};

// Throws graph::StoreError (unwritable/corrupt/too-new database) and
// std::filesystem::filesystem_error (root missing). Problems with single
// files never throw: they are recorded in the summary and the database.
IndexSummary run_index(const IndexOptions& options);

// Node ids from a file's symbols: "<path>::<Qualified.Name>", with "#N" for
// the Nth definition of the same qualified name in the file (overloads).
std::vector<graph::NodeRecord> to_node_records(const std::string& path, const std::vector<parse::Symbol>& symbols);
// The file's own node (id = path, kind "file"): where top-level code's
// references start and what whole-module imports point at.
graph::NodeRecord file_node(const std::string& path, std::string_view content);
// References with their enclosing node's id (`nodes` as from to_node_records).
std::vector<graph::RefRecord> to_ref_records(const std::string& path, const std::vector<graph::NodeRecord>& nodes,
                                             const std::vector<parse::Reference>& references);

}  // namespace comp::index
