// Compression levels. Golden tests: every fixture under
// daemon/tests/compress/<language>/ is compressed at levels 1 and 2 and
// compared with the checked-in <fixture>.level1 / .level2 beside it. After an
// intended change, refresh the expectations with
//   COMP_UPDATE_GOLDEN=1 build/daemon/compress_test --gtest_filter='CompressGolden*'
// and review the diff.
//
// Property tests run over those fixtures and the parser's golden fixtures
// (daemon/tests/golden/): outputs re-parse with no new errors, every symbol
// survives (level 2: except those inside an elided body), sizes shrink by level.
//
// A real tree: COMP_COMPRESS_TREE=/path/to/repo[:/other/repo] compresses every
// file of a language comP knows and expects no re-parse failure; prints sizes
// and throughput.
#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "compress/compress.h"
#include "parse/symbols.h"

namespace comp::compress {
namespace {

namespace fs = std::filesystem;
using lang::Language;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct Fixture {
  Language language;
  fs::path source;
};

std::vector<Fixture> fixtures_under(const fs::path& root) {
  std::vector<Fixture> out;
  for (Language language : lang::all_languages()) {
    fs::path directory = root / std::string(lang::name(language));
    if (!fs::is_directory(directory)) continue;
    for (const auto& entry : fs::directory_iterator(directory)) {
      std::string extension = entry.path().extension().string();
      if (extension == ".level1" || extension == ".level2" || extension == ".symbols") continue;
      out.push_back({language, entry.path()});
    }
  }
  std::sort(out.begin(), out.end(), [](const Fixture& a, const Fixture& b) { return a.source < b.source; });
  return out;
}

fs::path compress_fixtures_root() { return fs::path(COMP_SOURCE_DIR) / "daemon" / "tests" / "compress"; }

std::vector<Fixture> compress_fixtures() { return fixtures_under(compress_fixtures_root()); }

// The compress fixtures plus the parser's golden fixtures: more code for the properties.
std::vector<Fixture> all_fixtures() {
  std::vector<Fixture> out = compress_fixtures();
  std::vector<Fixture> golden = fixtures_under(fs::path(COMP_SOURCE_DIR) / "daemon" / "tests" / "golden");
  out.insert(out.end(), golden.begin(), golden.end());
  return out;
}

// ERROR and MISSING nodes, counted independently of the library.
std::size_t syntax_errors(Language language, std::string_view text) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, lang::grammar(language));
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<std::uint32_t>(text.size()));
  std::size_t count = 0;
  std::vector<TSNode> stack{ts_tree_root_node(tree)};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    if (ts_node_is_error(node) || ts_node_is_missing(node)) ++count;
    if (!ts_node_has_error(node)) continue;
    for (std::uint32_t i = 0; i < ts_node_child_count(node); ++i) stack.push_back(ts_node_child(node, i));
  }
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return count;
}

// ---------------------------------------------------------------------------
// Golden outputs.

TEST(CompressGolden, EveryLanguageHasAFixture) {
  std::vector<Fixture> all = compress_fixtures();
  for (Language language : lang::all_languages()) {
    bool found = std::any_of(all.begin(), all.end(), [&](const Fixture& f) { return f.language == language; });
    EXPECT_TRUE(found) << "no compress fixture for " << lang::name(language);
  }
}

TEST(CompressGolden, OutputsMatchExpectations) {
  bool update = std::getenv("COMP_UPDATE_GOLDEN") != nullptr;
  for (const Fixture& fixture : compress_fixtures()) {
    std::string source = read_all(fixture.source);
    for (Level level : {Level::kNoComments, Level::kSkeleton}) {
      SCOPED_TRACE(fixture.source.string() + " level " + std::to_string(static_cast<int>(level)));
      Compressed result = compress(fixture.language, source, level);
      EXPECT_TRUE(result.errors.empty()) << result.errors.front();
      fs::path expected_path = fixture.source;
      expected_path += level == Level::kNoComments ? ".level1" : ".level2";
      if (update) {
        std::ofstream(expected_path, std::ios::binary) << result.text;
        continue;
      }
      ASSERT_TRUE(fs::exists(expected_path)) << "missing " << expected_path << ": run with COMP_UPDATE_GOLDEN=1";
      EXPECT_EQ(read_all(expected_path), result.text);
    }
  }
}

// ---------------------------------------------------------------------------
// Properties over every fixture.

