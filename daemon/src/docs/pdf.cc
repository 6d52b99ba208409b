// PDF text through poppler's `pdftotext`, run as a child process: a PDF
// parser is a large attack surface, so it runs outside the daemon with an
// address-space limit (Limits::pdf_memory_bytes), a CPU limit and a
// wall-clock timeout (Limits::pdf_timeout, SIGKILL), no core dumps, no files
// written, stdin from /dev/null and no inherited descriptors.
//
// Invariants:
//  - never a shell: the child execs pdftotext's absolute path (found on PATH
//    by the parent, so the child between fork and exec only makes
//    async-signal-safe calls) with an argument vector;
//  - the PDF's path is made absolute, so it starts with '/' and can never be
//    read as an option (pdftotext does not accept "--");
//  - the text read is bounded by Limits::max_text_bytes (the child is killed
//    when it writes more), stderr by kMaxStderr.
//
// Reading mode: pdftotext's default (reading order), not -layout: -layout pads
// columns with runs of spaces and splits sentences across table-like columns,
// which reads worse for search and for a model.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "docs/document.h"

extern char** environ;

namespace comp::docs {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxStderr = 64 << 10;
constexpr std::size_t kMaxSignature = 120;
constexpr std::size_t kMaxWarnings = 5;

// An owned descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// pdftotext's absolute path from PATH, or "" when it is not installed.
std::string find_pdftotext() {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const std::size_t colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    if (!dir.empty() && dir.front() == '/') {
      std::string candidate = std::string(dir) + "/pdftotext";
      struct stat st {};
      if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
        return candidate;
      }
    }
    if (colon == std::string_view::npos) return "";
    dirs.remove_prefix(colon + 1);
  }
}

std::string trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

// At most `max` bytes, cut at a UTF-8 character boundary.
std::string cut_utf8(std::string s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  s.resize(end);
  return s;
}

std::vector<std::string> nonempty_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string line = trim(text.substr(0, nl));
    if (!line.empty()) lines.push_back(std::move(line));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

struct ChildResult {
  std::string out, err;
  int status = 0;
  bool timed_out = false;
  bool truncated = false;  // killed for writing more than the text limit
  std::string spawn_error;
};

// The child's resource limits, computed before fork.
struct ChildLimits {
  rlimit memory, cpu, zero;
};

ChildLimits child_limits(const Limits& limits) {
  const auto seconds = static_cast<rlim_t>(
      std::max<long long>(std::chrono::ceil<std::chrono::seconds>(limits.pdf_timeout).count(), 0));
  const auto memory = static_cast<rlim_t>(limits.pdf_memory_bytes);
  return {{memory, memory}, {seconds + 1, seconds + 2}, {0, 0}};
}

// Between fork and exec: only async-signal-safe calls (the parent may have
// other threads holding locks). Never returns.
[[noreturn]] void exec_child(const char* program, char* const argv[], int devnull, int out, int err,
                             const ChildLimits& limits, int max_fd) {
  if (::dup2(devnull, STDIN_FILENO) < 0 || ::dup2(out, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0) {
    ::_exit(126);
  }
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
  {
    for (int fd = 3; fd < max_fd; ++fd) ::close(fd);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &dfl, nullptr);
  ::setrlimit(RLIMIT_AS, &limits.memory);
  ::setrlimit(RLIMIT_CPU, &limits.cpu);      // SIGXCPU if the wall clock somehow does not stop it
  ::setrlimit(RLIMIT_CORE, &limits.zero);
  ::setrlimit(RLIMIT_FSIZE, &limits.zero);  // stdout is a pipe: pdftotext writes no file
  ::execve(program, argv, environ);
  ::_exit(127);
}

ChildResult run_pdftotext(const std::string& program, const std::string& pdf, const Limits& limits) {
  ChildResult result;
  std::vector<std::string> args = {program, "-enc", "UTF-8", "-eol", "unix", pdf, "-"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  Fd out_read(out_pipe[0]), out_write(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  Fd err_read(err_pipe[0]), err_write(err_pipe[1]);
  Fd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (devnull.get() < 0) {
    result.spawn_error = std::string("/dev/null: ") + std::strerror(errno);
    return result;
  }
  rlimit files{};
  const int max_fd = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
                         ? static_cast<int>(std::min<rlim_t>(files.rlim_cur, 1 << 20))
                         : 65536;

  const ChildLimits rlimits = child_limits(limits);
  const auto deadline = std::chrono::steady_clock::now() + limits.pdf_timeout;
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.spawn_error = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) exec_child(program.c_str(), argv.data(), devnull.get(), out_write.get(), err_write.get(), rlimits, max_fd);
  out_write.reset();
  err_write.reset();
  devnull.reset();

  std::array<pollfd, 2> fds = {pollfd{out_read.get(), POLLIN, 0}, pollfd{err_read.get(), POLLIN, 0}};
  std::array<char, 65536> buf;
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf.data(), buf.size());
      if (n > 0) {
        std::string& sink = i == 0 ? result.out : result.err;
        const std::size_t cap = i == 0 ? limits.max_text_bytes : kMaxStderr;
        const std::size_t room = cap - std::min(cap, sink.size());
        if (i == 0 && static_cast<std::size_t>(n) > room) result.truncated = true;
        sink.append(buf.data(), std::min(static_cast<std::size_t>(n), room));
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        fds[i].fd = -1;  // EOF or error: stop polling it (the Fd closes it)
      }
    }
    if (result.truncated) break;
  }
  out_read.reset();
  err_read.reset();
  // The pipes are closed; the child normally exits at once. One that lingers
  // past the deadline is killed like one that wrote too long.
  while (!result.timed_out && !result.truncated) {
    const pid_t done = ::waitpid(pid, &result.status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) return result;
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      break;
    }
    ::usleep(1000);
  }
  ::kill(pid, SIGKILL);
  while (::waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
  }
  return result;
}

