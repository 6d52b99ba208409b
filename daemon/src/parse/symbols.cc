#include "parse/symbols.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <mutex>
#include <regex>  // only for the embedded query texts (trusted, small)
#include <unordered_set>

#include "parse/export_rules.h"
#include "regex/regex.h"
#include "parse/tree.h"

namespace comp::parse {
namespace {

// One text predicate of a query pattern. The core hands predicates to the
// caller unevaluated; these are the ones the embedded queries use.
struct Predicate {
  enum class Op { kEq, kNotEq, kMatch, kNotMatch, kAnyOf, kNotAnyOf } op;
  std::uint32_t capture = 0;
  bool against_capture = false;  // #eq? @a @b
  std::uint32_t other_capture = 0;
  std::vector<std::string> values;
  std::shared_ptr<regex::Regex> regex;  // PCRE2: a long capture cannot exhaust the stack
};

// What a capture of a reference pattern (daemon/queries/refs/*.scm) is.
enum class RefRole : std::uint8_t {
  kNone, kCall, kNew, kInherit, kImplement, kType, kReceiver,
  kImportModule, kImportName, kImportAlias, kImportDefault, kImportWildcard, kImportTree, kImportInclude,
  kImportSubmodule, kBind, kBindField,
};

RefRole ref_role_of(std::string_view capture) {
  static const std::pair<std::string_view, RefRole> kRoles[] = {
      {"call", RefRole::kCall}, {"new", RefRole::kNew}, {"inherit", RefRole::kInherit},
      {"implement", RefRole::kImplement}, {"type", RefRole::kType}, {"receiver", RefRole::kReceiver},
      {"import.module", RefRole::kImportModule}, {"import.name", RefRole::kImportName},
      {"import.alias", RefRole::kImportAlias}, {"import.default", RefRole::kImportDefault},
      {"import.wildcard", RefRole::kImportWildcard}, {"import.tree", RefRole::kImportTree},
      {"import.include", RefRole::kImportInclude}, {"import.submodule", RefRole::kImportSubmodule},
      {"bind", RefRole::kBind}, {"bind.field", RefRole::kBindField}};
  for (const auto& [name, role] : kRoles)
    if (capture == name) return role;
  return RefRole::kNone;
}

// A compiled query plus, per pattern, its predicates and which capture is the
// definition (and its kind) and which is the name.
struct CompiledQuery {
  TSQuery* query = nullptr;
  std::string error;
  std::vector<std::vector<Predicate>> predicates;  // by pattern index
  std::vector<std::string> capture_kind;            // by capture id: kind for @definition.X, "" otherwise
  std::uint32_t name_capture = UINT32_MAX;
  std::uint32_t scope_capture = UINT32_MAX;  // @scope: qualifies a name defined outside its owner
  std::uint32_t ignore_capture = UINT32_MAX;  // @ignore: a name node that is no definition
  std::vector<bool> pattern_is_extra;         // by pattern index: from daemon/queries, not upstream
  std::vector<bool> pattern_is_ref;           // by pattern index: a reference pattern (daemon/queries/refs)
  std::vector<RefRole> ref_role;              // by capture id
};

// Normally one query: comP's patterns followed by upstream's, so that a
// single traversal of the tree serves both (the traversal is most of the
// cost). When the two do not compile together, each is compiled alone.
struct LanguageQueries {
  CompiledQuery combined;
  CompiledQuery upstream;
  CompiledQuery extra;
  CompiledQuery refs;  // alone only when the combined query could not take them
};

std::string_view capture_name(const TSQuery* query, std::uint32_t id) {
  std::uint32_t length = 0;
  const char* text = ts_query_capture_name_for_id(query, id, &length);
  return {text, length};
}

const char* query_error_name(TSQueryError error) {
  switch (error) {
    case TSQueryErrorSyntax: return "syntax";
    case TSQueryErrorNodeType: return "unknown node type";
    case TSQueryErrorField: return "unknown field";
    case TSQueryErrorCapture: return "unknown capture";
    case TSQueryErrorStructure: return "impossible pattern";
    case TSQueryErrorLanguage: return "language version";
    default: return "error";
  }
}

// `extra_bytes`: how many leading bytes of `source` are comP's own patterns;
// patterns from `refs_offset` on are reference patterns.
CompiledQuery compile(const TSLanguage* grammar, std::string_view source, std::size_t extra_bytes,
                      std::size_t refs_offset = SIZE_MAX) {
  CompiledQuery compiled;
  if (source.find_first_not_of(" \t\r\n") == std::string_view::npos) return compiled;
  std::uint32_t error_offset = 0;
  TSQueryError error_type = TSQueryErrorNone;
  compiled.query = ts_query_new(grammar, source.data(), static_cast<std::uint32_t>(source.size()),
                                &error_offset, &error_type);
  if (!compiled.query) {
    std::size_t line = 1 + std::count(source.begin(), source.begin() + std::min<std::size_t>(error_offset, source.size()), '\n');
    compiled.error = std::string(query_error_name(error_type)) + " at query line " + std::to_string(line);
    return compiled;
  }
  const TSQuery* query = compiled.query;
  std::uint32_t captures = ts_query_capture_count(query);
  compiled.capture_kind.resize(captures);
  compiled.ref_role.resize(captures);
  for (std::uint32_t id = 0; id < captures; ++id) {
    std::string_view capture = capture_name(query, id);
    compiled.ref_role[id] = ref_role_of(capture);
    if (capture == "name") compiled.name_capture = id;
    if (capture == "scope") compiled.scope_capture = id;
    if (capture == "ignore") compiled.ignore_capture = id;
    constexpr std::string_view kDefinition = "definition.";
    if (capture.substr(0, kDefinition.size()) == kDefinition)
      compiled.capture_kind[id] = std::string(capture.substr(kDefinition.size()));
  }
  std::uint32_t patterns = ts_query_pattern_count(query);
  // Only definitions make symbols: patterns without a @definition.* capture
  // (references, used by the edges) and @doc captures cost time for nothing.
  compiled.pattern_is_extra.resize(patterns);
  compiled.pattern_is_ref.resize(patterns);
  for (std::uint32_t pattern = 0; pattern < patterns; ++pattern) {
    std::uint32_t start = ts_query_start_byte_for_pattern(query, pattern);
    bool extra = start < extra_bytes;
    compiled.pattern_is_extra[pattern] = extra;
    if (start >= refs_offset) {
      compiled.pattern_is_ref[pattern] = true;
      continue;
    }
    bool defines = false;
    for (std::uint32_t id = 0; id < captures && !defines; ++id)
      defines = (!compiled.capture_kind[id].empty() || (extra && id == compiled.ignore_capture)) &&
                ts_query_capture_quantifier_for_id(query, pattern, id) != TSQuantifierZero;
    if (!defines) ts_query_disable_pattern(compiled.query, pattern);
  }
  ts_query_disable_capture(compiled.query, "doc", 3);
  compiled.predicates.resize(patterns);
  for (std::uint32_t pattern = 0; pattern < patterns; ++pattern) {
    std::uint32_t step_count = 0;
    const TSQueryPredicateStep* steps = ts_query_predicates_for_pattern(query, pattern, &step_count);
    std::vector<TSQueryPredicateStep> current;
    for (std::uint32_t i = 0; i < step_count; ++i) {
      if (steps[i].type != TSQueryPredicateStepTypeDone) {
        current.push_back(steps[i]);
        continue;
      }
      if (current.empty() || current[0].type != TSQueryPredicateStepTypeString) {
        current.clear();
        continue;
      }
      std::uint32_t length = 0;
      std::string op_name = ts_query_string_value_for_id(query, current[0].value_id, &length);
      Predicate predicate{};
      bool known = true;
      if (op_name == "eq?") predicate.op = Predicate::Op::kEq;
      else if (op_name == "not-eq?") predicate.op = Predicate::Op::kNotEq;
      else if (op_name == "match?") predicate.op = Predicate::Op::kMatch;
      else if (op_name == "not-match?") predicate.op = Predicate::Op::kNotMatch;
      else if (op_name == "any-of?") predicate.op = Predicate::Op::kAnyOf;
      else if (op_name == "not-any-of?") predicate.op = Predicate::Op::kNotAnyOf;
      else known = false;  // directives (#strip!, #select-adjacent!, #set-adjacent!) and #is-not?
                           // only shape @doc text or reference captures, never definitions.
      if (known && current.size() >= 2 && current[1].type == TSQueryPredicateStepTypeCapture) {
        predicate.capture = current[1].value_id;
        for (std::size_t k = 2; k < current.size(); ++k) {
          if (current[k].type == TSQueryPredicateStepTypeCapture) {
            predicate.against_capture = true;
            predicate.other_capture = current[k].value_id;
          } else {
            predicate.values.emplace_back(ts_query_string_value_for_id(query, current[k].value_id, &length), length);
          }
        }
        if ((predicate.op == Predicate::Op::kMatch || predicate.op == Predicate::Op::kNotMatch) &&
            !predicate.values.empty()) {
          try {
            predicate.regex = std::make_shared<regex::Regex>(predicate.values[0]);
          } catch (const std::invalid_argument&) {
            compiled.error = "bad #match? regex in pattern " + std::to_string(pattern);
          }
        }
        compiled.predicates[pattern].push_back(std::move(predicate));
      }
      current.clear();
    }
  }
  return compiled;
}

// Keeps only the top-level patterns of a query source that capture a
// @definition.*: reference patterns would be disabled anyway, and dropping
// them before compiling halves the compile time of the larger tags queries.
// A top-level form is a bracketed group plus the captures, quantifiers and
// predicates that follow it; comments and strings are skipped while scanning.
std::string definition_patterns(std::string_view source) {
  std::string out;
  std::size_t i = 0, form_start = std::string_view::npos;
  int depth = 0;
  auto flush = [&](std::size_t end) {
    if (form_start == std::string_view::npos) return;
    std::string_view form = source.substr(form_start, end - form_start);
    if (form.find("@definition.") != std::string_view::npos) {
      out.append(form);
      out.push_back('\n');
    }
    form_start = std::string_view::npos;
  };
  while (i < source.size()) {
    char c = source[i];
    if (c == ';') {
      while (i < source.size() && source[i] != '\n') ++i;
      continue;
    }
    if (c == '"') {
      for (++i; i < source.size() && source[i] != '"'; ++i)
        if (source[i] == '\\') ++i;
      ++i;
      continue;
    }
    if ((c == '(' || c == '[') && depth == 0) {
      // A new form starts unless this group still belongs to the previous one
      // (a predicate group right after a pattern: "(pattern) @x (#eq? ...)").
      bool predicate = c == '(' && source.substr(i + 1).find_first_not_of(" \t\n") != std::string_view::npos &&
                       source[source.find_first_not_of(" \t\n", i + 1)] == '#';
      if (!predicate) {
        flush(i);
        form_start = i;
      }
    }
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && depth > 0) --depth;
    ++i;
  }
  flush(source.size());
  // Documentation captures ("(comment)* @doc ." before a definition, and the
  // #strip!/#select-adjacent! directives on them) are unused here and are
  // the costliest part of the analysis at compile time.
  static const std::regex kDocCapture(R"(\(comment\)\*\s*@doc\s*\.?)");
  static const std::regex kDocDirective(R"(\(#(strip!|select-adjacent!|set-adjacent!)\s+@doc[^)]*\))");
  return std::regex_replace(std::regex_replace(out, kDocCapture, ""), kDocDirective, "");
}

const LanguageQueries& queries_for(lang::Language language) {
  static std::array<LanguageQueries, 17> table;
  static std::array<std::once_flag, 17> once;
  auto index = static_cast<std::size_t>(language);
  std::call_once(once[index], [&] {
    const TSLanguage* grammar = lang::grammar(language);
    lang::SymbolQuerySource source = lang::symbol_query_source(language);
    std::string upstream = definition_patterns(source.upstream);
    std::string defs = std::string(source.extra) + "\n" + upstream;
    std::size_t refs_offset = defs.size() + 1;
    LanguageQueries& q = table[index];
    q.combined = compile(grammar, defs + "\n" + std::string(source.refs), source.extra.size() + 1, refs_offset);
    if (!q.combined.query) {  // compile the references alone; definitions as before
      q.refs = compile(grammar, source.refs, 0, 0);
      q.combined = compile(grammar, defs, source.extra.size() + 1);
    }
    if (!q.combined.query) {  // the trimmed upstream may not compile: take it whole
      upstream = std::string(source.upstream);
      q.combined = compile(grammar, std::string(source.extra) + "\n" + upstream, source.extra.size() + 1);
    }
    if (!q.combined.query) {
      q.upstream = compile(grammar, upstream, 0);
      q.extra = compile(grammar, source.extra, source.extra.size());
    }
  });
  return table[index];
}

std::string_view node_text(TSNode node, std::string_view source) {
  std::uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (start > source.size() || end > source.size() || end < start) return {};
  return source.substr(start, end - start);
}

const TSQueryCapture* find_capture(const TSQueryMatch& match, std::uint32_t id) {
  for (std::uint16_t i = 0; i < match.capture_count; ++i)
    if (match.captures[i].index == id) return &match.captures[i];
  return nullptr;
}

// #match? results per predicate and captured range: one node can be the
// capture of thousands of matches (every declarator of `static int a, b,
// ...;` matches with the whole declaration captured); its text is scanned once.
using MatchMemo = std::map<std::tuple<const Predicate*, std::uint32_t, std::uint32_t>, bool>;

bool predicates_hold(const CompiledQuery& compiled, const TSQueryMatch& match, std::string_view source,
                     MatchMemo& memo) {
  for (const Predicate& predicate : compiled.predicates[match.pattern_index]) {
    const TSQueryCapture* capture = find_capture(match, predicate.capture);
    if (!capture) continue;
    std::string_view text = node_text(capture->node, source);
    bool result = true;
    switch (predicate.op) {
      case Predicate::Op::kEq:
      case Predicate::Op::kNotEq: {
        std::string_view other;
        if (predicate.against_capture) {
          const TSQueryCapture* other_capture = find_capture(match, predicate.other_capture);
          if (other_capture) other = node_text(other_capture->node, source);
        } else if (!predicate.values.empty()) {
          other = predicate.values[0];
        }
        result = (text == other) == (predicate.op == Predicate::Op::kEq);
        break;
      }
      case Predicate::Op::kMatch:
      case Predicate::Op::kNotMatch: {
        auto key = std::make_tuple(&predicate, ts_node_start_byte(capture->node), ts_node_end_byte(capture->node));
        auto known = memo.find(key);
        bool found = known != memo.end() ? known->second
                                         : memo.emplace(key, predicate.regex && predicate.regex->search(text)).first->second;
        result = found == (predicate.op == Predicate::Op::kMatch);
        break;
      }
      case Predicate::Op::kAnyOf:
      case Predicate::Op::kNotAnyOf: {
        bool found = std::find(predicate.values.begin(), predicate.values.end(), text) != predicate.values.end();
        result = found == (predicate.op == Predicate::Op::kAnyOf);
        break;
      }
    }
    if (!result) return false;
  }
  return true;
}

// Cuts a UTF-8 string to at most `limit` bytes without splitting a character.
void truncate_utf8(std::string& text, std::size_t limit) {
  if (text.size() <= limit) return;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
}

// The declaration head: from the definition's start to its body (following
// `value` for `const f = () => {}`), whitespace folded, at most 200 bytes.
std::string signature_of(TSNode definition, std::string_view source) {
  std::uint32_t start = ts_node_start_byte(definition);
  std::uint32_t end = ts_node_end_byte(definition);
  TSNode cursor = definition;
  for (int depth = 0; depth < 4; ++depth) {
    TSNode body = ts_node_child_by_field_name(cursor, "body", 4);
    if (!ts_node_is_null(body) && ts_node_start_byte(body) > start) {
      end = ts_node_start_byte(body);
      // A comment before the body (`def f():  # note`) is no part of the head.
      TSTreeCursor children = ts_tree_cursor_new(cursor);
      for (bool more = ts_tree_cursor_goto_first_child(&children); more; more = ts_tree_cursor_goto_next_sibling(&children)) {
        TSNode child = ts_tree_cursor_current_node(&children);
        if (ts_node_start_byte(child) >= end) break;
        if (ts_node_start_byte(child) > start && std::string_view(ts_node_type(child)) == "comment") {
          end = ts_node_start_byte(child);
          break;
        }
      }
      ts_tree_cursor_delete(&children);
      break;
    }
    TSNode value = ts_node_child_by_field_name(cursor, "value", 5);
    if (ts_node_is_null(value)) break;
    cursor = value;
  }
  // Grammars without a `body` field (Kotlin) still name their body nodes so.
  // (A tree cursor: indexing children one by one costs O(children) each.)
  if (end == ts_node_end_byte(definition)) {
    TSTreeCursor children = ts_tree_cursor_new(definition);
    for (bool more = ts_tree_cursor_goto_first_child(&children); more; more = ts_tree_cursor_goto_next_sibling(&children)) {
      TSNode child = ts_tree_cursor_current_node(&children);
      if (!ts_node_is_named(child)) continue;
      std::string_view type = ts_node_type(child);
      if ((type == "function_body" || type == "class_body" || type == "enum_class_body") &&
          ts_node_start_byte(child) > start) {
        end = ts_node_start_byte(child);
        break;
      }
    }
    ts_tree_cursor_delete(&children);
  }
  std::string_view head = source.substr(start, std::min<std::size_t>(end, source.size()) - start);
  // Without a body field, keep the first line only (fields, constants, types).
  if (end == ts_node_end_byte(definition)) {
    std::size_t newline = head.find('\n');
    if (newline != std::string_view::npos) head = head.substr(0, newline);
  }
  std::string folded;
  folded.reserve(std::min<std::size_t>(head.size(), 256));
  bool space = false;
  for (char c : head) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !folded.empty()) folded.push_back(' ');
    space = false;
    folded.push_back(c);
    if (folded.size() > 400) break;
  }
  while (!folded.empty() && (folded.back() == '{' || folded.back() == ':' || folded.back() == ' ' ||
                             folded.back() == '=' || folded.back() == ';'))
    folded.pop_back();
  truncate_utf8(folded, 200);
  return folded;
}