TEST(CompressProperties, OutputsReparseWithoutNewErrors) {
  for (const Fixture& fixture : all_fixtures()) {
    std::string source = read_all(fixture.source);
    std::size_t input_errors = syntax_errors(fixture.language, source);
    for (Level level : {Level::kNoComments, Level::kSkeleton}) {
      SCOPED_TRACE(fixture.source.string() + " level " + std::to_string(static_cast<int>(level)));
      Compressed result = compress(fixture.language, source, level);
      EXPECT_TRUE(result.reparsed_clean);
      EXPECT_EQ(result.level, level);
      EXPECT_TRUE(result.errors.empty()) << result.errors.front();
      EXPECT_LE(syntax_errors(fixture.language, result.text), input_errors);
    }
  }
}

TEST(CompressProperties, SizesShrinkByLevel) {
  for (const Fixture& fixture : all_fixtures()) {
    SCOPED_TRACE(fixture.source.string());
    std::string source = read_all(fixture.source);
    Compressed raw = compress(fixture.language, source, Level::kRaw);
    Compressed one = compress(fixture.language, source, Level::kNoComments);
    Compressed two = compress(fixture.language, source, Level::kSkeleton);
    EXPECT_EQ(raw.text, source);
    EXPECT_LE(one.text.size(), source.size());
    EXPECT_LE(two.text.size(), one.text.size());
    if (fixture.language != Language::kHtml) { EXPECT_FALSE(two.elided.empty()) << "no body elided"; }
  }
}

bool inside(const Compressed& result, const parse::Symbol& symbol) {
  return std::any_of(result.elided.begin(), result.elided.end(), [&](const auto& range) {
    return symbol.start_byte >= range.first && symbol.end_byte <= range.second;
  });
}

std::string describe(const parse::Symbol& symbol) { return symbol.kind + " " + symbol.scope; }

// Signatures without a body field keep their first line, which may now hold
// the placeholder (`var h = func() { /* ... */ }`): compare without it.
std::string head(std::string signature) {
  for (std::string_view placeholder : {"{ /* ... */ }", "{ :; }"}) {
    std::size_t at = signature.find(placeholder);
    if (at != std::string::npos) signature.resize(at);
  }
  while (!signature.empty() && std::string_view("{:=; ").find(signature.back()) != std::string_view::npos)
    signature.pop_back();
  return signature;
}

// Level 1 keeps every symbol (name, kind, scope); level 2 keeps every symbol
// that is not inside an elided body, with level 1's signature.
TEST(CompressProperties, SymbolsSurvive) {
  parse::SymbolExtractor extractor;
  for (const Fixture& fixture : all_fixtures()) {
    SCOPED_TRACE(fixture.source.string());
    std::string source = read_all(fixture.source);
    std::string relative = std::string(lang::name(fixture.language)) + "/" + fixture.source.filename().string();
    Compressed one = compress(fixture.language, source, Level::kNoComments);
    Compressed two = compress(fixture.language, source, Level::kSkeleton);
    std::vector<parse::Symbol> s0 = extractor.extract(fixture.language, source, relative).symbols;
    std::vector<parse::Symbol> s1 = extractor.extract(fixture.language, one.text, relative).symbols;
    std::vector<parse::Symbol> s2 = extractor.extract(fixture.language, two.text, relative).symbols;
    ASSERT_EQ(s0.size(), s1.size());
    std::vector<std::string> expected, actual;
    std::vector<std::string> expected_signatures, actual_signatures;
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < s0.size(); ++i) {
      EXPECT_EQ(describe(s0[i]), describe(s1[i]));
      EXPECT_EQ(s0[i].name, s1[i].name);
      if (inside(two, s0[i])) {
        ++dropped;
        continue;
      }
      expected.push_back(describe(s0[i]));
      expected_signatures.push_back(head(s1[i].signature));
    }
    for (const parse::Symbol& symbol : s2) {
      actual.push_back(describe(symbol));
      actual_signatures.push_back(head(symbol.signature));
    }
    EXPECT_EQ(expected, actual);
    EXPECT_EQ(expected_signatures, actual_signatures);
    // What disappears was defined inside a function-like symbol.
    for (const parse::Symbol& symbol : s0) {
      if (!inside(two, symbol)) continue;
      bool in_function = false;
      for (int p = symbol.parent; p >= 0 && !in_function; p = s0[static_cast<std::size_t>(p)].parent) {
        const std::string& kind = s0[static_cast<std::size_t>(p)].kind;
        in_function = kind == "function" || kind == "method" || kind == "constructor" || kind == "variable" ||
                      kind == "constant" || kind == "field" || kind == "property";
      }
      EXPECT_TRUE(in_function) << describe(symbol) << " dropped though not inside a function";
    }
    (void)dropped;
  }
}

