// ignore: git's exclude rules (gitignore syntax, their precedence, and where
// git finds them), reimplemented so a walk never has to spawn `git`.
//
// Paths given to the matchers are "match paths": relative to the top of the
// work tree the patterns belong to, '/'-separated, no leading "./", no
// trailing '/'. They never contain NUL bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace comp::walk {

// git's wildmatch(): `?`, `*`, `[...]` (ranges, `!`/`^` negation, `[:class:]`)
// and `\` escapes. With `pathname` set, `*`, `?` and classes never match '/',
// and `**` matches across directories when it is a whole path component
// (`**/x`, `x/**`, `x/**/y`). Case-sensitive (git's core.ignoreCase=false).
bool wildmatch(std::string_view pattern, std::string_view text, bool pathname);

// One line of an ignore file, parsed as git's parse_path_pattern() does.
struct IgnorePattern {
  std::string glob;             // without the leading '!' and one trailing '/'
  std::size_t literal_len = 0;  // length of the wildcard-free head of `glob`
  bool negated = false;         // "!pattern": re-includes
  bool dir_only = false;        // "pattern/": matches directories only
  bool basename_only = false;   // no '/' left: matches the last component at any depth
  bool ends_with = false;       // "*literal": a suffix compare is enough
};

// What the patterns say about a path.
enum class IgnoreVerdict : std::uint8_t { kNone, kIgnore, kInclude };

// The patterns of one ignore file (.gitignore, info/exclude, ...).
class IgnoreFile {
 public:
  IgnoreFile() = default;

  // Parses `contents` with git's line rules: a UTF-8 BOM is skipped, CR
  // before LF is dropped, lines starting with '#' are comments, unescaped
  // trailing spaces are trimmed, blank lines are skipped. `base` is the
  // directory holding the file as a match path with a trailing '/', or ""
  // for the top; anchored patterns are relative to it. Never fails: a
  // malformed pattern simply matches nothing, as in git.
  static IgnoreFile parse(std::string_view contents, std::string base);

  // The verdict of the last pattern that matches `path`. `is_dir` must be
  // true only for real directories (a symlink to a directory is not one,
  // for git). The caller guarantees `path` lies under base(): git only
  // consults a per-directory file for paths inside its directory.
  IgnoreVerdict match(std::string_view path, bool is_dir) const;

  const std::vector<IgnorePattern>& patterns() const { return patterns_; }
  const std::string& base() const { return base_; }
  bool empty() const { return patterns_.empty(); }

 private:
  std::vector<IgnorePattern> patterns_;
  std::string base_;
};

// The ignore files that apply to one directory: those of its ancestors plus
// its own, and the global files under all of them. Files pushed later take
// precedence, as git's deeper .gitignore overrides a shallower one; the
// global files (info/exclude, core.excludesFile) rank below every pushed
// file. Scopes are cheap handles, so a walker keeps one per pending
// directory instead of a copy of the rules.
class IgnoreRules {
 public:
  using Scope = std::uint32_t;
  static constexpr Scope kGlobalScope = 0;  // only the global files

  IgnoreRules();

  // Adds a global file ranking above the global files added before it and
  // below every pushed file, in every scope.
  void add_global(IgnoreFile file);

  // A scope seeing everything `parent` sees plus `file`, which wins over
  // them. Returns `parent` itself when `file` is empty.
  Scope push(Scope parent, IgnoreFile file);

  // True when the files visible from `scope` exclude `path`: the first file
  // (highest precedence first) with a matching pattern decides, and within
  // a file its last matching pattern. This does not check the parent
  // directories of `path`; a walker prunes excluded directories instead,
  // which is what makes "a file under an excluded directory cannot be
  // re-included" hold.
  bool is_ignored(Scope scope, std::string_view path, bool is_dir) const;

 private:
  struct Node {
    Scope parent;
    IgnoreFile file;
  };
  std::vector<IgnoreFile> globals_;  // lowest precedence first
  std::vector<Node> nodes_;          // nodes_[0] is the global scope
};

// Where git keeps the repository of a work tree.
struct GitRepo {
  std::filesystem::path top;         // the work tree top (holds .git)
  std::filesystem::path git_dir;     // ".git", or what a ".git" file points to
  std::filesystem::path common_dir;  // holds info/exclude and config (differs for linked worktrees)
};

// Finds the repository containing directory `dir` (which must be absolute
// and symlink-free) the way git discovers it: the nearest ancestor (or dir
// itself) holding a ".git" directory with a HEAD, or a ".git" file with a
// "gitdir:" line; the search stops at a filesystem boundary, as git's does
// by default. nullopt outside any repository.
std::optional<GitRepo> find_git_repo(const std::filesystem::path& dir);

// The value of the last `core.excludesFile` set in a git config file's
// text (section and key names case-insensitive; quotes, escapes, comments
// and line continuations as git parses them). nullopt when it is not set.
// [include] and [includeIf] sections are not followed.
std::optional<std::string> core_excludes_file(std::string_view config_text);

// Expands a leading "~" or "~user" as git's path interpolation does.
// nullopt when the home directory is unknown; other paths come back as is.
std::optional<std::string> expand_tilde(std::string_view path);

// The core.excludesFile git would read for `repo` (null outside a
// repository): the last setting among the system config (unless
// GIT_CONFIG_NOSYSTEM), $XDG_CONFIG_HOME/git/config or ~/.config/git/config,
// ~/.gitconfig (GIT_CONFIG_GLOBAL replaces those two) and the repository's
// config; when unset, $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore.
// A relative value is taken from the work tree top. nullopt when none
// applies. The file may not exist.
std::optional<std::filesystem::path> excludes_file_path(const GitRepo* repo);

// Reads a whole ignore or config file. `name` is relative to `dir_fd`
// (AT_FDCWD for an ordinary path). With `no_follow` a final symlink is not
// followed, as git refuses a symlinked in-tree .gitignore. Returns true and
// fills `contents` on success; false with `*error` empty when the file does
// not exist, or with a human message when it exists but cannot be read.
bool read_ignore_source(int dir_fd, const char* name, bool no_follow,
                        std::string* contents, std::string* error);

}  // namespace comp::walk
