#include "server/workspace.h"

#include <algorithm>

#include "index/writer_lock.h"
#include "server/log.h"
#include "watch/watcher.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace comp::server {
namespace {

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A workspace-relative path as the index spells it, or "" when it is not one
// (absolute, leaving the root, comP's or git's own directories).
std::string workspace_path(const std::string& path) {
  fs::path rel = fs::path(path).lexically_normal();
  if (rel.empty() || rel.is_absolute()) return {};
  std::string text = rel.generic_string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();  // "a/" is the folder "a"
  if (text == "." || text == ".." || text.starts_with("../")) return {};
  for (const auto& part : rel)
    if (part == ".comp" || part == ".git") return {};
  return text;
}

// A whole walk at least this often while changes come, in case a change
// escaped the targeted runs (an ignore file above the root, or git's
// info/exclude, which no watch sees).
constexpr auto kWholeWalkEvery = std::chrono::minutes(5);
// More changed paths than this: one whole walk costs less.
constexpr std::size_t kMostTargets = 2000;

// The watcher's or the editor's changed paths as a targeted run's list, or
// nullopt when the run must walk the whole tree: an ignore file changed
// (what is indexed may change anywhere under it), the root itself, or too
// many paths.
std::optional<std::vector<std::string>> targets_of(const std::set<std::string>& paths) {
  if (paths.empty() || paths.size() > kMostTargets) return std::nullopt;
  std::vector<std::string> targets;
  for (const std::string& path : paths) {
    if (path == ".") return std::nullopt;  // lost events
    std::string_view base = std::string_view(path).substr(path.rfind('/') + 1);
    if (base == ".gitignore" || base == ".compignore" || base == ".vscodeignore") return std::nullopt;
    targets.push_back(path);
  }
  return targets;
}

// Removes `path` and the paths under it from `paths`.
void erase_under(std::set<std::string>& paths, const std::string& path) {
  paths.erase(path);
  std::string under = path + "/";
  auto first = paths.lower_bound(under), last = first;
  while (last != paths.end() && last->starts_with(under)) ++last;
  paths.erase(first, last);
}

bool database_present(const fs::path& root) {
  std::error_code ec;
  auto size = fs::file_size(graph::Store::database_path(root), ec);
  return !ec && size > 0;
}

}  // namespace

Workspace::Reader::Reader(Workspace& owner, std::unique_ptr<graph::Store> store, std::uint64_t generation)
    : owner_(&owner), store_(std::move(store)), generation_(generation) {}

Workspace::Reader::~Reader() {
  if (store_) owner_->give_back(std::move(store_), generation_);
}

Workspace::Workspace(Options options) : options_(std::move(options)) {
  state_.ready = database_present(options_.root);
  state_.watch_mode = options_.watch ? "starting" : "off";
}

Workspace::~Workspace() {
  stop_ = true;
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  watcher_.reset();
}

void Workspace::start() {
  {
    std::lock_guard lock(mutex_);
    scheduled_ = true;
    due_ = Clock::now();
  }
  thread_ = std::thread([this] { run_loop(); });
}

Workspace::Reader Workspace::read() {
  std::uint64_t generation;
  {
    std::lock_guard lock(mutex_);
    generation = generation_;
    if (!idle_.empty()) {
      std::unique_ptr<graph::Store> store = std::move(idle_.back());
      idle_.pop_back();
      return Reader(*this, std::move(store), generation);
    }
  }
  std::unique_ptr<graph::Store> store = graph::Store::open(options_.root);
  store->set_cache_size_mib(8);  // readers: a few pages per query; the writer keeps its 64 MiB
  return Reader(*this, std::move(store), generation);
}

void Workspace::give_back(std::unique_ptr<graph::Store> store, std::uint64_t generation) {
  // A connection still inside a transaction (a read snapshot whose end
  // failed) would hand the next request that old state of the index: it
  // is closed, never pooled.
  if (!sqlite3_get_autocommit(store->handle())) return;
  std::lock_guard lock(mutex_);
  if (generation == generation_ && idle_.size() < 8) idle_.push_back(std::move(store));
}

void Workspace::files_changed(const std::vector<std::string>& paths) {
  std::lock_guard lock(mutex_);
  bool any = false;
  for (const std::string& path : paths) {
    std::string rel = workspace_path(path);
    if (rel.empty()) continue;
    pending_.insert(rel);
    any = true;
  }
  if (!any) return;
  if (!scheduled_) due_ = Clock::now() + options_.debounce;
  scheduled_ = true;
  wake_.notify_all();
}