// Some grammars end a definition after the whitespace that follows it (C's
// `#define` takes its line break, an HTML void element the next line's
// indent): the range ends at its last non-blank byte instead, so that the
// next line is not inside it.
void trim_trailing_whitespace(std::string_view source, std::uint32_t start, std::uint32_t& end, TSPoint& end_point) {
  std::uint32_t trimmed = end;
  while (trimmed > start && trimmed <= source.size() &&
         (source[trimmed - 1] == '\n' || source[trimmed - 1] == '\r' || source[trimmed - 1] == ' ' ||
          source[trimmed - 1] == '\t'))
    --trimmed;
  if (trimmed == end) return;
  std::uint32_t rows = static_cast<std::uint32_t>(std::count(source.begin() + trimmed, source.begin() + end, '\n'));
  std::size_t line_start = source.rfind('\n', trimmed == 0 ? 0 : trimmed - 1);
  line_start = (line_start == std::string_view::npos || trimmed == 0) ? 0 : line_start + 1;
  end_point.row -= std::min(rows, end_point.row);
  end_point.column = static_cast<std::uint32_t>(trimmed - line_start);
  end = trimmed;
}

// Appends one part to a dotted scope. A part may be a path itself (a PHP
// namespace `App\Billing`, a C++ `ns::Foo`): its separators become dots.
void append_scope(std::string& scope, std::string_view part) {
  if (!scope.empty()) scope.push_back('.');
  for (std::size_t i = 0; i < part.size(); ++i) {
    if (part[i] == '\\') {
      scope.push_back('.');
    } else if (part[i] == ':' && i + 1 < part.size() && part[i + 1] == ':') {
      scope.push_back('.');
      ++i;
    } else {
      scope.push_back(part[i]);
    }
  }
}

