#include "resolve/resolver.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "resolve/project.h"

namespace comp::resolve {
namespace {

namespace fs = std::filesystem;
using graph::NodeRecord;
using graph::RefRecord;
using graph::RefStatus;
using graph::Resolution;

enum class Family { kPython, kEcma, kGo, kJava, kRust, kC, kCpp, kCSharp, kOther };

Family family_of(std::string_view language) {
  if (language == "python") return Family::kPython;
  if (language == "typescript" || language == "tsx" || language == "javascript") return Family::kEcma;
  if (language == "go") return Family::kGo;
  if (language == "java") return Family::kJava;
  if (language == "rust") return Family::kRust;
  if (language == "c") return Family::kC;
  if (language == "cpp") return Family::kCpp;
  if (language == "csharp") return Family::kCSharp;
  return Family::kOther;
}

// How names are found in a language, beyond its imports.
struct Rules {
  bool members_in_scope;  // a method's bare name reaches its class's members (Java, C++, C#)
  bool package_is_dir;    // files of one directory share their top-level names (Go, Java)
  bool global;            // a bare name may be a unique exported definition anywhere (C, C++, C#, ...)
};

Rules rules_for(Family family) {
  switch (family) {
    case Family::kPython: case Family::kEcma: case Family::kRust: return {false, false, false};
    case Family::kGo: return {false, true, false};
    case Family::kJava: return {true, true, false};
    case Family::kC: return {false, false, true};
    case Family::kCpp: case Family::kCSharp: return {true, false, true};
    case Family::kOther: return {true, false, true};
  }
  return {false, false, false};
}

bool is_container(std::string_view kind) {
  return kind == "class" || kind == "interface" || kind == "struct" || kind == "trait" || kind == "impl" ||
         kind == "enum" || kind == "object" || kind == "record" || kind == "protocol";
}

bool is_type_kind(std::string_view kind) {
  return is_container(kind) || kind == "type" || kind == "union" || kind == "typedef" || kind == "namespace" ||
         kind == "module";
}

bool is_callable(std::string_view kind) {
  return kind == "function" || kind == "method" || kind == "constructor" || kind == "class" || kind == "struct" ||
         kind == "macro" || kind == "record";
}

// Whether a definition of `kind` can be what a reference of `ref_kind` means.
bool fits(std::string_view ref_kind, std::string_view kind) {
  if (kind == "file") return false;
  if (ref_kind == "call") return is_callable(kind);
  if (ref_kind == "inherit" || ref_kind == "implement" || ref_kind == "reference") return is_type_kind(kind);
  return true;
}

bool is_header(std::string_view path) {
  for (std::string_view extension : {".h", ".hh", ".hpp", ".hxx", ".h++"})
    if (path.size() > extension.size() && path.ends_with(extension)) return true;
  return false;
}


std::vector<std::string> split(std::string_view text, std::string_view separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t end = text.find(separator, start);
    out.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + separator.size();
  }
  return out;
}

Resolution resolved(const std::string& target, const std::string& path = {}) {
  return {RefStatus::kResolved, target, path, 1};
}
Resolution external() { return {RefStatus::kExternal, {}, {}, 0}; }
Resolution unresolved(std::int64_t candidates = 0) {
  return {candidates > 1 ? RefStatus::kAmbiguous : RefStatus::kUnresolved, {}, {}, candidates};
}

// Several definitions that are one symbol (overloads, a declaration and its
// definition in one scope) count as one: the first.
std::optional<const NodeRecord*> single(const std::vector<const NodeRecord*>& nodes, std::int64_t* count) {
  if (nodes.empty()) {
    *count = 0;
    return std::nullopt;
  }
  std::set<std::string> scopes;
  for (const NodeRecord* node : nodes) scopes.insert(node->file_path + "\n" + node->scope);
  *count = static_cast<std::int64_t>(scopes.size());
  if (scopes.size() == 1) return nodes.front();
  return std::nullopt;
}

}  // namespace

// The workspace's files and project files: read once per resolve pass, or
// kept across passes by a FileTablesCache while the files' digest holds.
struct FileTablesCache::Tables {
  explicit Tables(graph::Store& store, const fs::path& root) : project(root) {
    // Views into strings kept once: building and freeing the tables of a
    // 42k-file tree allocates one string per path, folder and module name.
    std::vector<graph::IndexedFile> files = store.indexed_files();
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    languages.reserve(files.size());
    for (graph::IndexedFile& file : files) {
      std::string_view path = keep(std::move(file.path));
      languages.emplace(path, *language_names.insert(file.language).first);
      std::string dir = dir_of(path);
      auto in_dir = dirs.find(dir);
      if (in_dir == dirs.end()) in_dir = dirs.emplace(keep(std::move(dir)), std::vector<std::string_view>()).first;
      in_dir->second.push_back(path);
      if (!file.language.empty()) {
        std::string_view module = keep(module_key(path));
        // Every dotted suffix ("c", "b.c", "a.b.c") finds the file: source
        // roots (src/, lib/) are not known in advance.
        std::size_t pos = module.size();
        while (true) {
          std::size_t dot = module.rfind('.', pos == 0 ? 0 : pos - 1);
          modules[dot == std::string_view::npos ? module : module.substr(dot + 1)].push_back(path);
          if (dot == std::string_view::npos || dot == 0) break;
          pos = dot;
        }
      }
      std::string_view base = path.substr(path.rfind('/') + 1);
      if (base == "go.mod" || base == "Cargo.toml" || base == "package.json" || base == "tsconfig.json" ||
          base == "jsconfig.json")
        project.add(std::string(path));
    }
  }

  // "a/b/c.py" -> "a.b.c", "pkg/__init__.py" -> "pkg", "x/mod.rs" -> "x.mod".
  static std::string module_key(std::string_view path) {
    std::string key(path);
    std::size_t slash = key.rfind('/');
    std::size_t dot = key.rfind('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) key.resize(dot);
    constexpr std::string_view kInit = "/__init__";
    if (key.size() > kInit.size() && key.compare(key.size() - kInit.size(), kInit.size(), kInit) == 0)
      key.resize(key.size() - kInit.size());
    std::replace(key.begin(), key.end(), '/', '.');
    return key;
  }

  std::string_view keep(std::string text) { return strings.emplace_back(std::move(text)); }

  std::deque<std::string> strings;      // what the views below show (a deque: never moved)
  std::set<std::string> language_names;
  Project project;
  std::unordered_map<std::string_view, std::string_view> languages;
  std::unordered_map<std::string_view, std::vector<std::string_view>> dirs;
  std::unordered_map<std::string_view, std::vector<std::string_view>> modules;  // dotted suffix -> files
};

FileTablesCache::FileTablesCache() = default;
FileTablesCache::~FileTablesCache() = default;

namespace {

using Tables = FileTablesCache::Tables;

// One resolve pass's view of the workspace: its file tables, and with many
// references to resolve, every node and import.
struct Workspace {
  explicit Workspace(std::shared_ptr<const Tables> tables) : files(std::move(tables)) {}

