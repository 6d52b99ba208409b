#include "regex/regex.h"

#include <gtest/gtest.h>

#include <string>

namespace comp::regex {
namespace {

std::vector<std::string> all_of(const Regex& regex, std::string_view subject, std::size_t group = 0) {
  std::vector<std::string> out;
  regex.for_each(subject, [&](const Match& match) {
    out.emplace_back(match.group(group));
    return true;
  });
  return out;
}

TEST(Regex, EveryMatchWithItsGroups) {
  Regex frame(R"re(File "([^"\n]+)", line (\d+)(?:, in (\w+))?)re");
  std::string text = "File \"a.py\", line 3, in run\nFile \"b.py\", line 9\n";
  std::vector<Match> matches;
  frame.for_each(text, [&](const Match& match) {
    matches.push_back(match);
    return true;
  });
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(matches[0].group(1), "a.py");
  EXPECT_EQ(matches[0].group(3), "run");
  EXPECT_EQ(matches[1].start, text.find("File \"b.py\""));
  EXPECT_EQ(matches[1].group(2), "9");
  EXPECT_FALSE(matches[1].groups[3].has_value());  // took no part in the match
  EXPECT_EQ(matches[1].group(7), "");              // no such group
  EXPECT_EQ(all_of(Regex("a*"), "baab"), (std::vector<std::string>{"", "aa", "", ""}));  // empty matches move on
  int seen = 0;
  Regex("\\d").for_each("1 2 3", [&](const Match&) { return ++seen < 2; });  // false stops the scan
  EXPECT_EQ(seen, 2);
  EXPECT_TRUE(Regex(R"((^|[^/\w.])(tests?|jest)($|[^/\w.]))").search("fix the jest config"));
  EXPECT_FALSE(Regex("^require\\s*\\(").search("requires(x)"));
  std::optional<Match> tag = Regex(R"(^\s*\[(\w+)\])").find(" [Chip] no [ripple]");
  ASSERT_TRUE(tag.has_value());
  EXPECT_EQ(tag->group(1), "Chip");  // the first match only
}

TEST(Regex, LookaroundAndBytesThatAreNotUtf8) {
  Regex quoted(R"re((?:^|[^\w'])'([^'\n]{3,200})'(?![\w']))re");
  EXPECT_EQ(all_of(quoted, "it's 'a message' and don't", 1), (std::vector<std::string>{"a message"}));
  EXPECT_EQ(all_of(Regex("x+"), std::string("\xff\xfexx\xc3", 5)), (std::vector<std::string>{"xx"}));
}

TEST(Regex, BadPatternIsAClearError) {
  try {
    Regex bad("(unclosed");
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("missing closing parenthesis"), std::string::npos) << error.what();
  }
}

// A run of a million characters: std::regex recurses once per character and
// overflows the stack on this (the process dies); PCRE2 matches it.
TEST(Regex, LongRunsMatchWithoutExhaustingTheStack) {
  std::string path = "at " + std::string(1'000'000, 'x') + ".js:1:2";
  Regex js(R"re(at (?:([\w$.<>]+) )?\(?((?:[A-Za-z]:)?[^\s():]+\.[A-Za-z]+):(\d+):\d+\)?)re");
  std::vector<std::string> found = all_of(js, path, 3);
  EXPECT_EQ(found, std::vector<std::string>{"1"});
  // Catastrophic backtracking stops at the match limit: no match, no hang.
  Regex nested("(a+)+$");
  EXPECT_FALSE(nested.search(std::string(40, 'a') + "!"));
  EXPECT_TRUE(nested.search(std::string(40, 'a')));
}

}  // namespace
}  // namespace comp::regex