// Kinds whose nested functions are methods. Modules and namespaces only group
// free functions (a Rust `mod`, a C++ or TypeScript namespace), so they are absent.
bool is_container_kind(std::string_view kind) {
  return kind == "class" || kind == "interface" || kind == "struct" || kind == "trait" || kind == "impl" ||
         kind == "enum" || kind == "object";
}

struct Candidate {
  TSNode definition;
  TSNode name;
  std::string kind;  // "" for an @ignore capture: it only keeps others from taking the name
  bool extra;
  std::uint32_t pattern;  // index in its query: among comP's patterns, the first wins
  // The @scope captures' texts joined by ".": the owner of a definition written
  // outside it, as Go's `func (t *T) Do()` or C++'s `void ns::Foo::bar()`.
  std::string qualifier;
};

// The receiver of a call as the resolver reads it: dotted, without spaces;
// "super" for Python's super() calls; "?" when it is an expression (a call's
// result, an index) that only types could resolve.
std::string receiver_text(std::string_view text) {
  std::string out;
  if (text.substr(0, 6) == "super(") return "super";
  if (text.size() > 120) return "?";
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if ((c == ':' && i + 1 < text.size() && text[i + 1] == ':') || (c == '-' && i + 1 < text.size() && text[i + 1] == '>') ||
        (c == '?' && i + 1 < text.size() && text[i + 1] == '.')) {
      out.push_back('.');
      ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '"' || c == '\'' || c == '`' || c == '{' || c == '<' || c == '!') return "?";
    out.push_back(c);
  }
  return out;
}

