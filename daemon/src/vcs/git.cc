#include "vcs/git.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <utility>

extern char** environ;

namespace comp::vcs {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxOutput = std::size_t{256} << 20;  // per command, stdout + stderr
constexpr std::size_t kBinaryProbe = 8000;                   // git's buffer_is_binary() window

// ---------------------------------------------------------------------------
// Running git

struct GitResult {
  int exit_code = -1;  // 128 + signal number when killed
  std::string out;
  std::string err;
};

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// The parent's environment with git's behaviour pinned down.
std::vector<std::string> git_environment() {
  static constexpr std::array<std::string_view, 5> kDropped = {
      "LC_ALL", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS", "GIT_DIFF_OPTS", "GIT_EXTERNAL_DIFF"};
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    if (std::find(kDropped.begin(), kDropped.end(), name) == kDropped.end()) env.emplace_back(entry);
  }
  env.emplace_back("LC_ALL=C");
  env.emplace_back("GIT_TERMINAL_PROMPT=0");
  env.emplace_back("GIT_OPTIONAL_LOCKS=0");
  return env;
}

std::string root_arg(const fs::path& root) { return root.empty() ? std::string(".") : root.string(); }

// `git -C <root> -c core.quotepath=off <args...>`, stdin from /dev/null,
// stdout and stderr captured (both drained with poll, so neither pipe can
// fill up and block git).
GitResult run_git(const fs::path& root, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git", "-C", root_arg(root), "-c", "core.quotepath=off"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> argv_ptrs;
  for (auto& a : argv) argv_ptrs.push_back(a.data());
  argv_ptrs.push_back(nullptr);
  std::vector<std::string> env = git_environment();
  std::vector<char*> env_ptrs;
  for (auto& e : env) env_ptrs.push_back(e.data());
  env_ptrs.push_back(nullptr);

  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    throw GitError(GitError::Kind::kFailed, std::string("pipe: ") + std::strerror(errno));
  }
  Fd out_read(out_pipe[0]), out_write(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    throw GitError(GitError::Kind::kFailed, std::string("pipe: ") + std::strerror(errno));
  }
  Fd err_read(err_pipe[0]), err_write(err_pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t empty_mask;
  sigemptyset(&empty_mask);
  sigset_t default_signals;
  sigemptyset(&default_signals);
  sigaddset(&default_signals, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &empty_mask);
  posix_spawnattr_setsigdefault(&attr, &default_signals);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, "git", &actions, &attr, argv_ptrs.data(), env_ptrs.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  out_write.reset();
  err_write.reset();
  if (rc == ENOENT) throw GitError(GitError::Kind::kGitMissing, "git not found on PATH");
  if (rc != 0) {
    throw GitError(GitError::Kind::kFailed, std::string("cannot run git: ") + std::strerror(rc));
  }

  GitResult result;
  bool too_large = false;
  std::array<pollfd, 2> fds = {pollfd{out_read.get(), POLLIN, 0}, pollfd{err_read.get(), POLLIN, 0}};
  std::array<std::string*, 2> sinks = {&result.out, &result.err};
  std::array<char, 65536> buf;
  while ((fds[0].fd >= 0 || fds[1].fd >= 0) && !too_large) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf.data(), buf.size());
      if (n > 0) {
        sinks[i]->append(buf.data(), static_cast<std::size_t>(n));
        if (result.out.size() + result.err.size() > kMaxOutput) too_large = true;
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // EOF or error: stop polling it (the Fd closes it)
      }
    }
  }
  if (too_large) ::kill(pid, SIGKILL);
  out_read.reset();
  err_read.reset();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (too_large) {
    throw GitError(GitError::Kind::kFailed,
                   "git output exceeds " + std::to_string(kMaxOutput >> 20) + " MiB: git " + args.front());
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  // An exec failure that posix_spawnp did not report itself (exit 127, silent).
  if (result.exit_code == 127 && result.out.empty() && result.err.empty()) {
    throw GitError(GitError::Kind::kGitMissing, "git not found on PATH");
  }
  return result;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string describe_failure(const std::vector<std::string>& args, const GitResult& r) {
  std::string message = "git " + args.front() + " failed (exit " + std::to_string(r.exit_code) + ")";
  const std::string err = trim(r.err);
  if (!err.empty()) message += ": " + err;
  return message;
}

// Throws unless root is inside a git work tree.
void require_work_tree(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root.empty() ? fs::path(".") : root, ec)) {
    throw GitError(GitError::Kind::kNotARepository, "not a git repository: " + root.string() + " (no such directory)");
  }
  const std::vector<std::string> args = {"rev-parse", "--is-inside-work-tree"};
  const GitResult r = run_git(root, args);
  if (r.exit_code == 0 && trim(r.out) == "true") return;
  if (r.exit_code == 0 || r.err.find("not a git repository") != std::string::npos) {
    throw GitError(GitError::Kind::kNotARepository, "not a git repository: " + root.string());
  }
  throw GitError(GitError::Kind::kFailed, describe_failure(args, r));
}