// One Section per page: pdftotext ends every page with a form feed.
void split_pages(std::string_view text, bool truncated, Document& doc) {
  std::size_t page = 0;
  while (!text.empty()) {
    const std::size_t ff = text.find('\f');
    const std::string_view body = text.substr(0, ff);
    Section s;
    s.kind = "page";
    s.name = "Page " + std::to_string(++page);
    std::string page_text(body);
    while (!page_text.empty() && (page_text.back() == ' ' || page_text.back() == '\n' || page_text.back() == '\t' ||
                                  page_text.back() == '\r')) {
      page_text.pop_back();
    }
    const std::vector<std::string> lines = nonempty_lines(page_text);
    if (!lines.empty()) s.signature = cut_utf8(lines.front(), kMaxSignature);
    s.text = std::move(page_text);
    doc.sections.push_back(std::move(s));
    if (ff == std::string_view::npos) {
      if (!truncated) doc.errors.push_back("pdftotext output ended inside page " + std::to_string(page));
      break;
    }
    text.remove_prefix(ff + 1);
  }
}

}  // namespace

Document extract_pdf(const fs::path& file, const Limits& limits) {
  Document doc;
  doc.format = Format::kPdf;
  try {
    std::error_code ec;
    const fs::path path = file.is_absolute() ? file : fs::absolute(file, ec);
    if (ec || path.empty() || path.native().front() != '/') {
      doc.skip_reason = "cannot make the PDF's path absolute";
      return doc;
    }
    const std::string program = find_pdftotext();
    if (program.empty()) {
      doc.skip_reason = "pdftotext not installed (Debian poppler-utils)";
      return doc;
    }
    ChildResult child = run_pdftotext(program, path.native(), limits);
    if (!child.spawn_error.empty()) {
      doc.skip_reason = "cannot run pdftotext: " + child.spawn_error;
      return doc;
    }
    if (child.timed_out) {
      doc.skip_reason = "timeout";
      return doc;
    }
    const std::vector<std::string> messages = nonempty_lines(child.err);
    if (!child.truncated) {
      if (WIFSIGNALED(child.status)) {
        const int signal = WTERMSIG(child.status);
        doc.skip_reason = signal == SIGXCPU ? "timeout (CPU limit)"
                                            : "pdftotext crashed (signal " + std::to_string(signal) + ")";
        return doc;
      }
      const int code = WIFEXITED(child.status) ? WEXITSTATUS(child.status) : -1;
      if (code != 0) {
        // pdftotext prints warnings first and the fatal error last.
        const std::string cause = messages.empty() ? "" : cut_utf8(messages.back(), 300);
        if (cause.find("Incorrect password") != std::string::npos) {
          doc.skip_reason = "encrypted (pdftotext: " + cause + ")";
        } else if (code == 127 && messages.empty()) {
          doc.skip_reason = "cannot run pdftotext (" + program + ")";
        } else {
          doc.skip_reason = "pdftotext failed (exit " + std::to_string(code) + ")" + (cause.empty() ? "" : ": " + cause);
        }
        return doc;
      }
    }
    for (std::size_t i = 0; i < messages.size() && i < kMaxWarnings; ++i) {
      doc.errors.push_back("pdftotext: " + cut_utf8(messages[i], 300));
    }
    if (messages.size() > kMaxWarnings) {
      doc.errors.push_back("pdftotext: " + std::to_string(messages.size() - kMaxWarnings) + " more messages");
    }
    if (child.truncated) {
      doc.errors.push_back("PDF text cut at max_text_bytes (" + std::to_string(limits.max_text_bytes) + " bytes)");
    }
    split_pages(child.out, child.truncated, doc);
  } catch (const std::exception& e) {
    doc.sections.clear();
    doc.skip_reason = std::string("PDF extraction failed: ") + e.what();
  }
  return doc;
}

}  // namespace comp::docs
