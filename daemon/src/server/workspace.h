// server: the daemon core shared by `comp serve` (JSON-RPC for the editor)
// and `comp mcp` (MCP for agents). Knows no JSON.
//
// A Workspace keeps one root's index fresh without being asked: on start it
// runs an incremental index in the background, then watches the tree
// (inotify, honouring the ignore rules through the walk's directory list;
// polling when inotify is unavailable) and accepts explicit change
// notifications, re-indexing after a short debounce. Requests read the last
// committed state through their own SQLite connections (WAL), concurrently
// with indexing and with each other.
//
// Several processes may serve one workspace: each runs the same loop, but a
// run needs the workspace's writer lock (index/writer_lock.h), so one writes
// at a time; the others wait and then find the work done (runs are
// incremental). A writer that dies releases the lock with its process.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "graph/store.h"
#include "index/indexer.h"

namespace comp::watch {
class Watcher;
struct Change;
}

namespace comp::server {

struct IndexState {
  bool ready = false;               // an index is committed (by this process or another)
  bool indexing = false;            // this process is running the indexer
  bool waiting_for_writer = false;  // another process holds the writer lock (and is indexing)
  std::size_t done = 0, total = 0;  // files read / to read in this process's current run
  std::size_t pending_changes = 0;  // paths changed on disk and not yet re-indexed
  std::string watch_mode;           // "inotify", "polling" or "off"
  std::size_t watched_directories = 0;  // folders the watcher watches (inotify)
  std::string last_error;           // of the last run ("" when it succeeded)
  std::size_t runs = 0;             // completed runs in this process
  double last_run_seconds = 0;
  std::int64_t last_run_at = 0;     // unix seconds
  index::IndexSummary last;         // of the last completed run
};

class Workspace {
 public:
  struct Options {
    std::filesystem::path root;     // canonical, an existing directory
    bool watch = true;
    unsigned jobs = 0;              // parser threads (0: all cores)
    std::chrono::milliseconds debounce{50};  // an editor's save is one quick burst of events
    std::chrono::milliseconds poll_interval{3000};  // re-scan period when inotify is unavailable
    // Called from the indexing thread (progress at most every ~100 ms).
    std::function<void(const IndexState&)> on_progress;
    std::function<void(const IndexState&)> on_indexed;  // after each completed run
  };

  explicit Workspace(Options options);
  ~Workspace();  // stops watching and indexing (a run stops early; the database stays consistent)
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  // Starts the indexing thread: a first incremental run, then watching.
  void start();
  const std::filesystem::path& root() const { return options_.root; }

  // A read connection for one request; returned to a pool on destruction.
  class Reader {
   public:
    Reader(Workspace& owner, std::unique_ptr<graph::Store> store, std::uint64_t generation);
    Reader(Reader&&) = default;
    ~Reader();
    graph::Store& store() { return *store_; }
    graph::Store* operator->() { return store_.get(); }

   private:
    Workspace* owner_;
    std::unique_ptr<graph::Store> store_;
    std::uint64_t generation_;
  };
  // Throws graph::StoreError when the database cannot be opened.
  Reader read();

  // The editor saw these files change (paths relative to the root; others are
  // ignored): re-index them after the debounce.
  void files_changed(const std::vector<std::string>& paths);
  // Re-index now; with `rebuild`, move the database aside first and start over.
  void reindex(bool rebuild);
  IndexState state() const;
  // Blocks until an index is ready or `timeout` passes; calls `progress`
  // (from this thread) about every 250 ms while waiting. True when ready.
  bool wait_ready(std::chrono::milliseconds timeout, const std::function<void(const IndexState&)>& progress = {});
  // Blocks until changes seen so far are indexed (nothing pending, scheduled
  // or running here) or `timeout` passes. True when idle.
  bool wait_idle(std::chrono::milliseconds timeout);

 private:
  void run_loop();
  // `only`: the paths to walk (a watcher's changes), nullopt for the whole tree.
  void run_once(bool rebuild, std::optional<std::vector<std::string>> only);
  void on_watch(watch::Change change);
  void give_back(std::unique_ptr<graph::Store> store, std::uint64_t generation);

  Options options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable ready_;
  IndexState state_;
  std::set<std::string> pending_;
  bool scheduled_ = false;
  bool rebuild_ = false;
  // The next run walks the whole tree: the first, an explicit reindex, a
  // poll, lost events, and at least every kWholeWalkEvery (watcher.cc's
  // changes then go through a targeted run: index::IndexOptions::only).
  bool whole_ = true;
  std::chrono::steady_clock::time_point last_whole_{};
  bool running_ = false;  // a run is in progress (whether or not it found work)
  std::chrono::steady_clock::time_point due_{};
  std::atomic<bool> stop_{false};
  resolve::FileTablesCache resolve_cache_;  // used by the index thread only
  std::thread thread_;
  std::unique_ptr<watch::Watcher> watcher_;
  std::set<std::string> directories_;  // what the watcher watches (index thread only)
  std::set<std::string> links_;        // the tree's symlinks, walked in every targeted run (index thread only)
  std::vector<std::unique_ptr<graph::Store>> idle_;
  std::uint64_t generation_ = 0;  // bumped when the database file is replaced
};

}  // namespace comp::server
