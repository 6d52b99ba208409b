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
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace comp::rpc {

class SessionMemory {
 public:
  explicit SessionMemory(std::filesystem::path root, std::size_t max_entries = 200);

  // `entry` holds tool, query, files [{path, sha256, tokens}], symbols,
  // tokens_sent, tokens_saved; time, id and stale are added here.
  void record(nlohmann::json entry);
  // {"version": 1, "entries": [...]} (oldest first); empty when absent or unreadable.
  nlohmann::json load() const;
  // Marks stale the entries with a file whose hash is no longer `current`
  // (nullopt: gone from the index). Returns how many became stale.
  std::size_t refresh(const std::function<std::optional<std::string>(const std::string& path)>& current);
  void clear();
  const std::filesystem::path& path() const { return path_; }

 private:
  // Runs `change` on the current document under the lock and writes the result.
  void update(const std::function<bool(nlohmann::json& document)>& change);

  std::filesystem::path root_, path_;
  std::size_t max_entries_;
};

}  // namespace comp::rpc