  // Many references to resolve (a first index): every node and import in
  // memory beats one query per name. Few (an edit): queries, as needed.
  void preload(graph::Store& store) {
    bulk = true;
    for (NodeRecord& node : store.all_nodes()) {
      std::string name = node.name;
      by_name[name].push_back(std::move(node));
    }
    for (auto& [name, list] : by_name)
      for (const NodeRecord& node : list) by_id.emplace(node.id, &node);
    for (RefRecord& ref : store.all_imports()) {
      std::string path = ref.file_path;
      imports_by_file[path].push_back(std::move(ref));
    }
  }

  std::shared_ptr<const Tables> files;
  bool bulk = false;
  std::unordered_map<std::string, std::vector<NodeRecord>> by_name;
  std::unordered_map<std::string, const NodeRecord*> by_id;
  std::unordered_map<std::string, std::vector<RefRecord>> imports_by_file;
};

// The index, read through the store with caches: one Resolver lives for one
// resolve pass, during which the index does not change except for the
// resolutions it writes.
class Resolver {
 public:
  // `settled_bases`: base classes and typed variables are resolved (false
  // while they are being resolved: lookups through them wait for the next
  // step, so that no answer depends on the order of resolution).
  Resolver(graph::Store& store, const Workspace& workspace, bool settled_bases)
      : store_(store), workspace_(workspace), project_(workspace.files->project), languages_(workspace.files->languages),
        dirs_(workspace.files->dirs), modules_(workspace.files->modules), settled_bases_(settled_bases) {}

  Resolution resolve(const RefRecord& ref) {
    Family family = family_of(language(ref.file_path));
    if (ref.kind == "import") return resolve_import(ref, family, 0);
    return resolve_name(ref, family);
  }

 private:
  std::string language(std::string_view path) {
    auto found = languages_.find(path);
    return found == languages_.end() ? std::string() : std::string(found->second);
  }
  bool is_file(std::string_view path) { return languages_.count(path) > 0; }
  bool is_dir(std::string_view path) { return dirs_.count(path) > 0; }

  const std::vector<NodeRecord>& named(const std::string& name) {
    static const std::vector<NodeRecord> kNone;
    if (workspace_.bulk) {
      auto in_memory = workspace_.by_name.find(name);
      return in_memory == workspace_.by_name.end() ? kNone : in_memory->second;
    }
    auto found = named_.find(name);
    if (found != named_.end()) return found->second;
    return named_.emplace(name, store_.nodes_named(name)).first->second;
  }

  const NodeRecord* node(const std::string& id) {
    if (workspace_.bulk) {
      auto in_memory = workspace_.by_id.find(id);
      return in_memory == workspace_.by_id.end() ? nullptr : in_memory->second;
    }
    auto found = nodes_.find(id);
    if (found != nodes_.end()) return found->second.get();
    std::optional<NodeRecord> loaded = store_.node(id);
    auto& slot = nodes_[id];
    if (loaded) slot = std::make_unique<NodeRecord>(std::move(*loaded));
    return slot.get();
  }

  const std::vector<RefRecord>& imports_of(const std::string& path) {
    static const std::vector<RefRecord> kNone;
    if (workspace_.bulk) {
      auto in_memory = workspace_.imports_by_file.find(path);
      return in_memory == workspace_.imports_by_file.end() ? kNone : in_memory->second;
    }
    auto found = imports_.find(path);
    if (found != imports_.end()) return found->second;
    return imports_.emplace(path, store_.imports_of_file(path)).first->second;
  }

  const std::vector<RefRecord>& bindings_of(const std::string& path) {
    auto found = bindings_.find(path);
    if (found != bindings_.end()) return found->second;
    return bindings_.emplace(path, store_.bindings_of_file(path)).first->second;
  }

  const std::vector<RefRecord>& bases_of(const std::string& node_id) {
    auto found = bases_.find(node_id);
    if (found != bases_.end()) return found->second;
    std::vector<RefRecord> bases;
    for (RefRecord& ref : store_.refs_from(node_id))
      if (ref.kind == "inherit" || ref.kind == "implement") bases.push_back(std::move(ref));
    return bases_.emplace(node_id, std::move(bases)).first->second;
  }

  // The definitions named `name` in one file (common names have thousands
  // of definitions across a repository: look them up by file).
  const std::vector<const NodeRecord*>& in_file(const std::string& path, const std::string& name) {
    static const std::vector<const NodeRecord*> kNone;
    auto found = by_file_.find(name);
    if (found == by_file_.end()) {
      auto& index = by_file_[name];
      for (const NodeRecord& node : named(name)) index[node.file_path].push_back(&node);
      found = by_file_.find(name);
    }
    auto file = found->second.find(path);
    return file == found->second.end() ? kNone : file->second;
  }

  // Top-level definitions named `name` in a file.
  std::vector<const NodeRecord*> top_level(const std::string& path, const std::string& name) {
    std::vector<const NodeRecord*> out;
    for (const NodeRecord* node : in_file(path, name))
      if (node->kind != "file" && (node->parent_id.empty() || is_namespace(node->parent_id))) out.push_back(node);
    return out;
  }

  bool is_namespace(const std::string& id) {
    const NodeRecord* parent = node(id);
    return parent && (parent->kind == "namespace" || parent->kind == "module") && parent->parent_id.empty();
  }

  // ---- imports -------------------------------------------------------------

  // The file or directory a module specifier names, from `from_path`.
  std::optional<std::string> module_location(const std::string& from_path, Family family, const std::string& spec) {
    switch (family) {
      case Family::kPython: return python_module(from_path, spec);
      case Family::kEcma: return ecma_module(from_path, spec);
      case Family::kGo: return go_package(spec);
      case Family::kJava: return java_class(spec);
      case Family::kRust: return rust_module(from_path, spec);
      case Family::kC: case Family::kCpp: return include_file(from_path, spec);
      default: return std::nullopt;
    }
  }

  // The file among `files` closest to the root (fewest path parts); nullopt
  // when two are equally close.
  static std::optional<std::string> shallowest(const std::vector<std::string>& files) {
    std::optional<std::string> best;
    std::size_t best_depth = SIZE_MAX;
    bool tie = false;
    for (const std::string& file : files) {
      std::size_t depth = static_cast<std::size_t>(std::count(file.begin(), file.end(), '/'));
      if (depth < best_depth) {
        best = file;
        best_depth = depth;
        tie = false;
      } else if (depth == best_depth && *best != file) {
        tie = true;
      }
    }
    if (tie) return std::nullopt;
    return best;
  }