void Workspace::on_watch(watch::Change change) {
  std::lock_guard lock(mutex_);
  if (change.overflow) {  // unknown changes: a whole incremental run
    change.paths.push_back(".");
    whole_ = true;
  }
  // HEAD moved (a commit, a checkout, a pull): a whole walk, which reads
  // the history again (the commits each file changed in: the pipeline's
  // changed_with), whether or not a file changed.
  if (change.head_moved) whole_ = true;
  for (std::string& path : change.paths) pending_.insert(std::move(path));
  scheduled_ = true;  // the watcher already debounced
  due_ = Clock::now();
  wake_.notify_all();
}

void Workspace::reindex(bool rebuild) {
  std::lock_guard lock(mutex_);
  scheduled_ = true;
  whole_ = true;
  rebuild_ = rebuild_ || rebuild;
  due_ = Clock::now();
  wake_.notify_all();
}

IndexState Workspace::state() const {
  std::lock_guard lock(mutex_);
  IndexState copy = state_;
  copy.pending_changes = pending_.size();
  return copy;
}

bool Workspace::wait_ready(std::chrono::milliseconds timeout, const std::function<void(const IndexState&)>& progress) {
  Clock::time_point deadline = Clock::now() + timeout;
  std::unique_lock lock(mutex_);
  while (!state_.ready && !stop_) {
    Clock::time_point now = Clock::now();
    if (now >= deadline) return false;
    ready_.wait_until(lock, std::min(deadline, now + std::chrono::milliseconds(250)));
    if (!state_.ready && progress) {
      IndexState copy = state_;
      lock.unlock();
      progress(copy);
      lock.lock();
    }
  }
  return state_.ready;
}

bool Workspace::wait_idle(std::chrono::milliseconds timeout) {
  Clock::time_point deadline = Clock::now() + timeout;
  std::unique_lock lock(mutex_);
  auto idle = [&] { return pending_.empty() && !scheduled_ && !running_ && !state_.waiting_for_writer; };
  while (!idle() && !stop_) {
    Clock::time_point now = Clock::now();
    if (now >= deadline) return false;
    ready_.wait_until(lock, std::min(deadline, now + std::chrono::milliseconds(50)));
  }
  return idle();
}

void Workspace::run_loop() {
  Clock::time_point next_poll = Clock::time_point::max();
  while (!stop_) {
    bool rebuild = false;
    std::optional<std::vector<std::string>> only;
    {
      std::unique_lock lock(mutex_);
      while (!stop_) {
        Clock::time_point now = Clock::now();
        if (scheduled_ && now >= due_) break;
        if (now >= next_poll) {
          scheduled_ = true;
          whole_ = true;
          break;
        }
        Clock::time_point until = std::min(next_poll, scheduled_ ? due_ : Clock::time_point::max());
        if (until == Clock::time_point::max())
          wake_.wait(lock);
        else
          wake_.wait_until(lock, until);
      }
      if (stop_) break;
      scheduled_ = false;
      rebuild = rebuild_;
      rebuild_ = false;
      // The changes so far, walked alone (a targeted run), or every change
      // so far is seen by a whole walk.
      if (!whole_ && !rebuild && Clock::now() - last_whole_ < kWholeWalkEvery && state_.watch_mode == "inotify") {
        only = targets_of(pending_);
        // A symlink's entry follows its target, reported under the target's
        // path: the links are looked at again in every targeted run.
        if (only && only->size() + links_.size() <= kMostTargets)
          only->insert(only->end(), links_.begin(), links_.end());
        else
          only.reset();
      }
      if (!only) {
        whole_ = false;
        last_whole_ = Clock::now();
      }
      pending_.clear();
      // Busy from here: the changes just taken are not indexed yet (a
      // wait_idle() between this and the run would find nothing to wait for).
      running_ = true;
    }
    run_once(rebuild, std::move(only));
    std::string mode;
    {
      std::lock_guard lock(mutex_);
      mode = state_.watch_mode;
    }
    next_poll = mode == "polling" ? Clock::now() + options_.poll_interval : Clock::time_point::max();
  }
}

