#include "walk/walker.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "walk/ignore.h"

namespace comp::walk {
std::int64_t mtime_ns_of(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// Decides readability from the mode bits we already have, so the common case
// costs no syscall; only a "no" is confirmed with faccessat, because ACLs can
// grant what the bits deny. An ACL that denies what the bits grant goes
// unnoticed here; the reader still handles a failing open.
class ReadAccess {
 public:
  ReadAccess() : euid_(::geteuid()), egid_(::getegid()) {
    const int n = ::getgroups(0, nullptr);
    if (n > 0) {
      groups_.resize(static_cast<std::size_t>(n));
      groups_.resize(static_cast<std::size_t>(std::max(0, ::getgroups(n, groups_.data()))));
    }
  }

  bool can_read(int dir_fd, const char* name, const struct stat& st) const {
    if (euid_ == 0) return true;
    mode_t bit = S_IROTH;
    if (st.st_uid == euid_) {
      bit = S_IRUSR;
    } else if (st.st_gid == egid_ ||
               std::find(groups_.begin(), groups_.end(), st.st_gid) != groups_.end()) {
      bit = S_IRGRP;
    }
    if ((st.st_mode & bit) != 0) return true;
    return ::faccessat(dir_fd, name, R_OK, AT_EACCESS) == 0;
  }

 private:
  uid_t euid_;
  gid_t egid_;
  std::vector<gid_t> groups_;
};

// One directory entry as readdir() reported it; the name lives in an arena
// shared by the whole directory, so listing allocates nothing per entry.
struct ListedEntry {
  std::uint32_t name_offset;
  std::uint32_t name_length;
  unsigned char type;  // DT_*
};

struct PendingDir {
  std::string rel;  // relative to the root, no trailing '/'; "" for the root
  IgnoreRules::Scope scope;
  // False in a targeted walk (WalkOptions::only) for a directory on the way
  // to a target: only its entries that are targets or lead to one are visited.
  bool whole = true;
};

class Walk {
 public:
  explicit Walk(const WalkOptions& options) : options_(options) {}
  ~Walk() {
    if (root_fd_ >= 0 && owns_root_fd_) ::close(root_fd_);
  }
  Walk(const Walk&) = delete;
  Walk& operator=(const Walk&) = delete;

  WalkResult run() {
    open_root();
    load_global_rules();
    std::vector<PendingDir> pending;
    bool whole = !options_.only || std::find(options_.only->begin(), options_.only->end(), "") != options_.only->end();
    if (!whole) {
      targets_ = *options_.only;
      std::sort(targets_.begin(), targets_.end());
    }
    pending.push_back(PendingDir{std::string(), ancestor_scope_, whole});
    // The top of the tree is listed here, breadth first, until there are
    // enough directories to share; then each thread walks whole subtrees
    // (depth first) with its own copy of the ignore rules seen so far, and
    // the results are merged in the order of those directories, so that
    // the walk's answer does not depend on the threads.
    const std::size_t threads = options_.threads ? options_.threads
                                                 : std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
    std::size_t shared = 0;  // pending[shared..] are the subtrees to share
    for (; shared < pending.size() && pending.size() - shared < 8 * threads; ++shared) {
      PendingDir dir = std::move(pending[shared]);
      walk_directory(dir, &pending);
    }
    std::vector<WalkResult> parts(pending.size() - shared);
    std::atomic<std::size_t> taken{0};
    auto work = [&] {
      Walk worker(*this, Worker{});
      for (std::size_t i = taken++; i < parts.size(); i = taken++) {
        worker.walk_subtrees({pending[shared + i]});
        parts[i] = std::exchange(worker.result_, WalkResult());
      }
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < std::min(threads, parts.size()); ++t) helpers.emplace_back(work);
    work();
    for (std::thread& helper : helpers) helper.join();
    auto append = [](auto& to, auto& from) { std::move(from.begin(), from.end(), std::back_inserter(to)); };
    for (WalkResult& part : parts) {
      append(result_.files, part.files);
      append(result_.skipped, part.skipped);
      append(result_.errors, part.errors);
      append(result_.directories, part.directories);
      append(result_.links, part.links);
    }
    auto by_path = [](const auto& a, const auto& b) { return a.rel_path < b.rel_path; };
    std::sort(result_.files.begin(), result_.files.end(), by_path);
    std::sort(result_.skipped.begin(), result_.skipped.end(), by_path);
    std::sort(result_.directories.begin(), result_.directories.end());
    std::sort(result_.links.begin(), result_.links.end());
    return std::move(result_);
  }

 private:
  void open_root() {
    char resolved[PATH_MAX];
    if (::realpath(options_.root.c_str(), resolved) == nullptr) {
      throw std::filesystem::filesystem_error("walk: cannot resolve root", options_.root,
                                              std::error_code(errno, std::system_category()));
    }
    root_real_ = resolved;
    root_fd_ = ::open(resolved, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_fd_ < 0) {
      throw std::filesystem::filesystem_error("walk: cannot open root", options_.root,
                                              std::error_code(errno, std::system_category()));
    }
  }

  // Everything that applies before the root's own listing: the global files
  // (lowest precedence first: .vscodeignore, core.excludesFile,
  // info/exclude), the .gitignore files of the root's ancestors inside its
  // repository, and .compignore (pushed after the root's .gitignore).
  void load_global_rules() {
    const std::optional<GitRepo> repo = find_git_repo(root_real_);
    if (repo && root_real_ != repo->top.string()) {
      prefix_ = std::filesystem::path(root_real_).lexically_relative(repo->top).generic_string();
      prefix_.push_back('/');
    }
    std::string text, error;
    if (read_ignore_source(root_fd_, ".vscodeignore", true, &text, &error)) {
      rules_.add_global(IgnoreFile::parse(text, prefix_));
    }
    note_error(error);
    if (std::optional<std::filesystem::path> excludes = excludes_file_path(repo ? &*repo : nullptr)) {
      if (read_ignore_source(AT_FDCWD, excludes->c_str(), false, &text, &error)) {
        rules_.add_global(IgnoreFile::parse(text, ""));
      }
      note_error(error);
    }
    if (repo) {
      const std::filesystem::path info_exclude = repo->common_dir / "info" / "exclude";
      if (read_ignore_source(AT_FDCWD, info_exclude.c_str(), false, &text, &error)) {
        rules_.add_global(IgnoreFile::parse(text, ""));
      }
      note_error(error);
      // The root's ancestors up to the work tree top contribute their
      // .gitignore files. Whether the root itself is excluded by them is not
      // asked: the caller chose it explicitly.
      std::string base;
      for (std::size_t pos = 0; pos < prefix_.size();) {
        const std::filesystem::path file = repo->top / base / ".gitignore";
        if (read_ignore_source(AT_FDCWD, file.c_str(), true, &text, &error)) {
          ancestor_scope_ = rules_.push(ancestor_scope_, IgnoreFile::parse(text, base));
        }
        note_error(error);
        const std::size_t slash = prefix_.find('/', pos);
        base = prefix_.substr(0, slash + 1);
        pos = slash + 1;
      }
    }
    if (read_ignore_source(root_fd_, ".compignore", true, &text, &error)) {
      compignore_ = IgnoreFile::parse(text, prefix_);
    }
    note_error(error);
  }

  // A helper for run(): what the walk knows after the top of the tree, with
  // its own copy of the ignore rules and an empty result.
  struct Worker {};
  Walk(const Walk& parent, Worker)
      : options_(parent.options_),
        rules_(parent.rules_),
        ancestor_scope_(parent.ancestor_scope_),
        access_(parent.access_),
        root_real_(parent.root_real_),
        root_fd_(parent.root_fd_),
        owns_root_fd_(false),
        prefix_(parent.prefix_),
        targets_(parent.targets_) {}

  // Walks each of `dirs` and everything under it, depth first.
  void walk_subtrees(std::vector<PendingDir> dirs) {
    while (!dirs.empty()) {
      PendingDir dir = std::move(dirs.back());
      dirs.pop_back();
      walk_directory(dir, &dirs);
    }
  }

  void note_error(const std::string& error) {
    if (!error.empty()) result_.errors.push_back(error);
  }

  void walk_directory(const PendingDir& dir, std::vector<PendingDir>* pending) {
    const std::string shown = dir.rel.empty() ? std::string(".") : dir.rel;
    const int fd = dir.rel.empty()
                       ? ::dup(root_fd_)
                       : ::openat(root_fd_, dir.rel.c_str(),
                                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    std::unique_ptr<DIR, int (*)(DIR*)> stream(fd >= 0 ? ::fdopendir(fd) : nullptr, &::closedir);
    if (stream == nullptr) {
      result_.errors.push_back(shown + ": cannot read directory: " + errno_text(errno));
      if (fd >= 0) ::close(fd);
      return;
    }
    const int dir_fd = ::dirfd(stream.get());
    result_.directories.push_back(dir.rel);

    names_.clear();
    entries_.clear();
    bool has_gitignore = false;
    while (true) {
      errno = 0;
      const struct dirent* de = ::readdir(stream.get());
      if (de == nullptr) {
        if (errno != 0) {
          result_.errors.push_back(shown + ": error while reading directory: " + errno_text(errno));
        }
        break;
      }
      const char* name = de->d_name;
      if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
      // git skips ".git" at every level and of every type (a submodule's
      // .git is a file).
      if (std::strcmp(name, ".git") == 0) continue;
      if (std::strcmp(name, ".gitignore") == 0 && de->d_type != DT_DIR) has_gitignore = true;
      const std::size_t len = std::strlen(name);
      entries_.push_back(ListedEntry{static_cast<std::uint32_t>(names_.size()),
                                     static_cast<std::uint32_t>(len), de->d_type});
      names_.append(name, len + 1);  // keep the NUL: names are passed to *at() calls
    }

    // Match paths are relative to the work tree top, so they carry prefix_.
    path_.assign(prefix_);
    path_.append(dir.rel);
    if (!dir.rel.empty()) path_.push_back('/');
    const std::size_t dir_len = path_.size();

    IgnoreRules::Scope scope = dir.scope;
    if (has_gitignore) {
      std::string text, error;
      if (read_ignore_source(dir_fd, ".gitignore", true, &text, &error)) {
        scope = rules_.push(scope, IgnoreFile::parse(text, path_));
      }
      if (!error.empty()) result_.errors.push_back(shown + "/" + error);
    }
    if (dir.rel.empty() && !compignore_.empty()) scope = rules_.push(scope, std::move(compignore_));

    for (const ListedEntry& entry : entries_) {
      const char* name = names_.data() + entry.name_offset;
      path_.resize(dir_len);
      path_.append(name, entry.name_length);
      bool whole = dir.whole;
      if (!whole) {
        Wanted wanted = wanted_in_targeted_walk(rel_path());
        if (wanted == Wanted::kNo) continue;
        whole = wanted == Wanted::kTarget;
      }
      visit(dir_fd, name, entry.type, scope, whole, pending);
    }
  }

  // In a targeted walk, an entry of a directory that no target holds: a
  // target itself, on the way to one (a target is under it), or neither.
  enum class Wanted { kNo, kOnTheWay, kTarget };
  Wanted wanted_in_targeted_walk(const std::string& rel) const {
    auto found = std::lower_bound(targets_.begin(), targets_.end(), rel);
    if (found != targets_.end() && *found == rel) return Wanted::kTarget;
    std::string under = rel + "/";
    found = std::lower_bound(found, targets_.end(), under);
    return found != targets_.end() && found->starts_with(under) ? Wanted::kOnTheWay : Wanted::kNo;
  }

  std::string rel_path() const { return path_.substr(prefix_.size()); }

  void skip(SkipReason reason, std::string detail) {
    result_.skipped.push_back(SkippedEntry{rel_path(), reason, std::move(detail)});
  }

  // path_ holds the entry's match path; `name` is its name in `dir_fd`.
  void visit(int dir_fd, const char* name, unsigned char type, IgnoreRules::Scope scope, bool whole,
             std::vector<PendingDir>* pending) {
    struct stat st;
    bool have_stat = false;
    if (type == DT_UNKNOWN) {
      if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (!rules_.is_ignored(scope, path_, false)) {
          skip(SkipReason::kUnreadable, errno_text(errno));
        }
        return;
      }
      have_stat = true;
      type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;  // refined from st below
    }
    if (type == DT_DIR) {
      visit_directory(name, scope, whole, pending);
      return;
    }
    // A symlink is never a directory for git's dir-only patterns.
    if (rules_.is_ignored(scope, path_, false)) return;
    if (!have_stat && ::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      skip(SkipReason::kUnreadable, errno_text(errno));
      return;
    }
    if (S_ISREG(st.st_mode)) {
      add_file(dir_fd, name, st);
    } else if (S_ISLNK(st.st_mode)) {
      visit_symlink();
    } else if (S_ISDIR(st.st_mode)) {
      // It became a directory after readdir(): judge it as one.
      visit_directory(name, scope, whole, pending);
    } else {
      skip(SkipReason::kNotRegular, "not a regular file");
    }
  }

  void visit_directory(const char* name, IgnoreRules::Scope scope, bool whole, std::vector<PendingDir>* pending) {
    if (std::strcmp(name, ".comp") == 0) return;
    // Pruning here is what makes a file under an excluded directory
    // impossible to re-include, as in git.
    if (rules_.is_ignored(scope, path_, true)) return;
    pending->push_back(PendingDir{rel_path(), scope, whole});
  }

  void add_file(int dir_fd, const char* name, const struct stat& st) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > options_.max_file_size &&
        (size > options_.max_document_size || !options_.is_document || !options_.is_document(rel_path()))) {
      skip(SkipReason::kTooLarge, std::to_string(size) + " bytes");
      return;
    }
    if (!access_.can_read(dir_fd, name, st)) {
      skip(SkipReason::kUnreadable, errno_text(EACCES));
      return;
    }
    result_.files.push_back(WalkEntry{rel_path(), size, mtime_ns_of(st)});
  }

