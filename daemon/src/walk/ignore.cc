#include "walk/ignore.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace comp::walk {
namespace {

// ---------------------------------------------------------------------------
// wildmatch
//
// Follows git's wildmatch.c step for step, because "exact git semantics"
// includes its corner cases (an unterminated '[' matches nothing, `**` is
// only special as a whole component, ...). The text and pattern are bounded
// views; reading past the end yields '\0', as git's NUL-terminated strings do.

enum WildResult { kWildMatch, kWildNoMatch, kWildAbortAll, kWildAbortToStarStar };

using uchar = unsigned char;

bool is_glob_special(uchar c) { return c == '*' || c == '?' || c == '[' || c == '\\'; }

// git's sane_ctype classes are ASCII-only and locale-independent.
bool is_ascii_alpha(uchar c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ascii_digit(uchar c) { return c >= '0' && c <= '9'; }
bool is_git_space(uchar c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_ascii_print(uchar c) { return c >= 0x20 && c <= 0x7e; }

// Matches `[:name:]` (name = [s, s+len)) against `c`; false with *known
// unset when the class name is not one git knows.
bool class_contains(const uchar* s, std::size_t len, uchar c, bool* known) {
  std::string_view name(reinterpret_cast<const char*>(s), len);
  *known = true;
  if (name == "alnum") return is_ascii_alpha(c) || is_ascii_digit(c);
  if (name == "alpha") return is_ascii_alpha(c);
  if (name == "blank") return c == ' ' || c == '\t';
  if (name == "cntrl") return c < 0x20 || c == 0x7f;
  if (name == "digit") return is_ascii_digit(c);
  if (name == "graph") return c > 0x20 && c < 0x7f;
  if (name == "lower") return c >= 'a' && c <= 'z';
  if (name == "print") return is_ascii_print(c);
  if (name == "punct") {
    return is_ascii_print(c) && c != ' ' && !is_ascii_alpha(c) && !is_ascii_digit(c);
  }
  if (name == "space") return is_git_space(c);
  if (name == "upper") return c >= 'A' && c <= 'Z';
  if (name == "xdigit") {
    return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
  *known = false;
  return false;
}

struct Wild {
  const uchar* pend;
  const uchar* tend;
  bool pathname;

  uchar pat(const uchar* p) const { return p < pend ? *p : 0; }
  uchar txt(const uchar* t) const { return t < tend ? *t : 0; }
  const uchar* find_slash(const uchar* t) const {
    if (t >= tend) return nullptr;
    return static_cast<const uchar*>(std::memchr(t, '/', tend - t));
  }

  int run(const uchar* p, const uchar* t) const {
    const uchar* const pattern_start = p;
    for (; p < pend; ++t, ++p) {
      uchar p_ch = *p;
      uchar t_ch = txt(t);
      if (t_ch == 0 && p_ch != '*') return kWildAbortAll;
      switch (p_ch) {
        case '\\':
          p_ch = pat(++p);
          [[fallthrough]];
        default:
          if (t_ch != p_ch) return kWildNoMatch;
          continue;
        case '?':
          if (pathname && t_ch == '/') return kWildNoMatch;
          continue;
        case '*': {
          bool match_slash;
          if (pat(++p) == '*') {
            const uchar* prev_p = p - 2;
            while (pat(++p) == '*') {
            }
            if (!pathname) {
              match_slash = true;
            } else if ((prev_p < pattern_start || *prev_p == '/') &&
                       (pat(p) == 0 || pat(p) == '/' || (pat(p) == '\\' && pat(p + 1) == '/'))) {
              // "**/" may also match no directory at all: try that first.
              if (pat(p) == '/' && run(p + 1, t) == kWildMatch) return kWildMatch;
              match_slash = true;
            } else {
              match_slash = false;
            }
          } else {
            match_slash = !pathname;
          }
          if (p >= pend) {
            // A trailing "*" must not swallow a directory separator.
            if (!match_slash && find_slash(t) != nullptr) return kWildNoMatch;
            return kWildMatch;
          }
          if (!match_slash && *p == '/') {
            // "*/" matches exactly the rest of the current component.
            const uchar* slash = find_slash(t);
            if (slash == nullptr) return kWildNoMatch;
            t = slash;
            break;  // the loop's increment consumes the '/' on both sides
          }
          while (true) {
            if (t_ch == 0) break;
            if (!is_glob_special(*p)) {
              // A literal after the star: skip text up to its next occurrence.
              const uchar lit = *p;
              while ((t_ch = txt(t)) != 0 && (match_slash || t_ch != '/')) {
                if (t_ch == lit) break;
                ++t;
              }
              if (t_ch != lit) return kWildNoMatch;
            }
            const int matched = run(p, t);
            if (matched != kWildNoMatch) {
              if (!match_slash || matched != kWildAbortToStarStar) return matched;
            } else if (!match_slash && t_ch == '/') {
              return kWildAbortToStarStar;
            }
            t_ch = txt(++t);
          }
          return kWildAbortAll;
        }
        case '[': {
          p_ch = pat(++p);
          if (p_ch == '^') p_ch = '!';
          const bool negated = p_ch == '!';
          if (negated) p_ch = pat(++p);
          uchar prev_ch = 0;
          bool matched = false;
          do {
            if (p_ch == 0) return kWildAbortAll;
            if (p_ch == '\\') {
              p_ch = pat(++p);
              if (p_ch == 0) return kWildAbortAll;
              if (t_ch == p_ch) matched = true;
            } else if (p_ch == '-' && prev_ch != 0 && pat(p + 1) != 0 && pat(p + 1) != ']') {
              p_ch = pat(++p);
              if (p_ch == '\\') {
                p_ch = pat(++p);
                if (p_ch == 0) return kWildAbortAll;
              }
              if (t_ch <= p_ch && t_ch >= prev_ch) matched = true;
              p_ch = 0;  // a range end cannot start another range
            } else if (p_ch == '[' && pat(p + 1) == ':') {
              const uchar* s = p + 2;
              p = s;
              while ((p_ch = pat(p)) != 0 && p_ch != ']') ++p;
              if (p_ch == 0) return kWildAbortAll;
              if (p - s - 1 < 0 || p[-1] != ':') {
                // No ":]": the '[' was an ordinary member of the set.
                p = s - 2;
                p_ch = '[';
                if (t_ch == p_ch) matched = true;
                continue;
              }
              bool known = false;
              if (class_contains(s, static_cast<std::size_t>(p - s - 1), t_ch, &known)) {
                matched = true;
              }
              if (!known) return kWildAbortAll;
              p_ch = 0;
            } else if (t_ch == p_ch) {
              matched = true;
            }
          } while (prev_ch = p_ch, (p_ch = pat(++p)) != ']');
          if (matched == negated || (pathname && t_ch == '/')) return kWildNoMatch;
          continue;
        }
      }
    }
    return t < tend ? kWildNoMatch : kWildMatch;
  }
};

// ---------------------------------------------------------------------------
// Pattern lines

// git's trim_trailing_spaces(): unescaped trailing spaces go (tabs stay); a
// line ending in a lone backslash is left untouched.
std::string_view trim_trailing_spaces(std::string_view line) {
  std::size_t last_space = std::string_view::npos;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ') {
      if (last_space == std::string_view::npos) last_space = i;
    } else if (c == '\\') {
      if (++i >= line.size()) return line;
      last_space = std::string_view::npos;
    } else {
      last_space = std::string_view::npos;
    }
  }
  return last_space == std::string_view::npos ? line : line.substr(0, last_space);
}

std::size_t wildcard_free_len(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && !is_glob_special(static_cast<uchar>(s[i]))) ++i;
  return i;
}

// git's parse_path_pattern(); nullopt for a pattern that can match nothing.
std::optional<IgnorePattern> parse_pattern(std::string_view p) {
  IgnorePattern out;
  if (!p.empty() && p[0] == '!') {
    out.negated = true;
    p.remove_prefix(1);
  }
  std::size_t len = p.size();
  if (len > 0 && p[len - 1] == '/') {
    --len;
    out.dir_only = true;
  }
  out.basename_only = p.substr(0, len).find('/') == std::string_view::npos;
  out.literal_len = std::min(wildcard_free_len(p), len);
  out.ends_with = !p.empty() && p[0] == '*' && wildcard_free_len(p.substr(1)) == p.size() - 1;
  out.glob.assign(p.substr(0, len));
  if (out.glob.empty()) return std::nullopt;  // git keeps it, but it never matches
  return out;
}

bool match_basename(std::string_view basename, const IgnorePattern& pat) {
  const std::string& g = pat.glob;
  if (pat.literal_len == g.size()) return basename == g;
  if (pat.ends_with) {
    return basename.size() + 1 >= g.size() &&
           basename.substr(basename.size() + 1 - g.size()) == std::string_view(g).substr(1);
  }
  return wildmatch(g, basename, false);
}

// git's match_pathname(): the pattern is anchored at `base`. The literal
// head is compared first and only the rest goes to wildmatch; this split is
// observable ("a**/b" matches "a/b"), so it is kept.
bool match_pathname(std::string_view path, std::string_view base, const IgnorePattern& pat) {
  std::string_view g = pat.glob;
  std::size_t prefix = pat.literal_len;
  if (g[0] == '/') {
    g.remove_prefix(1);
    --prefix;
  }
  const std::size_t baselen = base.empty() ? 0 : base.size() - 1;
  if (path.size() < baselen + 1 || (baselen != 0 && path[baselen] != '/') ||
      path.compare(0, baselen, base.substr(0, baselen)) != 0) {
    return false;
  }
  std::string_view name = baselen != 0 ? path.substr(baselen + 1) : path;
  if (prefix != 0) {
    if (prefix > name.size()) return false;
    if (name.compare(0, prefix, g.substr(0, prefix)) != 0) return false;
    g.remove_prefix(prefix);
    name.remove_prefix(prefix);
    if (g.empty() && name.empty()) return true;
  }
  return wildmatch(g, name, true);
}

// ---------------------------------------------------------------------------
// git config

// A cursor over config text that behaves like git's get_next_char(): CRLF
// reads as '\n', and the end reads as a final '\n' with eof set.
struct ConfigCursor {
  std::string_view text;
  std::size_t pos = 0;
  bool eof = false;