void Workspace::run_once(bool rebuild, std::optional<std::vector<std::string>> only) {
  auto set = [&](auto&& change) {
    IndexState copy;
    {
      std::lock_guard lock(mutex_);
      change(state_);
      copy = state_;
      copy.pending_changes = pending_.size();
    }
    if (options_.on_progress) options_.on_progress(copy);
  };
  try {
    index::WriterLock writer(options_.root);
    if (!writer.try_lock()) {
      log(LogLevel::kInfo, "another comp process is writing the index; waiting for it");
      set([](IndexState& s) { s.waiting_for_writer = true; });
      while (!stop_ && !writer.try_lock()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      set([](IndexState& s) { s.waiting_for_writer = false; });
      if (stop_) {
        set([&](IndexState&) { running_ = false; });
        return;
      }
    }
    if (rebuild && fs::exists(graph::Store::database_path(options_.root))) {
      fs::path moved = graph::Store::quarantine(options_.root);
      log(LogLevel::kInfo, "rebuild: moved the old index to " + moved.string());
      std::lock_guard lock(mutex_);
      ++generation_;
      idle_.clear();
    }
    // `indexing` tells clients the answers may lag: true from the start only
    // when there is no index yet (or it is rebuilt), else once the run has
    // found files to read. A run that finds nothing changed never shows.
    set([&](IndexState& s) {
      running_ = true;
      s.indexing = !s.ready || rebuild;
      s.done = s.total = 0;
    });
    index::IndexOptions options;
    options.root = options_.root;
    options.jobs = options_.jobs;
    options.take_lock = false;
    options.cancel = &stop_;
    options.resolve_cache = &resolve_cache_;
    options.only = std::move(only);
    options.on_progress = [&](const index::Progress& progress) {
      set([&](IndexState& s) {
        s.done = progress.done;
        s.total = progress.total;
        s.indexing = s.indexing || progress.done < progress.total;
      });
    };
    index::IndexSummary summary = index::run_index(options);
    writer.unlock();
    bool first = false;
    {
      std::lock_guard lock(mutex_);
      first = state_.runs == 0;
      state_.indexing = false;
      state_.ready = true;
      state_.last_error.clear();
      ++state_.runs;
      state_.last_run_seconds = summary.elapsed_seconds;
      state_.last_run_at = unix_now();
      state_.last = summary;
    }
    ready_.notify_all();
    if (summary.files_parsed || summary.files_removed)
      log(LogLevel::kInfo, "indexed: " + std::to_string(summary.files_parsed) + " files parsed, " +
                               std::to_string(summary.files_removed) + " removed in " +
                               std::to_string(summary.elapsed_seconds) + " s");
    // What to watch: a whole walk's directories; after a targeted run, the
    // last ones with those under its paths replaced by what it walked (a
    // folder created, or now ignored, or gone).
    if (summary.targeted) {
      for (const std::string& target : *options.only) {
        erase_under(directories_, target);
        erase_under(links_, target);
      }
      directories_.insert(summary.directories.begin(), summary.directories.end());
      links_.insert(summary.links.begin(), summary.links.end());
    } else {
      directories_ = std::set<std::string>(summary.directories.begin(), summary.directories.end());
      links_ = std::set<std::string>(summary.links.begin(), summary.links.end());
    }
    if (options_.watch && !stop_) {
      if (!watcher_)
        watcher_ = std::make_unique<watch::Watcher>(
            options_.root, [this](watch::Change change) { on_watch(std::move(change)); },
            options_.debounce);
      // HEAD's moves are watched in git's directory for the root, which a
      // whole run reads (a worktree's or submodule's is outside the root).
      if (!summary.targeted) watcher_->watch_head(summary.git_dir);
      std::string error;
      bool ok = watcher_->watch(std::vector<std::string>(directories_.begin(), directories_.end()), &error);
      std::string mode = ok ? "inotify" : "polling";
      std::size_t watched = watcher_->watched();
      {
        std::lock_guard lock(mutex_);
        state_.watched_directories = watched;
        if (state_.watch_mode != mode) {
          if (!ok) log(LogLevel::kWarn, "watching the workspace failed (" + error + "): re-scanning every " +
                                            std::to_string(options_.poll_interval.count()) + " ms instead");
          state_.watch_mode = mode;
        }
        // Files changed during the first run, before the watches existed:
        // one more (cheap, incremental) run catches them.
        if (first && ok) {
          scheduled_ = true;
          whole_ = true;
          due_ = Clock::now();
        }
      }
    }
    {
      std::lock_guard lock(mutex_);
      running_ = false;  // only now: the watches are in place and a catch-up run is scheduled
    }
    ready_.notify_all();
    IndexState copy = state();
    if (options_.on_progress) options_.on_progress(copy);
    if (options_.on_indexed) options_.on_indexed(copy);
  } catch (const std::exception& error) {
    log(LogLevel::kError, std::string("indexing failed: ") + error.what());
    set([&](IndexState& s) {
      whole_ = true;  // the changes this run was given are not indexed
      running_ = false;
      s.indexing = false;
      s.waiting_for_writer = false;
      s.last_error = error.what();
    });
    ready_.notify_all();
  }
}

}  // namespace comp::server
