#include "rpc/session_memory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "graph/store.h"
#include "rpc/codec.h"
#include "server/log.h"
#include "walk/walker.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace comp::rpc {
namespace {

json empty_document() { return {{"version", 1}, {"entries", json::array()}}; }

json read_document(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return empty_document();
  std::stringstream text;
  text << in.rdbuf();
  json document = json::parse(text.str(), nullptr, false);
  if (document.is_discarded() || !document.is_object() || !document.contains("entries") ||
      !document["entries"].is_array())
    return empty_document();
  return document;
}

// Writes `text` to a temporary file beside `path`, syncs it and renames it over.
void write_atomically(const fs::path& path, const std::string& text) {
  fs::path temporary = path;
  temporary += ".tmp-" + std::to_string(getpid());
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "write " + temporary.string());
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int error = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      throw std::system_error(error, std::generic_category(), "write " + temporary.string());
    }
    written += static_cast<std::size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    int error = errno;
    ::unlink(temporary.c_str());
    throw std::system_error(error, std::generic_category(), "rename to " + path.string());
  }
}

class FileLock {
 public:
  explicit FileLock(const fs::path& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "open " + path.string());
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "flock " + path.string());
  }
  ~FileLock() { ::close(fd_); }

 private:
  int fd_ = -1;
};

std::atomic<std::uint64_t> g_sequence{0};

// What identifies one version of the file: every write replaces it (a new
// inode), and size and mtime tell a reused inode apart.
std::optional<SessionMemory::Stamp> stamp_of(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  return SessionMemory::Stamp{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
                              static_cast<std::int64_t>(info.st_size), walk::mtime_ns_of(info)};
}

}  // namespace

SessionMemory::SessionMemory(fs::path root, std::size_t max_entries)
    : root_(std::move(root)),
      path_(root_ / ".comp" / "session-memory.json"),
      max_entries_(max_entries),
      writer_([this] { write_queued(); }) {}

SessionMemory::~SessionMemory() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  writer_.join();
}

void SessionMemory::write_queued() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queued_.empty(); });
    if (queued_.empty()) return;  // stopping, with nothing left to write
    std::vector<json> batch = std::move(queued_);
    queued_.clear();
    writing_ = true;
    lock.unlock();
    try {
      update([&](json& document) {
        for (json& entry : batch) document["entries"].push_back(std::move(entry));
        return true;
      });
    } catch (const std::exception& error) {
      server::log(server::LogLevel::kWarn, std::string("session memory not written: ") + error.what());
    }
    lock.lock();
    writing_ = false;
    changed_.notify_all();
  }
}

void SessionMemory::flush() const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queued_.empty() && !writing_; });
}

json SessionMemory::load() const {
  flush();
  return read_document(path_);
}

void SessionMemory::update(const std::function<bool(json& document)>& change) {
  FileLock lock(graph::Store::ensure_directory(root_) / "session-memory.lock");
  // The document this process last wrote or read, unless the file is another
  // version now (another process wrote it, or it was removed).
  std::optional<Stamp> stamp = stamp_of(path_);
  if (!stamp || !cached_stamp_ || !(*stamp == *cached_stamp_)) cached_ = read_document(path_);
  cached_stamp_.reset();  // the file's version again once written (or left unchanged)
  if (!change(cached_)) {
    cached_stamp_ = stamp;
    return;
  }
  json& entries = cached_["entries"];
  if (entries.size() > max_entries_) entries.erase(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(entries.size() - max_entries_));
  write_atomically(path_, dump(cached_, 1) + "\n");
  cached_stamp_ = stamp_of(path_);
}

void SessionMemory::record(json entry) {
  entry["id"] = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count()) +
                "-" + std::to_string(getpid()) + "-" + std::to_string(g_sequence++);
  entry["time"] = server::utc_now(/*with_date=*/true);
  entry["stale"] = false;
  entry["stale_files"] = json::array();
  {
    std::lock_guard lock(mutex_);
    queued_.push_back(std::move(entry));
  }
  changed_.notify_all();
}

std::size_t SessionMemory::refresh(const std::function<std::optional<std::string>(const std::string&)>& current) {
  flush();
  if (!fs::exists(path_)) return 0;
  std::size_t newly_stale = 0;
  // Entries share many files: each is looked up once.
  std::unordered_map<std::string, std::optional<std::string>> hashes;
  update([&](json& document) {
    bool any = false;
    for (json& entry : document["entries"]) {
      if (!entry.is_object() || !entry.contains("files") || !entry["files"].is_array()) continue;
      json stale_files = entry.value("stale_files", json::array());
      bool changed = false;
      for (const json& file : entry["files"]) {
        if (!file.is_object() || !file.contains("path") || !file["path"].is_string()) continue;
        const std::string& path = file["path"].get_ref<const std::string&>();
        if (std::find(stale_files.begin(), stale_files.end(), path) != stale_files.end()) continue;
        auto known = hashes.find(path);
        if (known == hashes.end()) known = hashes.emplace(path, current(path)).first;
        const std::optional<std::string>& now = known->second;
        if (now && *now == file.value("sha256", "")) continue;
        stale_files.push_back(path);
        changed = true;
      }
      if (!changed) continue;
      any = true;
      if (!entry.value("stale", false)) ++newly_stale;
      entry["stale"] = true;
      entry["stale_files"] = stale_files;
    }
    return any;
  });
  return newly_stale;
}

void SessionMemory::clear() {
  flush();
  update([](json& document) {
    document["entries"] = json::array();
    return true;
  });
}

}  // namespace comp::rpc
