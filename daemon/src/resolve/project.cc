#include "resolve/project.h"

#include <algorithm>
#include <cctype>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace comp::resolve {
std::string dir_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::string join_path(const std::string& dir, std::string_view rest) {
  if (dir.empty()) return std::string(rest);
  if (rest.empty()) return dir;
  return dir + "/" + std::string(rest);
}

namespace {

}  // namespace

std::optional<std::string> normalize(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(start, end - start);
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) out.push_back('/');
    out.append(part);
  }
  return out;
}

namespace {

// JSON with comments and trailing commas (tsconfig's dialect) to JSON.
std::string strip_jsonc(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
      out.append(text.substr(i, std::min(j + 1, text.size()) - i));
      i = j;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      out.push_back('\n');
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      std::size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 1;
      continue;
    }
    if (c == ',') {
      std::size_t next = i + 1;
      while (next < text.size() && (text[next] == ' ' || text[next] == '\n' || text[next] == '\r' || text[next] == '\t'))
        ++next;
      if (next < text.size() && (text[next] == '}' || text[next] == ']')) continue;
    }
    out.push_back(c);
  }
  return out;
}

nlohmann::json parse_jsonc(const std::string& text) {
  return nlohmann::json::parse(strip_jsonc(text), nullptr, /*allow_exceptions=*/false);
}

// The value of `key = "value"` in a TOML section, by line (enough for Cargo's
// [package] name).
std::optional<std::string> toml_value(const std::string& text, std::string_view section, std::string_view key) {
  std::string current;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    if (line.front() == '[') {
      current = std::string(line.substr(0, line.find(']') + 1));
      continue;
    }
    if (current != section || line.substr(0, key.size()) != key) continue;
    std::string_view rest = line.substr(key.size());
    std::size_t equals = rest.find_first_not_of(" \t");
    if (equals == std::string_view::npos || rest[equals] != '=') continue;
    std::size_t open = rest.find('"', equals);
    std::size_t close = open == std::string_view::npos ? open : rest.find('"', open + 1);
    if (close == std::string_view::npos) continue;
    return std::string(rest.substr(open + 1, close - open - 1));
  }
  return std::nullopt;
}

// go.mod's module path: the first line starting "module", unquoted.
std::optional<std::string> go_module_path(std::string_view text) {
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.starts_with("module")) continue;
    std::size_t first = line.find_first_not_of(" \t\"", 6), last = line.find_last_not_of(" \t\r\"");
    if (first != std::string_view::npos && last >= first) return std::string(line.substr(first, last - first + 1));
    return std::nullopt;
  }
  return std::nullopt;
}

std::string strip_extension(const std::string& path) {
  for (std::string_view extension : {".d.ts", ".ts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"})
    if (path.size() > extension.size() && path.compare(path.size() - extension.size(), extension.size(), extension) == 0)
      return path.substr(0, path.size() - extension.size());
  return path;
}

}  // namespace