  // A link to a file inside the root is indexed at the link's path with the
  // target's size and mtime; links to directories are never followed.
  void visit_symlink() {
    result_.links.push_back(rel_path());
    std::string full = root_real_;
    full.push_back('/');
    full.append(rel_path());
    char resolved[PATH_MAX];
    if (::realpath(full.c_str(), resolved) == nullptr) {
      const int err = errno;
      if (err == ENOENT || err == ENOTDIR) {
        skip(SkipReason::kSymlinkOutside, "dangling symlink");
      } else if (err == ELOOP) {
        skip(SkipReason::kSymlinkOutside, "symlink loop");
      } else {
        skip(SkipReason::kUnreadable, errno_text(err));
      }
      return;
    }
    const std::string_view target(resolved);
    const bool inside = root_real_ == "/" ||
                        (target.size() > root_real_.size() &&
                         target.compare(0, root_real_.size(), root_real_) == 0 &&
                         target[root_real_.size()] == '/') ||
                        target == root_real_;
    if (!inside) {
      skip(SkipReason::kSymlinkOutside, "target outside the root: " + std::string(target));
      return;
    }
    struct stat st;
    if (::stat(resolved, &st) != 0) {
      skip(SkipReason::kUnreadable, errno_text(errno));
      return;
    }
    if (S_ISDIR(st.st_mode)) {
      skip(SkipReason::kNotRegular, "symlink to a directory (not followed)");
    } else if (!S_ISREG(st.st_mode)) {
      skip(SkipReason::kNotRegular, "symlink to a non-regular file");
    } else {
      add_file(AT_FDCWD, resolved, st);
    }
  }