std::string unquote(std::string_view text) {
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'' || text.front() == '`' || text.front() == '<'))
    text = text.substr(1, text.size() - 2);
  return std::string(text);
}

void set_position(Reference& ref, TSNode node) {
  TSPoint point = ts_node_start_point(node);
  ref.line = point.row + 1;
  ref.column = point.column + 1;
  ref.byte = ts_node_start_byte(node);
}

// Expands a Rust use tree ("crate::a::{b, c::d as e, self, *}") into imports:
// module "crate::a", names b, d (alias e), the module itself, and all names.
void expand_use_tree(std::string_view text, std::string prefix, const Reference& at, std::vector<Reference>& out,
                     int depth = 0) {
  auto trim = [](std::string_view t) {
    std::size_t b = t.find_first_not_of(" \t\r\n"), e = t.find_last_not_of(" \t\r\n");
    return b == std::string_view::npos ? std::string_view{} : t.substr(b, e - b + 1);
  };
  text = trim(text);
  if (text.empty() || depth > 8) return;
  std::size_t brace = text.find('{');
  if (brace != std::string_view::npos) {
    std::string_view head = trim(text.substr(0, brace));
    if (head.size() >= 2 && head.substr(head.size() - 2) == "::") head.remove_suffix(2);
    std::string joined = prefix;
    if (!head.empty()) joined += (joined.empty() ? "" : "::") + std::string(head);
    std::size_t close = text.rfind('}');
    std::string_view inner = text.substr(brace + 1, (close == std::string_view::npos ? text.size() : close) - brace - 1);
    int level = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= inner.size(); ++i) {
      if (i < inner.size() && inner[i] == '{') ++level;
      if (i < inner.size() && inner[i] == '}') --level;
      if (i == inner.size() || (inner[i] == ',' && level == 0)) {
        expand_use_tree(inner.substr(start, i - start), joined, at, out, depth + 1);
        start = i + 1;
      }
    }
    return;
  }
  std::string alias;
  std::size_t as = text.find(" as ");
  if (as != std::string_view::npos) {
    alias = std::string(trim(text.substr(as + 4)));
    text = trim(text.substr(0, as));
  }
  std::string path = prefix;
  if (!text.empty()) path += (path.empty() ? "" : "::") + std::string(text);
  Reference ref = at;
  std::size_t last = path.rfind("::");
  std::string name = last == std::string::npos ? path : path.substr(last + 2);
  ref.qualifier = last == std::string::npos ? "" : path.substr(0, last);
  if (name == "self") {  // `use a::{self}`: the module a itself
    ref.name = "";
    std::size_t up = ref.qualifier.rfind("::");
    ref.alias = alias.empty() ? (up == std::string::npos ? ref.qualifier : ref.qualifier.substr(up + 2)) : alias;
  } else {
    ref.name = name;
    ref.alias = alias == name ? "" : alias;
  }
  out.push_back(std::move(ref));
}