bool is_commit_id(std::string_view s) {
  if (s.size() != 40 && s.size() != 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// rev-parse --verify of `expression`: the object id, or nullopt.
std::optional<std::string> verify(const fs::path& root, const std::string& expression) {
  const std::vector<std::string> args = {"rev-parse", "--verify", "--quiet", "--end-of-options", expression};
  const GitResult r = run_git(root, args);
  if (r.exit_code == 0) return trim(r.out);
  if (r.exit_code == 1) return std::nullopt;  // --quiet: "no such object", nothing on stderr
  if (r.err.find("not a git repository") != std::string::npos) {
    throw GitError(GitError::Kind::kNotARepository, "not a git repository: " + root.string());
  }
  throw GitError(GitError::Kind::kFailed, describe_failure(args, r));
}

std::string resolve(const fs::path& root, std::string_view ref) {
  if (ref.empty()) throw GitError(GitError::Kind::kBadRef, "bad ref: empty");
  const std::string shown(ref);
  if (ref.front() == '-') {
    throw GitError(GitError::Kind::kBadRef, "bad ref '" + shown + "': a ref cannot start with '-'");
  }
  if (ref.find('\0') != std::string_view::npos) {
    throw GitError(GitError::Kind::kBadRef, "bad ref: contains a NUL byte");
  }
  std::optional<std::string> id = verify(root, shown + "^{commit}");
  // `<rev>:<path>^{commit}` reads as a path ending in "^{commit}": check what
  // such a ref resolved to.
  if (id && ref.find(':') != std::string_view::npos) {
    const std::vector<std::string> args = {"cat-file", "-t", *id};
    const GitResult r = run_git(root, args);
    if (r.exit_code != 0 || trim(r.out) != "commit") id.reset();
  }
  if (!id) {
    std::string message = "bad ref '" + shown + "': no commit by that name";
    if (!verify(root, "HEAD^{commit}")) message += " (the repository has no commits yet)";
    throw GitError(GitError::Kind::kBadRef, message);
  }
  if (!is_commit_id(*id)) {
    throw GitError(GitError::Kind::kFailed, "git rev-parse returned an unexpected id for '" + shown + "': " + *id);
  }
  return *id;
}

// ---------------------------------------------------------------------------
// Parsing `git diff --unified=0`

// Reads a C-quoted string ("..." with git's quote_c_style escapes) at the
// start of `s`; advances `s` past it. nullopt when malformed.
std::optional<std::string> unquote_c(std::string_view& s) {
  if (s.empty() || s.front() != '"') return std::nullopt;
  std::string out;
  std::size_t i = 1;
  while (i < s.size()) {
    const char c = s[i++];
    if (c == '"') {
      s.remove_prefix(i);
      return out;
    }
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (i >= s.size()) return std::nullopt;
    const char e = s[i++];
    switch (e) {
      case 'a': out.push_back('\a'); break;
      case 'b': out.push_back('\b'); break;
      case 't': out.push_back('\t'); break;
      case 'n': out.push_back('\n'); break;
      case 'v': out.push_back('\v'); break;
      case 'f': out.push_back('\f'); break;
      case 'r': out.push_back('\r'); break;
      case '\\': out.push_back('\\'); break;
      case '"': out.push_back('"'); break;
      default:
        if (e >= '0' && e <= '3' && i + 1 < s.size() && s[i] >= '0' && s[i] <= '7' && s[i + 1] >= '0' &&
            s[i + 1] <= '7') {
          out.push_back(static_cast<char>(((e - '0') << 6) | ((s[i] - '0') << 3) | (s[i + 1] - '0')));
          i += 2;
        } else {
          return std::nullopt;
        }
    }
  }
  return std::nullopt;
}

// A whole path field: C-quoted, or verbatim.
std::optional<std::string> path_field(std::string_view s) {
  if (!s.empty() && s.front() == '"') {
    std::optional<std::string> p = unquote_c(s);
    if (!p || !s.empty()) return std::nullopt;
    return p;
  }
  return std::string(s);
}

std::optional<std::string> strip_prefix(std::optional<std::string> p, std::string_view prefix) {
  if (!p || p->compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  return p->substr(prefix.size());
}

// "a/<old> b/<new>" after "diff --git ". An unquoted pair is ambiguous when
// the names hold spaces; it is split only when both names are equal (for
// renames, "rename from/to" and "---/+++" give the names).
std::pair<std::string, std::string> parse_git_header(std::string_view rest) {
  std::optional<std::string> a, b;
  if (!rest.empty() && rest.front() == '"') {
    a = strip_prefix(unquote_c(rest), "a/");
    if (a && !rest.empty() && rest.front() == ' ') b = strip_prefix(path_field(rest.substr(1)), "b/");
  } else if (const std::size_t q = rest.find('"'); q != std::string_view::npos) {
    // An unquoted name never holds '"' (git quotes those), so this starts the second.
    if (q >= 1 && rest[q - 1] == ' ') {
      a = strip_prefix(std::string(rest.substr(0, q - 1)), "a/");
      b = strip_prefix(path_field(rest.substr(q)), "b/");
    }
  } else if (rest.size() >= 5 && (rest.size() - 5) % 2 == 0) {
    const std::size_t n = (rest.size() - 5) / 2;
    if (rest.substr(0, 2) == "a/" && rest.substr(2 + n, 3) == " b/" && rest.substr(2, n) == rest.substr(5 + n)) {
      a = std::string(rest.substr(2, n));
      b = a;
    }
  }
  if (!a || !b) return {};
  return {std::move(*a), std::move(*b)};
}

// "--- a/x" / "+++ b/x": the name, "" for /dev/null, nullopt when unreadable.
// git appends a tab to an unquoted name that holds a space.
std::optional<std::string> parse_side(std::string_view s, std::string_view prefix) {
  if (s == "/dev/null") return std::string();
  if (s.empty()) return std::nullopt;
  if (s.front() != '"' && s.back() == '\t') s.remove_suffix(1);
  return strip_prefix(path_field(s), prefix);
}

bool parse_count(std::string_view& s, std::uint32_t& value) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr == s.data()) return false;
  s.remove_prefix(static_cast<std::size_t>(ptr - s.data()));
  return true;
}

// "-a[,b]" or "+c[,d]" -> LineRange; a count of 0 means "just after line a",
// i.e. before line a + 1.
bool parse_hunk_side(std::string_view& s, char sign, LineRange& range) {
  if (s.empty() || s.front() != sign) return false;
  s.remove_prefix(1);
  std::uint32_t start = 0, count = 1;
  if (!parse_count(s, start)) return false;
  if (!s.empty() && s.front() == ',') {
    s.remove_prefix(1);
    if (!parse_count(s, count)) return false;
  }
  range = {count == 0 ? start + 1 : start, count};
  return true;
}

// "@@ -a,b +c,d @@ ...".
bool parse_hunk(std::string_view line, LineRange& old_range, LineRange& new_range) {
  std::string_view s = line.substr(3);
  if (!parse_hunk_side(s, '-', old_range)) return false;
  if (s.empty() || s.front() != ' ') return false;
  s.remove_prefix(1);
  if (!parse_hunk_side(s, '+', new_range)) return false;
  return s.substr(0, 3) == " @@";
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

struct PendingFile {
  FileChange change;
  std::string header_old, header_new;  // from the "diff --git" line
  bool in_hunks = false;
};

void finish(std::optional<PendingFile>& pending, std::vector<FileChange>& out) {
  if (!pending) return;
  FileChange& c = pending->change;
  if (c.old_path.empty()) c.old_path = pending->header_old;
  if (c.path.empty()) c.path = pending->header_new;
  if (c.status == 'A') {
    c.old_path = c.path;
    c.old_ranges.clear();
  } else if (c.status == 'D') {
    c.path = c.old_path;
    c.new_ranges.clear();
  } else if (c.status != 'R') {
    if (c.path.empty()) c.path = c.old_path;
    c.old_path = c.path;
  }
  if (!c.path.empty()) out.push_back(std::move(c));
  pending.reset();
}

std::vector<FileChange> parse_diff(std::string_view text) {
  std::vector<FileChange> out;
  std::optional<PendingFile> pending;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);

    if (starts_with(line, "diff --git ")) {
      finish(pending, out);
      pending.emplace();
      std::tie(pending->header_old, pending->header_new) = parse_git_header(line.substr(11));
      continue;
    }
    if (!pending) continue;  // e.g. "* Unmerged path x"
    FileChange& c = pending->change;
    if (starts_with(line, "@@ ")) {
      LineRange old_range, new_range;
      if (parse_hunk(line, old_range, new_range)) {
        c.old_ranges.push_back(old_range);
        c.new_ranges.push_back(new_range);
      }
      pending->in_hunks = true;
      continue;
    }
    if (pending->in_hunks) continue;  // hunk body: ' ', '+', '-', '\' lines
    if (starts_with(line, "new file mode ")) {
      c.status = 'A';
    } else if (starts_with(line, "deleted file mode ")) {
      c.status = 'D';
    } else if (starts_with(line, "rename from ") || starts_with(line, "copy from ")) {
      if (auto p = path_field(line.substr(line.find(" from ") + 6))) c.old_path = *p;
      c.status = line[0] == 'r' ? 'R' : 'A';  // copies only with -C; shown as additions
    } else if (starts_with(line, "rename to ") || starts_with(line, "copy to ")) {
      if (auto p = path_field(line.substr(line.find(" to ") + 4))) c.path = *p;
    } else if (starts_with(line, "--- ")) {
      if (auto p = parse_side(line.substr(4), "a/"); p && !p->empty()) c.old_path = *p;
    } else if (starts_with(line, "+++ ")) {
      if (auto p = parse_side(line.substr(4), "b/"); p && !p->empty()) c.path = *p;
    } else if (starts_with(line, "Binary files ")) {
      c.binary = true;
    }
  }
  finish(pending, out);
  return out;
}