  std::optional<std::string> by_module_suffix(const std::string& dotted, Family family) {
    auto found = modules_.find(dotted);
    if (found == modules_.end()) return std::nullopt;
    std::vector<std::string> files;
    for (std::string_view file : found->second)
      if (family_of(language(file)) == family) {
        // "a.b" must match whole parts: a file "x/a/b.py" or "a/b/__init__.py".
        std::string key = Tables::module_key(file);
        if (key == dotted || (key.size() > dotted.size() && key[key.size() - dotted.size() - 1] == '.'))
          files.emplace_back(file);
      }
    return shallowest(files);
  }

  std::optional<std::string> python_module(const std::string& from_path, const std::string& spec) {
    std::size_t dots = spec.find_first_not_of('.');
    if (dots == std::string::npos) dots = spec.size();
    if (dots == 0) return by_module_suffix(spec, Family::kPython);
    std::string dir = dir_of(from_path);
    for (std::size_t up = 1; up < dots; ++up) {
      if (dir.empty()) return std::nullopt;
      dir = dir_of(dir);
    }
    std::string rest = spec.substr(dots);
    std::replace(rest.begin(), rest.end(), '.', '/');
    std::string base = rest.empty() ? dir : join_path(dir, rest);
    for (const std::string& candidate : {base + ".py", base + "/__init__.py", base + ".pyi", base + "/__init__.pyi"})
      if (is_file(candidate)) return candidate;
    if (!rest.empty() && is_dir(base)) return base;  // a namespace package
    if (rest.empty()) return base;  // `from . import x`: the package directory itself
    return std::nullopt;
  }

  std::optional<std::string> ecma_file(const std::string& base) {
    static const char* const kExtensions[] = {".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"};
    if (is_file(base) && !language(base).empty()) return base;
    for (const char* extension : kExtensions)
      if (is_file(base + extension)) return base + extension;
    for (const char* extension : kExtensions)
      if (is_file(base + "/index" + extension)) return base + "/index" + extension;
    // ESM style: "./util.js" written for "./util.ts".
    for (std::string_view js : {".js", ".jsx", ".mjs", ".cjs"}) {
      if (base.size() > js.size() && base.compare(base.size() - js.size(), js.size(), js) == 0) {
        std::string stem = base.substr(0, base.size() - js.size());
        for (const char* extension : {".ts", ".tsx", ".mts", ".cts", ".d.ts"})
          if (is_file(stem + extension)) return stem + extension;
      }
    }
    return std::nullopt;
  }

  std::optional<std::string> ecma_module(const std::string& from_path, const std::string& spec) {
    if (spec.empty()) return std::nullopt;
    if (spec[0] == '.' ) {
      std::optional<std::string> base = normalize(join_path(dir_of(from_path), spec));
      if (!base) return std::nullopt;
      return ecma_file(*base);
    }
    if (spec[0] == '/') return std::nullopt;
    for (const std::string& base : project_.ts_candidates(from_path, spec))
      if (std::optional<std::string> file = ecma_file(base)) return file;
    return std::nullopt;
  }

  std::optional<std::string> go_package(const std::string& spec) {
    std::optional<std::string> dir = project_.go_package_dir(spec);
    if (dir && is_dir(*dir)) return dir;
    return std::nullopt;
  }

  std::optional<std::string> java_class(const std::string& spec) {
    return by_module_suffix(spec, Family::kJava);
  }

  std::optional<std::string> include_file(const std::string& from_path, const std::string& spec) {
    std::optional<std::string> local = normalize(join_path(dir_of(from_path), spec));
    if (local && is_file(*local)) return local;
    if (is_file(spec)) return spec;
    // By suffix: "util/log.h" matches "src/util/log.h", "include/util/log.h".
    std::string name = spec.substr(spec.rfind('/') == std::string::npos ? 0 : spec.rfind('/') + 1);
    std::string stem = name.substr(0, name.rfind('.'));
    std::vector<std::string> files;
    auto found = modules_.find(stem);
    if (found != modules_.end())
      for (std::string_view file : found->second)
        if (file.size() > spec.size() && file.compare(file.size() - spec.size(), spec.size(), spec) == 0 &&
            file[file.size() - spec.size() - 1] == '/')
          files.emplace_back(file);
    return shallowest(files);
  }

  // Rust: "crate::a::b", "self::x", "super::y", "other_crate::z" -> the
  // module's file; segments past the last module file are items in it.
  struct RustPath {
    std::string file;                 // the deepest module file reached
    std::vector<std::string> items;   // remaining segments: items inside it
  };

  std::optional<std::string> rust_module_dir(const std::string& file) {
    // The directory holding a module's submodules: "src/a.rs" -> "src/a",
    // "src/a/mod.rs", "src/lib.rs", "src/main.rs" -> their own directory.
    std::string dir = dir_of(file);
    std::string base = file.substr(file.rfind('/') == std::string::npos ? 0 : file.rfind('/') + 1);
    if (base == "mod.rs" || base == "lib.rs" || base == "main.rs") return dir;
    if (base.size() > 3 && base.compare(base.size() - 3, 3, ".rs") == 0)
      return join_path(dir, base.substr(0, base.size() - 3));
    return std::nullopt;
  }

  std::optional<std::string> rust_child(const std::string& module_file, const std::string& name) {
    std::optional<std::string> dir = rust_module_dir(module_file);
    if (!dir) return std::nullopt;
    for (const std::string& candidate : {join_path(*dir, name + ".rs"), join_path(*dir, name + "/mod.rs")})
      if (is_file(candidate)) return candidate;
    return std::nullopt;
  }

  std::optional<std::string> rust_parent(const std::string& module_file) {
    std::string dir = dir_of(module_file);
    std::string base = module_file.substr(module_file.rfind('/') == std::string::npos ? 0 : module_file.rfind('/') + 1);
    if (base == "lib.rs" || base == "main.rs") return std::nullopt;
    if (base == "mod.rs") dir = dir_of(dir);
    // The parent module file: dir.rs, dir/mod.rs, or the crate root in dir.
    for (const std::string& candidate : {dir + ".rs", join_path(dir, "mod.rs"), join_path(dir, "lib.rs"),
                                         join_path(dir, "main.rs")})
      if (is_file(candidate)) return candidate;
    return std::nullopt;
  }

