// How it works: one parse of the input; one walk of the tree (TSTreeCursor)
// collects the comment ranges to delete, the body ranges to replace (level 2)
// and the ranges whose whitespace must stay (multi-line strings, heredocs,
// tokens spanning lines); one pass applies the edits, a second drops trailing
// whitespace and blank-line runs outside the protected ranges. Then the
// output is parsed again and its ERROR/MISSING nodes counted: more than the
// input's, and the next lower level is tried (the walk is repeated; the tree
// is kept).
#include "compress/compress.h"

#include "parse/tree.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace comp::compress {
namespace {

using lang::Language;

// ---------------------------------------------------------------------------
// Per-language tables: which node types are comments, which are string-like
// (their text is never touched), and where function bodies are.

// How an elided body is written back.
enum class Style : std::uint8_t {
  kNone,    // no bodies elided (HTML)
  kBraces,  // `{ /* ... */ }`: every brace language (a comment placeholder parses everywhere)
  kPython,  // the docstring's first line, then `...`
  kEnd,     // Ruby, Lua: the body disappears, `def f(a)` / `function f(a)` keeps its `end`
  kBash,    // `{ :; }`
};

// Where the body of an owner node is.
enum class Find : std::uint8_t {
  kField,             // its `body` field
  kChild,             // its first named child of type `child`
  kChildChild,        // that child's first named child of type `grandchild` (Kotlin function_body > block)
  kSelfIfStatements,  // the node itself when it holds `statements` directly (Swift computed_property)
  kFromBrace,         // from its `{` to its end (Swift `get { ... }`)
};

struct BodyRule {
  std::string_view owner;
  Find find = Find::kField;
  std::string_view body_types;  // space-separated accepted body types ("" = any)
  bool assigned_only = false;   // lambdas: only when assigned (`const f = () => {...}`), not as arguments
  std::string_view child = {};
  std::string_view grandchild = {};
};

struct Table {
  Style style = Style::kNone;
  std::string_view comments;  // space-separated node types
  std::string_view opaque;    // string-like node types: never entered, whitespace inside kept
  std::vector<BodyRule> rules;
  // Level 2, large literal data: bracketed literals whose named children are
  // the elements (cut after the first few when long), the parents besides
  // kAssignTypes that make one data (`X = [...]`), and the nodes between
  // (Go `composite_literal`).
  std::string_view literals = {};
  std::string_view literal_parents = {};
  std::string_view literal_wrappers = {};
};

// Lambdas count as functions when assigned: the parent (through wrappers) is one of these.
constexpr std::string_view kAssignTypes =
    "variable_declarator assignment_expression pair public_field_definition field_definition export_statement "
    "var_spec const_spec assignment_statement short_var_declaration keyed_element init_declarator field "
    "array_element_initializer";
constexpr std::string_view kWrapperTypes =
    "expression_list parenthesized_expression literal_element satisfies_expression as_expression "
    "equals_value_clause argument";
// Lambdas passed to a call (`it('x', () => {...})`): the parent (through wrappers) is one of these.
constexpr std::string_view kArgumentTypes = "arguments argument_list";

Table table_for(Language language) {
  constexpr std::string_view kJsComments = "comment html_comment";
  constexpr std::string_view kJsOpaque = "string template_string regex";
  std::vector<BodyRule> js_rules = {
      {"function_declaration", Find::kField, "statement_block"},
      {"generator_function_declaration", Find::kField, "statement_block"},
      {"method_definition", Find::kField, "statement_block"},
      {"function_expression", Find::kField, "statement_block", true},
      {"function", Find::kField, "statement_block", true},
      {"generator_function", Find::kField, "statement_block", true},
      {"arrow_function", Find::kField, "statement_block", true},
  };
  switch (language) {
    case Language::kTypeScript:
    case Language::kTsx:
    case Language::kJavaScript:
      return {Style::kBraces, kJsComments, kJsOpaque, js_rules, "array object"};
    case Language::kPython:
      return {Style::kPython, "comment", "string concatenated_string", {{"function_definition", Find::kField, "block"}},
              "list dictionary set tuple", "assignment"};
    case Language::kGo:
      return {Style::kBraces, "comment", "interpreted_string_literal raw_string_literal rune_literal",
              {{"function_declaration", Find::kField, "block"},
               {"method_declaration", Find::kField, "block"},
               {"func_literal", Find::kField, "block", true}},
              "literal_value", "", "composite_literal"};
    case Language::kRust:
      return {Style::kBraces, "line_comment block_comment", "string_literal raw_string_literal char_literal",
              {{"function_item", Find::kField, "block"}},
              "array_expression", "let_declaration const_item static_item"};
    case Language::kJava:
      return {Style::kBraces, "line_comment block_comment", "string_literal character_literal",
              {{"method_declaration", Find::kField, "block"},
               {"constructor_declaration", Find::kField, "constructor_body"},
               {"compact_constructor_declaration", Find::kField, "block"},
               {"static_initializer", Find::kChild, "block", false, "block"},
               {"lambda_expression", Find::kField, "block", true}},
              "array_initializer"};
    case Language::kC:
      return {Style::kBraces, "comment", "string_literal char_literal system_lib_string",
              {{"function_definition", Find::kField, "compound_statement"}},
              "initializer_list"};
    case Language::kCpp:
      return {Style::kBraces, "comment", "string_literal raw_string_literal char_literal system_lib_string",
              {{"function_definition", Find::kField, "compound_statement"},
               {"lambda_expression", Find::kField, "compound_statement", true}},
              "initializer_list"};
    case Language::kCSharp:
      return {Style::kBraces, "comment",
              "string_literal verbatim_string_literal raw_string_literal interpolated_string_expression "
              "character_literal",
              {{"method_declaration", Find::kField, "block"},
               {"constructor_declaration", Find::kField, "block"},
               {"destructor_declaration", Find::kField, "block"},
               {"operator_declaration", Find::kField, "block"},
               {"conversion_operator_declaration", Find::kField, "block"},
               {"accessor_declaration", Find::kField, "block"},
               {"local_function_statement", Find::kField, "block"},
               {"lambda_expression", Find::kField, "block", true}}};
    case Language::kRuby:
      return {Style::kEnd, "comment",
              "string heredoc_body regex subshell string_array symbol_array delimited_symbol uninterpreted",
              {{"method", Find::kField, "body_statement"}, {"singleton_method", Find::kField, "body_statement"}}};
    case Language::kPhp:
      return {Style::kBraces, "comment", "string encapsed_string heredoc nowdoc shell_command_expression",
              {{"function_definition", Find::kField, "compound_statement"},
               {"method_declaration", Find::kField, "compound_statement"},
               {"anonymous_function", Find::kField, "compound_statement", true}}};
    case Language::kKotlin:
      return {Style::kBraces, "line_comment block_comment", "string_literal multiline_string_literal character_literal",
              {{"function_declaration", Find::kChildChild, "block", false, "function_body", "block"},
               {"getter", Find::kChildChild, "block", false, "function_body", "block"},
               {"setter", Find::kChildChild, "block", false, "function_body", "block"},
               {"secondary_constructor", Find::kChild, "block", false, "block"},
               {"anonymous_initializer", Find::kChild, "block", false, "block"}}};
    case Language::kSwift:
      return {Style::kBraces, "comment multiline_comment",
              "line_string_literal multi_line_string_literal raw_string_literal regex_literal",
              {{"function_declaration", Find::kField, "function_body"},
               {"init_declaration", Find::kField, "function_body"},
               {"deinit_declaration", Find::kField, "function_body"},
               {"computed_property", Find::kSelfIfStatements, ""},
               {"computed_getter", Find::kFromBrace, ""},
               {"computed_setter", Find::kFromBrace, ""},
               {"computed_modify", Find::kFromBrace, ""}}};
    case Language::kLua:
      return {Style::kEnd, "comment", "string",
              {{"function_declaration", Find::kField, "block"},
               {"function_definition", Find::kField, "block", true}}};
    case Language::kBash:
      return {Style::kBash, "comment", "string raw_string ansi_c_string heredoc_body translated_string",
              {{"function_definition", Find::kField, "compound_statement"}}};
    case Language::kHtml:
      return {Style::kNone, "comment", "raw_text quoted_attribute_value", {}};
  }
  return {};
}

bool in_list(std::string_view list, std::string_view word) {
  std::size_t pos = 0;
  while (pos < list.size()) {
    std::size_t end = list.find(' ', pos);
    if (end == std::string_view::npos) end = list.size();
    if (list.substr(pos, end - pos) == word) return true;
    pos = end + 1;
  }
  return false;
}

enum class Role : std::uint8_t {
  kNone, kComment, kOpaque, kOwner, kAssign, kWrapper, kArguments, kHtmlElement, kJsxExpression
};

// Level 2 literal data, by symbol.
enum class LiteralRole : std::uint8_t { kNone, kLiteral, kParent, kWrapper };

// A table compiled against the grammar: roles by symbol id.
struct Spec {
  const TSLanguage* grammar = nullptr;
  Table table;
  std::vector<Role> role;           // by TSSymbol
  std::vector<std::int16_t> rule;   // by TSSymbol: index into table.rules, -1
  std::vector<LiteralRole> literal; // by TSSymbol
  TSFieldId body_field = 0;
  TSSymbol statements = 0;          // Swift `statements`, 0 when absent
};

Spec build_spec(Language language) {
  Spec spec;
  spec.grammar = lang::grammar(language);
  spec.table = table_for(language);
  std::uint32_t count = ts_language_symbol_count(spec.grammar);
  spec.role.assign(count, Role::kNone);
  spec.rule.assign(count, -1);
  spec.literal.assign(count, LiteralRole::kNone);
  for (std::uint32_t id = 0; id < count; ++id) {
    TSSymbol symbol = static_cast<TSSymbol>(id);
    if (ts_language_symbol_type(spec.grammar, symbol) != TSSymbolTypeRegular) continue;
    std::string_view name = ts_language_symbol_name(spec.grammar, symbol);
    if (name == "statements") spec.statements = symbol;
    if (in_list(spec.table.literals, name)) spec.literal[id] = LiteralRole::kLiteral;
    else if (in_list(spec.table.literal_parents, name)) spec.literal[id] = LiteralRole::kParent;
    else if (in_list(spec.table.literal_wrappers, name)) spec.literal[id] = LiteralRole::kWrapper;
    for (std::size_t r = 0; r < spec.table.rules.size(); ++r)
      if (spec.table.rules[r].owner == name) {
        spec.role[id] = Role::kOwner;
        spec.rule[id] = static_cast<std::int16_t>(r);
      }
    if (spec.role[id] != Role::kNone) continue;
    if (in_list(spec.table.comments, name)) spec.role[id] = Role::kComment;
    else if (in_list(spec.table.opaque, name)) spec.role[id] = Role::kOpaque;
    else if (in_list(kAssignTypes, name)) spec.role[id] = Role::kAssign;
    else if (in_list(kWrapperTypes, name)) spec.role[id] = Role::kWrapper;
    else if (in_list(kArgumentTypes, name)) spec.role[id] = Role::kArguments;
    else if (language == Language::kHtml && name == "element") spec.role[id] = Role::kHtmlElement;
    else if (name == "jsx_expression") spec.role[id] = Role::kJsxExpression;
  }
  spec.body_field = ts_language_field_id_for_name(spec.grammar, "body", 4);
  return spec;
}

const Spec& spec_for(Language language) {
  static const std::vector<Spec> specs = [] {
    std::vector<Spec> out;
    for (Language l : lang::all_languages()) {
      std::size_t index = static_cast<std::size_t>(l);
      if (out.size() <= index) out.resize(index + 1);
      out[index] = build_spec(l);
    }
    return out;
  }();
  return specs[static_cast<std::size_t>(language)];
}

// ---------------------------------------------------------------------------
// Parsing.

struct Parser {
  TSParser* parser = ts_parser_new();
  ~Parser() { ts_parser_delete(parser); }