// ---------------------------------------------------------------------------
// Unit cases.

std::string level1(Language language, std::string_view source) {
  Compressed result = compress(language, source, Level::kNoComments);
  EXPECT_TRUE(result.errors.empty()) << result.errors.front();
  return result.text;
}

std::string level2(Language language, std::string_view source) {
  Compressed result = compress(language, source, Level::kSkeleton);
  EXPECT_TRUE(result.errors.empty()) << result.errors.front();
  return result.text;
}

TEST(Compress, RawIsTheInput) {
  std::string source = "int x; // c\n\n\n";
  Compressed result = compress(Language::kC, source, Level::kRaw);
  EXPECT_EQ(result.text, source);
  EXPECT_EQ(result.level, Level::kRaw);
  EXPECT_TRUE(result.reparsed_clean);
}

TEST(Compress, CommentLookalikesInStringsStay) {
  EXPECT_EQ(level1(Language::kPython, "x = '# no'  # yes\n"), "x = '# no'\n");
  EXPECT_EQ(level1(Language::kJavaScript, "const a = `// no\n${b /* yes */}`; // yes\nconst r = /\\/\\/x/;\n"),
            "const a = `// no\n${b /* yes */}`;\nconst r = /\\/\\/x/;\n");
  EXPECT_EQ(level1(Language::kRuby, "x = <<~T\n  # no\nT\n# yes\ny = 1\n"), "x = <<~T\n  # no\nT\ny = 1\n");
  EXPECT_EQ(level1(Language::kBash, "cat <<E\n# no\nE\necho a#b # yes\n"), "cat <<E\n# no\nE\necho a#b\n");
  EXPECT_EQ(level1(Language::kCpp, "auto s = R\"(// no)\"; // yes\n"), "auto s = R\"(// no)\";\n");
  EXPECT_EQ(level1(Language::kLua, "s = [[-- no]] -- yes\n"), "s = [[-- no]]\n");
}

TEST(Compress, WhitespaceInsideStringsStays) {
  std::string python = "s = \"\"\"a   \n\n\n\nb\"\"\"   \n\n\n\nx = 1\n";
  EXPECT_EQ(level1(Language::kPython, python), "s = \"\"\"a   \n\n\n\nb\"\"\"\n\nx = 1\n");
  std::string go = "package p\n\nvar s = `a  \n\n\nb`\n";
  EXPECT_EQ(level1(Language::kGo, go), go);
}

TEST(Compress, BlankLinesAndTrailingWhitespace) {
  EXPECT_EQ(level1(Language::kC, "\n\n// head\n\nint a;   \n\n\n\nint b;\t\n\n\n"), "int a;\n\nint b;\n");
  EXPECT_EQ(level1(Language::kC, "int a; /* x */\r\n\r\n\r\nint b;\r\n"), "int a;\r\n\r\nint b;\r\n");
  EXPECT_EQ(level1(Language::kC, "int a;"), "int a;");
  EXPECT_EQ(level1(Language::kJavaScript, "a(); // x\r\n// y\r\nb();\r\n"), "a();\r\nb();\r\n");
}

TEST(Compress, CommentsBetweenTokens) {
  EXPECT_EQ(level1(Language::kC, "int/**/x;\n"), "int x;\n");
  EXPECT_EQ(level1(Language::kC, "f(/* a */ 1, /* b */2);\n"), "f(1, 2);\n");
  // A block comment spanning lines ends a statement in JS: the line break stays.
  EXPECT_EQ(level1(Language::kJavaScript, "let a = 1 /*\n*/ let b = 2\n"), "let a = 1\n let b = 2\n");
  // A comment before code on its line: the code keeps the indentation.
  EXPECT_EQ(level1(Language::kC, "  /* a */ int x;\n"), "  int x;\n");
  EXPECT_EQ(level1(Language::kC, "  /* a\n     b */ int x;\n"), "  int x;\n");
  EXPECT_EQ(level1(Language::kTsx, "const e = <div>\n  {/* note */}\n  <p/>\n</div>;\n"),
            "const e = <div>\n  <p/>\n</div>;\n");
}

