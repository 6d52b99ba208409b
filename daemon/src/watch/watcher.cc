#include "watch/watcher.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>

namespace comp::watch {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kMask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM |
                                IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_DONT_FOLLOW |
                                IN_ONLYDIR | IN_EXCL_UNLINK;

// A new subtree (created or moved in) is listed so that what was created in
// it before its watches landed is reported. Beyond this many entries the
// listing stops and the burst is reported as an overflow: the caller rescans
// and re-syncs the watched set with its ignore rules (e.g. an `npm install`
// into an ignored node_modules/ would otherwise cost thousands of watches).
constexpr std::size_t kMaxListedEntries = 10000;

// What git's HEAD moving writes: .git/HEAD (renamed over from HEAD.lock:
// a checkout) and .git/logs/HEAD (appended: every move, the reflog).
constexpr std::uint32_t kGitMask = IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE_SELF |
                                   IN_MOVE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR | IN_EXCL_UNLINK;

bool is_excluded_name(std::string_view name) { return name == ".git" || name == ".comp"; }

// True when a component of `rel` is .git or .comp.
bool is_excluded_rel(std::string_view rel) {
  std::size_t start = 0;
  while (start <= rel.size()) {
    std::size_t end = rel.find('/', start);
    if (end == std::string_view::npos) end = rel.size();
    if (is_excluded_name(rel.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

std::string join_rel(const std::string& dir, std::string_view name) {
  std::string rel = dir;
  if (!rel.empty()) rel.push_back('/');
  rel.append(name);
  return rel;
}

bool is_under(const std::string& rel, const std::string& dir) {
  return rel.size() > dir.size() && rel.compare(0, dir.size(), dir) == 0 && rel[dir.size()] == '/';
}

}  // namespace

struct Watcher::State {
  std::string root;  // the root's real path (no symlinks), no trailing '/'
  bool root_ok = false;
  std::function<void(Change)> on_change;
  std::chrono::milliseconds debounce;
  std::chrono::milliseconds max_delay;
  int inotify_fd = -1;
  int init_errno = 0;  // why inotify_fd (or wake_fd) is -1
  int wake_fd = -1;

  mutable std::mutex mutex;                      // guards the two maps and the git watches
  std::unordered_map<int, std::string> rel_of_wd;
  std::map<std::string, int> wd_of_rel;          // ordered: subtrees are ranges
  int git_wd = -1, logs_wd = -1;                 // git's directory and its logs/, for HEAD's moves
  // Git's directory set by watch_head() (a real path), or "" for the root's
  // .git; head_off: none to watch (it is a folder of the tree).
  std::string git_dir;
  bool head_off = false;

  // The burst being collected; touched by the thread only.
  std::set<std::string> pending;
  bool overflow = false;
  bool head_moved = false;
  bool in_burst = false;
  Clock::time_point first_event;
  Clock::time_point last_event;

  std::thread thread;

  ~State() {
    if (inotify_fd >= 0) ::close(inotify_fd);
    if (wake_fd >= 0) ::close(wake_fd);
  }

  std::string full_path(const std::string& rel) const { return rel.empty() ? root : root + "/" + rel; }

  // 0 when `full` is its own real path, else ENOENT or ENOTDIR. IN_DONT_FOLLOW
  // covers only the last component: this refuses any path with a symlinked
  // or "..", "." component on the way.
  static int not_real_error(const std::string& full) {
    char resolved[PATH_MAX];
    if (::realpath(full.c_str(), resolved) == nullptr) return errno == ENOTDIR ? ENOTDIR : ENOENT;
    return full == resolved ? 0 : ENOTDIR;
  }

  // Adds (or re-points) the watch for `rel`. 0 on success, else an errno:
  // ENOENT/ENOTDIR for a directory that is gone or is not a real directory
  // inside the root (a symlink somewhere on the way), ENOSPC at the limit.
  int add_watch_locked(const std::string& rel) {
    if (inotify_fd < 0) return init_errno != 0 ? init_errno : EBADF;
    if (!root_ok) return ENOENT;
    const std::string full = full_path(rel);
    if (!rel.empty())
      if (const int err = not_real_error(full)) return err;
    const int wd = ::inotify_add_watch(inotify_fd, full.c_str(), kMask);
    if (wd < 0) return errno;
    auto [it, inserted] = rel_of_wd.try_emplace(wd, rel);
    if (!inserted && it->second != rel) {
      // The same directory, moved since it was watched: re-point the watch.
      auto old = wd_of_rel.find(it->second);
      if (old != wd_of_rel.end() && old->second == wd) wd_of_rel.erase(old);
      it->second = rel;
    }
    auto [rit, rinserted] = wd_of_rel.try_emplace(rel, wd);
    if (!rinserted && rit->second != wd) {
      // `rel` now names another directory than the one watched before.
      const int stale = rit->second;
      rel_of_wd.erase(stale);
      ::inotify_rm_watch(inotify_fd, stale);
      rit->second = wd;
    }
    return 0;
  }

  std::string head_dir() const { return git_dir.empty() ? full_path(".git") : git_dir; }

  // Watches `full` (git's directory or its logs/) for HEAD's moves unless
  // it is watched already; only a real directory (no symlink on the way).
  // Returns the watch, or -1.
  int add_git_watch_locked(int wd, const std::string& full) {
    if (wd >= 0 || inotify_fd < 0 || !root_ok || head_off) return wd;
    if (not_real_error(full) != 0) return -1;
    return std::max(::inotify_add_watch(inotify_fd, full.c_str(), kGitMask), -1);
  }

  void watch_git_locked() {
    git_wd = add_git_watch_locked(git_wd, head_dir());
    if (git_wd >= 0) logs_wd = add_git_watch_locked(logs_wd, head_dir() + "/logs");
  }

  void unwatch_git_locked() {
    // Their IN_IGNORED events then match no watch and are dropped.
    for (int* wd : {&git_wd, &logs_wd}) {
      if (*wd >= 0) ::inotify_rm_watch(inotify_fd, *wd);
      *wd = -1;
    }
  }

  // An event of the git watches: HEAD written marks the burst; logs/
  // created (a repository's first commit) is watched. True when `ev` was
  // theirs.
  bool handle_git_event_locked(const struct inotify_event& ev) {
    if (ev.wd < 0 || (ev.wd != git_wd && ev.wd != logs_wd)) return false;
    if (ev.mask & IN_IGNORED) {  // deleted or moved away: watched again by the next watch()
      (ev.wd == git_wd ? git_wd : logs_wd) = -1;
      return true;
    }
    if (ev.len == 0 || ev.name[0] == '\0') return true;
    const std::string_view name(ev.name);
    // logs/ appears with a repository's first commit, whose logs/HEAD may
    // be written before the new watch lands: HEAD moved.
    const bool logs = ev.wd == git_wd && name == "logs" && (ev.mask & IN_ISDIR) && (ev.mask & (IN_CREATE | IN_MOVED_TO));
    if (logs) logs_wd = add_git_watch_locked(logs_wd, head_dir() + "/logs");
    if (logs || (name == "HEAD" && !(ev.mask & IN_ISDIR))) {
      head_moved = true;
      note_event();
    }
    return true;
  }

  void remove_watch_locked(std::map<std::string, int>::iterator it) {
    const int wd = it->second;
    wd_of_rel.erase(it);
    auto rit = rel_of_wd.find(wd);
    if (rit != rel_of_wd.end()) rel_of_wd.erase(rit);
    // The IN_IGNORED that follows finds no entry and is dropped.
    ::inotify_rm_watch(inotify_fd, wd);
  }

  // A directory moved away: its watches (and its subdirectories') still
  // follow the inodes, under names that are now wrong. Drop them; if it
  // moved within the root, IN_MOVED_TO watches it again at the new path.
  void drop_subtree_locked(const std::string& rel) {
    auto self = wd_of_rel.find(rel);
    if (self != wd_of_rel.end()) remove_watch_locked(self);
    const std::string prefix = rel + "/";
    for (auto it = wd_of_rel.lower_bound(prefix); it != wd_of_rel.end() && is_under(it->first, rel);) {
      auto next = std::next(it);
      remove_watch_locked(it);
      it = next;
    }
  }

  // A directory created or moved in: watch it and every directory below it,
  // then list them, since entries may have been created before the watch
  // landed. Watch first, list second: what the listing misses, an event
  // reports.
  void add_subtree_locked(const std::string& top) {
    std::size_t listed = 0;
    std::vector<std::string> stack{top};
    while (!stack.empty()) {
      const std::string rel = std::move(stack.back());
      stack.pop_back();
      const int err = add_watch_locked(rel);
      // Gone already, a symlink now, or unreadable (the walk cannot list it either).
      if (err == ENOENT || err == ENOTDIR || err == EACCES) continue;
      if (err != 0) {
        overflow = true;  // unwatched directory: its events would be lost
        return;
      }
      const int fd = ::open(full_path(rel).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) continue;
      std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(fd), &::closedir);
      if (dir == nullptr) {
        ::close(fd);
        continue;
      }
      while (const struct dirent* de = ::readdir(dir.get())) {
        const std::string_view name(de->d_name);
        if (name == "." || name == "..") continue;
        bool is_dir = de->d_type == DT_DIR;
        if (de->d_type == DT_UNKNOWN) {
          struct stat st;
          is_dir = ::fstatat(::dirfd(dir.get()), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
        }
        if (name == ".git" || (is_dir && name == ".comp")) continue;
        if (++listed > kMaxListedEntries) {
          overflow = true;
          return;
        }
        std::string child = join_rel(rel, name);
        if (is_dir) stack.push_back(child);
        pending.insert(std::move(child));
      }
    }
  }

  void note_event() {
    const Clock::time_point now = Clock::now();
    if (!in_burst) {
      in_burst = true;
      first_event = now;
    }
    last_event = now;
  }

  void handle_event_locked(const struct inotify_event& ev) {
    if (ev.mask & IN_Q_OVERFLOW) {
      overflow = true;
      note_event();
      return;
    }
    if (handle_git_event_locked(ev)) return;
    auto it = rel_of_wd.find(ev.wd);
    if (it == rel_of_wd.end()) return;  // removed by us; its last events are stale
    const std::string dir = it->second;
    if (ev.mask & IN_IGNORED) {  // deleted, unmounted, or removed by the kernel
      rel_of_wd.erase(it);
      auto rit = wd_of_rel.find(dir);
      if (rit != wd_of_rel.end() && rit->second == ev.wd) wd_of_rel.erase(rit);
      if (dir.empty()) {
        overflow = true;
        note_event();
      }
      return;
    }
    if (ev.len == 0 || ev.name[0] == '\0') {
      // About the watched directory itself; its parent reports the rest.
      if (dir.empty() && (ev.mask & (IN_DELETE_SELF | IN_MOVE_SELF))) {
        overflow = true;
        note_event();
      }
      return;
    }
    const std::string_view name(ev.name);
    const bool is_dir = (ev.mask & IN_ISDIR) != 0;
    if (name == ".git" || (is_dir && name == ".comp")) return;
    std::string rel = join_rel(dir, name);
    if (is_dir && (ev.mask & IN_MOVED_FROM)) drop_subtree_locked(rel);
    if (is_dir && (ev.mask & (IN_CREATE | IN_MOVED_TO))) add_subtree_locked(rel);
    pending.insert(std::move(rel));
    note_event();
  }

  // Reads the queued events; returns early when the burst is due, so that a
  // never-ending stream still gets delivered within max_delay.
  void drain() {
    alignas(struct inotify_event) char buffer[64 * 1024];
    while (true) {
      const ssize_t n = ::read(inotify_fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // EAGAIN: drained
      std::lock_guard<std::mutex> lock(mutex);
      for (ssize_t offset = 0; offset < n;) {
        const auto* ev = reinterpret_cast<const struct inotify_event*>(buffer + offset);
        handle_event_locked(*ev);
        offset += static_cast<ssize_t>(sizeof(struct inotify_event) + ev->len);
      }
      if (in_burst && Clock::now() >= deadline()) return;
    }
  }

  Clock::time_point deadline() const { return std::min(last_event + debounce, first_event + max_delay); }

  void deliver() {
    Change change;
    change.paths.assign(pending.begin(), pending.end());
    change.overflow = overflow;
    change.head_moved = head_moved;
    pending.clear();
    overflow = false;
    head_moved = false;
    in_burst = false;
    try {
      on_change(std::move(change));
    } catch (...) {
      // The thread must never throw; the caller's failure is its own.
    }
  }

  void run() {
    while (true) {
      try {
        int timeout_ms = -1;
        if (in_burst) {
          const auto left = deadline() - Clock::now();
          timeout_ms = left <= Clock::duration::zero()
                           ? 0
                           : static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
        }
        struct pollfd fds[2] = {{wake_fd, POLLIN, 0}, {inotify_fd, POLLIN, 0}};
        const int ready = ::poll(fds, 2, timeout_ms);
        if (ready < 0 && errno != EINTR && errno != ENOMEM) return;
        if (ready > 0 && fds[0].revents != 0) return;  // the destructor wakes us
        if (ready > 0 && fds[1].revents != 0) drain();
        if (in_burst && Clock::now() >= deadline()) deliver();
      } catch (...) {
        // Out of memory while collecting: what was lost must be rescanned.
        overflow = true;
        if (!in_burst) note_event();
      }
    }
  }
};

Watcher::Watcher(std::filesystem::path root, std::function<void(Change)> on_change,
                 std::chrono::milliseconds debounce, std::chrono::milliseconds max_delay)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  char resolved[PATH_MAX];
  if (::realpath(root.c_str(), resolved) != nullptr) {
    s.root = resolved;
    s.root_ok = true;
  } else {
    s.root = std::filesystem::absolute(root).lexically_normal().string();
  }
  if (s.root.size() > 1 && s.root.back() == '/') s.root.pop_back();
  s.on_change = std::move(on_change);
  s.debounce = debounce;
  s.max_delay = max_delay;
  s.inotify_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (s.inotify_fd < 0) s.init_errno = errno;
  s.wake_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (s.wake_fd < 0) {
    // Without a way to stop the thread, do not watch at all.
    if (s.init_errno == 0) s.init_errno = errno;
    if (s.inotify_fd >= 0) ::close(s.inotify_fd);
    s.inotify_fd = -1;
    return;
  }
  s.thread = std::thread([&s] { s.run(); });
}

Watcher::~Watcher() {
  State& s = *state_;
  if (s.thread.joinable()) {
    const std::uint64_t one = 1;
    while (::write(s.wake_fd, &one, sizeof one) < 0 && errno == EINTR) {
    }
    s.thread.join();
  }
}

bool Watcher::watch(const std::vector<std::string>& directories, std::string* error) {
  State& s = *state_;
  if (s.inotify_fd < 0) {
    if (error) *error = std::string("inotify unavailable: ") + std::strerror(s.init_errno);
    return false;
  }
  if (!s.root_ok) {
    if (error) *error = "watch root cannot be resolved: " + s.root;
    return false;
  }
  std::set<std::string> wanted;
  for (const std::string& rel : directories) {
    if (!is_excluded_rel(rel)) wanted.insert(rel);
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  // Remove first: it frees watches for the additions.
  for (auto it = s.wd_of_rel.begin(); it != s.wd_of_rel.end();) {
    auto next = std::next(it);
    if (wanted.count(it->first) == 0) s.remove_watch_locked(it);
    it = next;
  }
  for (const std::string& rel : wanted) {
    if (s.wd_of_rel.count(rel) != 0) continue;
    const int err = s.add_watch_locked(rel);
    if (err == 0 || err == ENOENT || err == ENOTDIR || err == EACCES) continue;
    if (error) {
      *error = "cannot watch '" + (rel.empty() ? std::string(".") : rel) + "': " + std::strerror(err);
      if (err == ENOSPC) *error += " (inotify watch limit reached: raise fs.inotify.max_user_watches)";
    }
    return false;
  }
  s.watch_git_locked();
  return true;
}

void Watcher::watch_head(const std::filesystem::path& git_dir) {
  State& s = *state_;
  std::string dir;
  bool off = false;
  if (!git_dir.empty()) {
    char resolved[PATH_MAX];
    dir = ::realpath(git_dir.c_str(), resolved) != nullptr ? std::string(resolved)
                                                           : git_dir.lexically_normal().string();
    // Inside the root, a git directory not under a .git folder is a folder
    // of the tree, watched as such (one inotify watch per directory: its
    // mask cannot be both).
    if (dir == s.root || (is_under(dir, s.root) && !is_excluded_rel(std::string_view(dir).substr(s.root.size() + 1))))
      off = true;
    if (dir == s.root + "/.git") dir.clear();
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  if (dir == s.git_dir && off == s.head_off) return;
  if (s.inotify_fd >= 0) s.unwatch_git_locked();
  s.git_dir = std::move(dir);
  s.head_off = off;
  s.watch_git_locked();
}

std::size_t Watcher::watched() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->wd_of_rel.size();
}

}  // namespace comp::watch
