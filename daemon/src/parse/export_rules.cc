#include "parse/export_rules.h"

#include <cctype>
#include <cstring>

namespace comp::parse {
namespace {

std::string_view text_of(const ExportContext& context, TSNode node) {
  std::uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (end > context.source.size() || end < start) return {};
  return context.source.substr(start, end - start);
}

bool contains_word(std::string_view text, std::string_view word) {
  std::size_t at = 0;
  while ((at = text.find(word, at)) != std::string_view::npos) {
    bool left = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    std::size_t after = at + word.size();
    bool right = after >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_');
    if (left && right) return true;
    at = after;
  }
  return false;
}

// True when a direct child of `definition` that holds modifiers (modifiers,
// visibility_modifier, accessibility_modifier, storage_class_specifier...)
// contains `word`.
bool has_modifier(const ExportContext& context, TSNode definition, std::string_view word) {
  std::uint32_t count = ts_node_child_count(definition);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_child(definition, i);
    const char* type = ts_node_type(child);
    if (std::strstr(type, "modifier") || std::strcmp(type, "storage_class_specifier") == 0 ||
        std::strcmp(type, word.data()) == 0) {
      if (contains_word(text_of(context, child), word)) return true;
    }
  }
  return false;
}

bool parent_is_callable(const Symbol* parent) {
  return parent && (parent->kind == "function" || parent->kind == "method" || parent->kind == "constructor");
}

void prepare_nothing(ExportContext&) {}

bool always(const ExportContext&, TSNode, const Symbol&, const Symbol* parent) {
  return !parent_is_callable(parent);
}

// Python: at module level, the names listed in __all__ when the module has one
// (it is the module's declared public API), else names not starting with "_"
// (dunders count as public); members follow their class by the same naming
// rule; never a local of a function; never inside a private class.
void prepare_python(ExportContext& context) {
  std::uint32_t count = ts_node_named_child_count(context.root);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode statement = ts_node_named_child(context.root, i);
    if (std::strcmp(ts_node_type(statement), "expression_statement") != 0) continue;
    TSNode assignment = ts_node_named_child(statement, 0);
    if (ts_node_is_null(assignment) || std::strcmp(ts_node_type(assignment), "assignment") != 0) continue;
    TSNode left = ts_node_child_by_field_name(assignment, "left", 4);
    TSNode right = ts_node_child_by_field_name(assignment, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || text_of(context, left) != "__all__") continue;
    context.has_python_all = true;
    std::uint32_t items = ts_node_named_child_count(right);
    for (std::uint32_t k = 0; k < items; ++k) {
      TSNode item = ts_node_named_child(right, k);
      if (std::strcmp(ts_node_type(item), "string") != 0) continue;
      std::string_view text = text_of(context, item);
      while (!text.empty() && (text.front() == '"' || text.front() == '\'')) text.remove_prefix(1);
      while (!text.empty() && (text.back() == '"' || text.back() == '\'')) text.remove_suffix(1);
      context.python_all.emplace(text);
    }
  }
}

bool python_exported(const ExportContext& context, TSNode, const Symbol& symbol, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  if (parent && !parent->is_exported) return false;
  const std::string& name = symbol.name;
  bool dunder = name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0;
  if (!parent && context.has_python_all) return context.python_all.count(name) > 0;
  return name.empty() || name[0] != '_' || dunder;
}

// Go: an identifier starting with an upper-case letter.
bool go_exported(const ExportContext&, TSNode, const Symbol& symbol, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  return !symbol.name.empty() && symbol.name[0] >= 'A' && symbol.name[0] <= 'Z';
}

// Rust: `pub` (any form); trait items, trait-impl items and enum variants
// follow their trait or enum; a trait impl is as public as the trait (an
// inherent impl has no visibility: its items carry their own).
bool rust_exported(const ExportContext& context, TSNode definition, const Symbol& symbol, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  if (symbol.kind == "impl") return !ts_node_is_null(ts_node_child_by_field_name(definition, "trait", 5));
  if (has_modifier(context, definition, "pub")) return true;
  if (parent && (parent->kind == "interface" || parent->kind == "trait" || parent->kind == "enum"))
    return parent->is_exported;
  if (parent && parent->kind == "impl" && parent->signature.find(" for ") != std::string::npos) return true;
  return false;
}

