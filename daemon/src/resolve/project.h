// resolve/project: the project files that decide where imports lead:
// tsconfig.json/jsconfig.json (`baseUrl`, `paths`, `extends`), package.json
// (workspace package names), go.mod (module path), Cargo.toml (crate names).
// Reads them from disk, tolerating comments and trailing commas; a broken
// file is ignored, never fatal.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace comp::resolve {

// Workspace-relative paths ('/' separators): "a/b/c.py" -> "a/b"; ("a", "b") -> "a/b".
std::string dir_of(std::string_view path);
std::string join_path(const std::string& dir, std::string_view rest);
// "a/./b/../c" -> "a/c"; nullopt when it climbs out of the root.
std::optional<std::string> normalize(std::string_view path);

// The name a project calls itself by in one of its manifests, lower-case,
// without an npm scope or separators ("@scope/Material-UI" -> materialui):
// package.json's "name", pyproject.toml's [project] or [tool.poetry] name,
// Cargo.toml's [package] name, go.mod's module path's last element. `file`
// is the manifest's file name, `text` its content; nullopt for another file
// or a manifest without a name. Never fails.
std::optional<std::string> manifest_name(std::string_view file, const std::string& text);

class Project {
 public:
  explicit Project(std::filesystem::path root) : root_(std::move(root)) {}
  // Registers a project file (path relative to the root) and reads it.
  void add(const std::string& rel_path);

  // Base paths (relative to the root, without extension) a non-relative
  // TS/JS specifier may mean from `from_path`: tsconfig `paths` and
  // `baseUrl`, then workspace packages by their package.json name.
  std::vector<std::string> ts_candidates(const std::string& from_path, const std::string& spec) const;
  // The directory of a Go import path inside a module of this workspace.
  std::optional<std::string> go_package_dir(const std::string& spec) const;
  // The root file (lib.rs/main.rs) of the crate holding `from_path` (crate
  // "") or of the workspace crate named `crate`.
  std::optional<std::string> rust_crate_root(const std::string& from_path, const std::string& crate) const;

 private:
  struct TsConfig {
    std::string dir;                                          // of the tsconfig file
    std::optional<std::string> base_url;                      // relative to the root
    std::string paths_base;                                   // where `paths` are relative to
    std::vector<std::pair<std::string, std::vector<std::string>>> paths;
    bool has_paths = false;
  };
  std::optional<TsConfig> read_tsconfig(const std::string& rel_path, int depth) const;
  std::optional<std::string> read(const std::string& rel_path) const;

  std::filesystem::path root_;
  std::map<std::string, TsConfig> tsconfigs_;          // by directory
  std::map<std::string, std::string> packages_;        // npm name -> directory
  std::map<std::string, std::string> package_entry_;   // directory -> "main"/"types" without extension
  std::vector<std::pair<std::string, std::string>> go_modules_;  // module path, directory
  std::map<std::string, std::string> crates_;          // crate name -> root file
  std::map<std::string, std::string> crate_dirs_;      // directory of Cargo.toml -> root file
};

}  // namespace comp::resolve