  std::optional<RustPath> rust_path(const std::string& from_path, const std::vector<std::string>& segments) {
    if (segments.empty()) return std::nullopt;
    std::optional<std::string> current;
    std::size_t i = 1;
    const std::string& first = segments[0];
    if (first == "crate") {
      current = project_.rust_crate_root(from_path, "");
    } else if (first == "self") {
      current = from_path;
    } else if (first == "super") {
      current = rust_parent(from_path);
      while (current && i < segments.size() && segments[i] == "super") {
        current = rust_parent(*current);
        ++i;
      }
    } else {
      current = project_.rust_crate_root(from_path, first);  // a crate of this workspace
      if (!current) {
        // `use util::x` in edition 2018 may name a child module of the crate root.
        std::optional<std::string> root = project_.rust_crate_root(from_path, "");
        if (root) {
          if (std::optional<std::string> child = rust_child(*root, first)) current = child;
        }
      }
    }
    if (!current) return std::nullopt;
    RustPath out;
    for (; i < segments.size(); ++i) {
      std::optional<std::string> child = out.items.empty() ? rust_child(*current, segments[i]) : std::nullopt;
      if (child) {
        current = child;
      } else {
        out.items.push_back(segments[i]);
      }
    }
    out.file = *current;
    return out;
  }

  std::optional<std::string> rust_module(const std::string& from_path, const std::string& spec) {
    std::optional<RustPath> path = rust_path(from_path, split(spec, "::"));
    if (!path || !path->items.empty()) return std::nullopt;
    return path->file;
  }

  // A name exported by a file: its own top-level definition, or one it
  // imports and so re-exports (Python's `from .x import y` in __init__.py,
  // TS `export {y} from`, Rust `pub use`), or one from a wildcard import.
  std::optional<std::string> lookup_export(const std::string& path, const std::string& name, Family family, int depth) {
    if (depth > 6) return std::nullopt;
    std::int64_t count = 0;
    std::vector<const NodeRecord*> own = top_level(path, name);
    if (std::optional<const NodeRecord*> found = single(own, &count)) return (*found)->id;
    if (count > 1) return std::nullopt;
    for (const RefRecord& import : imports_of(path)) {
      const std::string& bound = import.alias.empty() ? import.name : import.alias;
      if (bound != name || import.name.empty() || import.name == "*") continue;
      Resolution resolution = resolve_import(import, family, depth + 1);
      if (resolution.status == RefStatus::kResolved && !resolution.target.empty() && resolution.target != resolution.target_path)
        return resolution.target;
    }
    for (const RefRecord& import : imports_of(path)) {
      if (import.name != "*" || family == Family::kC || family == Family::kCpp) continue;
      Resolution resolution = resolve_import(import, family, depth + 1);
      if (resolution.status != RefStatus::kResolved || !is_file(resolution.target_path)) continue;
      if (std::optional<std::string> found = lookup_export(resolution.target_path, name, family, depth + 1)) return found;
    }
    return std::nullopt;
  }

  // Imports are looked up again and again (every use of an imported name):
  // answers at depth 0 are remembered for the Resolver's life.
  Resolution resolve_import(const RefRecord& ref, Family family, int depth) {
    if (depth == 0) {
      auto found = import_answers_.find(ref.id);
      if (found != import_answers_.end()) return found->second;
      Resolution answer = resolve_import_uncached(ref, family, 0);
      import_answers_.emplace(ref.id, answer);
      return answer;
    }
    return resolve_import_uncached(ref, family, depth);
  }

  Resolution resolve_import_uncached(const RefRecord& ref, Family family, int depth) {
    if (depth > 6) return unresolved();
    const std::string& spec = ref.qualifier;
    if (family == Family::kRust) {
      std::vector<std::string> segments = split(spec, "::");
      if (!ref.name.empty() && ref.name != "*") segments.push_back(ref.name);
      std::optional<RustPath> path = rust_path(ref.file_path, segments);
      if (!path) return external();
      if (path->items.empty()) return resolved(path->file, path->file);
      if (path->items.size() == 1) {
        if (std::optional<std::string> target = lookup_export(path->file, path->items[0], family, depth))
          return resolved(*target, path->file);
      }
      if (path->items.size() == 2) {  // Type::method, Enum::Variant
        std::int64_t count = 0;
        if (std::optional<const NodeRecord*> owner = single(top_level(path->file, path->items[0]), &count))
          if (std::optional<std::string> member = member_of(**owner, path->items[1], 0)) return resolved(*member, path->file);
      }
      return {RefStatus::kUnresolved, {}, path->file, 0};
    }
    if (family == Family::kJava) {
      // "a.b.C" (a class), "a.b" + "*" (a package), "a.b.C.m" (a static member).
      if (ref.name == "*") {
        if (std::optional<std::string> file = java_class(spec)) return resolved(*file, *file);  // C.* : a class's members
        std::string dir = spec;
        std::replace(dir.begin(), dir.end(), '.', '/');
        // The package's folder: the shallowest, then first by name, of those
        // ending in its path (not the hash table's order).
        std::optional<std::string_view> package;
        auto depth = [](std::string_view path) { return std::count(path.begin(), path.end(), '/'); };
        for (const auto& [path, files] : dirs_)
          if (path == dir || (path.size() > dir.size() && path.compare(path.size() - dir.size(), dir.size(), dir) == 0 &&
                              path[path.size() - dir.size() - 1] == '/'))
            if (!package || std::pair(depth(path), path) < std::pair(depth(*package), *package)) package = path;
        if (package) return {RefStatus::kResolved, {}, std::string(*package), 1};
        return external();
      }
      std::vector<std::string> parts = split(spec, ".");
      for (std::size_t keep = parts.size(); keep >= 1; --keep) {
        std::string prefix;
        for (std::size_t i = 0; i < keep; ++i) prefix += (i ? "." : "") + parts[i];
        std::optional<std::string> file = java_class(prefix);
        if (!file) continue;
        std::int64_t count = 0;
        std::optional<const NodeRecord*> cls = single(top_level(*file, parts[keep - 1]), &count);
        if (!cls) return resolved(*file, *file);
        const NodeRecord* owner = *cls;
        for (std::size_t i = keep; i < parts.size() && owner; ++i) {
          std::optional<std::string> member = member_of(*owner, parts[i], 0);
          owner = member ? node(*member) : nullptr;
        }
        if (owner) return resolved(owner->id, *file);
        return {RefStatus::kUnresolved, {}, *file, 0};
      }
      return external();
    }
    if (family == Family::kCSharp || family == Family::kOther) return external();
    std::optional<std::string> location = module_location(ref.file_path, family, spec);
    if (!location) return external();
    bool file = is_file(*location);
    if (ref.name.empty() || ref.name == "*") {  // the module itself (`import a.b.c` leads to a/b/c)
      return {RefStatus::kResolved, file ? *location : std::string(), *location, 1};
    }
    if (file) {
      if (ref.name == "default") {
        // `import Foo from "./Foo"`: the file's own Foo when it has one.
        std::int64_t count = 0;
        if (std::optional<const NodeRecord*> own = single(top_level(*location, ref.alias), &count))
          return resolved((*own)->id, *location);
        return resolved(*location, *location);
      }
      if (std::optional<std::string> target = lookup_export(*location, ref.name, family, depth))
        return resolved(*target, *location);
    }
    if (family == Family::kPython) {  // `from pkg import submodule`
      std::string base = file ? dir_of(*location) : *location;
      bool package = !file || location->ends_with("__init__.py") || location->ends_with("__init__.pyi");
      if (package) {
        for (const std::string& candidate : {join_path(base, ref.name + ".py"), join_path(base, ref.name + "/__init__.py")})
          if (is_file(candidate)) return resolved(candidate, candidate);
      }
    }
    if (family == Family::kGo || !file) return {RefStatus::kResolved, {}, *location, 1};
    return {RefStatus::kUnresolved, {}, *location, 0};
  }