  int next() {
    if (pos >= text.size()) {
      eof = true;
      return '\n';
    }
    int c = static_cast<uchar>(text[pos++]);
    if (c == '\r' && pos < text.size() && text[pos] == '\n') {
      ++pos;
      c = '\n';
    }
    return c;
  }
};

bool is_key_char(int c) { return is_ascii_alpha(c) || is_ascii_digit(c) || c == '-'; }
int ascii_lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

// git's parse_value(); nullopt on a syntax error.
std::optional<std::string> parse_config_value(ConfigCursor& in) {
  std::string value;
  bool quote = false, comment = false;
  std::size_t spaces = 0;
  while (true) {
    int c = in.next();
    if (c == '\n') {
      if (quote) return std::nullopt;
      return value;
    }
    if (comment) continue;
    if (is_git_space(c) && !quote) {
      if (!value.empty()) ++spaces;
      continue;
    }
    if (!quote && (c == ';' || c == '#')) {
      comment = true;
      continue;
    }
    value.append(spaces, ' ');
    spaces = 0;
    if (c == '\\') {
      c = in.next();
      switch (c) {
        case '\n':
          continue;
        case 't':
          c = '\t';
          break;
        case 'b':
          c = '\b';
          break;
        case 'n':
          c = '\n';
          break;
        case '\\':
        case '"':
          break;
        default:
          return std::nullopt;
      }
      value.push_back(static_cast<char>(c));
      continue;
    }
    if (c == '"') {
      quote = !quote;
      continue;
    }
    value.push_back(static_cast<char>(c));
  }
}

// git's get_base_var() and get_extended_base_var(): reads a section header
// after '[' into `section` ("core", or "name.subsection").
bool parse_config_section(ConfigCursor& in, std::string* section) {
  while (true) {
    int c = in.next();
    if (in.eof) return false;
    if (c == ']') return true;
    if (is_git_space(c)) {
      do {
        if (c == '\n') return false;
        c = in.next();
      } while (is_git_space(c));
      if (c != '"') return false;
      section->push_back('.');
      while (true) {
        c = in.next();
        if (c == '\n') return false;
        if (c == '"') break;
        if (c == '\\') {
          c = in.next();
          if (c == '\n') return false;
        }
        section->push_back(static_cast<char>(c));
      }
      return in.next() == ']';
    }
    if (!is_key_char(c) && c != '.') return false;
    section->push_back(static_cast<char>(ascii_lower(c)));
  }
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

// git_env_bool() for the variables we honour: unset means false.
bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return false;
  std::string s;
  for (const char* c = v; *c != '\0'; ++c) s.push_back(static_cast<char>(ascii_lower(*c)));
  return !(s.empty() || s == "0" || s == "false" || s == "no" || s == "off");
}

std::optional<std::filesystem::path> xdg_git_file(const char* filename) {
  const std::string xdg = env_or_empty("XDG_CONFIG_HOME");
  if (!xdg.empty()) return std::filesystem::path(xdg) / "git" / filename;
  const char* home = std::getenv("HOME");
  if (home != nullptr) return std::filesystem::path(home) / ".config" / "git" / filename;
  return std::nullopt;
}

std::string trim_line_end(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) {
    s.pop_back();
  }
  return s;
}