void collect_reference(const CompiledQuery& compiled, const TSQueryMatch& match, std::string_view source,
                       std::vector<Reference>& out, MatchMemo& memo) {
  if (!predicates_hold(compiled, match, source, memo)) return;
  const TSQueryCapture* target = nullptr;
  const TSQueryCapture *receiver = nullptr, *module = nullptr, *name = nullptr, *alias = nullptr;
  const TSQueryCapture *default_name = nullptr, *tree = nullptr, *include = nullptr, *submodule = nullptr;
  const TSQueryCapture* bind = nullptr;  // the variable whose type the target names
  bool field = false;
  bool wildcard = false;
  RefRole role = RefRole::kNone;
  for (std::uint16_t i = 0; i < match.capture_count; ++i) {
    const TSQueryCapture* capture = &match.captures[i];
    switch (compiled.ref_role[capture->index]) {
      case RefRole::kCall: case RefRole::kNew: case RefRole::kInherit: case RefRole::kImplement: case RefRole::kType:
        target = capture;
        role = compiled.ref_role[capture->index];
        break;
      case RefRole::kReceiver: receiver = capture; break;
      case RefRole::kImportModule: module = capture; break;
      case RefRole::kImportName: name = capture; break;
      case RefRole::kImportAlias: alias = capture; break;
      case RefRole::kImportDefault: default_name = capture; break;
      case RefRole::kImportWildcard: wildcard = true; break;
      case RefRole::kImportTree: tree = capture; break;
      case RefRole::kImportInclude: include = capture; break;
      case RefRole::kImportSubmodule: submodule = capture; break;
      case RefRole::kBind: bind = capture; break;
      case RefRole::kBindField: bind = capture; field = true; break;
      case RefRole::kNone: break;
    }
  }
  Reference ref;
  if (target) {
    ref.name = std::string(node_text(target->node, source));
    if (ref.name.empty()) return;
    switch (role) {
      case RefRole::kInherit: ref.kind = "inherit"; break;
      case RefRole::kImplement: ref.kind = "implement"; break;
      case RefRole::kType: ref.kind = "reference"; break;
      default: ref.kind = "call"; break;
    }
    if (receiver) ref.qualifier = receiver_text(node_text(receiver->node, source));
    if (bind) {
      // "x" for a local or parameter; ".x" for a member of the enclosing
      // class (a field, `self.x = ...`, `this.x = ...`).
      std::string text = receiver_text(node_text(bind->node, source));
      if (text.rfind("self.", 0) == 0 || text.rfind("this.", 0) == 0) {
        text = text.substr(4);
      } else if (field) {
        text = "." + text;
      }
      if (text != "?" && text.find('.', 1) == std::string::npos) ref.binds = std::move(text);
    }
    set_position(ref, target->node);
    out.push_back(std::move(ref));
    return;
  }
  ref.kind = "import";
  if (tree) {
    set_position(ref, tree->node);
    expand_use_tree(node_text(tree->node, source), "", ref, out);
    return;
  }
  if (include) {
    ref.qualifier = unquote(node_text(include->node, source));
    ref.name = "*";
    set_position(ref, include->node);
    out.push_back(std::move(ref));
    return;
  }
  if (submodule) {  // Rust's `mod util;`: the module self::util, from its own file
    ref.qualifier = "self::" + std::string(node_text(submodule->node, source));
    set_position(ref, submodule->node);
    out.push_back(std::move(ref));
    return;
  }
  if (!module) return;
  ref.qualifier = unquote(node_text(module->node, source));
  const TSQueryCapture* at = module;
  if (default_name) {
    ref.name = "default";
    ref.alias = std::string(node_text(default_name->node, source));
    at = default_name;
  } else if (wildcard) {
    ref.name = "*";
  } else if (name) {
    ref.name = unquote(node_text(name->node, source));
    at = name;
  }
  if (alias && !default_name) {
    ref.alias = std::string(node_text(alias->node, source));
    if (ref.alias == ref.name) ref.alias.clear();
    if (!name) at = alias;
  }
  set_position(ref, at->node);
  out.push_back(std::move(ref));
}

