// vcs: what changed in the workspace since a commit, for `comp diff [BASE_REF]`.
// Runs the `git` binary (an argument vector, never a shell) and turns its
// output into plain structs; knows nothing of the index database or JSON.
//
// Invariants:
//  - a user-supplied ref reaches git only through resolve_commit(), after
//    `--end-of-options`, and a ref starting with '-' is refused before git
//    runs; every later command gets the resolved hexadecimal commit id;
//  - git runs as `git -C <root> -c core.quotepath=off ...` with stdin from
//    /dev/null, LC_ALL=C, GIT_TERMINAL_PROMPT=0 and GIT_OPTIONAL_LOCKS=0 (it
//    never waits for a password and never rewrites .git/index);
//    GIT_DIFF_OPTS and GIT_EXTERNAL_DIFF are removed, the rest of the
//    environment is kept (a GIT_DIR or GIT_WORK_TREE set by the caller, e.g.
//    in a git hook, still applies);
//  - the diff ignores the user's diff configuration that would change its
//    shape (prefixes, context, colour, external drivers, textconv);
//  - reading history (`git log`) runs no program a repository's
//    configuration names: no signature check (log.showSignature would run
//    gpg.program), no external diff driver, no textconv filter;
//  - paths are relative to `root` with '/' separators; nothing outside `root`
//    is reported, untracked symlinks are skipped and no symlink is followed;
//  - each git command's output is bounded (256 MiB), else GitError kFailed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace comp::vcs {

class GitError : public std::runtime_error {
 public:
  enum class Kind {
    kGitMissing,      // no `git` on PATH
    kNotARepository,  // root is not inside a git work tree
    kBadRef,          // the ref names no commit (or starts with '-', or is empty)
    kFailed,          // git failed otherwise, output too large, invalid path
  };
  GitError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// 1-indexed lines. count 0 = a pure deletion (new side) or insertion (old
// side) located just before line `start` (start = last line + 1 at the end).
struct LineRange {
  std::uint32_t start = 0;
  std::uint32_t count = 0;
  bool operator==(const LineRange&) const = default;
};

struct FileChange {
  std::string path;      // new path, relative to root, '/' separators (old path for 'D')
  std::string old_path;  // path in the base commit for 'R' (else == path)
  char status = 'M';     // 'A' added (incl. untracked), 'M' modified, 'D' deleted, 'R' renamed
  bool binary = false;   // no ranges then
  std::vector<LineRange> new_ranges;  // changed lines in the working tree (empty for 'D')
  std::vector<LineRange> old_ranges;  // changed lines in the base commit (empty for 'A')
};

// The full commit id (40 or 64 hex digits) `ref` names, via
// `git rev-parse --verify --quiet --end-of-options <ref>^{commit}`.
// Throws GitError: kBadRef (empty, starts with '-', names no commit; the
// message says when the repository has no commits yet), kNotARepository,
// kGitMissing, kFailed.
std::string resolve_commit(const std::filesystem::path& root, std::string_view ref);

// The working tree (staged and unstaged changes, plus untracked non-ignored
// files as whole-file 'A') against the commit `ref` names, sorted by path.
// Renames are detected (-M). When root is a subdirectory of the work tree,
// changes outside it are left out. A mode-only change is 'M' without ranges;
// an untracked file is binary when its first 8000 bytes hold a NUL (git's
// rule; .gitattributes are not consulted for untracked files).
// Throws GitError as resolve_commit does.
std::vector<FileChange> changes_since(const std::filesystem::path& root, std::string_view ref = "HEAD");

// The content of `rel_path` (relative to root, '/' separators) at `commit`
// (a commit id or any ref; resolved through resolve_commit), or nullopt when
// the commit has no file there (absent, a directory or a submodule).
// A path that is empty, absolute or has a ".." component: GitError kFailed.
std::optional<std::string> file_at(const std::filesystem::path& root, const std::string& commit,
                                   const std::string& rel_path);

// Where root's history is: git's own directory for it and the commit HEAD
// names, read with one `git rev-parse --is-inside-work-tree
// --absolute-git-dir --verify --quiet HEAD^{commit}`.
struct Head {
  // Git's directory for root, absolute: <top>/.git, or outside the work
  // tree for a linked worktree (<common>/.git/worktrees/<name>) or a
  // submodule (<super>/.git/modules/<name>). Empty when root is not in a git
  // work tree or git is missing.
  std::filesystem::path git_dir;
  // HEAD's full commit id; empty also when the repository has no commits yet.
  std::string commit;
};
// Never throws.
Head head(const std::filesystem::path& root);

// The files each of the last `count` commits up to `commit` changed (a
// commit id or any ref, resolved through resolve_commit), newest first:
// per commit, the paths under root it added, modified or deleted, relative
// to root with '/' separators, sorted (a rename is a deletion and an
// addition; merges are left out; a commit that changed nothing under root
// has an empty list). What `git log --name-only` shows, read without the
// user's diff drivers. Throws GitError as resolve_commit does.
std::vector<std::vector<std::string>> commit_files(const std::filesystem::path& root, std::string_view commit,
                                                   std::size_t count);

}  // namespace comp::vcs