TEST(Compress, DirectivesStay) {
  EXPECT_EQ(level1(Language::kPython, "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\n# note\nx = []  # type: list\n"),
            "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nx = []  # type: list\n");
  EXPECT_EQ(level1(Language::kGo, "//go:build linux\n\n// Doc.\npackage p\n\n//go:embed x\nvar s string\n"),
            "//go:build linux\n\npackage p\n\n//go:embed x\nvar s string\n");
  EXPECT_EQ(level1(Language::kGo, "package p\n\n// #include <a.h>\nimport \"C\"\n\n// x\nimport \"fmt\"\n"),
            "package p\n\n// #include <a.h>\nimport \"C\"\n\nimport \"fmt\"\n");
  EXPECT_EQ(level1(Language::kTypeScript, "/// <reference path=\"a.d.ts\" />\n// @ts-expect-error\nx();\n// plain\n"),
            "/// <reference path=\"a.d.ts\" />\n// @ts-expect-error\nx();\n");
  EXPECT_EQ(level1(Language::kRuby, "# frozen_string_literal: true\n# doc\nX = 1\n"), "# frozen_string_literal: true\nX = 1\n");
  EXPECT_EQ(level1(Language::kBash, "#!/bin/sh\n# doc\necho\n"), "#!/bin/sh\necho\n");
  EXPECT_EQ(level1(Language::kRust, "//! crate doc\n/// item doc\nfn f() {}\n"), "fn f() {}\n");
}

TEST(Compress, PythonBodies) {
  std::string source =
      "class A:\n"
      "    '''Class doc.'''\n"
      "    x: int = 1\n"
      "\n"
      "    @property\n"
      "    def long(self) -> int:\n"
      "        \"\"\"\n"
      "        Summary line.\n"
      "\n"
      "        More.\n"
      "        \"\"\"\n"
      "        def inner():\n"
      "            return 2\n"
      "        return inner() + self.x\n"
      "\n"
      "    def short(self): return 1\n"
      "\n"
      "    def stub(self) -> None: ...\n";
  EXPECT_EQ(level2(Language::kPython, source),
            "class A:\n"
            "    '''Class doc.'''\n"
            "    x: int = 1\n"
            "\n"
            "    @property\n"
            "    def long(self) -> int:\n"
            "        \"\"\"Summary line.\"\"\"\n"
            "        ...\n"
            "\n"
            "    def short(self): return 1\n"
            "\n"
            "    def stub(self) -> None: ...\n");
}

// The functions a task is about keep their bodies (comments still go);
// the rest is the skeleton, and the whole still parses.
TEST(Compress, KeptLinesKeepTheirBodies) {
  std::string source =
      "class Cart:\n"
      "    def add(self, item):\n"
      "        self.items.append(item)  # one more\n"
      "        return self\n"
      "\n"
      "    def total(self):\n"
      "        # the sum of prices\n"
      "        return sum(i.price for i in self.items)\n"
      "\n"
      "    def clear(self):\n"
      "        self.items = []\n"
      "        return self\n";
  Options options;
  options.keep_lines = {{7, 7}};  // a line inside total()
  Compressed kept = compress(Language::kPython, source, Level::kSkeleton, options);
  EXPECT_EQ(kept.level, Level::kSkeleton);
  EXPECT_EQ(kept.text,
            "class Cart:\n"
            "    def add(self, item):\n"
            "        ...\n"
            "\n"
            "    def total(self):\n"
            "        return sum(i.price for i in self.items)\n"
            "\n"
            "    def clear(self):\n"
            "        ...\n");
  EXPECT_TRUE(kept.reparsed_clean);
  // A range over the class keeps every method inside it.
  options.keep_lines = {{1, 12}};
  EXPECT_EQ(compress(Language::kPython, source, Level::kSkeleton, options).text,
            compress(Language::kPython, source, Level::kNoComments).text);
  // TypeScript: a kept method inside an elided-elsewhere class.
  std::string ts = "class A {\n  m(): number {\n    return 1 + 2;\n  }\n  n(): number {\n    return 3 + 4;\n  }\n}\n";
  options.keep_lines = {{5, 7}};
  EXPECT_EQ(compress(Language::kTypeScript, ts, Level::kSkeleton, options).text,
            "class A {\n  m(): number { /* ... */ }\n  n(): number {\n    return 3 + 4;\n  }\n}\n");
}