void collect(const CompiledQuery& compiled, TSQueryCursor* cursor, TSNode root, std::string_view source,
             std::vector<Candidate>& out, std::vector<Reference>& refs) {
  if (!compiled.query) return;
  ts_query_cursor_exec(cursor, compiled.query, root);
  TSQueryMatch match;
  MatchMemo memo;
  while (ts_query_cursor_next_match(cursor, &match)) {
    if (compiled.pattern_is_ref[match.pattern_index]) {
      collect_reference(compiled, match, source, refs, memo);
      continue;
    }
    bool extra = compiled.pattern_is_extra[match.pattern_index];
    // comP's `@ignore` marks a name that is no definition although an upstream
    // pattern takes it for one: `Lock lock(mutex);` in a C++ block is an object,
    // not a function. (Upstream's own @ignore captures serve references only.)
    const TSQueryCapture* ignore = extra ? find_capture(match, compiled.ignore_capture) : nullptr;
    if (ignore && predicates_hold(compiled, match, source, memo)) {
      out.push_back({ignore->node, ignore->node, "", extra, match.pattern_index, ""});
      continue;
    }
    const TSQueryCapture* name = find_capture(match, compiled.name_capture);
    if (!name) continue;
    const TSQueryCapture* definition = nullptr;
    for (std::uint16_t i = 0; i < match.capture_count; ++i)
      if (!compiled.capture_kind[match.captures[i].index].empty()) definition = &match.captures[i];
    if (!definition) continue;  // @reference.* patterns: edges, not symbols
    if (!predicates_hold(compiled, match, source, memo)) continue;
    std::string qualifier;
    for (std::uint16_t i = 0; i < match.capture_count; ++i) {
      if (match.captures[i].index != compiled.scope_capture) continue;
      if (!qualifier.empty()) qualifier.push_back('.');
      qualifier += node_text(match.captures[i].node, source);
    }
    out.push_back({definition->node, name->node, compiled.capture_kind[definition->index], extra,
                   match.pattern_index, std::move(qualifier)});
  }
}

std::string first_error(TSNode node) {
  // Depth-first search for the first ERROR or MISSING node, bounded.
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  std::string message;
  int steps = 0;
  for (;;) {
    TSNode current = ts_tree_cursor_current_node(&cursor);
    if (ts_node_is_error(current) || ts_node_is_missing(current)) {
      TSPoint point = ts_node_start_point(current);
      message = std::to_string(point.row + 1) + ":" + std::to_string(point.column + 1) +
                (ts_node_is_missing(current) ? ": missing " + std::string(ts_node_type(current)) : ": syntax error");
      break;
    }
    if (++steps > 1000000 || !next_node(&cursor, ts_node_has_error(current))) break;
  }
  ts_tree_cursor_delete(&cursor);
  return message;
}