  TSTree* parse(Language language, std::string_view source, unsigned timeout_ms) {
    return parse::parse_tree(parser, language, source, timeout_ms);
  }
};

Parser& thread_parser() {
  thread_local Parser parser;
  return parser;
}

struct TreeHolder {
  TSTree* tree = nullptr;
  ~TreeHolder() {
    if (tree) ts_tree_delete(tree);
  }
};

// ---------------------------------------------------------------------------
// Collecting what to change.

struct Range {
  std::uint32_t start = 0, end = 0;
};

struct Edit {
  std::uint32_t start = 0, end = 0;
  std::string text;
};

struct Collected {
  std::vector<Range> comments;  // raw comment nodes to delete, in order
  std::vector<Edit> bodies;     // level 2: body replacements, in order
  std::vector<Range> protect;   // text whose whitespace stays as is (strings, heredocs), in order
};

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool has_non_blank(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return !is_blank(c); });
}

bool escaped_space_at_end(std::string_view source, std::uint32_t start, std::uint32_t end) {
  std::uint32_t k = end;
  while (k > start && is_space(source[k - 1])) --k;
  return k < end && k > start && source[k - 1] == '\\';
}

std::string_view text_of(TSNode node, std::string_view source) {
  std::uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (end > source.size() || start > end) return {};
  return source.substr(start, end - start);
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The comment text after its opening marker and spaces: "// @ts-x" -> "@ts-x".
std::string_view comment_body(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == '/' || text[i] == '*' || text[i] == '#' || text[i] == '-')) ++i;
  while (i < text.size() && is_space(text[i])) ++i;
  return text.substr(i);
}