TEST(Compress, BodyForms) {
  EXPECT_EQ(level2(Language::kRust, "fn f(x: u32) -> u32 {\n    x.pow(2) + 1\n}\n"), "fn f(x: u32) -> u32 { /* ... */ }\n");
  EXPECT_EQ(level2(Language::kGo, "package p\n\nfunc f() int {\n\treturn g() + 1\n}\n"),
            "package p\n\nfunc f() int { /* ... */ }\n");
  EXPECT_EQ(level2(Language::kRuby, "def f(a)\n  a + 1\nend\n"), "def f(a)\nend\n");
  EXPECT_EQ(level2(Language::kLua, "local function f(a)\n  return a + 1\nend\n"), "local function f(a)\nend\n");
  EXPECT_EQ(level2(Language::kBash, "f() {\n  echo hi\n}\n"), "f() { :; }\n");
  // Short one-line bodies say as much as the placeholder: kept.
  EXPECT_EQ(level2(Language::kJava, "class A { int f() { return 1; } }\n"), "class A { int f() { return 1; } }\n");
  // Lambdas: elided when assigned; as arguments only when their body spans more than 3 lines.
  EXPECT_EQ(level2(Language::kJavaScript, "const f = () => {\n  go(1, 2);\n};\ncall(() => {\n  go(1, 2);\n});\n"),
            "const f = () => { /* ... */ };\ncall(() => {\n  go(1, 2);\n});\n");
  // Class bodies stay; a nested class inside a function body goes with it.
  EXPECT_EQ(level2(Language::kTypeScript,
                   "class A {\n  m(): void {\n    class B {}\n    run(new B());\n  }\n}\n"),
            "class A {\n  m(): void { /* ... */ }\n}\n");
}

TEST(Compress, CallbackArguments) {
  // Test blocks and handlers: the call and its other arguments stay; nested callbacks go with their parent.
  std::string source =
      "describe('renders', () => {\n"
      "  it('a', () => {\n"
      "    expect(1).toBe(1);\n"
      "    expect(2).toBe(2);\n"
      "  });\n"
      "});\n"
      "app.get('/', function (req, res) {\n"
      "  res.send(1);\n"
      "  res.end();\n"
      "});\n"
      "short(x => {\n"
      "  go(x);\n"
      "});\n";
  Compressed out = compress(Language::kTypeScript, source, Level::kSkeleton);
  EXPECT_EQ(out.text,
            "describe('renders', () => { /* ... */ });\n"
            "app.get('/', function (req, res) { /* ... */ });\n"
            "short(x => {\n"
            "  go(x);\n"
            "});\n");
  ASSERT_EQ(out.elided.size(), 2u);
  EXPECT_EQ(source.substr(out.elided[0].first, 1), "{");
  EXPECT_EQ(out.elided[0].second, source.find(");\napp"));
  EXPECT_EQ(level2(Language::kJava,
                   "class A {\n  void f() {}\n  static { run(() -> {\n    a();\n    b();\n    c();\n  }); }\n}\n"),
            "class A {\n  void f() {}\n  static { /* ... */ }\n}\n");
  EXPECT_EQ(level2(Language::kGo, "package p\n\nvar _ = run(func() {\n\ta()\n\tb()\n\tc()\n})\n"),
            "package p\n\nvar _ = run(func() { /* ... */ })\n");
}

std::string numbered(const std::string& open, const std::string& close, int count, const std::string& indent) {
  std::string out = open + "\n";
  for (int i = 0; i < count; ++i) out += indent + std::to_string(i) + ",\n";
  return out + close;
}

