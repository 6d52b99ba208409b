// Per-language rules for Symbol::is_exported: whether code outside the file
// (module, package, crate) can use a symbol. Internal to parse/.
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <string_view>
#include <unordered_set>

#include "lang/language.h"
#include "parse/symbols.h"

namespace comp::parse {

// What a rule may look at; prepared once per file.
struct ExportContext {
  std::string_view source;
  TSNode root;
  bool has_python_all = false;                 // module-level __all__ = [...]
  std::unordered_set<std::string> python_all;  // its string entries
};

struct ExportRule {
  void (*prepare)(ExportContext& context);
  // `parent` is the enclosing symbol (already decided), or null at top level.
  bool (*is_exported)(const ExportContext& context, TSNode definition, const Symbol& symbol,
                      const Symbol* parent);
};

const ExportRule& export_rule_for(lang::Language language);

}  // namespace comp::parse
