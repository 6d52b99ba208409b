// writer_lock: one process writes a workspace's index at a time.
//
// Several comP processes often share one workspace (the editor's daemon, one
// per agent, a `comp index` in a terminal). They all read the database
// freely (SQLite WAL); before writing, each takes an exclusive flock(2) on
// <root>/.comp/index.lock. The kernel releases it when the holder exits or
// dies, so a crashed writer never leaves the workspace locked. Incremental
// runs make the next writer's run cheap: files the previous writer indexed
// are unchanged on disk and are not read again.
#pragma once

#include <filesystem>

namespace comp::index {

class WriterLock {
 public:
  // Opens (creating .comp/ and the lock file when missing) without locking.
  // Throws graph::StoreError(kUnwritable) when .comp/ cannot be created and
  // std::filesystem::filesystem_error when the lock file cannot be opened.
  explicit WriterLock(const std::filesystem::path& root);
  ~WriterLock();
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

  bool try_lock();  // false when another open lock file description holds it
  void lock();      // blocks until held
  void unlock();
  bool held() const { return held_; }

 private:
  int fd_ = -1;
  bool held_ = false;
};

}  // namespace comp::index