// Comments that carry meaning for a compiler or interpreter stay.
bool keep_comment(Language language, TSNode node, std::string_view text, std::uint32_t start) {
  if (start == 0 && starts_with(text, "#!")) return true;  // shebang
  std::uint32_t row = ts_node_start_point(node).row;
  std::string_view body = comment_body(text);
  switch (language) {
    case Language::kPython:
      if (row <= 1 && (text.find("coding:") != std::string_view::npos || text.find("coding=") != std::string_view::npos))
        return true;
      return starts_with(body, "type:");
    case Language::kRuby:
      if (row <= 1 && text.find("-*-") != std::string_view::npos) return true;
      return starts_with(body, "frozen_string_literal:") || starts_with(body, "encoding:") ||
             starts_with(body, "coding:") || starts_with(body, "warn_indent:") ||
             starts_with(body, "shareable_constant_value:") || starts_with(body, "typed:");
    case Language::kGo: {
      if (starts_with(text, "//go:") || starts_with(text, "// +build") || starts_with(text, "//export ") ||
          starts_with(text, "//line ") || starts_with(text, "//extern "))
        return true;
      return false;  // the cgo preamble: is_cgo_preamble()
    }
    case Language::kJavaScript:
    case Language::kTypeScript:
    case Language::kTsx:
      return starts_with(text, "/// <") || starts_with(body, "@ts-") || starts_with(body, "@jsx") ||
             starts_with(body, "@flow");
    case Language::kSwift:
      return starts_with(body, "swift-tools-version");
    default:
      return false;
  }
}

// Go: is the import after this comment `import "C"`? (checked apart: it needs the source)
bool is_cgo_preamble(TSNode node, std::string_view source) {
  TSNode next = ts_node_next_named_sibling(node);
  while (!ts_node_is_null(next) && std::string_view(ts_node_type(next)) == "comment")
    next = ts_node_next_named_sibling(next);
  if (ts_node_is_null(next) || std::string_view(ts_node_type(next)) != "import_declaration") return false;
  std::string_view text = text_of(next, source);
  return text.find("\"C\"") != std::string_view::npos;
}

// Python: `"""Summary.` -> `"""Summary."""`; "" when the body has no plain docstring.
std::string docstring_line(TSNode block, std::string_view source) {
  std::uint32_t count = ts_node_named_child_count(block);
  TSNode first{};
  bool found = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(block, i);
    if (std::string_view(ts_node_type(child)) == "comment") continue;
    first = child;
    found = true;
    break;
  }
  if (!found || std::string_view(ts_node_type(first)) != "expression_statement" ||
      ts_node_named_child_count(first) != 1)
    return "";
  TSNode string = ts_node_named_child(first, 0);
  if (std::string_view(ts_node_type(string)) != "string") return "";
  std::string_view text = text_of(string, source);
  std::size_t p = 0;
  while (p < text.size() && text[p] != '"' && text[p] != '\'') ++p;
  std::string_view prefix = text.substr(0, p);
  if (prefix.find_first_of("fFbBtT") != std::string_view::npos) return "";
  std::string_view rest = text.substr(p);
  std::string_view quote;
  if (starts_with(rest, "\"\"\"") || starts_with(rest, "'''")) quote = rest.substr(0, 3);
  else if (!rest.empty()) quote = rest.substr(0, 1);
  else return "";
  if (rest.size() < 2 * quote.size()) return "";
  std::string_view content = rest.substr(quote.size(), rest.size() - 2 * quote.size());
  std::string_view line;
  while (!content.empty()) {
    std::size_t newline = content.find('\n');
    std::string_view candidate = content.substr(0, newline);
    content = newline == std::string_view::npos ? std::string_view{} : content.substr(newline + 1);
    std::size_t a = 0, b = candidate.size();
    while (a < b && is_blank(candidate[a])) ++a;
    while (b > a && is_blank(candidate[b - 1])) --b;
    if (a < b) {
      line = candidate.substr(a, b - a);
      break;
    }
  }
  // Nothing may close the string early or escape its closing quote.
  while (!line.empty() && (line.back() == '\\' || line.back() == quote[0] || is_blank(line.back())))
    line.remove_suffix(1);
  if (line.empty()) return "";
  std::string out;
  out.reserve(prefix.size() + 2 * quote.size() + line.size());
  out.append(prefix).append(quote).append(line).append(quote);
  return out;
}