  // ---- names ---------------------------------------------------------------

  bool binds_import(const std::string& path, const std::string& name, Family family) {
    for (const RefRecord& import : imports_of(path)) {
      std::string bound = import.alias.empty() ? import.name : import.alias;
      if (family == Family::kJava && import.name.empty())
        bound = import.qualifier.substr(import.qualifier.rfind('.') == std::string::npos ? 0 : import.qualifier.rfind('.') + 1);
      if (bound == name && import.name != "*") return true;
    }
    return false;
  }

  // The innermost container (class, struct, impl, ...) around a node.
  const NodeRecord* enclosing_container(const NodeRecord* from) {
    for (int depth = 0; from && depth < 32; ++depth) {
      if (is_container(from->kind)) return from;
      if (from->parent_id.empty()) return nullptr;
      from = node(from->parent_id);
    }
    return nullptr;
  }

  // The class an impl block or Go receiver belongs to, for member lookups.
  const NodeRecord* owner_type(const NodeRecord* container) {
    if (container->kind != "impl") return container;
    for (const NodeRecord& candidate : named(container->name))
      if (candidate.kind != "impl" && is_container(candidate.kind) && dir_of(candidate.file_path) == dir_of(container->file_path))
        return &candidate;
    return container;
  }

  // A member `name` of a type: defined in its body, in an impl block for it
  // (Rust), with it as receiver (Go), or in one of its direct bases.
  std::optional<std::string> member_of(const NodeRecord& owner, const std::string& name, int depth) {
    std::vector<const NodeRecord*> found;
    std::string suffix = "." + owner.name + "." + name;
    std::string owner_dir = dir_of(owner.file_path);
    // Declarations merge (TypeScript's `interface X` + `namespace X`, a
    // class and its namespace): members of any same-named sibling count.
    std::set<std::string> owners{owner.id};
    for (const NodeRecord& sibling : named(owner.name))
      if (sibling.file_path == owner.file_path && sibling.parent_id == owner.parent_id && sibling.kind != "file")
        owners.insert(sibling.id);
    for (const NodeRecord& candidate : named(name)) {
      if (candidate.kind == "file") continue;
      bool member = owners.count(candidate.parent_id) > 0;
      if (!member && !candidate.parent_id.empty()) {
        const NodeRecord* parent = node(candidate.parent_id);
        member = parent && parent->kind == "impl" && parent->name == owner.name && dir_of(parent->file_path) == owner_dir;
      }
      if (!member && candidate.parent_id.empty() && candidate.scope.size() > suffix.size() &&
          candidate.scope.compare(candidate.scope.size() - suffix.size(), suffix.size(), suffix) == 0)
        member = dir_of(candidate.file_path) == owner_dir;
      if (member) found.push_back(&candidate);
    }
    std::int64_t count = 0;
    if (std::optional<const NodeRecord*> one = single(found, &count)) return (*one)->id;
    if (count > 1 || depth >= 1) return std::nullopt;
    std::vector<std::string> from_bases;
    if (!settled_bases_) return std::nullopt;  // bases are being resolved: never read half-done answers
    for (const RefRecord& base : bases_of(owner.id)) {
      if (base.status != RefStatus::kResolved || base.target.empty()) continue;
      const NodeRecord* base_node = node(base.target);
      if (!base_node) continue;
      if (std::optional<std::string> member = member_of(*base_node, name, depth + 1)) from_bases.push_back(*member);
    }
    std::sort(from_bases.begin(), from_bases.end());
    from_bases.erase(std::unique(from_bases.begin(), from_bases.end()), from_bases.end());
    if (from_bases.size() == 1) return from_bases[0];
    return std::nullopt;
  }

