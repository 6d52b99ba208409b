#include "index/writer_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "graph/store.h"

namespace fs = std::filesystem;

namespace comp::index {

WriterLock::WriterLock(const fs::path& root) {
  fs::path path = graph::Store::ensure_directory(root) / "index.lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) throw fs::filesystem_error("cannot open the index lock", path, std::error_code(errno, std::generic_category()));
}

WriterLock::~WriterLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

bool WriterLock::try_lock() {
  if (held_) return true;
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) return false;
    throw std::system_error(errno, std::generic_category(), "flock .comp/index.lock");
  }
  held_ = true;
  return true;
}

void WriterLock::lock() {
  if (held_) return;
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "flock .comp/index.lock");
  }
  held_ = true;
}

void WriterLock::unlock() {
  if (!held_) return;
  ::flock(fd_, LOCK_UN);
  held_ = false;
}

}  // namespace comp::index