// lexically_normal() keeps a trailing separator ("a/b/.." -> "a/"); git's
// paths never have one, and equal paths must compare equal.
std::filesystem::path normal_dir(const std::filesystem::path& p) {
  std::filesystem::path n = p.lexically_normal();
  if (!n.has_filename() && n.has_relative_path()) n = n.parent_path();
  return n;
}

bool is_dir_path(const std::filesystem::path& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The common dir of `git_dir`: a linked worktree names it in "commondir".
std::filesystem::path common_dir_of(const std::filesystem::path& git_dir) {
  std::string text, error;
  if (read_ignore_source(AT_FDCWD, (git_dir / "commondir").c_str(), false, &text, &error)) {
    std::filesystem::path common(trim_line_end(std::move(text)));
    if (common.is_relative()) common = git_dir / common;
    return normal_dir(common);
  }
  return git_dir;
}

}  // namespace

bool wildmatch(std::string_view pattern, std::string_view text, bool pathname) {
  const auto* p = reinterpret_cast<const uchar*>(pattern.data());
  const auto* t = reinterpret_cast<const uchar*>(text.data());
  const Wild w{p + pattern.size(), t + text.size(), pathname};
  return w.run(p, t) == kWildMatch;
}

IgnoreFile IgnoreFile::parse(std::string_view contents, std::string base) {
  IgnoreFile file;
  file.base_ = std::move(base);
  if (contents.substr(0, 3) == "\xEF\xBB\xBF") contents.remove_prefix(3);
  while (!contents.empty()) {
    const std::size_t nl = contents.find('\n');
    std::string_view line = contents.substr(0, nl);
    contents.remove_prefix(nl == std::string_view::npos ? contents.size() : nl + 1);
    if (line.empty() || line[0] == '#') continue;
    if (line.back() == '\r') line.remove_suffix(1);
    // git sees the line as a C string: an embedded NUL ends it.
    line = line.substr(0, line.find('\0'));
    if (auto pattern = parse_pattern(trim_trailing_spaces(line))) {
      file.patterns_.push_back(std::move(*pattern));
    }
  }
  return file;
}

