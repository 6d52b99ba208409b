// lang: the one place that maps files to languages and languages to their
// tree-sitter grammar and symbol queries.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

struct TSLanguage;

namespace comp::lang {

enum class Language {
  kRust, kTypeScript, kTsx, kJavaScript, kPython, kGo, kHtml, kJava, kC, kCpp,
  kCSharp, kRuby, kPhp, kKotlin, kSwift, kLua, kBash,
};

// Every language, in a fixed order (used for listings and tests).
const std::vector<Language>& all_languages();

// Stable lower-case name stored in the database: "rust", "typescript", "tsx",
// "javascript", "python", "go", "html", "java", "c", "cpp", "csharp", "ruby",
// "php", "kotlin", "swift", "lua", "bash".
std::string_view name(Language language);
std::optional<Language> from_name(std::string_view name);

// Chooses by extension (case-sensitive, as on Linux: `.C` is C++, `.c` is C;
// `.h` is C unless `head` shows C++ syntax), then by a `#!` line in `head`
// for files without a known extension. `head` is the file's first bytes
// (kDetectHeadBytes are enough; may be empty). nullopt: not a language comP
// parses.
inline constexpr std::size_t kDetectHeadBytes = 4096;
std::optional<Language> detect(std::string_view rel_path, std::string_view head);

// The compiled grammar; never null, valid for the life of the process.
const TSLanguage* grammar(Language language);

// Sources of the symbol query: the grammar's own queries/tags.scm (pinned with
// the grammar; empty for grammars that ship none) and comP's own additions
// from daemon/queries/<id>.scm (TSX uses TypeScript's). parse/ compiles them
// together and lets comP's patterns take precedence.
struct SymbolQuerySource {
  std::string_view upstream;
  std::string_view extra;
  std::string_view refs;  // comP's reference patterns (calls, imports, bases, types): the edges
};
SymbolQuerySource symbol_query_source(Language language);

}  // namespace comp::lang