// The named children of `body` from `from` on that are not comments: the span they cover.
bool content_span(TSNode body, std::uint32_t from, const Spec& spec, Range& span) {
  std::uint32_t count = ts_node_named_child_count(body);
  bool any = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(body, i);
    std::uint32_t start = ts_node_start_byte(child);
    if (start < from) continue;
    TSSymbol symbol = ts_node_symbol(child);
    if (symbol < spec.role.size() && spec.role[symbol] == Role::kComment) continue;
    if (!any) span.start = start;
    span.end = ts_node_end_byte(child);
    any = true;
  }
  return any;
}

constexpr std::string_view kBracePlaceholder = "{ /* ... */ }";
constexpr std::string_view kBashPlaceholder = "{ :; }";
// A body on one line up to this many bytes says as much as its placeholder: kept.
constexpr std::uint32_t kShortBody = 40;

bool one_line(std::string_view source, std::uint32_t start, std::uint32_t end) {
  return std::memchr(source.data() + start, '\n', end - start) == nullptr;
}

// The body edit of an owner node, if its body is worth eliding.
bool body_edit(const Spec& spec, const BodyRule& rule, TSNode node, std::string_view source, Edit& edit) {
  TSNode body{};
  Range range;
  switch (rule.find) {
    case Find::kField:
      if (spec.body_field == 0) return false;
      body = ts_node_child_by_field_id(node, spec.body_field);
      break;
    case Find::kChild:
    case Find::kChildChild: {
      std::uint32_t count = ts_node_named_child_count(node);
      for (std::uint32_t i = 0; i < count; ++i) {
        TSNode child = ts_node_named_child(node, i);
        if (std::string_view(ts_node_type(child)) == rule.child) {
          body = child;
          break;
        }
      }
      if (rule.find == Find::kChildChild && !ts_node_is_null(body)) {
        TSNode host = body;
        body = TSNode{};
        std::uint32_t inner = ts_node_named_child_count(host);
        for (std::uint32_t i = 0; i < inner; ++i) {
          TSNode child = ts_node_named_child(host, i);
          if (std::string_view(ts_node_type(child)) == rule.grandchild) {
            body = child;
            break;
          }
        }
      }
      break;
    }
    case Find::kSelfIfStatements: {
      std::uint32_t count = ts_node_named_child_count(node);
      for (std::uint32_t i = 0; i < count && spec.statements != 0; ++i)
        if (ts_node_symbol(ts_node_named_child(node, i)) == spec.statements) body = node;
      break;
    }
    case Find::kFromBrace: {
      std::uint32_t count = ts_node_child_count(node);
      for (std::uint32_t i = 0; i < count; ++i) {
        TSNode child = ts_node_child(node, i);
        if (!ts_node_is_named(child) && std::string_view(ts_node_type(child)) == "{") {
          body = node;
          range.start = ts_node_start_byte(child);
          break;
        }
      }
      break;
    }
  }
  if (ts_node_is_null(body) || ts_node_has_error(body)) return false;
  if (!rule.body_types.empty() && !in_list(rule.body_types, ts_node_type(body))) return false;
  if (rule.find != Find::kFromBrace) range.start = ts_node_start_byte(body);
  range.end = ts_node_end_byte(body);
  if (range.end <= range.start || range.end > source.size()) return false;
  Range span;
  if (!content_span(body, range.start, spec, span)) return false;

  switch (spec.table.style) {
    case Style::kNone:
      return false;
    case Style::kBraces:
    case Style::kBash: {
      std::string_view placeholder = spec.table.style == Style::kBash ? kBashPlaceholder : kBracePlaceholder;
      std::uint32_t length = range.end - range.start;
      if (length <= placeholder.size()) return false;
      if (length <= kShortBody && one_line(source, range.start, range.end)) return false;
      if (source[range.start] != '{' || source[range.end - 1] != '}') return false;
      edit = {range.start, range.end, std::string(placeholder)};
      return true;
    }
    case Style::kPython: {
      std::uint32_t length = range.end - range.start;
      if (length <= kShortBody && one_line(source, range.start, range.end)) return false;
      std::uint32_t line_start = range.start;
      while (line_start > 0 && source[line_start - 1] != '\n') --line_start;
      std::string_view indent = source.substr(line_start, range.start - line_start);
      bool own_line = std::all_of(indent.begin(), indent.end(), [](char c) { return is_space(c) || c == '\f'; });
      std::string text;
      std::string doc = own_line ? docstring_line(body, source) : std::string();
      if (!doc.empty()) {
        text = doc;
        text += '\n';
        text.append(indent);
      }
      text += "...";
      if (text.size() >= length) return false;
      edit = {range.start, range.end, std::move(text)};
      return true;
    }
    case Style::kEnd: {
      // From the end of what precedes the body (parameters, name) to the body's end.
      TSNode previous = ts_node_prev_sibling(body);
      while (!ts_node_is_null(previous) && ts_node_is_extra(previous)) previous = ts_node_prev_sibling(previous);
      if (ts_node_is_null(previous)) return false;
      std::uint32_t start = ts_node_end_byte(previous);
      if (start > range.start) return false;
      if (range.end - start <= kShortBody && one_line(source, start, range.end)) return false;
      edit = {start, range.end, std::string()};
      return true;
    }
  }
  return false;
}