int kind_rank(std::string_view kind) {
  if (kind == "call") return 0;
  if (kind == "inherit" || kind == "implement") return 1;
  return 2;
}

// One reference per name token (a call beats a type use of the same token;
// an import per module, name and alias), in source order, each with the
// innermost symbol whose range holds it.
std::vector<Reference> assign_references(std::vector<Reference> refs, const std::vector<Symbol>& symbols) {
  std::stable_sort(refs.begin(), refs.end(), [](const Reference& a, const Reference& b) {
    if (a.byte != b.byte) return a.byte < b.byte;
    return kind_rank(a.kind) < kind_rank(b.kind);
  });
  std::vector<Reference> out;
  out.reserve(refs.size());
  std::unordered_set<std::string> imports;
  for (Reference& ref : refs) {
    if (ref.kind == "import") {
      if (!imports.insert(ref.qualifier + '\0' + ref.name + '\0' + ref.alias).second) continue;
    } else if (!out.empty() && out.back().kind != "import" && out.back().byte == ref.byte) {
      if (out.back().binds.empty()) out.back().binds = ref.binds;
      continue;
    }
    out.push_back(std::move(ref));
  }
  // Symbols are sorted by start (outer first): sweep with a stack of the
  // symbols that hold the current position.
  std::vector<int> open;
  std::size_t next = 0;
  for (Reference& ref : out) {
    while (next < symbols.size() && symbols[next].start_byte <= ref.byte) {
      while (!open.empty() && symbols[static_cast<std::size_t>(open.back())].end_byte <= symbols[next].start_byte)
        open.pop_back();
      open.push_back(static_cast<int>(next++));
    }
    while (!open.empty() && symbols[static_cast<std::size_t>(open.back())].end_byte <= ref.byte) open.pop_back();
    ref.from = open.empty() ? -1 : open.back();
  }
  return out;
}

}  // namespace