std::optional<std::string> manifest_name(std::string_view file, const std::string& text) {
  std::optional<std::string> name;
  if (file == "package.json") {
    nlohmann::json json = parse_jsonc(text);
    if (json.is_object())
      if (auto found = json.find("name"); found != json.end() && found->is_string()) name = found->get<std::string>();
  } else if (file == "pyproject.toml") {
    name = toml_value(text, "[project]", "name");
    if (!name) name = toml_value(text, "[tool.poetry]", "name");
  } else if (file == "Cargo.toml") {
    name = toml_value(text, "[package]", "name");
  } else if (file == "go.mod") {
    name = go_module_path(text);
  }
  if (!name) return std::nullopt;
  std::string_view whole(*name);
  // "github.com/x/tool/v2": the element before a major version.
  if (std::size_t slash = whole.rfind('/'); slash != std::string_view::npos && whole.size() > slash + 2 &&
                                            whole[slash + 1] == 'v' &&
                                            std::all_of(whole.begin() + slash + 2, whole.end(),
                                                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    whole = whole.substr(0, slash);
  if (std::size_t slash = whole.rfind('/'); slash != std::string_view::npos) whole.remove_prefix(slash + 1);
  std::string out;
  for (char c : whole)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (out.empty()) return std::nullopt;
  return out;
}

std::optional<std::string> Project::read(const std::string& rel_path) const {
  // Project files are small: anything over 4 MiB is not one. O_NOFOLLOW: the
  // indexer vetted the path, and a link swapped in since is not followed.
  int fd = ::open((root_ / rel_path).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size > (4 << 20)) {
    ::close(fd);
    return std::nullopt;
  }
  std::string text(static_cast<std::size_t>(info.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  text.resize(got);
  return text;
}

std::optional<Project::TsConfig> Project::read_tsconfig(const std::string& rel_path, int depth) const {
  std::optional<std::string> text = read(rel_path);
  if (!text || depth > 4) return std::nullopt;
  nlohmann::json json = parse_jsonc(*text);
  if (!json.is_object()) return std::nullopt;
  TsConfig config;
  config.dir = dir_of(rel_path);
  config.paths_base = config.dir;
  // `extends` (a relative path) supplies what this file does not set.
  auto extends = json.find("extends");
  if (extends != json.end() && extends->is_string()) {
    std::string target = extends->get<std::string>();
    if (!target.empty() && target[0] == '.') {
      if (target.size() < 5 || target.compare(target.size() - 5, 5, ".json") != 0) target += ".json";
      if (std::optional<std::string> path = normalize(join_path(config.dir, target)))
        if (std::optional<TsConfig> base = read_tsconfig(*path, depth + 1)) {
          config.base_url = base->base_url;
          config.paths = base->paths;
          config.paths_base = base->paths_base;
          config.has_paths = base->has_paths;
        }
    }
  }
  auto options = json.find("compilerOptions");
  if (options != json.end() && options->is_object()) {
    auto base_url = options->find("baseUrl");
    if (base_url != options->end() && base_url->is_string()) {
      config.base_url = normalize(join_path(config.dir, base_url->get<std::string>()));
      if (config.base_url) config.paths_base = *config.base_url;
    }
    auto paths = options->find("paths");
    if (paths != options->end() && paths->is_object()) {
      config.paths.clear();
      config.has_paths = true;
      if (!config.base_url) config.paths_base = config.dir;
      for (auto& [pattern, targets] : paths->items()) {
        std::vector<std::string> list;
        if (targets.is_array())
          for (const auto& target : targets)
            if (target.is_string()) list.push_back(target.get<std::string>());
        config.paths.emplace_back(pattern, std::move(list));
      }
    }
  }
  return config;
}

void Project::add(const std::string& rel_path) {
  std::string dir = dir_of(rel_path);
  std::string base = rel_path.substr(rel_path.rfind('/') == std::string::npos ? 0 : rel_path.rfind('/') + 1);
  if (base == "tsconfig.json" || base == "jsconfig.json") {
    if (base == "jsconfig.json" && tsconfigs_.count(dir)) return;
    if (std::optional<TsConfig> config = read_tsconfig(rel_path, 0)) tsconfigs_[dir] = std::move(*config);
  } else if (base == "package.json") {
    if (rel_path.find("node_modules/") != std::string::npos) return;
    std::optional<std::string> text = read(rel_path);
    if (!text) return;
    nlohmann::json json = parse_jsonc(*text);
    if (!json.is_object()) return;
    auto name = json.find("name");
    if (name != json.end() && name->is_string() && !name->get<std::string>().empty()) packages_[name->get<std::string>()] = dir;
    for (const char* field : {"types", "typings", "main"}) {
      auto entry = json.find(field);
      if (entry != json.end() && entry->is_string()) {
        if (std::optional<std::string> path = normalize(join_path(dir, entry->get<std::string>()))) {
          package_entry_[dir] = strip_extension(*path);
          break;
        }
      }
    }
  } else if (base == "go.mod") {
    std::optional<std::string> text = read(rel_path);
    if (!text) return;
    if (std::optional<std::string> module = go_module_path(*text)) go_modules_.emplace_back(std::move(*module), dir);
  } else if (base == "Cargo.toml") {
    std::optional<std::string> text = read(rel_path);
    if (!text) return;
    std::string root_file;
    if (std::optional<std::string> lib = toml_value(*text, "[lib]", "path")) {
      if (std::optional<std::string> path = normalize(join_path(dir, *lib))) root_file = *path;
    }
    if (root_file.empty()) root_file = join_path(dir, "src/lib.rs");
    crate_dirs_[dir] = root_file;
    if (std::optional<std::string> name = toml_value(*text, "[lib]", "name").has_value()
                                              ? toml_value(*text, "[lib]", "name")
                                              : toml_value(*text, "[package]", "name")) {
      std::string crate = *name;
      for (char& c : crate)
        if (c == '-') c = '_';
      crates_[crate] = root_file;
    }
  }
}

std::vector<std::string> Project::ts_candidates(const std::string& from_path, const std::string& spec) const {
  std::vector<std::string> out;
  // The nearest tsconfig above the importing file.
  const TsConfig* config = nullptr;
  for (std::string dir = dir_of(from_path);; dir = dir_of(dir)) {
    auto found = tsconfigs_.find(dir);
    if (found != tsconfigs_.end()) {
      config = &found->second;
      break;
    }
    if (dir.empty()) break;
  }
  if (config) {
    for (const auto& [pattern, targets] : config->paths) {
      std::size_t star = pattern.find('*');
      std::string rest;
      if (star == std::string::npos) {
        if (pattern != spec) continue;
      } else {
        std::string prefix = pattern.substr(0, star), suffix = pattern.substr(star + 1);
        if (spec.size() < prefix.size() + suffix.size() || spec.compare(0, prefix.size(), prefix) != 0 ||
            spec.compare(spec.size() - suffix.size(), suffix.size(), suffix) != 0)
          continue;
        rest = spec.substr(prefix.size(), spec.size() - prefix.size() - suffix.size());
      }
      for (std::string target : targets) {
        std::size_t target_star = target.find('*');
        if (target_star != std::string::npos) target.replace(target_star, 1, rest);
        if (std::optional<std::string> path = normalize(join_path(config->paths_base, target))) out.push_back(strip_extension(*path));
      }
    }
    if (config->base_url)
      if (std::optional<std::string> path = normalize(join_path(*config->base_url, spec))) out.push_back(*path);
  }
  // Workspace packages: "@scope/pkg/sub/path" -> the package's directory.
  std::string best;
  for (const auto& [name, dir] : packages_)
    if ((spec == name || (spec.size() > name.size() && spec.compare(0, name.size(), name) == 0 && spec[name.size()] == '/')) &&
        name.size() > best.size())
      best = name;
  if (!best.empty()) {
    const std::string& dir = packages_.at(best);
    std::string rest = spec.size() > best.size() ? spec.substr(best.size() + 1) : std::string();
    if (rest.empty()) {
      auto entry = package_entry_.find(dir);
      if (entry != package_entry_.end()) {
        out.push_back(entry->second);
        // Built output ("lib/index") is generated from sources ("src/index").
        std::string source = entry->second;
        for (std::string_view built : {"/lib/", "/dist/", "/out/", "/build/"}) {
          std::size_t at = source.find(built);
          if (at != std::string::npos) {
            out.push_back(source.substr(0, at) + "/src/" + source.substr(at + built.size()));
            break;
          }
        }
      }
      out.push_back(join_path(dir, "src/index"));
      out.push_back(join_path(dir, "index"));
    } else {
      out.push_back(join_path(dir, rest));
      for (std::string_view built : {"lib/", "dist/", "out/", "build/"})
        if (rest.compare(0, built.size(), built) == 0) out.push_back(join_path(dir, "src/" + rest.substr(built.size())));
      out.push_back(join_path(dir, "src/" + rest));
    }
  }
  return out;
}

std::optional<std::string> Project::go_package_dir(const std::string& spec) const {
  const std::pair<std::string, std::string>* best = nullptr;
  for (const auto& module : go_modules_)
    if ((spec == module.first ||
         (spec.size() > module.first.size() && spec.compare(0, module.first.size(), module.first) == 0 &&
          spec[module.first.size()] == '/')) &&
        (!best || module.first.size() > best->first.size()))
      best = &module;
  if (!best) return std::nullopt;
  if (spec.size() == best->first.size()) return best->second;
  return normalize(join_path(best->second, spec.substr(best->first.size() + 1)));
}

std::optional<std::string> Project::rust_crate_root(const std::string& from_path, const std::string& crate) const {
  if (!crate.empty()) {
    auto found = crates_.find(crate);
    if (found == crates_.end()) return std::nullopt;
    return found->second;
  }
  for (std::string dir = dir_of(from_path);; dir = dir_of(dir)) {
    auto found = crate_dirs_.find(dir);
    if (found != crate_dirs_.end()) {
      // A binary-only crate has main.rs and no lib.rs.
      std::string main = join_path(dir, "src/main.rs");
      if (from_path.rfind(join_path(dir, "src/"), 0) == 0 && ::access((root_ / found->second).c_str(), F_OK) != 0)
        return main;
      return found->second;
    }
    if (dir.empty()) break;
  }
  return std::nullopt;
}

}  // namespace comp::resolve