// Is this lambda assigned (`const f = () => {...}`, `var h = func() {...}`)?
bool assigned(const Spec& spec, const std::vector<TSSymbol>& ancestors) {
  for (auto it = ancestors.rbegin(); it != ancestors.rend(); ++it) {
    Role role = *it < spec.role.size() ? spec.role[*it] : Role::kNone;
    if (role == Role::kWrapper) continue;
    return role == Role::kAssign;
  }
  return false;
}

// Is this lambda passed to a call (`it('x', () => {...})`, `app.get('/', (req, res) => {...})`)?
bool call_argument(const Spec& spec, const std::vector<TSSymbol>& ancestors) {
  for (auto it = ancestors.rbegin(); it != ancestors.rend(); ++it) {
    Role role = *it < spec.role.size() ? spec.role[*it] : Role::kNone;
    if (role == Role::kWrapper) continue;
    return role == Role::kArguments;
  }
  return false;
}

// A lambda passed to a call loses its body only when the body spans more lines than this.
constexpr std::uint32_t kCallbackLines = 3;
// A literal spanning more lines than this, assigned, passed to a call or inside such a literal, is cut...
constexpr std::uint32_t kLiteralLines = 20;
// ...after this many elements.
constexpr std::uint32_t kLiteralKeep = 3;

std::uint32_t line_breaks(std::string_view source, std::uint32_t start, std::uint32_t end) {
  return static_cast<std::uint32_t>(std::count(source.begin() + start, source.begin() + end, '\n'));
}

// Is this literal data: assigned (`X = [...]`, `static X = {...}`, `a: [...]`), passed to a call
// (`Table("v", [...])`, `expect(x).toEqual({...})`) or inside such a literal?
bool literal_data(const Spec& spec, const std::vector<TSSymbol>& ancestors) {
  for (auto it = ancestors.rbegin(); it != ancestors.rend(); ++it) {
    Role role = *it < spec.role.size() ? spec.role[*it] : Role::kNone;
    LiteralRole literal = *it < spec.literal.size() ? spec.literal[*it] : LiteralRole::kNone;
    if (role == Role::kWrapper || literal == LiteralRole::kWrapper) continue;
    return role == Role::kAssign || role == Role::kArguments || literal == LiteralRole::kParent ||
           literal == LiteralRole::kLiteral;
  }
  return false;
}

// A node of this symbol owns a body that level 2 elides (a function,
// method, lambda, ...).
bool owns_body(const Spec& spec, TSSymbol symbol) {
  return symbol < spec.role.size() && spec.role[symbol] == Role::kOwner;
}