  // The definitions of a bare `name` visible where `from` is: local scopes,
  // the file's top level, its imports, its package, and (for languages
  // without explicit imports) the unique exported definition anywhere.
  Resolution lookup_bare(const RefRecord& ref, const std::string& name, std::string_view ref_kind, Family family) {
    Rules rules = rules_for(family);
    const NodeRecord* from = node(ref.from_node);
    // 1. This file: the innermost scope that defines the name.
    std::vector<std::string> chain;  // ancestors of `from`, innermost first ("" = top level)
    for (const NodeRecord* at = from; at && chain.size() < 32; at = at->parent_id.empty() ? nullptr : node(at->parent_id)) {
      if (at->kind == "file") break;
      if (rules.members_in_scope || !is_container(at->kind)) chain.push_back(at->id);
      if (at->parent_id.empty()) break;
    }
    chain.push_back("");
    for (const std::string& scope : chain) {
      std::vector<const NodeRecord*> here;
      for (const NodeRecord* candidate : in_file(ref.file_path, name))
        if (candidate->parent_id == scope && candidate->kind != "file") here.push_back(candidate);
      if (scope.empty()) {
        for (const NodeRecord* nested : top_level(ref.file_path, name))
          if (!nested->parent_id.empty()) here.push_back(nested);
        // An indented definition without a named parent sits in an anonymous
        // scope (a callback): an import of the name wins over it.
        if (!here.empty() && std::all_of(here.begin(), here.end(), [](const NodeRecord* n) { return n->column > 1; }) &&
            binds_import(ref.file_path, name, family))
          break;
      }
      if (here.empty()) continue;
      std::int64_t count = 0;
      if (std::optional<const NodeRecord*> one = single(here, &count)) return resolved((*one)->id);
      return unresolved(count);
    }
    if (rules.members_in_scope) {  // inherited members by bare name (Java, C++, C#)
      if (const NodeRecord* owner = enclosing_container(from))
        if (std::optional<std::string> member = member_of(*owner_type(owner), name, 0)) return resolved(*member);
    }
    // 2. Names the file imports.
    for (const RefRecord& import : imports_of(ref.file_path)) {
      std::string bound = import.alias.empty() ? import.name : import.alias;
      if (family == Family::kJava && import.name.empty())  // `import a.b.Name;` binds Name
        bound = import.qualifier.substr(import.qualifier.rfind('.') == std::string::npos ? 0 : import.qualifier.rfind('.') + 1);
      if (bound != name || import.name == "*") continue;
      Resolution resolution = resolve_import(import, family, 0);
      if (resolution.status == RefStatus::kExternal) return external();
      // A definition; or, for `import configure from "./configure"` of a
      // file whose default export has no name (`export default function
      // (config) {}`), that module, whose node is the file's.
      if (resolution.status == RefStatus::kResolved && !resolution.target.empty() &&
          (resolution.target != resolution.target_path || (import.name == "default" && family == Family::kEcma)))
        return resolved(resolution.target);
      return unresolved();
    }
    // 3. Wildcard imports and includes: the unique one that exports it.
    std::set<std::string> found;
    for (const RefRecord& import : imports_of(ref.file_path)) {
      if (import.name != "*") continue;
      Resolution resolution = resolve_import(import, family, 0);
      if (resolution.status != RefStatus::kResolved) continue;
      if (is_file(resolution.target_path)) {
        if (std::optional<std::string> target = lookup_export(resolution.target_path, name, family, 1)) found.insert(*target);
      } else if (is_dir(resolution.target_path)) {
        for (std::string_view file : dirs_.at(resolution.target_path)) {
          std::int64_t count = 0;
          if (std::optional<const NodeRecord*> one = single(top_level(std::string(file), name), &count))
            found.insert((*one)->id);
        }
      }
    }
    if (found.size() == 1 && (family == Family::kC || family == Family::kCpp)) {
      // An include finds the declaration in the header; the edge goes to the
      // definition when exactly one source file defines it.
      const NodeRecord* declared = node(*found.begin());
      if (declared && is_header(declared->file_path)) {
        std::vector<const NodeRecord*> defined;
        for (const NodeRecord& candidate : named(name))
          if (!is_header(candidate.file_path) && candidate.kind == declared->kind && candidate.is_exported &&
              candidate.parent_id == "" && family_of(language(candidate.file_path)) != Family::kOther)
            defined.push_back(&candidate);
        std::int64_t count = 0;
        if (std::optional<const NodeRecord*> one = single(defined, &count)) return resolved((*one)->id);
      }
    }
    if (found.size() == 1) return resolved(*found.begin());
    if (found.size() > 1) return unresolved(static_cast<std::int64_t>(found.size()));
    // 4. The package: other files of the directory (Go, Java).
    if (rules.package_is_dir) {
      std::vector<const NodeRecord*> package;
      std::string dir = dir_of(ref.file_path);
      for (const NodeRecord& candidate : named(name))
        if (candidate.file_path != ref.file_path && dir_of(candidate.file_path) == dir && candidate.parent_id.empty() &&
            candidate.kind != "file" && family_of(language(candidate.file_path)) == family)
          package.push_back(&candidate);
      std::int64_t count = 0;
      if (std::optional<const NodeRecord*> one = single(package, &count)) return resolved((*one)->id);
      if (count > 1) return unresolved(count);
    }
    // 5. Anywhere, when the language has no imports of names.
    if (rules.global) {
      std::vector<const NodeRecord*> anywhere;
      for (const NodeRecord& candidate : named(name))
        if (candidate.is_exported && fits(ref_kind, candidate.kind) && family_of(language(candidate.file_path)) == family &&
            (candidate.parent_id.empty() || is_namespace(candidate.parent_id)))
          anywhere.push_back(&candidate);
      std::int64_t count = 0;
      if (std::optional<const NodeRecord*> one = single(anywhere, &count)) return resolved((*one)->id);
      return unresolved(count);
    }
    return unresolved();
  }

  // What a qualifier ("np", "os.path", "Foo", "pkg.Type") denotes: a node
  // (class, module file) or a directory (Go package).
  struct Qualified {
    const NodeRecord* node = nullptr;
    std::string dir;
    bool external = false;
  };

  Qualified lookup_qualifier(const RefRecord& ref, const std::string& qualifier, Family family) {
    Qualified out;
    // An import that binds the whole qualifier: `import numpy as np` (np),
    // `import os.path` (os.path), Go's `import "x/y/pkg"` (pkg).
    for (const RefRecord& import : imports_of(ref.file_path)) {
      std::string bound = import.alias;
      if (bound.empty()) {
        if (import.name.empty()) {
          bound = import.qualifier;
          if (family == Family::kGo) bound = bound.substr(bound.rfind('/') == std::string::npos ? 0 : bound.rfind('/') + 1);
          if (family == Family::kRust) bound = bound.substr(bound.rfind("::") == std::string::npos ? 0 : bound.rfind("::") + 2);
          if (family == Family::kJava) bound = bound.substr(bound.rfind('.') == std::string::npos ? 0 : bound.rfind('.') + 1);
        } else if (import.name != "*") {
          bound = import.name;
        }
      }
      if (bound != qualifier) continue;
      Resolution resolution = resolve_import(import, family, 0);
      if (resolution.status == RefStatus::kExternal) {
        out.external = true;
        return out;
      }
      if (resolution.status != RefStatus::kResolved) return out;
      if (!resolution.target.empty()) {
        out.node = node(resolution.target);
      } else if (is_dir(resolution.target_path)) {
        out.dir = resolution.target_path;
      }
      return out;
    }
    // `a.b.C`: a module import for a prefix, then definitions inside it.
    std::size_t dot = qualifier.rfind('.');
    if (dot != std::string::npos) {
      Qualified outer = lookup_qualifier(ref, qualifier.substr(0, dot), family);
      if (outer.external) return outer;
      std::string last = qualifier.substr(dot + 1);
      if (outer.node) {
        if (outer.node->kind == "file") {
          std::optional<std::string> inner = lookup_export(outer.node->file_path, last, family, 1);
          if (inner) out.node = node(*inner);
          if (!inner && family == Family::kPython) {
            // `import a` then `a.b.f()`: the submodule a/b.py.
            std::string base = dir_of(outer.node->file_path);
            for (const std::string& candidate : {join_path(base, last + ".py"), join_path(base, last + "/__init__.py")})
              if (is_file(candidate)) out.node = node(candidate);
          }
        } else if (std::optional<std::string> member = member_of(*owner_type(outer.node), last, 0)) {
          out.node = node(*member);
        }
      }
      return out;
    }
    // A bare name: a class (static call), a module.
    RefRecord probe = ref;
    Resolution resolution = lookup_bare(probe, qualifier, "reference", family);
    if (resolution.status == RefStatus::kExternal) out.external = true;
    if (resolution.status == RefStatus::kResolved) out.node = node(resolution.target);
    return out;
  }