// JavaScript/TypeScript: declared under an export statement (at top level or
// in an exported namespace); class members follow their class unless private
// (`private`, `protected`, `#name`).
bool js_exported(const ExportContext& context, TSNode definition, const Symbol& symbol, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  if (parent && (parent->kind == "namespace" || parent->kind == "module") && !parent->is_exported) return false;
  if (parent && parent->kind != "namespace" && parent->kind != "module") {
    if (!symbol.name.empty() && symbol.name[0] == '#') return false;
    if (has_modifier(context, definition, "private") || has_modifier(context, definition, "protected")) return false;
    return parent->is_exported;
  }
  TSNode node = definition;
  for (int depth = 0; depth < 4 && !ts_node_is_null(node); ++depth) {
    const char* type = ts_node_type(node);
    if (std::strcmp(type, "export_statement") == 0) return true;
    if (std::strcmp(type, "program") == 0 || std::strcmp(type, "statement_block") == 0) return false;
    node = ts_node_parent(node);
  }
  return false;
}

// Java, C#: public or protected; interface members are public unless said
// otherwise, enum constants always are; C# namespaces are open to all.
bool java_exported(const ExportContext& context, TSNode definition, const Symbol& symbol, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  if (symbol.kind == "namespace") return !parent || parent->is_exported;
  if (parent && !parent->is_exported) return false;
  if (has_modifier(context, definition, "public") || has_modifier(context, definition, "protected")) return true;
  if (parent && parent->kind == "interface") return !has_modifier(context, definition, "private");
  const char* type = ts_node_type(definition);
  if (std::strcmp(type, "enum_constant") == 0 || std::strcmp(type, "enum_member_declaration") == 0) return true;
  return false;
}

// Kotlin: public by default.
bool kotlin_exported(const ExportContext& context, TSNode definition, const Symbol&, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  if (parent && !parent->is_exported) return false;
  return !has_modifier(context, definition, "private") && !has_modifier(context, definition, "internal");
}

// Swift: internal by default; `public` and `open` export; protocol members and
// enum cases are as visible as their protocol or enum.
bool swift_exported(const ExportContext& context, TSNode definition, const Symbol&, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  if (parent && parent->kind == "interface") return parent->is_exported;
  if (parent && std::strcmp(ts_node_type(definition), "enum_entry") == 0) return parent->is_exported;
  return has_modifier(context, definition, "public") || has_modifier(context, definition, "open");
}

// PHP: functions and classes are global; members unless private/protected.
bool php_exported(const ExportContext& context, TSNode definition, const Symbol&, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  return !has_modifier(context, definition, "private") && !has_modifier(context, definition, "protected");
}

// C, C++: external linkage, i.e. not `static` at file scope.
bool c_exported(const ExportContext& context, TSNode definition, const Symbol&, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  if (parent) return parent->is_exported;
  return !has_modifier(context, definition, "static");
}

// C++: as C, and a class member is exported when its class is and its access
// is public (the last access specifier before it, else `public` in a struct or
// union and `private` in a class); nothing in an anonymous namespace is.
// Members defined out of their class (`void Foo::bar() {}`) follow linkage only.
bool cpp_exported(const ExportContext& context, TSNode definition, const Symbol&, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  for (TSNode node = ts_node_parent(definition); !ts_node_is_null(node); node = ts_node_parent(node))
    if (std::strcmp(ts_node_type(node), "namespace_definition") == 0 &&
        ts_node_is_null(ts_node_child_by_field_name(node, "name", 4)))
      return false;
  if (parent && !parent->is_exported) return false;
  // The member's own node in its class body: the definition or an ancestor
  // (template_declaration, the field_declaration around a nested enum).
  TSNode member = definition;
  TSNode body = ts_node_parent(member);
  while (!ts_node_is_null(body) && std::strcmp(ts_node_type(body), "field_declaration_list") != 0 &&
         std::strcmp(ts_node_type(body), "translation_unit") != 0 && std::strcmp(ts_node_type(body), "declaration_list") != 0) {
    member = body;
    body = ts_node_parent(body);
  }
  if (ts_node_is_null(body) || std::strcmp(ts_node_type(body), "field_declaration_list") != 0)
    return !has_modifier(context, definition, "static");
  for (TSNode sibling = ts_node_prev_sibling(member); !ts_node_is_null(sibling); sibling = ts_node_prev_sibling(sibling))
    if (std::strcmp(ts_node_type(sibling), "access_specifier") == 0) return text_of(context, sibling) == "public";
  TSNode owner = ts_node_parent(body);
  return ts_node_is_null(owner) || std::strcmp(ts_node_type(owner), "class_specifier") != 0;
}

