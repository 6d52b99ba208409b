#include "pipeline/task.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace comp::pipeline {
namespace {

bool has(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

TEST(Task, PythonTracebackGivesFramesPathsAndFunctions) {
  TaskTerms terms = analyze_task(
      "Crash when loading\n```\nTraceback (most recent call last):\n"
      "  File \"/home/u/venv/lib/python3.9/site-packages/pkg/core/loader.py\", line 42, in load_items\n"
      "    return parse_item(x)\n"
      "  File \"/home/u/venv/lib/python3.9/site-packages/pkg/core/parser.py\", line 7, in parse_item\n"
      "ValueError: bad item\n```\n");
  ASSERT_EQ(terms.frames.size(), 2u);
  EXPECT_EQ(terms.frames[0].path, "/home/u/venv/lib/python3.9/site-packages/pkg/core/loader.py");
  EXPECT_EQ(terms.frames[0].line, 42u);
  EXPECT_EQ(terms.frames[1].function, "parse_item");
  EXPECT_TRUE(has(terms.identifiers, "load_items"));
  EXPECT_TRUE(has(terms.identifiers, "parse_item"));
  EXPECT_TRUE(has(terms.identifiers, "ValueError"));
  EXPECT_FALSE(has(terms.identifiers, "Traceback"));  // traceback words name nothing
  EXPECT_FALSE(has(terms.identifiers, "most"));
}

TEST(Task, AdjacentWordsAreCompoundNames) {
  TaskTerms terms = analyze_task(
      "Expose IS_LOCAL when running via `sls invoke local`\nSupport api-gateway endpoints; add a CLI option "
      "--trace-token. Use the VPC - Link, see docs/api-gateway.md and useTLS value or the_flag.");
  EXPECT_TRUE(has(terms.compounds, "invokelocal"));
  EXPECT_TRUE(has(terms.compounds, "apigateway"));
  EXPECT_TRUE(has(terms.compounds, "tracetoken"));
  EXPECT_TRUE(has(terms.compounds, "clioption"));
  EXPECT_FALSE(has(terms.compounds, "runningvia"));  // a glue word joins nothing
  EXPECT_FALSE(has(terms.compounds, "vpclink"));     // " - " is not one name
  EXPECT_FALSE(has(terms.compounds, "usetlsvalue"));  // useTLS is a name already
  EXPECT_FALSE(has(terms.compounds, "flagsee"));       // not across sentences
  // Only one occurrence each, in order of first use.
  EXPECT_EQ(std::count(terms.compounds.begin(), terms.compounds.end(), "apigateway"), 1);
}

TEST(Task, JavaScriptJavaAndGoFrames) {
  TaskTerms terms = analyze_task(
      "TypeError: x is undefined\n    at renderRow (src/components/Table.tsx:120:15)\n"
      "    at Object.render (/app/node_modules/react/index.js:5:1)\n"
      "Exception in thread main\n\tat com.acme.store.Cart.total(Cart.java:88)\n"
      "goroutine 1 [running]:\nmain.main()\n\t/home/u/shop/cmd/server/main.go:31 +0x1d\n");
  auto frame_at = [&](const std::string& path) {
    return std::find_if(terms.frames.begin(), terms.frames.end(), [&](const Frame& f) { return f.path == path; });
  };
  ASSERT_NE(frame_at("src/components/Table.tsx"), terms.frames.end());
  EXPECT_EQ(frame_at("src/components/Table.tsx")->function, "renderRow");
  ASSERT_NE(frame_at("Cart.java"), terms.frames.end());
  EXPECT_EQ(frame_at("Cart.java")->function, "total");
  EXPECT_EQ(frame_at("Cart.java")->line, 88u);
  ASSERT_NE(frame_at("/home/u/shop/cmd/server/main.go"), terms.frames.end());
  EXPECT_TRUE(has(terms.paths, "src/components/Table.tsx"));
}

TEST(Task, NamesInProseCodeAndBackticks) {
  TaskTerms terms = analyze_task(
      "The `Schema.load` method ignores `partial` when a Nested field uses validate_length. "
      "Calling getUserName() returns null. See utils/strings.py and \"invalid literal for int\".");
  EXPECT_TRUE(has(terms.dotted, "Schema.load"));
  EXPECT_TRUE(has(terms.identifiers, "partial"));          // in backticks
  EXPECT_TRUE(has(terms.identifiers, "validate_length"));  // snake_case
  EXPECT_TRUE(has(terms.identifiers, "getUserName"));      // camelCase call
  EXPECT_TRUE(has(terms.paths, "utils/strings.py"));
  EXPECT_TRUE(has(terms.quoted, "invalid literal for int"));
  EXPECT_TRUE(has(terms.words, "ignores"));
  // Apostrophes are not quotes; a single-quoted message is.
  TaskTerms prose = analyze_task("I can't change the address because it doesn't use it. It says 'no such host found'.");
  EXPECT_EQ(prose.quoted, std::vector<std::string>{"no such host found"});
  EXPECT_FALSE(has(terms.words, "the"));  // stop word
  EXPECT_FALSE(has(terms.words, "when"));
}

// Lines of fenced code long enough to be an excerpt of the project's code,
// trimmed, once each, in order; not prose, inline code, short lines or
// lines of fewer than four words.
TEST(Task, CodeLinesAreTheFencedBlocksLongerLines) {
  TaskTerms terms = analyze_task(
      "StepIcon cannot be customised: `className={classNames(classes.iconContainer)}` in prose is not one.\n"
      "```jsx\n"
      "{icon && (\n"
      "        <span\n"
      "          className={classNames(classes.iconContainer, {\n"
      "            [classes.alternativeLabel]: alternativeLabel && !optional,\n"
      "            [classes.label]: label,\n"
      "          })}   \n"
      "          className={classNames(classes.iconContainer, {\n"
      "```\n"
      "and an unterminated block\n```\n    return self.items.append((item, qty))");
  EXPECT_EQ(terms.code_lines, (std::vector<std::string>{"className={classNames(classes.iconContainer, {",
                                                        "[classes.alternativeLabel]: alternativeLabel && !optional,",
                                                        "return self.items.append((item, qty))"}));
  // A traceback's source lines are its frames' evidence, not excerpts.
  terms = analyze_task("```\nTraceback (most recent call last):\n  File \"shop/cart.py\", line 12, in total\n"
                       "    return apply_discount(sum(i.price * q for i, q in self.items))\n"
                       "ValueError: cannot apply the discount to a negative amount\n```\n");
  EXPECT_EQ(terms.code_lines, (std::vector<std::string>{"Traceback (most recent call last):",
                                                        "ValueError: cannot apply the discount to a negative amount"}));
  // Nor are imports: every user of the project writes them.
  terms = analyze_task("```python\nfrom pydicom import Dataset, DataElement\nimport numpy.testing as npt\n"
                       "const merge = require('lodash/merge');\nds.PatientName.given_name.upper() == 'SOME NAME'\n```\n");
  EXPECT_EQ(terms.code_lines, std::vector<std::string>{"ds.PatientName.given_name.upper() == 'SOME NAME'"});
  // A thousand fenced lines: at most 64 are kept.
  std::string many = "```\n";
  for (int i = 0; i < 1000; ++i) many += "value_" + std::to_string(i) + " = compute(alpha, beta, gamma)\n";
  EXPECT_EQ(analyze_task(many + "```\n").code_lines.size(), 64u);
}

TEST(Task, HostileInputIsBounded) {
  std::string huge(3u << 20, '(');
  TaskTerms terms = analyze_task(huge);
  EXPECT_TRUE(terms.identifiers.empty());
  EXPECT_TRUE(analyze_task("").frames.empty());
}

// Tasks are text from anyone. A run of 400,000 characters (a pasted blob,
// a minified line) killed the process: std::regex recursed once per
// character. Such runs name nothing and are skipped; the rest is read.
TEST(Task, HugeRunsAndBackticksAreReadInBoundedTime) {
  std::string blob(400'000, 'x');  // twice: within the megabyte a task is read to
  TaskTerms terms = analyze_task("parse_config fails\nat " + blob + ".js:1:2\nFile \"" + blob +
                                 "\", line 3, in f\nsee src/app/config.py and `load_settings()`\n");
  EXPECT_TRUE(has(terms.identifiers, "parse_config"));
  EXPECT_TRUE(has(terms.identifiers, "load_settings"));
  EXPECT_TRUE(has(terms.paths, "src/app/config.py"));
  EXPECT_TRUE(terms.frames.empty());
  for (const std::string& word : terms.words) EXPECT_LT(word.size(), 1000u);
  // Two hundred thousand inline code spans: each name's lookup is a binary search.
  std::string spans;
  for (int i = 0; i < 200'000; ++i) spans += "`name_" + std::to_string(i % 50) + "` ";
  terms = analyze_task(spans);
  EXPECT_TRUE(has(terms.identifiers, "name_49"));
  // A line number too large for 32 bits is no line, not an exception.
  terms = analyze_task("File \"app.py\", line 99999999999999999999999, in run\n");
  ASSERT_EQ(terms.frames.size(), 1u);
  EXPECT_EQ(terms.frames[0].line, 0u);
  EXPECT_EQ(terms.frames[0].function, "run");
}

TEST(Task, VisibleTextDropsTemplateComments) {
  std::string issue =
      "Allow warnings to be hidden\n<!--\n1. Please check CONTRIBUTING.md first\n-->\n# Feature Proposal\n"
      "Hide them <!-- inline: see docs/guide.md --> in the output.\n"
      "```html\n<!-- kept: a comment in code is code -->\n```\n"
      "~~~\n```\n<!-- still code: a ``` line does not close a ~~~ fence -->\n~~~\n";
  std::string visible = visible_text(issue);
  EXPECT_EQ(visible.find("CONTRIBUTING"), std::string::npos);
  EXPECT_EQ(visible.find("docs/guide.md"), std::string::npos);
  EXPECT_NE(visible.find("Hide them  in the output."), std::string::npos);
  EXPECT_NE(visible.find("<!-- kept: a comment in code is code -->"), std::string::npos);
  EXPECT_NE(visible.find("<!-- still code"), std::string::npos);
  EXPECT_EQ(visible.rfind("Allow warnings to be hidden\n", 0), 0u);
  // Never closed: the reporter's text after a stray `<!--` stays.
  EXPECT_EQ(visible_text("Title\n<!-- oops the rest matters: parse_item"),
            "Title\n<!-- oops the rest matters: parse_item");
  TaskTerms terms = analyze_task(visible);
  EXPECT_FALSE(has(terms.paths, "CONTRIBUTING.md"));
  // A megabyte of short lines, then comments: each line is read once.
  std::string big;
  for (int i = 0; i < 250000; ++i) big += "ab\n";
  for (int i = 0; i < 20000; ++i) big += "x <!-- y --> z\n";
  std::string kept = visible_text(big);
  EXPECT_EQ(kept.size(), 250000u * 3 + 20000u * 5);
  EXPECT_EQ(kept.substr(kept.size() - 5), "x  z\n");
}

// A screenshot's address (a host, a numbered folder, a hash, .png) names
// nothing in a repository: a Markdown image is read as its alt text. In
// code, and as an HTML tag (which may be the markup a task is about), it
// stays.
TEST(Task, AnImageIsReadAsItsAltText) {
  std::string issue =
      "Input type search throws in IE9\n"
      "![inputtypesearch](https://user-images.githubusercontent.com/3939997/29337481-05ce2b96-81d7-11e7-94ca.png)\n"
      "Before ![a](x.gif) and ![b](https://github.com/org/repo/assets/1/cf11b051-b68f.png) after; `input.type`.\n"
      "<img class=\"card__image\" src=\"card_image.png\">\n"
      "```md\n![kept](docs/images/logo.png)\n```\n"
      "An unclosed ![alt](https://example.com/shot\n.png) stays.\n";
  std::string visible = visible_text(issue);
  EXPECT_NE(visible.find("\ninputtypesearch\n"), std::string::npos) << visible;
  EXPECT_NE(visible.find("Before a and b after; `input.type`."), std::string::npos) << visible;
  EXPECT_EQ(visible.find("githubusercontent"), std::string::npos);
  EXPECT_EQ(visible.find("cf11b051"), std::string::npos);
  EXPECT_NE(visible.find("<img class=\"card__image\" src=\"card_image.png\">"), std::string::npos);
  EXPECT_NE(visible.find("![kept](docs/images/logo.png)"), std::string::npos);
  EXPECT_NE(visible.find("![alt](https://example.com/shot\n.png) stays."), std::string::npos);
  TaskTerms terms = analyze_task(visible);
  EXPECT_FALSE(has(terms.identifiers, "githubusercontent"));
  EXPECT_FALSE(has(terms.identifiers, "cf11b051"));
  EXPECT_FALSE(has(terms.dotted, "user-images.githubusercontent.com"));
  EXPECT_TRUE(has(terms.dotted, "input.type"));
}

TEST(Task, PluralsAskForTheirSingulars) {
  EXPECT_EQ(with_singulars({"warnings", "caches", "dependencies", "class", "status", "analysis", "boxes", "plugin",
                            "Items", "uses"}),
            (std::vector<std::string>{"warnings", "warning", "caches", "cache", "cach", "dependencies",
                                      "dependencie", "dependency", "class", "status", "analysis", "boxes", "boxe",
                                      "box", "plugin", "Items", "uses"}));
}

TEST(Task, ProperNamesOfASentenceCaseTitle) {
  EXPECT_EQ(proper_names("Value for Select which allows to not select any of the options"),
            std::vector<std::string>{"Select"});
  EXPECT_EQ(proper_names("Use the chip menu in a Dialog with an InputLabel inside"),
            std::vector<std::string>{"Dialog"});
  EXPECT_TRUE(proper_names("Support For Lambda Function DeadLetterConfig").empty());  // Title Case
  EXPECT_TRUE(proper_names("Select all").empty());  // too short to tell
}

}  // namespace
}  // namespace comp::pipeline