  const WalkOptions& options_;
  WalkResult result_;
  IgnoreRules rules_;
  IgnoreRules::Scope ancestor_scope_ = IgnoreRules::kGlobalScope;
  IgnoreFile compignore_;
  ReadAccess access_;
  std::string root_real_;
  int root_fd_ = -1;
  bool owns_root_fd_ = true;
  std::string prefix_;  // the root relative to its work tree top, with '/', or ""
  std::vector<std::string> targets_;  // a targeted walk's WalkOptions::only, sorted
  std::string path_;    // scratch: the current entry's match path
  std::string names_;   // scratch: the current directory's entry names
  std::vector<ListedEntry> entries_;
};

}  // namespace

const char* to_string(SkipReason reason) {
  switch (reason) {
    case SkipReason::kTooLarge:
      return "too-large";
    case SkipReason::kSymlinkOutside:
      return "symlink-outside";
    case SkipReason::kUnreadable:
      return "unreadable";
    case SkipReason::kBinary:
      return "binary";
    case SkipReason::kNotRegular:
      return "not-regular";
  }
  return "unknown";
}

WalkResult walk(const WalkOptions& options) { return Walk(options).run(); }

bool looks_binary(std::string_view head) {
  const std::size_t n = std::min<std::size_t>(head.size(), 8192);
  return n != 0 && std::memchr(head.data(), '\0', n) != nullptr;
}