IgnoreVerdict IgnoreFile::match(std::string_view path, bool is_dir) const {
  const std::size_t slash = path.rfind('/');
  const std::string_view basename = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    const IgnorePattern& pat = *it;
    if (pat.dir_only && !is_dir) continue;
    const bool hit = pat.basename_only ? match_basename(basename, pat) : match_pathname(path, base_, pat);
    if (hit) return pat.negated ? IgnoreVerdict::kInclude : IgnoreVerdict::kIgnore;
  }
  return IgnoreVerdict::kNone;
}

IgnoreRules::IgnoreRules() { nodes_.push_back(Node{kGlobalScope, IgnoreFile()}); }

void IgnoreRules::add_global(IgnoreFile file) {
  if (!file.empty()) globals_.push_back(std::move(file));
}

IgnoreRules::Scope IgnoreRules::push(Scope parent, IgnoreFile file) {
  if (file.empty()) return parent;
  nodes_.push_back(Node{parent, std::move(file)});
  return static_cast<Scope>(nodes_.size() - 1);
}

bool IgnoreRules::is_ignored(Scope scope, std::string_view path, bool is_dir) const {
  for (Scope s = scope; s != kGlobalScope; s = nodes_[s].parent) {
    const IgnoreVerdict v = nodes_[s].file.match(path, is_dir);
    if (v != IgnoreVerdict::kNone) return v == IgnoreVerdict::kIgnore;
  }
  for (auto it = globals_.rbegin(); it != globals_.rend(); ++it) {
    const IgnoreVerdict v = it->match(path, is_dir);
    if (v != IgnoreVerdict::kNone) return v == IgnoreVerdict::kIgnore;
  }
  return false;
}