// Ruby: methods are public unless a bare `private`/`protected` precedes them
// in their class body, they are wrapped in `private def ...`, or their name
// marks them internal; members of a private class or module are not exported.
bool ruby_exported(const ExportContext& context, TSNode definition, const Symbol& symbol, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  if (parent && !parent->is_exported) return false;
  if (!symbol.name.empty() && symbol.name[0] == '_') return false;
  TSNode up = ts_node_parent(definition);
  if (!ts_node_is_null(up) && std::strcmp(ts_node_type(up), "argument_list") == 0) {
    TSNode call = ts_node_parent(up);
    TSNode method = ts_node_is_null(call) ? call : ts_node_child_by_field_name(call, "method", 6);
    if (!ts_node_is_null(method)) {
      std::string_view name = text_of(context, method);
      if (name == "private" || name == "protected") return false;
    }
  }
  if (std::strcmp(ts_node_type(definition), "method") != 0) return true;
  for (TSNode sibling = ts_node_prev_sibling(definition); !ts_node_is_null(sibling);
       sibling = ts_node_prev_sibling(sibling)) {
    if (std::strcmp(ts_node_type(sibling), "identifier") != 0) continue;
    std::string_view word = text_of(context, sibling);
    if (word == "private" || word == "protected") return false;
    if (word == "public" || word == "module_function") return true;
  }
  return true;
}

// Lua: `local function` stays in its chunk.
bool lua_exported(const ExportContext& context, TSNode definition, const Symbol&, const Symbol* parent) {
  if (parent_is_callable(parent)) return false;
  return text_of(context, definition).rfind("local", 0) != 0;
}

const ExportRule kAlways{prepare_nothing, always};
const ExportRule kPython{prepare_python, python_exported};
const ExportRule kGo{prepare_nothing, go_exported};
const ExportRule kRust{prepare_nothing, rust_exported};
const ExportRule kJs{prepare_nothing, js_exported};
const ExportRule kJava{prepare_nothing, java_exported};
const ExportRule kKotlin{prepare_nothing, kotlin_exported};
const ExportRule kSwift{prepare_nothing, swift_exported};
const ExportRule kPhp{prepare_nothing, php_exported};
const ExportRule kC{prepare_nothing, c_exported};
const ExportRule kCpp{prepare_nothing, cpp_exported};
const ExportRule kRuby{prepare_nothing, ruby_exported};
const ExportRule kLua{prepare_nothing, lua_exported};

}  // namespace

const ExportRule& export_rule_for(lang::Language language) {
  using lang::Language;
  switch (language) {
    case Language::kPython: return kPython;
    case Language::kGo: return kGo;
    case Language::kRust: return kRust;
    case Language::kTypeScript:
    case Language::kTsx:
    case Language::kJavaScript: return kJs;
    case Language::kJava:
    case Language::kCSharp: return kJava;
    case Language::kKotlin: return kKotlin;
    case Language::kSwift: return kSwift;
    case Language::kPhp: return kPhp;
    case Language::kC: return kC;
    case Language::kCpp: return kCpp;
    case Language::kRuby: return kRuby;
    case Language::kLua: return kLua;
    case Language::kHtml:
    case Language::kBash: return kAlways;
  }
  return kAlways;
}

}  // namespace comp::parse