namespace {

// The stamp of `name` in the folder open on `folder` (AT_FDCWD: `name` is a
// path), never through a final symlink.
std::optional<Stamp> stamp_at(int folder, const char* name) {
  struct stat st {};
  if (::fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return Stamp{static_cast<std::uint64_t>(st.st_size), mtime_ns_of(st)};
}

}  // namespace

std::optional<Stamp> stamp_of(const std::string& path) { return stamp_at(AT_FDCWD, path.c_str()); }

StaleCount::StaleCount(std::filesystem::path root, std::size_t files, std::function<File(std::size_t)> file_at)
    : root_(std::move(root)), files_(files), file_at_(std::move(file_at)) {}

void StaleCount::help() {
  constexpr std::size_t kRun = 256;  // files per claim: few atomics, and runs share folders
  int folder = -1;                   // open on `folder_path` (-1 when it could not be opened)
  std::optional<std::string> folder_path;  // none before the first file
  std::string name;
  for (;;) {
    std::size_t begin = next_.fetch_add(kRun);
    if (begin >= files_) break;
    std::size_t end = std::min(begin + kRun, files_), stale = 0;
    for (std::size_t i = begin; i < end; ++i) {
      File file = file_at_(i);
      std::size_t slash = file.path.rfind('/');
      std::string_view dir = slash == std::string_view::npos ? std::string_view() : file.path.substr(0, slash);
      if (!folder_path || dir != *folder_path) {
        if (folder >= 0) ::close(folder);
        folder_path.emplace(dir);
        folder = ::open((root_ / *folder_path).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
      }
      name.assign(file.path.substr(slash + 1));  // npos + 1 == 0: the whole path
      std::optional<Stamp> now = folder >= 0 ? stamp_at(folder, name.c_str()) : std::nullopt;
      stale += now != file.stamp;
    }
    stale_ += stale;
  }
  if (folder >= 0) ::close(folder);
}

std::string read_in_root(const std::filesystem::path& root, const std::string& rel_path, std::size_t limit) {
  int fd = ::open((root / rel_path).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return {};
  struct stat info {};
  std::string text;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    text.resize(std::min<std::size_t>(static_cast<std::size_t>(info.st_size), limit));
    std::size_t got = 0;
    while (got < text.size()) {
      ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    text.resize(got);
  }
  ::close(fd);
  return text;
}

}  // namespace comp::walk