  // Where a binding's variable lives: `const a = new A()` at top level is
  // inside the node of `a` itself, whose scope is its parent (or the file).
  std::string binding_scope(const RefRecord& binding) {
    const NodeRecord* at = node(binding.from_node);
    if (at && at->name == binding.binds && at->kind != "file" && !is_container(at->kind) && at->kind != "function" &&
        at->kind != "method")
      return at->parent_id.empty() ? at->file_path : at->parent_id;
    return binding.from_node;
  }

  // The type of a receiver that is a variable with a known type in scope:
  // a local or parameter ("x"), or a member of the enclosing class
  // ("this.x", "self.x"). Null when unknown or when the scope gives two.
  const NodeRecord* receiver_type(const RefRecord& ref, const std::string& q) {
    std::string key;
    bool member = false;
    if ((q.rfind("this.", 0) == 0 || q.rfind("self.", 0) == 0) && q.find('.', 5) == std::string::npos) {
      key = "." + q.substr(5);
      member = true;
    } else if (q.find('.') == std::string::npos && q != "?") {
      key = q;
    } else {
      return nullptr;
    }
    const std::vector<RefRecord>& bindings = bindings_of(ref.file_path);
    if (bindings.empty()) return nullptr;
    const NodeRecord* from = node(ref.from_node);
    std::vector<const RefRecord*> matches;
    if (member) {
      const NodeRecord* owner = enclosing_container(from);
      if (!owner) return nullptr;
      for (const RefRecord& binding : bindings) {
        if (binding.binds != key) continue;
        const NodeRecord* at = enclosing_container(node(binding.from_node));
        if (at && at->id == owner->id) matches.push_back(&binding);
      }
    } else {
      // The innermost scope of `from` (up to the file) that binds the name.
      for (const NodeRecord* at = from; at && matches.empty();) {
        for (const RefRecord& binding : bindings)
          if (binding.binds == key && binding_scope(binding) == at->id) matches.push_back(&binding);
        if (at->kind == "file") break;
        at = at->parent_id.empty() ? node(ref.file_path) : node(at->parent_id);
      }
    }
    const NodeRecord* type = nullptr;
    for (const RefRecord* binding : matches) {
      if (binding->status != RefStatus::kResolved || binding->target.empty()) return nullptr;
      const NodeRecord* target = node(binding->target);
      if (target && !is_container(target->kind)) {
        // `const ILogger = Symbol()` beside `interface ILogger`: the type is the interface.
        const NodeRecord* merged = nullptr;
        for (const NodeRecord& sibling : named(target->name))
          if (sibling.file_path == target->file_path && sibling.parent_id == target->parent_id &&
              is_container(sibling.kind))
            merged = &sibling;
        target = merged;
      }
      if (!target) return nullptr;
      if (type && type->id != target->id) return nullptr;
      type = target;
    }
    return type;
  }

  Resolution resolve_name(const RefRecord& ref, Family family) {
    const std::string& q = ref.qualifier;
    if (!q.empty()) {
      if (const NodeRecord* type = settled_bases_ ? receiver_type(ref, q) : nullptr) {
        if (std::optional<std::string> member = member_of(*owner_type(type), ref.name, 0)) return resolved(*member);
        return unresolved();
      }
    }
    if (q.empty()) return lookup_bare(ref, ref.name, ref.kind, family);
    if (q == "?") return unresolved();
    if (q == "self" || q == "this" || q == "cls" || q == "Self" || q == "super" || q == "base") {
      const NodeRecord* owner = enclosing_container(node(ref.from_node));
      if (!owner) return unresolved();
      owner = owner_type(owner);
      if (q == "super" || q == "base") {
        std::set<std::string> found;
        if (settled_bases_)
          for (const RefRecord& base : bases_of(owner->id))
          if (base.status == RefStatus::kResolved && node(base.target))
            if (std::optional<std::string> member = member_of(*node(base.target), ref.name, 0)) found.insert(*member);
        if (found.size() == 1) return resolved(*found.begin());
        return unresolved(static_cast<std::int64_t>(found.size()));
      }
      if (std::optional<std::string> member = member_of(*owner, ref.name, 0)) return resolved(*member);
      return unresolved();
    }
    Qualified qualified = lookup_qualifier(ref, q, family);
    if (qualified.external) return external();
    if (qualified.node) {
      if (qualified.node->kind == "file") {
        if (std::optional<std::string> target = lookup_export(qualified.node->file_path, ref.name, family, 1))
          return resolved(*target);
        return unresolved();
      }
      if (std::optional<std::string> member = member_of(*owner_type(qualified.node), ref.name, 0)) return resolved(*member);
      return unresolved();
    }
    if (!qualified.dir.empty()) {
      std::vector<const NodeRecord*> found;
      for (const NodeRecord& candidate : named(ref.name))
        if (dir_of(candidate.file_path) == qualified.dir && candidate.parent_id.empty() && candidate.kind != "file")
          found.push_back(&candidate);
      std::int64_t count = 0;
      if (std::optional<const NodeRecord*> one = single(found, &count)) return resolved((*one)->id);
      return unresolved(count);
    }
    // An object of unknown type: count the methods it could call, invent no edge.
    std::int64_t candidates = 0;
    for (const NodeRecord& candidate : named(ref.name))
      if (candidate.kind == "method" && family_of(language(candidate.file_path)) == family) ++candidates;
    return unresolved(candidates);
  }