// ---------------------------------------------------------------------------
// Untracked files

std::vector<std::string> split_nul(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const std::size_t end = s.find('\0');
    out.emplace_back(s.substr(0, end));
    if (end == std::string_view::npos) break;
    s.remove_prefix(end + 1);
  }
  return out;
}

bool safe_relative(std::string_view p) {
  if (p.empty() || p.front() == '/' || p.find('\0') != std::string_view::npos) return false;
  while (!p.empty()) {
    const std::size_t slash = p.find('/');
    const std::string_view part = p.substr(0, slash);
    if (part == "..") return false;
    if (slash == std::string_view::npos) break;
    p.remove_prefix(slash + 1);
  }
  return true;
}

// An untracked file as a whole-file addition; nullopt for anything but a
// regular file (symlinks are not followed, not even inside root).
std::optional<FileChange> untracked_change(const fs::path& root, const std::string& rel) {
  const fs::path full = root / rel;
  struct stat st;
  if (::lstat(full.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  Fd fd(::open(full.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;

  FileChange c;
  c.path = rel;
  c.old_path = rel;
  c.status = 'A';
  std::uint64_t lines = 0, total = 0;
  char last = '\n';
  std::array<char, 65536> buf;
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::string_view chunk(buf.data(), static_cast<std::size_t>(n));
    if (total < kBinaryProbe && chunk.substr(0, kBinaryProbe - total).find('\0') != std::string_view::npos) {
      c.binary = true;
      return c;
    }
    lines += static_cast<std::uint64_t>(std::count(chunk.begin(), chunk.end(), '\n'));
    last = chunk.back();
    total += chunk.size();
  }
  if (last != '\n') ++lines;  // a last line without newline
  if (lines > 0) c.new_ranges.push_back({1, static_cast<std::uint32_t>(std::min<std::uint64_t>(lines, UINT32_MAX))});
  return c;
}

}  // namespace

std::string resolve_commit(const fs::path& root, std::string_view ref) {
  require_work_tree(root);
  return resolve(root, ref);
}

std::vector<FileChange> changes_since(const fs::path& root, std::string_view ref) {
  require_work_tree(root);
  const std::string commit = resolve(root, ref);

  const std::vector<std::string> diff_args = {
      "diff",           "--no-color",    "--no-ext-diff",      "--no-textconv",
      "--src-prefix=a/", "--dst-prefix=b/", "--submodule=short", "--inter-hunk-context=0",
      "-M",             "--unified=0",   "--relative",         commit,
      "--"};
  const GitResult diff = run_git(root, diff_args);
  if (diff.exit_code != 0) throw GitError(GitError::Kind::kFailed, describe_failure(diff_args, diff));
  std::vector<FileChange> changes = parse_diff(diff.out);

  const std::vector<std::string> ls_args = {"ls-files", "--others", "--exclude-standard", "-z"};
  const GitResult ls = run_git(root, ls_args);
  if (ls.exit_code != 0) throw GitError(GitError::Kind::kFailed, describe_failure(ls_args, ls));
  for (const std::string& rel : split_nul(ls.out)) {
    // "dir/" is a nested repository; never anything outside root.
    if (!safe_relative(rel) || rel.back() == '/') continue;
    if (auto c = untracked_change(root, rel)) changes.push_back(std::move(*c));
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const FileChange& x, const FileChange& y) { return x.path < y.path; });
  return changes;
}

std::optional<std::string> file_at(const fs::path& root, const std::string& commit, const std::string& rel_path) {
  if (!safe_relative(rel_path)) {
    throw GitError(GitError::Kind::kFailed, "invalid path '" + rel_path + "': must be relative, without '..'");
  }
  require_work_tree(root);
  const std::string id = resolve(root, commit);
  // "./" makes the path relative to root (git -C root), not to the top level.
  const std::string object = id + ":./" + rel_path;
  const std::vector<std::string> args = {"cat-file", "blob", object};
  GitResult r = run_git(root, args);
  if (r.exit_code == 0) return std::move(r.out);
  // Absent, a tree, or a submodule: no file there.
  const std::optional<std::string> oid = verify(root, object);
  if (!oid) return std::nullopt;
  const std::vector<std::string> type_args = {"cat-file", "-t", *oid};
  const GitResult type = run_git(root, type_args);
  if (type.exit_code != 0 || trim(type.out) != "blob") return std::nullopt;
  throw GitError(GitError::Kind::kFailed, describe_failure(args, r));
}

Head head(const fs::path& root) {
  Head found;
  std::error_code ec;
  if (!fs::is_directory(root.empty() ? fs::path(".") : root, ec)) return found;
  GitResult r;
  try {
    r = run_git(root, {"rev-parse", "--is-inside-work-tree", "--absolute-git-dir", "--verify", "--quiet",
                       "--end-of-options", "HEAD^{commit}"});
  } catch (const GitError&) {
    return found;  // git missing, or its output too large
  }
  // Exit 0: three lines; 1: HEAD names no commit yet, the first two printed.
  if (r.exit_code != 0 && r.exit_code != 1) return found;
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < r.out.size();) {
    std::size_t end = r.out.find('\n', start);
    if (end == std::string::npos) end = r.out.size();
    lines.push_back(r.out.substr(start, end - start));
    start = end + 1;
  }
  // Inside .git itself git answers "false": no work tree, no history.
  if (lines.size() < 2 || lines[0] != "true") return found;
  const fs::path git_dir(lines[1]);
  if (!git_dir.is_absolute() || !fs::is_directory(git_dir, ec)) return found;  // a newline in the path
  found.git_dir = git_dir;
  if (r.exit_code == 0 && lines.size() == 3 && is_commit_id(lines[2])) found.commit = lines[2];
  return found;
}

