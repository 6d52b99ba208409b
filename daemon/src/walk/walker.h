// walk: lists the files of a workspace that comP indexes, with git's ignore
// semantics. Knows nothing of languages, parsing or the database.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct stat;

namespace comp::walk {

// Why a file that is not ignored is still not indexed.
enum class SkipReason {
  kTooLarge,         // size above WalkOptions::max_file_size
  kSymlinkOutside,   // a symlink whose target resolves outside the root (or dangles)
  kUnreadable,       // stat/open failed (permissions, vanished)
  kBinary,           // NUL byte in the first 8 KiB (decided by looks_binary, at read time)
  kNotRegular,       // fifo, socket, device
};
const char* to_string(SkipReason reason);

struct WalkOptions {
  std::filesystem::path root;           // must be an existing directory
  std::uint64_t max_file_size = 1u << 20;
  // Documents (Office, PDF, Parquet) are often larger than source files:
  // paths for which `is_document` says yes get `max_document_size` instead.
  std::function<bool(std::string_view rel_path)> is_document;
  std::uint64_t max_document_size = 256ull << 20;
  // Threads that list directories and stat files (0: the cores, at most
  // four). `is_document` may be called from any of them. The result is the
  // same for any number.
  unsigned threads = 0;
  // A targeted walk: only these paths (files or directories, relative, as
  // WalkEntry::rel_path) and everything under those that are directories,
  // judged by the same ignore rules as in a whole walk (the directories on
  // the way are listed for their .gitignore files, nothing else in them is
  // visited). For a watcher's changes. Nullopt: the whole tree; "" in the
  // list: the whole tree too.
  std::optional<std::vector<std::string>> only;
};

// A file to index. rel_path uses '/' separators, no leading "./".
struct WalkEntry {
  std::string rel_path;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;  // st_mtim in nanoseconds since the epoch
};

struct SkippedEntry {
  std::string rel_path;
  SkipReason reason;
  std::string detail;  // human text, e.g. the errno message
};

struct WalkResult {
  std::vector<WalkEntry> files;       // sorted by rel_path
  std::vector<SkippedEntry> skipped;  // sorted by rel_path
  std::vector<std::string> errors;    // directories that could not be read, bad ignore files...
  // Every directory the walk listed (not pruned, not ignored, readable), as
  // rel paths, "" for the root; sorted. What a file watcher must watch
  // (after a whole walk: a targeted one lists only the ones it went through).
  std::vector<std::string> directories;
  // Every symlink the walk judged (not ignored), as rel paths; sorted. A
  // link's entry follows its target, whose changes a watcher reports under
  // the target's path: a targeted walk of those paths must take the links too.
  std::vector<std::string> links;
};

// Walks options.root. Never throws for problems inside the tree: they become
// `skipped` or `errors`. Throws std::filesystem::filesystem_error only when
// the root itself cannot be opened.
// Always skips `.git/` and `.comp/`. Honours, exactly as git does: nested
// .gitignore files, .git/info/exclude, core.excludesFile (from the repo's
// .git/config, then ~/.gitconfig / $XDG_CONFIG_HOME/git/config, defaulting to
// $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore); plus .vscodeignore and
// .compignore at the root (gitignore syntax, lowest and highest precedence
// respectively among the root-level files).
// Symlinks: a link to a file inside the root is indexed at the link's path; a
// link to a directory is never followed (git does not follow them either);
// a link leaving the root is skipped with kSymlinkOutside.
//
// Details of the above, where git leaves a choice:
// - Ranking, lowest first: .vscodeignore, core.excludesFile,
//   .git/info/exclude, the root's .gitignore, .compignore, then deeper
//   .gitignore files. Within a file the last matching line wins; the first
//   file (from the top of that list) with a matching line decides.
// - A root inside a work tree also gets the .gitignore files of its
//   ancestors up to the top, and patterns match repo-relative paths; the root
//   itself is never judged ignored (the caller chose it). Outside any
//   repository, .gitignore files and core.excludesFile still apply.
// - The index is not read: a tracked file that matches an ignore pattern is
//   left out (git would still list it as tracked), and nested repositories
//   and submodule checkouts are walked as ordinary directories.
// - `.git` entries of any type are skipped at every depth, as git does;
//   `.comp` directories at every depth.
// - A symlink to a directory inside the root is reported as kNotRegular; a
//   dangling or looping link as kSymlinkOutside. Its size and mtime are the
//   target's.
// - kUnreadable comes from lstat failures and the permission bits (checked
//   without opening the file); the reader must still expect open() to fail.
// - A symlinked .gitignore is not followed (git >= 2.32); it is reported in
//   `errors`.
WalkResult walk(const WalkOptions& options);

// True when the first 8 KiB of `head` contain a NUL byte.
bool looks_binary(std::string_view head);

// Reads a file of the workspace, at most `limit` bytes, without following a
// final symlink (paths come from the index or the walk, vetted when walked;
// a link swapped in since is refused). "" when unreadable or not regular.
std::string read_in_root(const std::filesystem::path& root, const std::string& rel_path, std::size_t limit);

// st_mtim in nanoseconds, as the index records it.
std::int64_t mtime_ns_of(const struct stat& st);

// A regular file's size and modification time (ns), as the index records
// them; the freshness checks compare these with the index's row.
struct Stamp {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const Stamp&) const = default;
};
// The stamp of `path` without following a final symlink; nullopt when it is
// absent or not a regular file.
std::optional<Stamp> stamp_of(const std::string& path);

// Counts the files, as indexed, whose stamp on disk is another now (changed,
// removed, no longer a regular file): what a query reports as stale. One
// lstat per file is much of a query's time on a large tree (40k files: 0.1 s
// on a virtual machine), so any number of threads may count together: each
// help() takes the next unchecked run of files until none is left, and a
// thread done with its own work can join in. Files are read by index
// (`file_at`) in that order; within a run, each folder is opened once and
// its files checked by name (fstatat, never following a final symlink).
class StaleCount {
 public:
  struct File {
    std::string_view path;  // relative to the root, as indexed
    Stamp stamp;            // as indexed
  };
  StaleCount(std::filesystem::path root, std::size_t files, std::function<File(std::size_t)> file_at);
  void help();
  // The stale files found: all of them once every help() call has
  // returned (wait for the threads that called it).
  std::size_t count() const { return stale_.load(); }

 private:
  std::filesystem::path root_;
  std::size_t files_;
  std::function<File(std::size_t)> file_at_;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> stale_{0};
};

}  // namespace comp::walk
