#include "utf8/utf8.h"

#include <gtest/gtest.h>

namespace comp::utf8 {
namespace {

TEST(Utf8, WellFormedTextIsKept) {
  for (std::string_view text : {"", "plain ascii", "Gr\xC3\xBC\xC3\x9F" "e", "\xE6\x97\xA5\xE6\x9C\xAC", "\xF0\x9F\x98\x80",
                                "\xF4\x8F\xBF\xBF"}) {
    EXPECT_TRUE(valid(text)) << text;
    EXPECT_EQ(replace_invalid(text), text);
  }
}

// The WHATWG decoder's examples of maximal subparts (Unicode 16, table 3-8).
TEST(Utf8, EachMaximalSubpartBecomesOneReplacement) {
  const std::string r(kReplacement);
  EXPECT_FALSE(valid("\x80"));
  EXPECT_EQ(replace_invalid("a\x80" "b"), "a" + r + "b");
  EXPECT_EQ(replace_invalid("\xC0\xAF"), r + r);              // overlong lead: never valid
  EXPECT_EQ(replace_invalid("\xE0\x80\xAF"), r + r + r);      // E0 needs A0..BF next
  EXPECT_EQ(replace_invalid("\xED\xA0\x80"), r + r + r);      // surrogate
  EXPECT_EQ(replace_invalid("\xF4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
  EXPECT_EQ(replace_invalid("\xE6\x97"), r);                  // truncated: one subpart
  EXPECT_EQ(replace_invalid("\xF0\x9F\x98" "x"), r + "x");
  EXPECT_EQ(replace_invalid("\xF5\xFF"), r + r);
  std::size_t skip = 0;
  EXPECT_EQ(sequence("\xF0\x9F\x98\x80", 0, &skip), 4u);
  EXPECT_EQ(sequence("\xF0\x9F\x98", 0, &skip), 0u);
  EXPECT_EQ(skip, 3u);
  EXPECT_TRUE(valid(replace_invalid("\xFF\xFE\xE6\x97 \xED\xBF\xBF")));
}

TEST(Utf8, PrintableNamesAreNotQuoted) {
  for (std::string_view name : {"src/app.py", "docs/Gr\xC3\xBC\xC3\x9F" "e.md", "\xE6\x97\xA5\xE6\x9C\xAC/x.ts",
                                "a b/c'd.js", "emoji\xF0\x9F\x98\x80.rs", ""})
    EXPECT_EQ(quote_name(name), name);
}

// As git prints such names with core.quotePath=false (quote.c's sq_lookup).
TEST(Utf8, ControlCharactersAreEscapedAsGitDoes) {
  EXPECT_EQ(quote_name("new\nline.py"), "\"new\\nline.py\"");
  EXPECT_EQ(quote_name("tab\there\r"), "\"tab\\there\\r\"");
  EXPECT_EQ(quote_name("say \"hi\".md"), "\"say \\\"hi\\\".md\"");
  EXPECT_EQ(quote_name("back\\slash"), "\"back\\\\slash\"");
  EXPECT_EQ(quote_name("\a\b\v\f"), "\"\\a\\b\\v\\f\"");
  // An escape sequence that would clear the screen reaches no terminal.
  EXPECT_EQ(quote_name("x\x1b[2J.py"), "\"x\\033[2J.py\"");
  EXPECT_EQ(quote_name("del\x7f"), "\"del\\177\"");
  EXPECT_EQ(quote_name(std::string_view("nul\0x", 5)), "\"nul\\000x\"");
}

TEST(Utf8, C1ControlsBidiOverridesAndBadBytesAreEscapedOtherUtf8Kept) {
  EXPECT_EQ(quote_name("csi\xC2\x9B" "2J"), "\"csi\\302\\2332J\"");                    // U+009B
  EXPECT_EQ(quote_name("a\xE2\x80\xAE" "txt.exe"), "\"a\\342\\200\\256txt.exe\"");   // U+202E
  EXPECT_EQ(quote_name("\xE2\x81\xA6x"), "\"\\342\\201\\246x\"");                     // U+2066
  EXPECT_EQ(quote_name("bad\xFF.py"), "\"bad\\377.py\"");
  EXPECT_EQ(quote_name("\xC3\xA9\n\xC3\xA9"), "\"\xC3\xA9\\n\xC3\xA9\"");           // é kept as it is
  EXPECT_EQ(quote_name("\xE2\x80\x94"), "\xE2\x80\x94");                            // an em dash is printable
  EXPECT_EQ(quote_name("\xE6\x97"), "\"\\346\\227\"");                              // truncated sequence
}

TEST(Utf8, EscapeControlsKeepsQuotesAndEscapesWhatATerminalWouldObey) {
  EXPECT_EQ(escape_controls("def f(x=\"a\\\\b\")"), "def f(x=\"a\\\\b\")");  // quotes and backslashes kept
  EXPECT_EQ(escape_controls("import \"\x1b[2J\""), "import \"\\033[2J\"");
  EXPECT_EQ(escape_controls("two\nlines"), "two\\nlines");
  EXPECT_EQ(escape_controls("r\xE2\x80\xAEtl"), "r\\342\\200\\256tl");
  EXPECT_EQ(escape_controls("caf\xC3\xA9"), "caf\xC3\xA9");
}

}  // namespace
}  // namespace comp::utf8