// Does the subtree hold a function, method or lambda (then it is code, not data)?
bool holds_code(const Spec& spec, TSNode node) {
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  bool found = false;
  for (;;) {
    TSSymbol symbol = ts_node_symbol(ts_tree_cursor_current_node(&cursor));
    if (owns_body(spec, symbol)) {
      found = true;
      break;
    }
    if (!parse::next_node(&cursor, true)) break;
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

// A long data literal: the elements after the first kLiteralKeep go, a
// comment says how many (`[a, b, c /* ... 97 more */]`; Python: a `# ... 97
// more` line before the closing bracket).
bool literal_edit(const Spec& spec, Language language, TSNode node, std::string_view source, Edit& edit) {
  if (ts_node_end_point(node).row - ts_node_start_point(node).row <= kLiteralLines) return false;
  if (ts_node_has_error(node)) return false;
  std::vector<TSNode> elements;
  std::uint32_t count = ts_node_named_child_count(node);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    TSSymbol symbol = ts_node_symbol(child);
    if (symbol < spec.role.size() && spec.role[symbol] == Role::kComment) continue;
    elements.push_back(child);
  }
  if (elements.size() <= kLiteralKeep + 1) return false;
  for (std::size_t i = kLiteralKeep; i < elements.size(); ++i)
    if (holds_code(spec, elements[i])) return false;
  const std::uint32_t n = static_cast<std::uint32_t>(source.size());
  std::uint32_t start = ts_node_end_byte(elements[kLiteralKeep - 1]);
  std::uint32_t end = ts_node_end_byte(elements.back());
  if (start >= end || end > n) return false;
  std::string more = "... " + std::to_string(elements.size() - kLiteralKeep) + " more";
  if (language == Language::kPython) {
    // The comment ends its line; the closing bracket stays after it.
    std::uint32_t k = end;
    while (k < n && is_space(source[k])) ++k;
    if (k < n && source[k] == ',') end = k + 1;
    std::uint32_t first = ts_node_start_byte(elements[kLiteralKeep]);
    std::uint32_t line_start = first;
    while (line_start > 0 && source[line_start - 1] != '\n') --line_start;
    std::uint32_t indent_end = line_start;
    while (indent_end < first && is_space(source[indent_end])) ++indent_end;
    std::string text = ",\n";
    text.append(source.substr(line_start, indent_end - line_start));
    text += "# " + more;
    k = end;
    while (k < n && is_space(source[k])) ++k;
    if (k < n && source[k] != '\n' && source[k] != '\r' && source[k] != '#') text += '\n';
    edit = {start, end, std::move(text)};
  } else {
    edit = {start, end, " /* " + more + " */"};
  }
  return edit.text.size() < end - start;  // level 2 never grows the text
}

bool only_comments(const Spec& spec, TSNode node) {
  std::uint32_t count = ts_node_named_child_count(node);
  if (count == 0) return false;
  for (std::uint32_t i = 0; i < count; ++i) {
    TSSymbol symbol = ts_node_symbol(ts_node_named_child(node, i));
    if (symbol >= spec.role.size() || spec.role[symbol] != Role::kComment) return false;
  }
  return true;
}

bool is_pre_element(TSNode element, std::string_view source) {
  if (ts_node_named_child_count(element) == 0) return false;
  TSNode start_tag = ts_node_named_child(element, 0);
  if (std::string_view(ts_node_type(start_tag)) != "start_tag" || ts_node_named_child_count(start_tag) == 0)
    return false;
  std::string_view name = text_of(ts_node_named_child(start_tag, 0), source);
  auto equals = [&](std::string_view word) {
    return name.size() == word.size() &&
           std::equal(name.begin(), name.end(), word.begin(), [](char a, char b) { return (a | 0x20) == b; });
  };
  return equals("pre") || equals("textarea");
}

void walk(const Spec& spec, Language language, TSNode root, std::string_view source, bool skeleton,
          const std::vector<std::pair<std::uint32_t, std::uint32_t>>& keep_lines, Collected& out) {
  auto kept = [&](TSNode node) {
    std::uint32_t first = ts_node_start_point(node).row + 1, last = ts_node_end_point(node).row + 1;
    return std::any_of(keep_lines.begin(), keep_lines.end(),
                       [&](const auto& range) { return range.first <= last && first <= range.second; });
  };
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  std::vector<TSSymbol> ancestors;
  bool maybe_cgo = language == Language::kGo && source.find("import \"C\"") != std::string_view::npos;
  // Elided ranges not yet passed, the nearest last: nothing inside them is
  // looked at. (A literal's cut tail is pushed before its kept elements are
  // walked, so edits inside those come on top of it.)
  std::vector<Range> skips;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    std::uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
    bool descend = true;
    while (!skips.empty() && start >= skips.back().end) skips.pop_back();
    if (!skips.empty() && start >= skips.back().start && end <= skips.back().end) {
      descend = false;
    } else {
      TSSymbol symbol = ts_node_symbol(node);
      Role role = symbol < spec.role.size() ? spec.role[symbol] : Role::kNone;
      switch (role) {
        case Role::kComment:
          descend = false;
          if (end > start && end <= source.size()) {
            std::string_view text = source.substr(start, end - start);
            bool keep = keep_comment(language, node, text, start);
            if (!keep && maybe_cgo && ancestors.size() == 1) keep = is_cgo_preamble(node, source);
            if (!keep) out.comments.push_back({start, end});
          }
          break;
        case Role::kOpaque:
          descend = false;
          if (ts_node_start_point(node).row != ts_node_end_point(node).row) out.protect.push_back({start, end});
          break;
        case Role::kHtmlElement:
          if (ts_node_start_point(node).row != ts_node_end_point(node).row && is_pre_element(node, source)) {
            descend = false;
            out.protect.push_back({start, end});
          }
          break;
        case Role::kJsxExpression:
          // `{/* note */}` in JSX: the whole expression is the comment.
          if (only_comments(spec, node)) {
            descend = false;
            out.comments.push_back({start, end});
          }
          break;
        case Role::kOwner:
          if (skeleton && !kept(node)) {
            const BodyRule& rule = spec.table.rules[static_cast<std::size_t>(spec.rule[symbol])];
            Edit edit;
            bool whole = !rule.assigned_only || assigned(spec, ancestors);
            bool callback = !whole && call_argument(spec, ancestors);
            if ((whole || callback) && body_edit(spec, rule, node, source, edit) &&
                (!callback || line_breaks(source, edit.start, edit.end) >= kCallbackLines)) {
              skips.push_back({edit.start, edit.end});
              out.bodies.push_back(std::move(edit));
            }
          }
          break;
        default:
          if (skeleton && symbol < spec.literal.size() && spec.literal[symbol] == LiteralRole::kLiteral &&
              literal_data(spec, ancestors)) {
            Edit edit;
            if (literal_edit(spec, language, node, source, edit)) {
              skips.push_back({edit.start, edit.end});
              out.bodies.push_back(std::move(edit));
            }
          }
          break;
      }
      // A token that spans lines (HTML text, a heredoc line) or ends in an
      // escaped space (`a\ ` in Bash) keeps its whitespace.
      if (descend && end > start && ts_node_child_count(node) == 0) {
        bool multi_line = ts_node_start_point(node).row != ts_node_end_point(node).row;
        if ((multi_line && has_non_blank(source.substr(start, end - start))) || escaped_space_at_end(source, start, end))
          out.protect.push_back({start, end});
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
      ancestors.push_back(ts_node_symbol(node));
      continue;
    }
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
      ancestors.pop_back();
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cursor);
}

// ---------------------------------------------------------------------------
// Applying the changes.

// Comment ranges -> deletions. A comment alone on its line(s) takes the line
// with it; a comment after code leaves the code (its trailing whitespace goes
// later); a comment between tokens leaves a space, or a line break when it
// spanned lines (statement ends must stay where they were).
std::vector<Edit> comment_edits(std::string_view source, const std::vector<Range>& comments) {
  std::vector<Edit> out;
  out.reserve(comments.size());
  const std::uint32_t n = static_cast<std::uint32_t>(source.size());
  std::size_t i = 0;
  while (i < comments.size()) {
    std::uint32_t start = comments[i].start, end = comments[i].end;
    // `/* a */ /* b */`: one deletion.
    while (i + 1 < comments.size()) {
      std::uint32_t next = comments[i + 1].start;
      if (next < end) break;
      bool spaces = true;
      for (std::uint32_t k = end; k < next && spaces; ++k) spaces = is_space(source[k]);
      if (!spaces) break;
      end = comments[++i].end;
    }
    ++i;
    // A line comment may own its line break (or a CR): leave it.
    while (end > start && (source[end - 1] == '\n' || source[end - 1] == '\r')) --end;
    std::uint32_t line_start = start;
    while (line_start > 0 && is_space(source[line_start - 1])) --line_start;
    bool at_line_start = line_start == 0 || source[line_start - 1] == '\n';
    std::uint32_t line_end = end;
    while (line_end < n && is_space(source[line_end])) ++line_end;
    if (line_end + 1 < n && source[line_end] == '\r' && source[line_end + 1] == '\n') ++line_end;
    bool at_line_end = line_end == n || source[line_end] == '\n';
    if (at_line_start && at_line_end) {
      out.push_back({line_start, line_end == n ? n : line_end + 1, std::string()});
    } else if (at_line_end) {
      out.push_back({start, end, std::string()});
    } else if (at_line_start) {
      // `/* note */ code`: the code takes the comment's place and indentation.
      out.push_back({start, line_end, std::string()});
    } else {
      bool spans = std::memchr(source.data() + start, '\n', end - start) != nullptr;
      // `int/**/x` -> `int x`; no space next to brackets and separators.
      auto separates = [](char c) { return is_blank(c) || std::strchr("(){}[],;", c) != nullptr; };
      bool glue = start > 0 && !separates(source[start - 1]) && end < n && !separates(source[end]);
      // `a, /* x */ b` -> `a, b`; `f(/* x */ 1)` -> `f(1)`.
      if (!spans && start > 0 && (is_space(source[start - 1]) || std::strchr("([{", source[start - 1]) != nullptr))
        while (end < n && is_space(source[end])) ++end;
      out.push_back({start, end, spans ? std::string("\n") : glue ? std::string(" ") : std::string()});
    }
  }
  return out;
}

// Comment deletions and body replacements, sorted, without overlaps (an
// edit inside an earlier one is dropped, a partial overlap trimmed).
std::vector<Edit> merge_edits(std::vector<Edit> comments, std::vector<Edit> bodies) {
  std::vector<Edit> all;
  all.reserve(comments.size() + bodies.size());
  std::merge(std::make_move_iterator(comments.begin()), std::make_move_iterator(comments.end()),
             std::make_move_iterator(bodies.begin()), std::make_move_iterator(bodies.end()),
             std::back_inserter(all), [](const Edit& a, const Edit& b) {
               if (a.start != b.start) return a.start < b.start;
               return a.end > b.end;
             });
  std::vector<Edit> out;
  out.reserve(all.size());
  for (Edit& edit : all) {
    if (!out.empty() && edit.start < out.back().end) {
      if (edit.end <= out.back().end) continue;
      edit.start = out.back().end;
    }
    out.push_back(std::move(edit));
  }
  return out;
}

// Trailing whitespace goes and blank-line runs become one blank line (none
// at the start or the end), except where a protected range holds the line
// break: the inside of a multi-line string stays byte for byte.
std::string normalize(std::string_view in, const std::vector<Range>& protect) {
  std::string out;
  out.reserve(in.size());
  std::size_t pi = 0;
  std::size_t pos = 0;
  const std::size_t n = in.size();
  bool any = false;
  std::string_view pending_break;  // a blank line waiting for a non-blank one
  while (pos < n) {
    std::size_t newline = in.find('\n', pos);
    bool has_break = newline != std::string_view::npos;
    if (!has_break) newline = n;
    std::size_t content_end = newline;
    if (has_break && content_end > pos && in[content_end - 1] == '\r') --content_end;
    while (pi < protect.size() && protect[pi].end <= pos) ++pi;
    std::size_t floor = pos;
    bool held = false;
    for (std::size_t k = pi; k < protect.size() && protect[k].start <= content_end; ++k) {
      if (protect[k].end > content_end) {
        held = true;
        break;
      }
      floor = std::max<std::size_t>(floor, protect[k].end);
    }
    std::size_t next = has_break ? newline + 1 : n;
    if (held) {
      if (!pending_break.empty()) out.append(pending_break);
      pending_break = {};
      out.append(in.substr(pos, next - pos));
      any = true;
      pos = next;
      continue;
    }
    std::size_t e = content_end;
    while (e > floor && (is_space(in[e - 1]) || in[e - 1] == '\f' || in[e - 1] == '\v')) --e;
    if (e == pos) {
      if (any && has_break) pending_break = in.substr(content_end, next - content_end);
    } else {
      if (!pending_break.empty()) out.append(pending_break);
      pending_break = {};
      out.append(in.substr(pos, e - pos));
      out.append(in.substr(content_end, next - content_end));
      any = true;
    }
    pos = next;
  }
  return out;
}

std::string render(std::string_view source, const std::vector<Edit>& edits, const std::vector<Range>& protect) {
  std::string applied;
  applied.reserve(source.size());
  std::vector<Range> mapped;
  mapped.reserve(protect.size());
  std::size_t ei = 0;
  std::int64_t delta = 0;
  for (const Range& range : protect) {
    while (ei < edits.size() && edits[ei].end <= range.start) {
      delta += static_cast<std::int64_t>(edits[ei].text.size()) -
               static_cast<std::int64_t>(edits[ei].end - edits[ei].start);
      ++ei;
    }
    if (ei < edits.size() && edits[ei].start < range.end) continue;  // inside an elided body
    mapped.push_back({static_cast<std::uint32_t>(range.start + delta), static_cast<std::uint32_t>(range.end + delta)});
  }
  std::uint32_t pos = 0;
  for (const Edit& edit : edits) {
    applied.append(source.substr(pos, edit.start - pos));
    applied.append(edit.text);
    pos = edit.end;
  }
  applied.append(source.substr(pos));
  return normalize(applied, mapped);
}

std::string level_name(Level level) { return "level " + std::to_string(static_cast<int>(level)); }

// The definitions (nodes that own a body: functions, methods, ...) in the
// tree of `root`, less those starting inside one of the `elided` input byte
// ranges (sorted by start; disjoint, since walk() looks at nothing inside an
// elided range): what a skeleton of that tree must still define.
std::size_t count_owners(const Spec& spec, TSNode root,
                         const std::vector<std::pair<std::uint32_t, std::uint32_t>>& elided = {}) {
  std::size_t count = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  do {
    const TSNode node = ts_tree_cursor_current_node(&cursor);
    if (!owns_body(spec, ts_node_symbol(node))) continue;
    const std::uint32_t start = ts_node_start_byte(node);
    auto after = std::upper_bound(elided.begin(), elided.end(), start,
                                  [](std::uint32_t at, const auto& range) { return at < range.first; });
    if (after == elided.begin() || start >= std::prev(after)->second) ++count;
  } while (parse::next_node(&cursor, true));
  ts_tree_cursor_delete(&cursor);
  return count;
}

}  // namespace