std::string module_path(std::string_view rel_path) {
  std::string_view path = rel_path;
  std::size_t slash = path.rfind('/');
  std::size_t dot = path.rfind('.');
  bool hidden = dot == (slash == std::string_view::npos ? 0 : slash + 1);  // ".bashrc"
  if (dot != std::string_view::npos && !hidden && (slash == std::string_view::npos || dot > slash))
    path = path.substr(0, dot);
  std::string out(path);
  constexpr std::string_view kInit = "/__init__";
  if (out.size() >= kInit.size() && out.compare(out.size() - kInit.size(), kInit.size(), kInit) == 0)
    out.resize(out.size() - kInit.size());
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

void compile_queries(lang::Language language) { (void)queries_for(language); }

std::string query_error(lang::Language language) {
  const LanguageQueries& queries = queries_for(language);
  std::string error;
  if (!queries.refs.error.empty()) return "comP reference query: " + queries.refs.error;
  if (queries.combined.query) return "";
  if (!queries.upstream.error.empty()) error += "upstream tags.scm: " + queries.upstream.error;
  if (!queries.extra.error.empty()) error += (error.empty() ? "" : "; ") + std::string("comP query: ") + queries.extra.error;
  return error;
}

// Query matches start at most this deep in the tree. Written code never
// nests so deep; generated code (`f(f(f(...)))` a hundred thousand times)
// does, and there the cursor's work grows with the square of the depth
// (140 s for one 300 KB file).
constexpr std::uint32_t kMaxMatchDepth = 1000;
// Definitions nested deeper than this (inside as many others) are left out.
constexpr std::size_t kMaxNesting = 100;

struct SymbolExtractor::Impl {
  TSParser* parser = ts_parser_new();
  TSQueryCursor* cursor = [] {
    TSQueryCursor* made = ts_query_cursor_new();
    ts_query_cursor_set_max_start_depth(made, kMaxMatchDepth);
    return made;
  }();
  ~Impl() {
    ts_query_cursor_delete(cursor);
    ts_parser_delete(parser);
  }

  TSTree* parse(lang::Language language, std::string_view source, unsigned timeout_ms) {
    return parse_tree(parser, language, source, timeout_ms);
  }
};

SymbolExtractor::SymbolExtractor() : impl_(std::make_unique<Impl>()) {}
SymbolExtractor::~SymbolExtractor() = default;

bool SymbolExtractor::parse_only(lang::Language language, std::string_view source) {
  TSTree* tree = impl_->parse(language, source, 0);
  if (!tree) return false;
  ts_tree_delete(tree);
  return true;
}

ParseResult SymbolExtractor::extract(lang::Language language, std::string_view source,
                                     std::string_view rel_path, unsigned timeout_ms) {
  ParseResult result;
  if (source.size() >= UINT32_MAX) {
    result.errors.push_back("file too large for the parser");
    return result;
  }
  TSTree* tree = impl_->parse(language, source, timeout_ms);
  if (!tree) {
    result.errors.push_back("parse timed out after " + std::to_string(timeout_ms) + " ms");
    return result;
  }
  TSNode root = ts_tree_root_node(tree);
  if (ts_node_has_error(root)) {
    result.has_syntax_errors = true;
    std::string message = first_error(root);
    result.errors.push_back(message.empty() ? "syntax error" : message);
  }

  const LanguageQueries& queries = queries_for(language);
  std::vector<Candidate> candidates;
  std::vector<Reference> references;
  collect(queries.combined, impl_->cursor, root, source, candidates, references);
  collect(queries.extra, impl_->cursor, root, source, candidates, references);
  collect(queries.upstream, impl_->cursor, root, source, candidates, references);
  collect(queries.refs, impl_->cursor, root, source, candidates, references);
  // comP's patterns win over upstream's. Matches of one node come in no
  // documented order: among comP's, the earlier pattern wins, so that a
  // specific pattern can precede a general one; upstream's keep tree order.
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.extra != b.extra) return a.extra;
    return a.extra && a.pattern < b.pattern;
  });

  // One symbol per name node: comP's own patterns were collected first and win.
  std::unordered_set<std::uint32_t> seen_names;
  std::vector<Candidate> unique;
  unique.reserve(candidates.size());
  for (Candidate& candidate : candidates)
    if (seen_names.insert(ts_node_start_byte(candidate.name)).second && !candidate.kind.empty())
      unique.push_back(std::move(candidate));
  std::stable_sort(unique.begin(), unique.end(), [](const Candidate& a, const Candidate& b) {
    std::uint32_t sa = ts_node_start_byte(a.definition), sb = ts_node_start_byte(b.definition);
    if (sa != sb) return sa < sb;
    return ts_node_end_byte(a.definition) > ts_node_end_byte(b.definition);  // outer first
  });

  std::string module = module_path(rel_path);
  const ExportRule& export_rule = export_rule_for(language);
  ExportContext context{source, root, false, {}};
  export_rule.prepare(context);
  std::vector<int> open;  // stack of enclosing symbol indexes
  // A namespace declared without a body (PHP's `namespace App\Billing;`, C#'s
  // file-scoped `namespace Shop.Inventory;`) holds the rest of the file, which
  // the tree does not nest in it: later top-level symbols take it as qualifier.
  std::string file_namespace;
  result.symbols.reserve(unique.size());
  // Names declared together share a definition node and its head: read once
  // (`static int x0, ..., x99999;` is one node of 200,000 children).
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> signatures;
  std::size_t too_deep = 0;
  for (const Candidate& candidate : unique) {
    std::uint32_t start = ts_node_start_byte(candidate.definition);
    std::uint32_t end = ts_node_end_byte(candidate.definition);
    TSPoint end_point = ts_node_end_point(candidate.definition);
    trim_trailing_whitespace(source, start, end, end_point);
    while (!open.empty() && result.symbols[open.back()].end_byte <= start) open.pop_back();
    // Names declared together (`Hits, Misses int64`, `int x, y;`) share one
    // definition node: they are siblings, not one inside the other.
    while (!open.empty() && result.symbols[open.back()].start_byte == start && result.symbols[open.back()].end_byte == end)
      open.pop_back();
    // A definition that is not inside the innermost open one (odd overlaps) closes it.
    while (!open.empty() && result.symbols[open.back()].end_byte < end) open.pop_back();
    if (open.size() >= kMaxNesting) {
      // Each symbol carries its enclosing names: 20,000 nested functions
      // made scopes of quadratic size (1.8 GB of index for a 280 KB file).
      ++too_deep;
      continue;
    }
    Symbol symbol;
    symbol.name = std::string(node_text(candidate.name, source));
    if (symbol.name.empty()) continue;
    symbol.kind = candidate.kind;
    symbol.parent = open.empty() ? -1 : open.back();
    if (symbol.kind == "function" && symbol.parent >= 0 && is_container_kind(result.symbols[symbol.parent].kind))
      symbol.kind = "method";
    TSPoint start_point = ts_node_start_point(candidate.definition);
    symbol.line = start_point.row + 1;
    symbol.column = start_point.column + 1;
    symbol.end_line = end_point.row + 1;
    symbol.end_column = end_point.column + 1;
    symbol.start_byte = start;
    symbol.end_byte = end;
    auto range = std::make_pair(ts_node_start_byte(candidate.definition), ts_node_end_byte(candidate.definition));
    auto known = signatures.find(range);
    if (known == signatures.end()) known = signatures.emplace(range, signature_of(candidate.definition, source)).first;
    symbol.signature = known->second;
    const Symbol* parent = symbol.parent >= 0 ? &result.symbols[symbol.parent] : nullptr;
    symbol.scope = (parent ? parent->scope : module);
    bool opens_file_namespace = !parent && symbol.kind == "namespace" &&
                                ts_node_is_null(ts_node_child_by_field_name(candidate.definition, "body", 4));
    if (!parent && !opens_file_namespace && !file_namespace.empty()) append_scope(symbol.scope, file_namespace);
    if (!candidate.qualifier.empty()) append_scope(symbol.scope, candidate.qualifier);
    append_scope(symbol.scope, symbol.name);
    if (opens_file_namespace) file_namespace = symbol.name;
    symbol.is_exported = export_rule.is_exported(context, candidate.definition, symbol, parent);
    result.symbols.push_back(std::move(symbol));
    open.push_back(static_cast<int>(result.symbols.size()) - 1);
  }
  if (too_deep)
    result.errors.push_back(std::to_string(too_deep) + " definitions nested over " + std::to_string(kMaxNesting) +
                            " deep left out");
  ts_tree_delete(tree);
  result.references = assign_references(std::move(references), result.symbols);
  return result;
}

}  // namespace comp::parse