TEST(Compress, LargeLiteralData) {
  // JS/TS: the first 3 elements stay, a comment counts the rest; the trailing comma stays valid.
  std::string ts = "export const TABLE = " + numbered("[", "];\n", 30, "  ") + "const small = [1, 2, 3];\n";
  Compressed out = compress(Language::kTypeScript, ts, Level::kSkeleton);
  EXPECT_EQ(out.text, "export const TABLE = [\n  0,\n  1,\n  2 /* ... 27 more */,\n];\nconst small = [1, 2, 3];\n");
  ASSERT_EQ(out.elided.size(), 1u);
  EXPECT_EQ(ts.substr(out.elided[0].first, 3), ",\n ");
  // Objects with methods are code, not data: kept (their method bodies go as before).
  std::string object = "export default {\n";
  for (int i = 0; i < 25; ++i) object += "  k" + std::to_string(i) + ": " + std::to_string(i) + ",\n";
  object += "  m() {\n    return 1;\n  },\n};\n";
  EXPECT_EQ(level2(Language::kJavaScript, object).find("more"), std::string::npos);
  // Passed to a call: cut too (Python: `Table("v", [...])`).
  EXPECT_EQ(level2(Language::kPython, "t = Table(\"v\", " + numbered("[", "])\n", 30, "    ")),
            "t = Table(\"v\", [\n    0,\n    1,\n    2,\n    # ... 27 more\n])\n");
  // Elsewhere (an arrow function's value, a return value): kept.
  EXPECT_EQ(level2(Language::kJavaScript, "x = () => " + numbered("[", "];\n", 30, "  ")).find("more"), std::string::npos);
  // Python: the comment gets its own line, the closing bracket stays.
  EXPECT_EQ(level2(Language::kPython, "X = " + numbered("{", "}\n", 30, "    ")),
            "X = {\n    0,\n    1,\n    2,\n    # ... 27 more\n}\n");
  std::string inline_close = "X = (\n";
  for (int i = 0; i < 30; ++i) inline_close += "    " + std::to_string(i) + (i == 29 ? ")\n" : ",\n");
  EXPECT_EQ(level2(Language::kPython, inline_close), "X = (\n    0,\n    1,\n    2,\n    # ... 27 more\n)\n");
  std::string nested = "D = {\n";
  for (int i = 0; i < 30; ++i) nested += "    'k" + std::to_string(i) + "': [1, 2],\n";
  nested += "}\n";
  EXPECT_EQ(level2(Language::kPython, nested), "D = {\n    'k0': [1, 2],\n    'k1': [1, 2],\n    'k2': [1, 2],\n    # ... 27 more\n}\n");
  EXPECT_EQ(level2(Language::kGo, "package p\n\nvar x = []int" + numbered("{", "}\n", 30, "\t")),
            "package p\n\nvar x = []int{\n\t0,\n\t1,\n\t2 /* ... 27 more */,\n}\n");
}

TEST(Compress, HtmlComments) {
  EXPECT_EQ(level1(Language::kHtml, "<p>a</p>\n<!-- c -->\n<pre>  x  \n\n\n y</pre>\n"),
            "<p>a</p>\n<pre>  x  \n\n\n y</pre>\n");
  std::string html = "<p>a <!-- c --> b</p>\n";
  EXPECT_EQ(level2(Language::kHtml, html), level1(Language::kHtml, html));
}

TEST(Compress, VerifyCanBeTurnedOff) {
  Options options;
  options.verify = false;
  Compressed result = compress(Language::kC, "int f() {\n  return 1 + 2 + 3 + 4;\n}\n", Level::kSkeleton, options);
  EXPECT_EQ(result.text, "int f() { /* ... */ }\n");
  EXPECT_TRUE(result.reparsed_clean);
}

TEST(Compress, BrokenInputStillCompresses) {
  // Input errors are the baseline: the output may not add to them.
  std::string source = "int f( {\n  // c\n  return 1;\n}\n";
  Compressed result = compress(Language::kC, source, Level::kNoComments);
  EXPECT_LE(syntax_errors(Language::kC, result.text), syntax_errors(Language::kC, source));
  EXPECT_EQ(result.text.find("// c"), std::string::npos);
}

TEST(Compress, FallsBackWhenOutputParsesWorse) {
  // Broken input (found by mutating a fixture): without the comment, error
  // recovery ends up with more ERROR nodes; the input is returned instead.
  std::string source =
      "public class S<T> : I<T> where T : class\n"
      "{\n"
      "    private const string V = @// not a comment   \n"
      "second line\";\n"
      "    private static readonly Func<int, int> Twice = x =>\n"
      "    {\n";
  Compressed one = compress(Language::kCSharp, source, Level::kNoComments);
  EXPECT_FALSE(one.reparsed_clean);
  EXPECT_EQ(one.level, Level::kRaw);
  EXPECT_EQ(one.text, source);
  ASSERT_EQ(one.errors.size(), 1u);
  EXPECT_EQ(one.errors[0].rfind("csharp level 1: output parses with", 0), 0u) << one.errors[0];
  Compressed two = compress(Language::kCSharp, source, Level::kSkeleton);
  EXPECT_FALSE(two.reparsed_clean);
  EXPECT_EQ(two.level, Level::kRaw);
  EXPECT_EQ(two.errors.size(), 2u);
  Options unchecked;
  unchecked.verify = false;
  EXPECT_NE(compress(Language::kCSharp, source, Level::kNoComments, unchecked).text, source);
}

