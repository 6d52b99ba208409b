#include "pipeline/render.h"

#include <gtest/gtest.h>

namespace comp::pipeline {
namespace {

PivotFile file(std::string path, std::string content) {
  PivotFile pivot;
  pivot.path = std::move(path);
  pivot.content = std::move(content);
  return pivot;
}

TEST(Render, AWholeFileIsItsPathAndItsText) {
  PivotFile whole = file("src/cart.py", "def total():\n    return 0\n");
  EXPECT_EQ(file_heading(whole), "## src/cart.py\n```\n");
  EXPECT_EQ(file_closing(whole), "```\n\n");
  PivotFile unterminated = file("src/cart.py", "x = 1");  // the fence still opens its own line
  EXPECT_EQ(file_closing(unterminated), "\n```\n\n");
}

TEST(Render, TheHeadingSaysWhatThePartIs) {
  PivotFile cut = file("src/cart.py", "def total(self):\n    ...\n");
  cut.level = 2;
  cut.lines = "10-42";
  cut.full_bodies = {"Cart.add", "Cart.total"};
  EXPECT_EQ(file_heading(cut), "## src/cart.py (skeleton; lines 10-42; in full: Cart.add, Cart.total)\n```\n");
  PivotFile plain = file("src/cart.py", "x = 1\n");
  plain.level = 1;
  EXPECT_EQ(file_heading(plain), "## src/cart.py (no comments)\n```\n");
  PivotFile outline = file("src/far.py", "3: def far():\n");
  outline.level = 2;
  outline.outline = true;
  outline.full_bodies = {"far"};  // an outline holds no body: not said
  EXPECT_EQ(file_heading(outline), "## src/far.py (outline)\n");  // numbered lines need no fence
  EXPECT_EQ(file_closing(outline), "\n");
  PivotFile page = file("docs/cart.md", "# Cart\n");
  page.documents = "src/cart.py";
  EXPECT_EQ(file_heading(page), "## docs/cart.md (documents src/cart.py)\n```\n");
  PivotFile changelog = file("CHANGES.md", "## Unreleased\n");
  changelog.required_by = ".github/PULL_REQUEST_TEMPLATE.md";
  EXPECT_EQ(file_heading(changelog), "## CHANGES.md (asked for by .github/PULL_REQUEST_TEMPLATE.md)\n```\n");
  PivotFile stage = file("stats/stage.py", "1: class StageStats:\n");
  stage.outline = true;
  stage.used_by = "stats/statement.py";
  EXPECT_EQ(file_heading(stage), "## stats/stage.py (outline; used by stats/statement.py)\n");
  PivotFile cli = file("stats/cli.py", "def main(args): ...\n");
  cli.level = 2;
  cli.uses = "stats/format/printer.py";
  EXPECT_EQ(file_heading(cli), "## stats/cli.py (skeleton; uses stats/format/printer.py)\n```\n");
}

TEST(Render, NoLineOfTheContentClosesItsFence) {
  PivotFile page = file("docs/usage.md", "Run:\n```sh\nmake\n```\nand ````four````.\n");
  EXPECT_EQ(file_heading(page), "## docs/usage.md\n`````\n");
  EXPECT_EQ(file_closing(page), "`````\n\n");
}

TEST(Render, NamesFromOutsideCannotWriteControls) {
  PivotFile odd = file("pkg/clear\033[2J.py", "x = 1\n");
  odd.level = 2;
  odd.full_bodies = {"wipe\nnow"};
  EXPECT_EQ(file_heading(odd), "## \"pkg/clear\\033[2J.py\" (skeleton; in full: wipe\\nnow)\n```\n");
}

TEST(Render, TheAnswerIsEachFileInOrderThenWhatWasLeftOut) {
  Result result;
  result.pivot_files = {file("src/cart.py", "class Cart:\n    ...\n"), file("src/far.py", "3: def far():\n")};
  result.pivot_files[1].outline = true;
  result.tokens_sent = 12;
  result.max_tokens = 2000;
  result.token_savings = 300;
  EXPECT_EQ(to_markdown(result),
            "# Context: 2 files within 2000 tokens (300 saved)\n\n"
            "## src/cart.py\n```\nclass Cart:\n    ...\n```\n\n"
            "## src/far.py (outline)\n3: def far():\n\n");
  result.left_out = {"src/big.py", "tests/test_cart.py"};
  result.stale_files = 3;
  std::string text = to_markdown(result);
  EXPECT_TRUE(text.ends_with("3: def far():\n\nLeft out: src/big.py, tests/test_cart.py\n"
                             "3 files changed since they were indexed\n"))
      << text;
}

TEST(Render, ANameLeftOutForEachThousandTokensAtMostEight) {
  std::vector<std::string> left_out;
  for (int i = 0; i < 10; ++i) left_out.push_back("src/m" + std::to_string(i) + ".py");
  EXPECT_EQ(closing_lines(left_out, 8000, 0),
            "Left out: src/m0.py, src/m1.py, src/m2.py, src/m3.py, src/m4.py, src/m5.py, src/m6.py, "
            "src/m7.py, ... (10 in all)\n");
  EXPECT_EQ(closing_lines(left_out, 100000, 0), closing_lines(left_out, 8000, 0));
  EXPECT_EQ(closing_lines(left_out, 2999, 0), "Left out: src/m0.py, src/m1.py, ... (10 in all)\n");
  EXPECT_EQ(closing_lines(left_out, 999, 2), "Left out: 10 ranked files\n2 files changed since they were indexed\n");
  EXPECT_EQ(closing_lines({"src/m0.py"}, 500, 0), "Left out: 1 ranked file\n");
  EXPECT_EQ(closing_lines({}, 500, 0), "");
  EXPECT_EQ(closing_lines({}, 500, 1), "1 file changed since it was indexed\n");
  EXPECT_EQ(summary_line(1, 500, 20), "# Context: 1 file within 500 tokens (20 saved)\n\n");
  Result result;
  result.max_tokens = 1500;
  result.left_out = left_out;
  EXPECT_TRUE(to_markdown(result).ends_with("\n\nLeft out: src/m0.py, ... (10 in all)\n"));
}

}  // namespace
}  // namespace comp::pipeline
