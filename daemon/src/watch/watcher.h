// watch: tells the daemon which workspace paths changed, so that an index run
// can follow edits. A recursive inotify watcher with debouncing; knows nothing
// of ignore rules, the index or JSON: the caller says which directories to
// watch (the walk's `directories`) and decides what a change means.
//
// Invariants:
//  - nothing under `.git/` or `.comp/` (at any depth) is reported as a path,
//    nor a `.git` entry of any type or a `.comp` directory itself: comP's own
//    database lives in .comp/, and its writes must never wake the daemon;
//  - of git's files, only the root's HEAD moving wakes it (Change::
//    head_moved): git's directory for the root and its `logs/` are watched
//    for writes of a file named HEAD, and nothing else there is reported or
//    read (git status, fetch, gc and the index's refreshes write other
//    files). That directory is the root's real `.git` directory (not a
//    symlink, not a worktree's `.git` file) unless watch_head() names
//    another: git's own answer, outside the root for a linked worktree, a
//    submodule or a root below the repository's top;
//  - no symlink is followed: a watched directory of the tree is reached
//    from the root's real path through real directories only;
//  - on_change runs on the watcher's own thread, never concurrently with
//    itself, and never after the destructor has returned; the thread never
//    throws (an exception from on_change is swallowed).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace comp::watch {

struct Change {
  // Rel paths ('/'-separated, no "./") of files and directories created,
  // modified, deleted or moved (both ends of a move); sorted, unique. A
  // directory's path means "its subtree may have changed".
  std::vector<std::string> paths;
  // Events were lost (the kernel queue overflowed, a watch for a new
  // directory could not be added, a new subtree was too large to list, or the
  // root itself was moved or deleted): the caller must rescan everything.
  bool overflow = false;
  // The root's git HEAD moved (a commit, checkout, reset, merge or pull
  // wrote .git/HEAD or appended to .git/logs/HEAD, the reflog): the commits
  // behind the work tree changed, whether or not a file did.
  bool head_moved = false;
};

class Watcher {
 public:
  // Starts a thread that calls on_change after `debounce` of quiet following
  // a burst of events, but never later than `max_delay` after the first event
  // of the burst. Watches nothing until watch() is called. Does not throw
  // when inotify is unavailable: watch() reports it.
  // on_change must not destroy this Watcher; it may call watch().
  Watcher(std::filesystem::path root, std::function<void(Change)> on_change,
          std::chrono::milliseconds debounce = std::chrono::milliseconds(150),
          std::chrono::milliseconds max_delay = std::chrono::milliseconds(2000));
  // Stops and joins the thread promptly; a burst not yet delivered is dropped.
  ~Watcher();
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  // Makes the watched set exactly `directories` (rel paths, "" = the root),
  // minus those under .git/.comp or reached through a symlink, and those that
  // no longer exist. Returns false with a message in *error (if non-null)
  // when inotify is unavailable or the watch limit (max_user_watches) is hit;
  // the watches that could be added stay. Directories the thread added on its
  // own (created since the caller's walk) are removed unless listed. Also
  // watches the root's .git and .git/logs for HEAD's moves when they exist
  // now and are not watched yet (they are not counted in watched()).
  // Thread-safe; may be called while events flow.
  bool watch(const std::vector<std::string>& directories, std::string* error);

  // Watches `git_dir`, git's directory for the root as `git rev-parse
  // --absolute-git-dir` names it (vcs::Head::git_dir), and its logs/ for
  // HEAD's moves instead of <root>/.git, at once and from then on; its real
  // path is watched. Empty: <root>/.git again. A git directory inside the
  // root but not under a `.git` folder is not watched (the tree's watch
  // reports its files). Thread-safe.
  void watch_head(const std::filesystem::path& git_dir);

  // Number of directories watched now.
  std::size_t watched() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace comp::watch