std::optional<GitRepo> find_git_repo(const std::filesystem::path& dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) return std::nullopt;
  const dev_t device = st.st_dev;
  std::filesystem::path cur = dir;
  while (true) {
    const std::filesystem::path dot_git = cur / ".git";
    if (::stat(dot_git.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode) && ::access((dot_git / "HEAD").c_str(), F_OK) == 0) {
        return GitRepo{cur, dot_git, common_dir_of(dot_git)};
      }
      std::string text, error;
      if (S_ISREG(st.st_mode) &&
          read_ignore_source(AT_FDCWD, dot_git.c_str(), false, &text, &error) &&
          text.compare(0, 8, "gitdir: ") == 0) {
        std::filesystem::path git_dir(trim_line_end(text.substr(8)));
        if (git_dir.is_relative()) git_dir = cur / git_dir;
        git_dir = normal_dir(git_dir);
        if (is_dir_path(git_dir)) return GitRepo{cur, git_dir, common_dir_of(git_dir)};
      }
    }
    if (!cur.has_relative_path()) return std::nullopt;  // reached "/"
    std::filesystem::path parent = cur.parent_path();
    if (::stat(parent.c_str(), &st) != 0 || st.st_dev != device) return std::nullopt;
    cur = std::move(parent);
  }
}

std::optional<std::string> core_excludes_file(std::string_view config_text) {
  std::optional<std::string> result;
  ConfigCursor in{config_text};
  if (config_text.substr(0, 3) == "\xEF\xBB\xBF") in.pos = 3;
  std::string section;  // lower-cased; "" before the first header
  bool comment = false;
  while (true) {
    int c = in.next();
    if (c == '\n') {
      if (in.eof) return result;
      comment = false;
      continue;
    }
    if (comment || is_git_space(c)) continue;
    if (c == '#' || c == ';') {
      comment = true;
      continue;
    }
    if (c == '[') {
      section.clear();
      if (!parse_config_section(in, &section) || section.empty()) return result;
      continue;
    }
    if (!is_ascii_alpha(c)) return result;  // git rejects the file from here on
    std::string key(1, static_cast<char>(ascii_lower(c)));
    while (true) {
      c = in.next();
      if (in.eof || !is_key_char(c)) break;
      key.push_back(static_cast<char>(ascii_lower(c)));
    }
    while (c == ' ' || c == '\t') c = in.next();
    std::optional<std::string> value;
    if (c != '\n') {
      if (c != '=') return result;
      value = parse_config_value(in);
      if (!value) return result;
    }
    if (section == "core" && key == "excludesfile") {
      // A bare "excludesFile" (no '=') is a fatal config error in git.
      if (!value) return std::nullopt;
      result = std::move(value);
    }
  }
}