TEST(Compress, FallsBackWhenErrorRecoveryLosesADefinition) {
  // A zsh completion file read with the bash grammar: `$+functions[...]`
  // is a syntax error, and in the skeleton error recovery reads the second
  // function as something else, with no more ERROR nodes than the input.
  std::string source =
      "#compdef tool\n"
      "\n"
      "_tool() {\n"
      "  local -a args\n"
      "  args=( '--colour=[pick colours]: :_tool_colours' )\n"
      "  _arguments -s : $args\n"
      "}\n"
      "\n"
      "# colours\n"
      "(( $+functions[_tool_colours] )) ||\n"
      "_tool_colours() {\n"
      "  local tag=colours\n"
      "  if compset -P '[^:]##:(bg|fg):'; then\n"
      "    _describe -t $tag 'colour' '( black white )'\n"
      "  fi\n"
      "}\n";
  parse::SymbolExtractor extractor;
  auto functions = [&](const std::string& text) {
    std::vector<std::string> names;
    for (const parse::Symbol& symbol : extractor.extract(Language::kBash, text, "tool.zsh").symbols)
      if (symbol.kind == "function") names.push_back(symbol.name);
    return names;
  };
  ASSERT_GT(syntax_errors(Language::kBash, source), 0u);
  const std::vector<std::string> defined = {"_tool", "_tool_colours"};
  ASSERT_EQ(functions(source), defined);
  Options unchecked;
  unchecked.verify = false;
  Compressed blind = compress(Language::kBash, source, Level::kSkeleton, unchecked);
  ASSERT_EQ(blind.level, Level::kSkeleton);
  ASSERT_NE(functions(blind.text), defined);  // what the check is for
  ASSERT_LE(syntax_errors(Language::kBash, blind.text), syntax_errors(Language::kBash, source));

  Compressed two = compress(Language::kBash, source, Level::kSkeleton);
  EXPECT_FALSE(two.reparsed_clean);
  EXPECT_EQ(two.level, Level::kNoComments);
  ASSERT_EQ(two.errors.size(), 1u);
  EXPECT_EQ(two.errors[0], "bash level 2: output defines 1 of 2 definitions (the input has syntax errors); level 1 used");
  EXPECT_EQ(functions(two.text), defined);
  EXPECT_EQ(two.text.find("# colours"), std::string::npos);  // level 1 still strips comments
  EXPECT_TRUE(two.elided.empty());
}

TEST(Compress, TimeoutReturnsTheInput) {
  std::string source;
  for (int i = 0; i < 200000; ++i) source += "int f" + std::to_string(i) + "(void) { return " + std::to_string(i) + "; } // c\n";
  Options options;
  options.timeout_ms = 1;
  Compressed result = compress(Language::kC, source, Level::kSkeleton, options);
  EXPECT_EQ(result.level, Level::kRaw);
  EXPECT_EQ(result.text, source);
  EXPECT_FALSE(result.reparsed_clean);
  ASSERT_FALSE(result.errors.empty());
  EXPECT_NE(result.errors[0].find("timed out"), std::string::npos);
}

TEST(Compress, SliceLines) {
  std::string text = "a\nb\nc\n";
  EXPECT_EQ(slice_lines(text, 1, 1), "a\n");
  EXPECT_EQ(slice_lines(text, 2, 3), "b\nc\n");
  EXPECT_EQ(slice_lines(text, 2, 99), "b\nc\n");
  EXPECT_EQ(slice_lines(text, 0, 1), "a\n");
  EXPECT_EQ(slice_lines(text, 3, 2), "");
  EXPECT_EQ(slice_lines(text, 4, 5), "");
  EXPECT_EQ(slice_lines("x\ny", 2, 2), "y");
}

// ---------------------------------------------------------------------------
// A real tree.