  graph::Store& store_;
  const Workspace& workspace_;
  const Project& project_;
  const std::unordered_map<std::string_view, std::string_view>& languages_;
  const std::unordered_map<std::string_view, std::vector<std::string_view>>& dirs_;
  const std::unordered_map<std::string_view, std::vector<std::string_view>>& modules_;  // dotted suffix -> files
  bool settled_bases_;
  std::unordered_map<std::int64_t, Resolution> import_answers_;
  std::unordered_map<std::string, std::vector<NodeRecord>> named_;
  std::unordered_map<std::string, std::unique_ptr<NodeRecord>> nodes_;
  std::unordered_map<std::string, std::vector<RefRecord>> imports_;
  std::unordered_map<std::string, std::vector<RefRecord>> bases_;
  std::unordered_map<std::string, std::vector<RefRecord>> bindings_;
  std::unordered_map<std::string, std::unordered_map<std::string, std::vector<const NodeRecord*>>> by_file_;
};

void count(ResolveSummary& summary, RefStatus status) {
  ++summary.references;
  switch (status) {
    case RefStatus::kResolved: ++summary.resolved; break;
    case RefStatus::kAmbiguous: ++summary.ambiguous; break;
    case RefStatus::kUnresolved: ++summary.unresolved; break;
    case RefStatus::kExternal: ++summary.external; break;
    case RefStatus::kPending: break;
  }
}

}  // namespace

bool decides_imports(std::string_view rel_path) {
  std::size_t slash = rel_path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? rel_path : rel_path.substr(slash + 1);
  return base == "tsconfig.json" || base == "jsconfig.json" || base == "package.json" || base == "go.mod" ||
         base == "Cargo.toml" || (base.starts_with("tsconfig.") && base.ends_with(".json"));
}

ResolveSummary resolve_pending(graph::Store& store, const fs::path& root, std::size_t bulk_threshold,
                               FileTablesCache* cache) {
  ResolveSummary summary;
  // A resolution "changed" when its answer did; a pending reference keeps its
  // previous answer until it is resolved again.
  auto changed = [](const RefRecord& ref, const Resolution& resolution) {
    return ref.target != resolution.target || ref.target_path != resolution.target_path ||
           ref.candidates != resolution.candidates;
  };
  // Round after round, each step one transaction read by a fresh Resolver:
  // imports first (where names come from), then bases (where members come
  // from), then the rest. When an import or a base of a file now leads
  // elsewhere, the references that may depend on it become pending again.
  // Each step works in chunks (one transaction and one Resolver each), so
  // that memory stays bounded whatever the number of references.
  constexpr std::size_t kChunk = 40000;
  std::optional<Workspace> workspace_storage;
  // Imports resolved by this call, once the index had settled references.
  bool settled_before = store.has_settled_refs();
  std::unordered_set<std::int64_t> resolved_here;
  for (int round = 0; round < 8; ++round) {
    if (!store.has_pending_refs()) break;
    if (!workspace_storage) {
      std::shared_ptr<const Tables> tables;
      if (cache) {
        std::uint64_t digest = store.files_digest(decides_imports);
        if (!cache->tables_ || cache->digest_ != digest || cache->root_ != root) {
          cache->tables_ = std::make_shared<const Tables>(store, root);
          cache->digest_ = digest;
          cache->root_ = root;
          ++cache->builds_;
        }
        tables = cache->tables_;
      } else {
        tables = std::make_shared<const Tables>(store, root);
      }
      workspace_storage.emplace(std::move(tables));
      if (static_cast<std::size_t>(store.pending_count()) > bulk_threshold) workspace_storage->preload(store);
    }
    const Workspace& workspace = *workspace_storage;
    ++summary.rounds;
    // One Resolver per step: what its caches hold does not change during
    // the step (only resolutions are written, and none is read back).
    Resolver import_resolver(store, workspace, false);
    for (;;) {
      std::vector<RefRecord> imports = store.pending_refs(graph::Store::RefGroup::kImports, kChunk);
      if (imports.empty()) break;
      std::set<std::string> moved;
      Resolver& resolver = import_resolver;
      graph::Batch batch(store);
      for (const RefRecord& ref : imports) {
        Resolution resolution = resolver.resolve(ref);
        if (changed(ref, resolution)) moved.insert(ref.file_path);
        batch.set_resolution(ref.id, resolution);
        if (settled_before) resolved_here.insert(ref.id);
        count(summary, resolution.status);
      }
      for (const std::string& file : moved) batch.mark_file_pending(file, graph::Batch::kAllButImports);
      // A name imported from a file may come through that file's own imports
      // (re-exports, `export *` chains): the imports that lead into a moved
      // file, or into one re-exporting all of it, are pending again unless
      // this pass resolved them (its answers are final: the index's content
      // does not change during the pass); so are the other references of the
      // files re-exporting all of it (their names may come through it) and
      // the lookups through them as modules (`m.name`). A first index has
      // none to mark.
      if (settled_before && !moved.empty()) {
        for (const std::string& moved_file : moved)
          for (const std::string& file : store.reexporters_of({moved_file})) {
            if (file != moved_file) batch.mark_file_pending(file, graph::Batch::kAllButImports);
            batch.mark_module_lookups_pending(file);
            for (std::int64_t id : store.settled_imports_into(file))
              if (!resolved_here.contains(id)) batch.mark_ref_pending(id);
          }
      }
      batch.commit();
    }
    Resolver base_resolver(store, workspace, false);
    for (;;) {
      std::vector<RefRecord> bases = store.pending_refs(graph::Store::RefGroup::kBases, kChunk);
      if (bases.empty()) break;
      std::set<std::string> rebased_files, rebased_classes;
      std::vector<std::string> rebased_ids;
      Resolver& resolver = base_resolver;
      graph::Batch batch(store);
      for (const RefRecord& ref : bases) {
        Resolution resolution = resolver.resolve(ref);
        if (changed(ref, resolution)) {
          rebased_files.insert(ref.file_path);
          if (std::optional<graph::NodeRecord> owner = store.node(ref.from_node)) rebased_classes.insert(owner->name);
          if (ref.kind == "inherit" || ref.kind == "implement") rebased_ids.push_back(ref.from_node);
        }
        batch.set_resolution(ref.id, resolution);
        count(summary, resolution.status);
      }
      // Members are looked up through bases and typed variables: here, and
      // as `Class.member` elsewhere.
      for (const std::string& file : rebased_files) batch.mark_file_pending(file, graph::Batch::kAllButImportsAndBases);
      for (const std::string& name : rebased_classes) batch.mark_receiver_pending(name);
      if (settled_before && !rebased_ids.empty()) batch.mark_member_lookups_through(rebased_ids);
      batch.commit();
    }
    Resolver use_resolver(store, workspace, true);
    for (;;) {
      std::vector<RefRecord> others = store.pending_refs(graph::Store::RefGroup::kUses, kChunk);
      if (others.empty()) break;
      Resolver& resolver = use_resolver;
      graph::Batch batch(store);
      for (const RefRecord& ref : others) {
        Resolution resolution = resolver.resolve(ref);
        batch.set_resolution(ref.id, resolution);
        count(summary, resolution.status);
      }
      batch.commit();
    }
  }
  return summary;
}

}  // namespace comp::resolve
