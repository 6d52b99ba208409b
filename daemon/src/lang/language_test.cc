#include "lang/language.h"

#include <gtest/gtest.h>

namespace comp::lang {
namespace {

TEST(LanguageDetect, ByExtension) {
  EXPECT_EQ(detect("src/lib.rs", ""), Language::kRust);
  EXPECT_EQ(detect("a/b.ts", ""), Language::kTypeScript);
  EXPECT_EQ(detect("a/b.d.ts", ""), Language::kTypeScript);
  EXPECT_EQ(detect("a/b.tsx", ""), Language::kTsx);
  EXPECT_EQ(detect("x.mjs", ""), Language::kJavaScript);
  EXPECT_EQ(detect("x.cjs", ""), Language::kJavaScript);
  EXPECT_EQ(detect("x.jsx", ""), Language::kJavaScript);
  EXPECT_EQ(detect("pkg/__init__.py", ""), Language::kPython);
  EXPECT_EQ(detect("main.go", ""), Language::kGo);
  EXPECT_EQ(detect("index.html", ""), Language::kHtml);
  EXPECT_EQ(detect("A.java", ""), Language::kJava);
  EXPECT_EQ(detect("x.c", ""), Language::kC);
  EXPECT_EQ(detect("x.h", ""), Language::kC);
  EXPECT_EQ(detect("x.C", ""), Language::kCpp);
  EXPECT_EQ(detect("x.hpp", ""), Language::kCpp);
  EXPECT_EQ(detect("x.cs", ""), Language::kCSharp);
  EXPECT_EQ(detect("Rakefile", ""), Language::kRuby);
  EXPECT_EQ(detect("x.php", ""), Language::kPhp);
  EXPECT_EQ(detect("build.gradle.kts", ""), Language::kKotlin);
  EXPECT_EQ(detect("x.swift", ""), Language::kSwift);
  EXPECT_EQ(detect("x.lua", ""), Language::kLua);
  EXPECT_EQ(detect("x.sh", ""), Language::kBash);
}

TEST(LanguageDetect, HeaderIsCppWhenItLooksLikeCpp) {
  EXPECT_EQ(detect("x.h", "#ifndef X_H\n#define X_H\nint f(void);\n#endif\n"), Language::kC);
  EXPECT_EQ(detect("x.h", "#include <stdio.h>\nstruct s { int a; };\n"), Language::kC);
  EXPECT_EQ(detect("x.h", "#pragma once\nnamespace comp {\n}\n"), Language::kCpp);
  EXPECT_EQ(detect("x.h", "#include <string>\nint f();\n"), Language::kCpp);
  EXPECT_EQ(detect("x.h", "class Widget {\n public:\n};\n"), Language::kCpp);
  EXPECT_EQ(detect("x.h", ""), Language::kC);
}

TEST(LanguageDetect, UnknownExtensionIsNotSniffed) {
  EXPECT_EQ(detect("README.md", "#!/bin/bash\n"), std::nullopt);
  EXPECT_EQ(detect("data.json", ""), std::nullopt);
  EXPECT_EQ(detect("Makefile", ""), std::nullopt);
}

TEST(LanguageDetect, ByShebang) {
  EXPECT_EQ(detect("bin/tool", "#!/usr/bin/env python3\nprint(1)\n"), Language::kPython);
  EXPECT_EQ(detect("bin/tool", "#!/usr/bin/python3.11 -u\n"), Language::kPython);
  EXPECT_EQ(detect("bin/tool", "#!/bin/bash\n"), Language::kBash);
  EXPECT_EQ(detect("bin/tool", "#!/usr/bin/env -S node --no-warnings\n"), Language::kJavaScript);
  EXPECT_EQ(detect("bin/tool", "#!/usr/bin/env perl\n"), std::nullopt);
  EXPECT_EQ(detect("bin/tool", "no shebang"), std::nullopt);
  EXPECT_EQ(detect(".hidden", "#!/bin/sh"), Language::kBash);
}

TEST(LanguageNames, RoundTrip) {
  ASSERT_EQ(all_languages().size(), 17u);
  for (Language language : all_languages()) {
    EXPECT_EQ(from_name(name(language)), language);
    EXPECT_NE(grammar(language), nullptr) << name(language);
  }
  EXPECT_EQ(from_name("cobol"), std::nullopt);
}

TEST(LanguageQueries, UpstreamTagsEmbeddedWhereShipped) {
  for (Language language : {Language::kRust, Language::kTypeScript, Language::kPython, Language::kGo,
                            Language::kJava, Language::kC, Language::kCpp, Language::kCSharp,
                            Language::kRuby, Language::kPhp, Language::kSwift, Language::kLua}) {
    EXPECT_NE(symbol_query_source(language).upstream.find("@definition"), std::string_view::npos)
        << name(language);
  }
  // TypeScript's query is JavaScript's followed by its own.
  EXPECT_NE(symbol_query_source(Language::kTypeScript).upstream.find("method_definition"), std::string_view::npos);
}

}  // namespace
}  // namespace comp::lang