struct Totals {
  std::size_t files = 0, failures = 0, bytes = 0, l1 = 0, l2 = 0, elided = 0;
  double seconds_parse = 0, seconds_l1 = 0, seconds_l2 = 0, seconds_l2_unverified = 0;
};

void compress_tree(const fs::path& root, Totals& totals, std::map<std::string, Totals>& by_language) {
  parse::SymbolExtractor extractor;
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  std::size_t printed = 0;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied);
       it != fs::recursive_directory_iterator(); ++it) {
    std::string name = it->path().filename().string();
    if (it->is_directory() && !it->is_symlink() && (name.starts_with(".") || name == "node_modules")) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || it->is_symlink()) continue;
    std::string relative = fs::relative(it->path(), root).string();
    std::string source = read_all(it->path());
    if (source.size() > 4 * 1024 * 1024) continue;
    auto language = lang::detect(relative, std::string_view(source).substr(0, lang::kDetectHeadBytes));
    if (!language) continue;
    Totals& lt = by_language[std::string(lang::name(*language))];
    auto start = Clock::now();
    extractor.parse_only(*language, source);
    double parse = seconds_since(start);
    start = Clock::now();
    Compressed one = compress(*language, source, Level::kNoComments);
    double l1 = seconds_since(start);
    start = Clock::now();
    Compressed two = compress(*language, source, Level::kSkeleton);
    double l2 = seconds_since(start);
    Options unverified;
    unverified.verify = false;
    start = Clock::now();
    Compressed fast = compress(*language, source, Level::kSkeleton, unverified);
    double l2_fast = seconds_since(start);
    if (two.reparsed_clean) {
      EXPECT_EQ(fast.text, two.text) << relative;
    }
    for (Totals* t : {&totals, &lt}) {
      ++t->files;
      t->bytes += source.size();
      t->l1 += one.text.size();
      t->l2 += two.text.size();
      t->elided += two.elided.size();
      t->seconds_parse += parse;
      t->seconds_l1 += l1;
      t->seconds_l2 += l2;
      t->seconds_l2_unverified += l2_fast;
    }
    for (const Compressed* result : {&one, &two}) {
      if (result->reparsed_clean && result->errors.empty()) continue;
      for (Totals* t : {&totals, &lt}) ++t->failures;
      if (printed++ < 30) ADD_FAILURE() << relative << ": " << (result->errors.empty() ? "?" : result->errors.front());
    }
  }
}

std::string report_line(const std::string& label, const Totals& t) {
  auto mb = [](double bytes) { return bytes / (1024.0 * 1024.0); };
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << label << ": " << t.files << " files, " << t.failures << " failures, " << mb(static_cast<double>(t.bytes))
      << " MB -> L1 " << mb(static_cast<double>(t.l1)) << " MB ("
      << 100.0 * static_cast<double>(t.l1) / std::max<double>(1, static_cast<double>(t.bytes)) << "%) -> L2 "
      << mb(static_cast<double>(t.l2)) << " MB ("
      << 100.0 * static_cast<double>(t.l2) / std::max<double>(1, static_cast<double>(t.bytes)) << "%), "
      << t.elided << " bodies; MB/s: parse only " << mb(static_cast<double>(t.bytes)) / t.seconds_parse << ", L1 "
      << mb(static_cast<double>(t.bytes)) / t.seconds_l1 << ", L2 " << mb(static_cast<double>(t.bytes)) / t.seconds_l2
      << ", L2 unverified " << mb(static_cast<double>(t.bytes)) / t.seconds_l2_unverified;
  return out.str();
}

TEST(CompressTree, RealTreeReparsesClean) {
  const char* env = std::getenv("COMP_COMPRESS_TREE");
  if (!env || !*env) GTEST_SKIP() << "set COMP_COMPRESS_TREE to a source tree";
  std::string list = env;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t colon = list.find(':', pos);
    if (colon == std::string::npos) colon = list.size();
    fs::path root = list.substr(pos, colon - pos);
    pos = colon + 1;
    if (root.empty()) continue;
    ASSERT_TRUE(fs::is_directory(root)) << root;
    Totals totals;
    std::map<std::string, Totals> by_language;
    compress_tree(root, totals, by_language);
    std::cout << report_line(root.string(), totals) << "\n";
    for (const auto& [language, t] : by_language) std::cout << "  " << report_line(language, t) << "\n";
    EXPECT_EQ(totals.failures, 0u) << root;
  }
}

}  // namespace
}  // namespace comp::compress
