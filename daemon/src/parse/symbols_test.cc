#include "parse/symbols.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace comp::parse {
namespace {

using lang::Language;

const Symbol* find(const ParseResult& result, std::string_view scope) {
  for (const Symbol& symbol : result.symbols)
    if (symbol.scope == scope) return &symbol;
  return nullptr;
}

TEST(SymbolQueries, EveryLanguageQueryCompiles) {
  for (Language language : lang::all_languages())
    EXPECT_EQ(query_error(language), "") << lang::name(language);
}

TEST(ModulePath, DottedFromPath) {
  EXPECT_EQ(module_path("sympy/core/basic.py"), "sympy.core.basic");
  EXPECT_EQ(module_path("pkg/__init__.py"), "pkg");
  EXPECT_EQ(module_path("src/lib.rs"), "src.lib");
  EXPECT_EQ(module_path(".hidden"), ".hidden");
  EXPECT_EQ(module_path("bin/tool"), "bin.tool");
}

TEST(SymbolExtractor, PythonClassMethodsScopesAndPositions) {
  SymbolExtractor extractor;
  std::string source =
      "import os\n"
      "\n"
      "class Basic(object):\n"
      "    def __init__(self, x):\n"
      "        self.x = x\n"
      "\n"
      "    def _private(self):\n"
      "        def inner():\n"
      "            pass\n"
      "        return inner\n"
      "\n"
      "def top(a: int,\n"
      "        b: int) -> int:\n"
      "    return a + b\n";
  ParseResult result = extractor.extract(Language::kPython, source, "pkg/core.py");
  EXPECT_FALSE(result.has_syntax_errors);
  const Symbol* basic = find(result, "pkg.core.Basic");
  ASSERT_NE(basic, nullptr);
  EXPECT_EQ(basic->kind, "class");
  EXPECT_EQ(basic->line, 3u);
  EXPECT_EQ(basic->column, 1u);
  EXPECT_EQ(basic->end_line, 10u);
  EXPECT_EQ(basic->signature, "class Basic(object)");
  EXPECT_TRUE(basic->is_exported);
  const Symbol* init = find(result, "pkg.core.Basic.__init__");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->kind, "method");
  EXPECT_EQ(init->column, 5u);
  EXPECT_TRUE(init->is_exported);
  const Symbol* priv = find(result, "pkg.core.Basic._private");
  ASSERT_NE(priv, nullptr);
  EXPECT_FALSE(priv->is_exported);
  const Symbol* inner = find(result, "pkg.core.Basic._private.inner");
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->kind, "function");
  EXPECT_FALSE(inner->is_exported);
  const Symbol* top = find(result, "pkg.core.top");
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(top->signature, "def top(a: int, b: int) -> int");
  EXPECT_EQ(top->line, 12u);
  EXPECT_EQ(top->end_line, 14u);
}

TEST(SymbolExtractor, PythonAllListExportsPrivateNames) {
  SymbolExtractor extractor;
  ParseResult result = extractor.extract(Language::kPython,
                                         "__all__ = ['_helper']\ndef _helper(): pass\ndef _hidden(): pass\n", "m.py");
  ASSERT_NE(find(result, "m._helper"), nullptr);
  EXPECT_TRUE(find(result, "m._helper")->is_exported);
  EXPECT_FALSE(find(result, "m._hidden")->is_exported);
}

TEST(SymbolExtractor, SyntaxErrorsStillYieldSymbols) {
  SymbolExtractor extractor;
  ParseResult result = extractor.extract(Language::kPython, "def ok():\n    pass\n\ndef broken(:\n", "x.py");
  EXPECT_TRUE(result.has_syntax_errors);
  ASSERT_FALSE(result.errors.empty());
  EXPECT_NE(find(result, "x.ok"), nullptr);
}

