#include "lang/language.h"

#include <array>
#include <cctype>
#include <string>
#include <utility>

extern "C" {
const TSLanguage* tree_sitter_rust();
const TSLanguage* tree_sitter_typescript();
const TSLanguage* tree_sitter_tsx();
const TSLanguage* tree_sitter_javascript();
const TSLanguage* tree_sitter_python();
const TSLanguage* tree_sitter_go();
const TSLanguage* tree_sitter_html();
const TSLanguage* tree_sitter_java();
const TSLanguage* tree_sitter_c();
const TSLanguage* tree_sitter_cpp();
const TSLanguage* tree_sitter_c_sharp();
const TSLanguage* tree_sitter_ruby();
const TSLanguage* tree_sitter_php();
const TSLanguage* tree_sitter_kotlin();
const TSLanguage* tree_sitter_swift();
const TSLanguage* tree_sitter_lua();
const TSLanguage* tree_sitter_bash();
}

namespace comp::lang {

extern const std::pair<std::string_view, std::string_view> kUpstreamTags[];
extern const unsigned kUpstreamTagsCount;
extern const std::pair<std::string_view, std::string_view> kExtraQueries[];
extern const unsigned kExtraQueriesCount;
extern const std::pair<std::string_view, std::string_view> kRefQueries[];
extern const unsigned kRefQueriesCount;

namespace {

struct LanguageInfo {
  Language language;
  std::string_view name;
  std::string_view query_id;  // key of the embedded query tables
  const TSLanguage* (*grammar)();
};

constexpr std::array<LanguageInfo, 17> kLanguages{{
    {Language::kRust, "rust", "rust", tree_sitter_rust},
    {Language::kTypeScript, "typescript", "typescript", tree_sitter_typescript},
    {Language::kTsx, "tsx", "tsx", tree_sitter_tsx},
    {Language::kJavaScript, "javascript", "javascript", tree_sitter_javascript},
    {Language::kPython, "python", "python", tree_sitter_python},
    {Language::kGo, "go", "go", tree_sitter_go},
    {Language::kHtml, "html", "html", tree_sitter_html},
    {Language::kJava, "java", "java", tree_sitter_java},
    {Language::kC, "c", "c", tree_sitter_c},
    {Language::kCpp, "cpp", "cpp", tree_sitter_cpp},
    {Language::kCSharp, "csharp", "c_sharp", tree_sitter_c_sharp},
    {Language::kRuby, "ruby", "ruby", tree_sitter_ruby},
    {Language::kPhp, "php", "php", tree_sitter_php},
    {Language::kKotlin, "kotlin", "kotlin", tree_sitter_kotlin},
    {Language::kSwift, "swift", "swift", tree_sitter_swift},
    {Language::kLua, "lua", "lua", tree_sitter_lua},
    {Language::kBash, "bash", "bash", tree_sitter_bash},
}};

const LanguageInfo& info(Language language) {
  return kLanguages[static_cast<std::size_t>(language)];
}

struct ExtensionEntry {
  std::string_view extension;  // with the dot
  Language language;
};

constexpr ExtensionEntry kExtensions[] = {
    {".rs", Language::kRust},
    {".ts", Language::kTypeScript}, {".mts", Language::kTypeScript}, {".cts", Language::kTypeScript},
    {".tsx", Language::kTsx},
    {".js", Language::kJavaScript}, {".mjs", Language::kJavaScript}, {".cjs", Language::kJavaScript},
    {".jsx", Language::kJavaScript},
    {".py", Language::kPython}, {".pyi", Language::kPython}, {".pyw", Language::kPython},
    {".go", Language::kGo},
    {".html", Language::kHtml}, {".htm", Language::kHtml}, {".xhtml", Language::kHtml},
    {".java", Language::kJava},
    {".c", Language::kC}, {".h", Language::kC},
    {".cc", Language::kCpp}, {".cpp", Language::kCpp}, {".cxx", Language::kCpp}, {".c++", Language::kCpp},
    {".C", Language::kCpp}, {".hh", Language::kCpp}, {".hpp", Language::kCpp}, {".hxx", Language::kCpp},
    {".h++", Language::kCpp}, {".ipp", Language::kCpp}, {".tpp", Language::kCpp}, {".inl", Language::kCpp},
    {".cs", Language::kCSharp},
    {".rb", Language::kRuby}, {".rake", Language::kRuby}, {".gemspec", Language::kRuby},
    {".php", Language::kPhp}, {".phtml", Language::kPhp},
    {".kt", Language::kKotlin}, {".kts", Language::kKotlin},
    {".swift", Language::kSwift},
    {".lua", Language::kLua},
    {".sh", Language::kBash}, {".bash", Language::kBash}, {".zsh", Language::kBash},
};

constexpr std::pair<std::string_view, Language> kFileNames[] = {
    {"Rakefile", Language::kRuby}, {"Gemfile", Language::kRuby},
    {".bashrc", Language::kBash}, {".bash_profile", Language::kBash}, {".profile", Language::kBash},
};

constexpr std::pair<std::string_view, Language> kInterpreters[] = {
    {"python", Language::kPython}, {"python3", Language::kPython}, {"python2", Language::kPython},
    {"node", Language::kJavaScript}, {"nodejs", Language::kJavaScript}, {"deno", Language::kTypeScript},
    {"ts-node", Language::kTypeScript}, {"tsx", Language::kTypeScript},
    {"ruby", Language::kRuby}, {"php", Language::kPhp}, {"lua", Language::kLua},
    {"bash", Language::kBash}, {"sh", Language::kBash}, {"zsh", Language::kBash}, {"dash", Language::kBash},
    {"ksh", Language::kBash},
};

std::string_view lookup(const std::pair<std::string_view, std::string_view>* table, unsigned count,
                        std::string_view id) {
  for (unsigned i = 0; i < count; ++i)
    if (table[i].first == id) return table[i].second;
  return {};
}

// "#!/usr/bin/env -S python3 -u" -> "python3"; "#!/bin/bash" -> "bash".
std::optional<Language> from_shebang(std::string_view head) {
  if (head.substr(0, 2) != "#!") return std::nullopt;
  std::string_view line = head.substr(2, head.find('\n') == std::string_view::npos ? head.size() - 2
                                                                                  : head.find('\n') - 2);
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  for (std::string_view word : words) {
    std::string_view base = word.substr(word.rfind('/') == std::string_view::npos ? 0 : word.rfind('/') + 1);
    if (base == "env" || (!base.empty() && base[0] == '-')) continue;
    // python3.11 -> python3
    while (!base.empty() && (std::isdigit(static_cast<unsigned char>(base.back())) || base.back() == '.')) {
      for (const auto& [interp, language] : kInterpreters)
        if (interp == base) return language;
      base.remove_suffix(1);
    }
    for (const auto& [interp, language] : kInterpreters)
      if (interp == base) return language;
    return std::nullopt;
  }
  return std::nullopt;
}

// `.h` is C's and C++'s: C++ when the head shows C++-only syntax.
bool looks_like_cpp(std::string_view head) {
  constexpr std::string_view kMarkers[] = {"namespace ", "template <", "template<", "class ", "std::",
                                           "public:", "private:", "protected:"};
  for (std::string_view marker : kMarkers)
    if (head.find(marker) != std::string_view::npos) return true;
  // A standard C++ header without ".h": #include <string>, <vector>...
  for (std::size_t at = head.find("#include <"); at != std::string_view::npos; at = head.find("#include <", at + 1)) {
    std::size_t close = head.find('>', at);
    if (close == std::string_view::npos) break;
    std::string_view header = head.substr(at + 10, close - at - 10);
    if (header.find('.') == std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

const std::vector<Language>& all_languages() {
  static const std::vector<Language> languages = [] {
    std::vector<Language> v;
    for (const auto& entry : kLanguages) v.push_back(entry.language);
    return v;
  }();
  return languages;
}

std::string_view name(Language language) { return info(language).name; }

std::optional<Language> from_name(std::string_view text) {
  for (const auto& entry : kLanguages)
    if (entry.name == text) return entry.language;
  return std::nullopt;
}

std::optional<Language> detect(std::string_view rel_path, std::string_view head) {
  std::string_view base = rel_path.substr(rel_path.rfind('/') == std::string_view::npos ? 0 : rel_path.rfind('/') + 1);
  for (const auto& [file_name, language] : kFileNames)
    if (base == file_name) return language;
  std::size_t dot = base.rfind('.');
  if (dot != std::string_view::npos && dot != 0) {
    std::string_view extension = base.substr(dot);
    if (extension == ".h" && looks_like_cpp(head)) return Language::kCpp;
    for (const auto& entry : kExtensions)
      if (entry.extension == extension) return entry.language;
    return std::nullopt;  // a known-other extension (.md, .json...) is not sniffed
  }
  return from_shebang(head);
}

const TSLanguage* grammar(Language language) { return info(language).grammar(); }

SymbolQuerySource symbol_query_source(Language language) {
  std::string_view id = info(language).query_id;
  return {lookup(kUpstreamTags, kUpstreamTagsCount, id), lookup(kExtraQueries, kExtraQueriesCount, id),
          lookup(kRefQueries, kRefQueriesCount, id)};
}

}  // namespace comp::lang
