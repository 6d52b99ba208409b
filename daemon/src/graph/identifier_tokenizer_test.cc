#include "graph/identifier_tokenizer.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

namespace comp::graph {
namespace {

std::vector<std::string> tokens(std::string_view text) {
  std::vector<std::string> out;
  split_identifiers(text, [&](std::string_view token, int, int) { out.emplace_back(token); });
  return out;
}

using Tokens = std::vector<std::string>;

TEST(IdentifierTokenizer, KeepsWholeIdentifierThenParts) {
  EXPECT_EQ(tokens("validateToken"), (Tokens{"validatetoken", "validate", "token"}));
  EXPECT_EQ(tokens("VALIDATE_TOKEN"), (Tokens{"validate_token", "validate", "token"}));
  EXPECT_EQ(tokens("HTTPServerError"), (Tokens{"httpservererror", "http", "server", "error"}));
  EXPECT_EQ(tokens("snake_case_name"), (Tokens{"snake_case_name", "snake", "case", "name"}));
  EXPECT_EQ(tokens("utf8Decode"), (Tokens{"utf8decode", "utf", "decode"}));
}

TEST(IdentifierTokenizer, PlainWordsAndPunctuation) {
  EXPECT_EQ(tokens("Fix the JWT bug!"), (Tokens{"fix", "the", "jwt", "bug"}));
  EXPECT_EQ(tokens("a.b(c) -> d"), (Tokens{"a", "b", "c", "d"}));
  EXPECT_EQ(tokens(""), Tokens{});
  EXPECT_EQ(tokens("  ,;  "), Tokens{});
}

TEST(IdentifierTokenizer, DunderNamesLoseTheirUnderscores) {
  EXPECT_EQ(tokens("__init__"), (Tokens{"init"}));
  EXPECT_EQ(tokens("_private_helper"), (Tokens{"private_helper", "private", "helper"}));
  EXPECT_EQ(tokens("___"), Tokens{});
}

TEST(IdentifierTokenizer, OffsetsPointIntoTheText) {
  std::string text = "x = fooBar";
  std::vector<std::pair<int, int>> spans;
  split_identifiers(text, [&](std::string_view, int start, int end) { spans.emplace_back(start, end); });
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[1], std::make_pair(4, 10));  // fooBar
  EXPECT_EQ(spans[2], std::make_pair(4, 7));   // foo
  EXPECT_EQ(spans[3], std::make_pair(7, 10));  // bar
}

TEST(IdentifierTokenizer, Utf8StaysWhole) {
  EXPECT_EQ(tokens("größe café"), (Tokens{"größe", "café"}));
}

TEST(IdentifierTokenizer, Fts5MatchesPartsAndWholes) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  std::string error;
  ASSERT_TRUE(register_identifier_tokenizer(db, &error)) << error;
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='comp_ident');"
                         "INSERT INTO t(rowid, body) VALUES (1, 'def validateToken(jwt): pass');"
                         "INSERT INTO t(rowid, body) VALUES (2, 'class HTTPServer: pass');",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  auto match = [&](const char* query) {
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(db, "SELECT group_concat(rowid) FROM t WHERE t MATCH ?1", -1, &statement, nullptr);
    sqlite3_bind_text(statement, 1, query, -1, SQLITE_STATIC);
    std::string out;
    if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_text(statement, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    return out;
  };
  EXPECT_EQ(match("token"), "1");
  EXPECT_EQ(match("validatetoken"), "1");
  EXPECT_EQ(match("server"), "2");
  EXPECT_EQ(match("http"), "2");
  EXPECT_EQ(match("missing"), "");
  // A phrase is text, whatever it holds: quotes, operators, stars.
  EXPECT_EQ(fts_phrase("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(match(fts_phrase("validateToken(jwt)").c_str()), "1");
  EXPECT_EQ(match(fts_phrase("jwt): pass").c_str()), "1");
  EXPECT_EQ(match(fts_phrase("pass NEAR token* OR \"").c_str()), "");
  EXPECT_EQ(match(fts_phrase("HTTPServer:").c_str()), "2");
  sqlite3_close(db);
}

TEST(IdentifierTokenizer, QueryAtomsAreTheFirstDistinctTokensOfTheTerms) {
  // Each term as the index splits it: the whole identifier, then its parts;
  // one-letter parts, symbols and repeats are left out.
  EXPECT_EQ(fts_atoms({"useThemeProps", "theme", "a", "x.y", "NOT"}, 10),
            (std::vector<std::string>{"usethemeprops", "use", "theme", "props", "not"}));
  EXPECT_EQ(fts_atoms({"useThemeProps", "createTheme"}, 2), (std::vector<std::string>{"usethemeprops", "use"}));
  EXPECT_EQ(fts_or({"use", "or", "not"}), "\"use\" OR \"or\" OR \"not\"");  // operators stay words
  EXPECT_EQ(fts_or({}), "");
  EXPECT_EQ(fts_any_of({"useThemeProps"}, 2), "\"usethemeprops\" OR \"use\"");
}

}  // namespace
}  // namespace comp::graph
