// session_memory: what comP has handed out, in <root>/.comp/session-memory.json
// (seed 2.2), for the editor's view and for agents that ask what they were
// already given.
//
// Each tool call adds an entry (time, tool, client, query, the files and
// symbols returned with the content hashes they had, tokens sent and saved).
// After each index run, entries whose files changed since are marked stale
// (with the files that did). The file holds the newest `max_entries`.
// Several processes share it: each update re-reads the file under an
// exclusive flock on .comp/session-memory.lock and replaces it atomically
// (temporary file, fsync, rename), so a reader never sees half a file and no
// process loses another's entries.
//
// An entry is written by a thread of its own, after the call that handed
// the files out has answered: with 200 entries the file is megabytes, and
// reading, writing and syncing it took a quarter of a get_context call.
// Entries recorded while a write is under way go together in the next one.
// load, refresh and clear come after every entry recorded before them; the
// destructor writes what is still queued (a process killed first loses it).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace comp::rpc {

class SessionMemory {
 public:
  explicit SessionMemory(std::filesystem::path root, std::size_t max_entries = 200);
  ~SessionMemory();
  SessionMemory(const SessionMemory&) = delete;
  SessionMemory& operator=(const SessionMemory&) = delete;

  // `entry` holds tool, query, files [{path, sha256, tokens}], symbols,
  // tokens_sent, tokens_saved; time, id and stale are added here. Queued:
  // written by the writer thread (a failure, such as a read-only .comp/,
  // is logged; the memory is a convenience).
  void record(nlohmann::json entry);
  // Waits until every entry recorded so far is written (or failed).
  void flush() const;
  // {"version": 1, "entries": [...]} (oldest first); empty when absent or unreadable.
  nlohmann::json load() const;
  // Marks stale the entries with a file whose hash is no longer `current`
  // (nullopt: gone from the index). Returns how many became stale.
  std::size_t refresh(const std::function<std::optional<std::string>(const std::string& path)>& current);
  void clear();
  const std::filesystem::path& path() const { return path_; }

  // One version of the file on disk (device, inode, size, mtime).
  struct Stamp {
    std::uint64_t device = 0, inode = 0;
    std::int64_t size = 0, mtime_ns = 0;
    bool operator==(const Stamp&) const = default;
  };

 private:
  // Runs `change` on the current document under the lock and writes the
  // result; `change` returns false when it changed nothing (then nothing is
  // written).
  void update(const std::function<bool(nlohmann::json& document)>& change);
  void write_queued();  // the writer thread

  std::filesystem::path root_, path_;
  std::size_t max_entries_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<nlohmann::json> queued_;
  // The document as this process last wrote or read it, and the version of
  // the file it was (update() reads the file again only when that changed:
  // with 200 entries it is megabytes). Under the file lock only.
  nlohmann::json cached_;
  std::optional<Stamp> cached_stamp_;
  bool writing_ = false, stopping_ = false;
  std::thread writer_;  // last: started once the rest is set
};

}  // namespace comp::rpc