// Legal files that are huge where the queries look: a name a megabyte long
// under a #match? predicate (std::regex recursed once per character and
// overflowed the stack), and 30,000 names declared in one declaration
// (each a match capturing the whole declaration: its predicate and head were
// evaluated once per name, over all of its children).
TEST(SymbolExtractor, HugeNamesAndDeclarationsAreExtracted) {
  SymbolExtractor extractor;
  std::string constant(1'000'000, 'A');
  ParseResult lua = extractor.extract(Language::kLua, "local " + constant + " = 1\n", "big.lua");
  ASSERT_EQ(lua.symbols.size(), 1u);
  EXPECT_EQ(lua.symbols[0].name.size(), constant.size());
  EXPECT_EQ(lua.symbols[0].kind, "constant");
  std::string declaration = "static const int x0 = 0";
  for (int i = 1; i < 30'000; ++i) declaration += ", x" + std::to_string(i);
  ParseResult cpp = extractor.extract(Language::kCpp, declaration + ";\nint after() { return 1; }\n", "big.cc");
  ASSERT_GE(cpp.symbols.size(), 30'001u);
  EXPECT_EQ(cpp.symbols[29'999].name, "x29999");
  EXPECT_EQ(cpp.symbols[29'999].signature, cpp.symbols[0].signature);
  EXPECT_EQ(cpp.symbols.back().name, "after");
}

// Generated code nests where written code never does. Definitions inside
// more than 100 others are left out with an error (each symbol carries its
// enclosing names: 20,000 nested functions made 1.8 GB of scopes); query
// matches start at most 1,000 nodes deep (the cursor's work grew with the
// square of the depth: 140 s for `f(f(f(...)))` 100,000 deep).
TEST(SymbolExtractor, DeeplyNestedCodeIsBounded) {
  SymbolExtractor extractor;
  std::string nested;
  for (int i = 0; i < 150; ++i) nested += "function level" + std::to_string(i) + "() {\n";
  nested += std::string(150, '}') + "\n";
  ParseResult functions = extractor.extract(Language::kJavaScript, nested, "deep.js");
  ASSERT_EQ(functions.symbols.size(), 100u);
  EXPECT_EQ(functions.symbols[99].name, "level99");
  ASSERT_FALSE(functions.errors.empty());
  EXPECT_NE(functions.errors.back().find("50 definitions nested over 100 deep left out"), std::string::npos)
      << functions.errors.back();

  std::string calls;
  for (int i = 0; i < 100'000; ++i) calls += "f(";
  calls = "const y = " + calls + std::string(100'000, ')') + ";\nfunction after() {}\n";
  ParseResult deep = extractor.extract(Language::kJavaScript, calls, "calls.js");
  ASSERT_EQ(deep.symbols.size(), 2u);
  EXPECT_EQ(deep.symbols[0].name, "y");
  EXPECT_EQ(deep.symbols[1].name, "after");
  // Written code's depth is far inside the limits: a method in a class in
  // callbacks forty deep is found, with its references.
  std::string callbacks;
  for (int i = 0; i < 40; ++i) callbacks += "describe(() => {\n";
  callbacks += "class Inner { run() { return helper(); } }\n";
  for (int i = 0; i < 40; ++i) callbacks += "});\n";
  ParseResult written = extractor.extract(Language::kJavaScript, callbacks, "spec.js");
  EXPECT_NE(find(written, "spec.Inner.run"), nullptr);
  EXPECT_TRUE(std::any_of(written.references.begin(), written.references.end(),
                          [](const Reference& ref) { return ref.name == "helper"; }));
}

TEST(SymbolExtractor, SignatureIsCappedAt200BytesOnACharacterBoundary) {
  SymbolExtractor extractor;
  std::string params;
  for (int i = 0; i < 100; ++i) params += "é" + std::to_string(i) + ", ";
  ParseResult result = extractor.extract(Language::kPython, "def f(" + params + "z):\n    pass\n", "x.py");
  ASSERT_EQ(result.symbols.size(), 1u);
  EXPECT_LE(result.symbols[0].signature.size(), 200u);
  unsigned char last = static_cast<unsigned char>(result.symbols[0].signature.back());
  EXPECT_TRUE(last < 0x80 || (last & 0xC0) == 0x80);  // never a dangling lead byte
  EXPECT_NE(static_cast<unsigned char>(result.symbols[0].signature.back()), 0xC3);
}

TEST(SymbolExtractor, GoExportedByCapital) {
  SymbolExtractor extractor;
  ParseResult result = extractor.extract(
      Language::kGo, "package p\n\nfunc Public() {}\nfunc private() {}\ntype T struct{}\nfunc (t *T) Do() {}\n", "p/p.go");
  ASSERT_NE(find(result, "p.p.Public"), nullptr);
  EXPECT_TRUE(find(result, "p.p.Public")->is_exported);
  EXPECT_FALSE(find(result, "p.p.private")->is_exported);
}

TEST(SymbolExtractor, EmptyAndGarbageInputNeverFail) {
  SymbolExtractor extractor;
  for (Language language : lang::all_languages()) {
    EXPECT_TRUE(extractor.extract(language, "", "empty").symbols.empty());
    std::string garbage = "\x01\xff}}}{{{((\"'\n\t\0zz";
    ParseResult result = extractor.extract(language, garbage, "garbage");
    (void)result;
  }
}

}  // namespace
}  // namespace comp::parse