Compressed compress(Language language, std::string_view source, Level level, const Options& options) {
  Compressed result;
  if (level == Level::kRaw) {
    result.text = std::string(source);
    return result;
  }
  std::string prefix = std::string(lang::name(language)) + " ";
  auto give_up = [&](std::string error) {
    result.text = std::string(source);
    result.level = Level::kRaw;
    result.reparsed_clean = false;
    result.errors.push_back(prefix + std::move(error));
    return result;
  };
  if (source.size() >= UINT32_MAX / 2) return give_up("file too large for the parser; level 0 used");
  Parser& parser = thread_parser();
  TreeHolder tree{parser.parse(language, source, options.timeout_ms)};
  if (!tree.tree) {
    result.timed_out = true;
    return give_up("parse timed out; level 0 used");
  }
  TSNode root = ts_tree_root_node(tree.tree);
  const Spec& spec = spec_for(language);
  std::size_t input_errors = options.verify ? parse::count_syntax_errors(root) : 0;

  for (int current = static_cast<int>(level); current >= 1; --current) {
    Level at = static_cast<Level>(current);
    Collected collected;
    walk(spec, language, root, source, at == Level::kSkeleton, options.keep_lines, collected);
    // A literal's tail is found before the edits inside its kept elements.
    std::stable_sort(collected.bodies.begin(), collected.bodies.end(),
                     [](const Edit& a, const Edit& b) { return a.start < b.start; });
    std::vector<std::pair<std::uint32_t, std::uint32_t>> elided;
    elided.reserve(collected.bodies.size());
    for (const Edit& body : collected.bodies) elided.emplace_back(body.start, body.end);
    std::vector<Edit> edits = merge_edits(comment_edits(source, collected.comments), std::move(collected.bodies));
    std::string text = render(source, edits, collected.protect);
    if (options.verify) {
      TreeHolder check{parser.parse(language, text, options.timeout_ms)};
      if (!check.tree) {
        result.reparsed_clean = false;
        result.timed_out = true;
        result.errors.push_back(prefix + level_name(at) + ": re-parse timed out");
        continue;
      }
      TSNode check_root = ts_tree_root_node(check.tree);
      std::size_t output_errors = parse::count_syntax_errors(check_root);
      if (output_errors > input_errors) {
        result.reparsed_clean = false;
        result.errors.push_back(prefix + level_name(at) + ": output parses with " + std::to_string(output_errors) +
                                " errors (input " + std::to_string(input_errors) + "); " +
                                level_name(static_cast<Level>(current - 1)) + " used");
        continue;
      }
      // An input that does not parse cleanly is read through the parser's
      // error recovery, which the edits can steer elsewhere: a definition
      // the input's tree had may be read as something else in the output's,
      // though no error is added. Every definition outside an elided body
      // must still be one.
      if (input_errors > 0) {
        const std::size_t defined = count_owners(spec, root, elided);
        const std::size_t still = count_owners(spec, check_root);
        if (still < defined) {
          result.reparsed_clean = false;
          result.errors.push_back(prefix + level_name(at) + ": output defines " + std::to_string(still) + " of " +
                                  std::to_string(defined) + " definitions (the input has syntax errors); " +
                                  level_name(static_cast<Level>(current - 1)) + " used");
          continue;
        }
      }
    }
    result.text = std::move(text);
    result.level = at;
    result.elided = std::move(elided);
    return result;
  }
  result.text = std::string(source);
  result.level = Level::kRaw;
  return result;
}

std::string slice_lines(std::string_view text, std::uint32_t first, std::uint32_t last) {
  if (first == 0) first = 1;
  if (first > last) return "";
  std::size_t pos = 0;
  for (std::uint32_t line = 1; line < first; ++line) {
    std::size_t newline = text.find('\n', pos);
    if (newline == std::string_view::npos) return "";
    pos = newline + 1;
  }
  if (pos >= text.size()) return "";
  std::size_t end = pos;
  for (std::uint32_t line = first; line <= last; ++line) {
    std::size_t newline = text.find('\n', end);
    if (newline == std::string_view::npos) {
      end = text.size();
      break;
    }
    end = newline + 1;
  }
  return std::string(text.substr(pos, end - pos));
}

}  // namespace comp::compress
