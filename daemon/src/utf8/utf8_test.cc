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

}  // namespace
}  // namespace comp::utf8