std::vector<std::vector<std::string>> commit_files(const fs::path& root, std::string_view commit, std::size_t count) {
  require_work_tree(root);
  const std::string id = resolve(root, commit);
  // Each commit: a NUL (its format), then the names, one per line.
  // Nothing the repository's configuration names runs: no diff driver, no
  // textconv filter, no signature check (log.showSignature would run
  // gpg.program, which a .git/config can point anywhere).
  const std::vector<std::string> args = {"log",           "--no-merges",        "--no-renames", "--no-color",
                                         "--no-ext-diff", "--no-textconv",      "--no-show-signature",
                                         "--relative",    "--format=%x00",      "--name-only",
                                         "-n",            std::to_string(count), id,             "--"};
  const GitResult r = run_git(root, args);
  if (r.exit_code != 0) throw GitError(GitError::Kind::kFailed, describe_failure(args, r));
  std::vector<std::vector<std::string>> commits;
  std::string_view out = r.out;
  const std::size_t first = out.find('\0');
  if (first == std::string_view::npos) return commits;
  out.remove_prefix(first + 1);
  for (;;) {
    const std::size_t end = out.find('\0');
    std::string_view block = out.substr(0, end);
    std::vector<std::string>& files = commits.emplace_back();
    while (!block.empty()) {
      const std::size_t eol = block.find('\n');
      const std::string_view line = block.substr(0, eol);
      block.remove_prefix(eol == std::string_view::npos ? block.size() : eol + 1);
      if (line.empty()) continue;
      std::optional<std::string> path = path_field(line);
      if (path && safe_relative(*path)) files.push_back(std::move(*path));
    }
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    if (end == std::string_view::npos) break;
    out.remove_prefix(end + 1);
  }
  return commits;
}

}  // namespace comp::vcs