std::optional<std::string> expand_tilde(std::string_view path) {
  if (path.empty() || path[0] != '~') return std::string(path);
  const std::size_t slash = std::min(path.find('/'), path.size());
  const std::string_view user = path.substr(1, slash - 1);
  std::string home;
  if (user.empty()) {
    const char* h = std::getenv("HOME");
    if (h == nullptr) return std::nullopt;
    home = h;
  } else {
    const std::string name(user);
    struct passwd* pw = ::getpwnam(name.c_str());
    if (pw == nullptr) return std::nullopt;
    home = pw->pw_dir;
  }
  home.append(path.substr(slash));
  return home;
}

std::optional<std::filesystem::path> excludes_file_path(const GitRepo* repo) {
  std::vector<std::filesystem::path> configs;
  if (!env_flag("GIT_CONFIG_NOSYSTEM")) {
    const std::string system = env_or_empty("GIT_CONFIG_SYSTEM");
    configs.emplace_back(system.empty() ? std::string("/etc/gitconfig") : system);
  }
  if (const char* global = std::getenv("GIT_CONFIG_GLOBAL"); global != nullptr) {
    if (*global != '\0') configs.emplace_back(global);
  } else {
    if (auto xdg = xdg_git_file("config")) configs.push_back(*xdg);
    if (const char* home = std::getenv("HOME"); home != nullptr) {
      configs.push_back(std::filesystem::path(home) / ".gitconfig");
    }
  }
  if (repo != nullptr) configs.push_back(repo->common_dir / "config");

  std::optional<std::string> setting;
  for (const auto& config : configs) {
    std::string text, error;
    if (!read_ignore_source(AT_FDCWD, config.c_str(), false, &text, &error)) continue;
    if (auto value = core_excludes_file(text)) setting = std::move(value);
  }
  if (!setting) return xdg_git_file("ignore");
  std::optional<std::string> expanded = expand_tilde(*setting);
  if (!expanded || expanded->empty()) return std::nullopt;
  std::filesystem::path path(*expanded);
  if (path.is_relative() && repo != nullptr) path = repo->top / path;
  return path;
}

bool read_ignore_source(int dir_fd, const char* name, bool no_follow, std::string* contents,
                        std::string* error) {
  contents->clear();
  error->clear();
  // O_NONBLOCK: opening a FIFO named like an ignore file must not hang.
  const int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (no_follow ? O_NOFOLLOW : 0);
  const int fd = ::openat(dir_fd, name, flags);
  if (fd < 0) {
    if (errno != ENOENT && errno != ENOTDIR) {
      *error = std::string(name) + ": " + (errno == ELOOP && no_follow
                                               ? "is a symbolic link, not followed (as git does)"
                                               : std::strerror(errno));
    }
    return false;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    *error = std::string(name) + ": " + std::strerror(errno);
    ::close(fd);
    return false;
  }
  if (S_ISREG(st.st_mode)) {
    contents->resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < contents->size()) {
      const ssize_t n = ::read(fd, contents->data() + done, contents->size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    contents->resize(done);  // the file may have shrunk meanwhile
    ::close(fd);
    return true;
  }
  // git fails to read a directory silently; anything else (a FIFO could
  // block forever) is refused with a message.
  if (!S_ISDIR(st.st_mode)) *error = std::string(name) + ": not a regular file";
  ::close(fd);
  return false;
}

}  // namespace comp::walk
