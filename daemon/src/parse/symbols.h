// parse: turns one source file into its symbols with tree-sitter. Knows
// nothing of files on disk or the database.
//
// Parsing never fails: extract() returns what it could find plus its errors;
// a file with syntax errors still yields the symbols tree-sitter recovered.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lang/language.h"

namespace comp::parse {

// One definition. Positions are 1-indexed; columns count bytes (UTF-8), and
// (end_line, end_column) is the position just past the definition's last byte.
struct Symbol {
  std::string name;
  std::string kind;       // function, method, class, interface, struct, enum, trait, impl,
                          // type, constant, variable, field, property, module, namespace,
                          // macro, constructor, element
  std::uint32_t line = 0, column = 0, end_line = 0, end_column = 0;
  std::uint32_t start_byte = 0, end_byte = 0;
  std::string signature;  // declaration head without its body, whitespace folded, <= 200 bytes
  bool is_exported = false;
  std::string scope;      // qualified path including the name: "pkg.module.Class.method"
  int parent = -1;        // index of the enclosing symbol in the same result, or -1
};

// One use of a name that may lead to another definition: the raw material
// of the dependency edges, resolved across files by the graph layer.
// Positions are those of the name token (1-indexed, byte columns).
struct Reference {
  std::string kind;       // "call" (including `new X` and JSX elements), "inherit", "implement",
                          // "reference" (a type name), "import"
  std::string name;       // call/inherit/...: the name token; import: the imported name, "" for the
                          // module itself, "*" for all its names, "default" for a default import
  std::string qualifier;  // call/...: the receiver as written, dots for `::`/`->` ("self", "os.path",
                          // "this.items", "" for a bare name, "?" for a complex expression);
                          // import: the module as written ("./util", "..pkg.mod", "fmt", "crate::a")
  std::string alias;      // import: the local name it binds when that differs from `name`
  std::string binds;      // call/reference: the variable this names the type of ("x" in `x: Foo`
                          // or `x = Foo()`; ".x" for a member: a field, `self.x = Foo()`)
  std::uint32_t line = 0, column = 0;
  std::uint32_t byte = 0;
  int from = -1;          // index of the innermost enclosing symbol, -1 for top-level code
};

struct ParseResult {
  std::vector<Symbol> symbols;  // in source order (by start byte)
  std::vector<Reference> references;  // in source order
  bool has_syntax_errors = false;
  std::vector<std::string> errors;  // "3:14: syntax error", "parse timed out", ...
};

// Dotted module path of a file, the first part of every scope:
// "sympy/core/basic.py" -> "sympy.core.basic", "pkg/__init__.py" -> "pkg",
// "src/lib.rs" -> "src.lib".
std::string module_path(std::string_view rel_path);

// Holds a tree-sitter parser and query cursor: create one per thread. The
// compiled queries are shared process-wide (compiled once, read-only).
class SymbolExtractor {
 public:
  SymbolExtractor();
  ~SymbolExtractor();
  SymbolExtractor(const SymbolExtractor&) = delete;
  SymbolExtractor& operator=(const SymbolExtractor&) = delete;

  // `source` must stay alive during the call only. Parses for at most
  // `timeout_ms` (0: no limit) before giving up with an error.
  ParseResult extract(lang::Language language, std::string_view source, std::string_view rel_path,
                      unsigned timeout_ms = 10000);

  // Parse only, for the parse-only benchmark: returns true when a tree was built.
  bool parse_only(lang::Language language, std::string_view source);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The compiled query's problems for a language ("" when it compiles). Used by
// tests to prove every embedded query compiles against its pinned grammar.
std::string query_error(lang::Language language);

// Compiles the language's queries now. They are compiled once per process,
// on first use otherwise (0.1-0.5 s for some languages): a daemon calls this
// for its tree's languages before its first request needs them.
void compile_queries(lang::Language language);

}  // namespace comp::parse
