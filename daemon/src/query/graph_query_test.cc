#include "query/graph_query.h"

#include <gtest/gtest.h>

namespace comp::query {
namespace {

graph::NodeRecord node(std::string path, std::string scope, std::string kind, std::uint32_t line,
                       std::uint32_t end_line, std::string signature) {
  graph::NodeRecord out;
  out.file_path = std::move(path);
  out.scope = std::move(scope);
  out.name = out.scope.substr(out.scope.rfind('.') + 1);
  out.id = out.file_path + "::" + out.scope;
  out.kind = std::move(kind);
  out.line = line;
  out.end_line = end_line;
  out.signature = std::move(signature);
  return out;
}

TEST(SearchMarkdown, ALinePerSymbolBestFirstThenTheFiles) {
  SearchResult result;
  result.symbols = {{node("config.py", "config.parse_config", "function", 8, 20, "def parse_config(path=DEFAULT_PATH)"), 9.5},
                    {node("app.py", "app.App", "class", 3, 40, ""), 2.0}};
  result.files = {{"config.py", 3.0}, {"docs/config.md", 1.0}};
  EXPECT_EQ(to_markdown(result, "parse_config"),
            "# Search `parse_config`: 2 symbols, 2 files\n\n"
            "- function `config.parse_config` in `config.py` lines 8-20: `def parse_config(path=DEFAULT_PATH)`\n"
            "- class `app.App` in `app.py` lines 3-40\n"
            "\nFiles: `config.py` `docs/config.md`\n");
}

TEST(SearchMarkdown, NothingFoundSaysSo) {
  EXPECT_EQ(to_markdown(SearchResult{}, "nowhere"), "# Search `nowhere`: 0 symbols, 0 files\n\n");
}

TEST(SearchMarkdown, TextFromOutsideCannotWriteControls) {
  SearchResult result;
  result.symbols = {{node("pkg/clear\033[2J.py", "pkg.wipe", "function", 1, 2, "def wipe(s=\"\033[2J\")"), 1.0}};
  std::string text = to_markdown(result, "wipe\nnow");
  EXPECT_EQ(text.find('\033'), std::string::npos) << text;
  EXPECT_NE(text.find("# Search `wipe\\nnow`"), std::string::npos) << text;
  EXPECT_NE(text.find("`\"pkg/clear\\033[2J.py\"`"), std::string::npos) << text;
}

}  // namespace
}  // namespace comp::query
