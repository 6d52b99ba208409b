#include "graph/bm25.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace comp::graph {
namespace {

// An in-memory FTS5 table with the default tokenizer, so that comp_bm25 is
// compared with FTS5's own bm25() on the same index.
class Bm25Test : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
    std::string error;
    ASSERT_TRUE(register_bm25(db_, &error)) << error;
    exec("CREATE VIRTUAL TABLE docs USING fts5(path, body)");
  }
  void TearDown() override { sqlite3_close(db_); }

  void exec(const std::string& sql) {
    char* message = nullptr;
    ASSERT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK) << (message ? message : "");
  }
  void insert(const std::string& path, const std::string& body) {
    sqlite3_stmt* statement = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db_, "INSERT INTO docs (path, body) VALUES (?1, ?2)", -1, &statement, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(statement, 1, path.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(statement, 2, body.c_str(), -1, SQLITE_TRANSIENT);
    ASSERT_EQ(sqlite3_step(statement), SQLITE_DONE);
    sqlite3_finalize(statement);
  }
  // (path, score) best first, score = -value of `rank_sql`.
  std::vector<std::pair<std::string, double>> rank(const std::string& rank_sql, const std::string& query) {
    std::vector<std::pair<std::string, double>> out;
    sqlite3_stmt* statement = nullptr;
    std::string sql = "SELECT path, " + rank_sql + " AS r FROM docs WHERE docs MATCH ?1 ORDER BY r, path";
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr), SQLITE_OK) << sqlite3_errmsg(db_);
    sqlite3_bind_text(statement, 1, query.c_str(), -1, SQLITE_TRANSIENT);
    while (sqlite3_step(statement) == SQLITE_ROW)
      out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)),
                       -sqlite3_column_double(statement, 1));
    sqlite3_finalize(statement);
    return out;
  }

  void fill() {
    insert("src/cart.py", "cart total discount " + filler(20));
    insert("src/pricing.py", "discount discount price " + filler(5));
    insert("src/printer.py", "printer discount layout " + filler(2000));
    insert("src/report.py", "report " + filler(300));
    insert("docs/discount.md", "how the discount works");
  }
  static std::string filler(int words) {
    std::string out;
    for (int i = 0; i < words; ++i) out += "word" + std::to_string(i % 50) + " ";
    return out;
  }

  sqlite3* db_ = nullptr;
};


TEST_F(Bm25Test, AtThreeQuartersItIsFts5sBm25) {
  fill();
  for (const char* query : {"discount", "discount OR printer", "cart OR total OR layout", "report"}) {
    auto ours = rank("comp_bm25(docs, 0.75, 4.0, 1.0)", query);
    auto theirs = rank("bm25(docs, 4.0, 1.0)", query);
    ASSERT_EQ(ours.size(), theirs.size()) << query;
    ASSERT_FALSE(ours.empty()) << query;
    for (std::size_t i = 0; i < ours.size(); ++i) {
      EXPECT_EQ(ours[i].first, theirs[i].first) << query;
      EXPECT_NEAR(ours[i].second, theirs[i].second, 1e-9 * std::max(1.0, std::abs(theirs[i].second))) << query;
    }
  }
}

TEST_F(Bm25Test, LowerBPenalisesLongFilesLess) {
  fill();
  auto position = [](const std::vector<std::pair<std::string, double>>& ranked, const std::string& path) {
    for (std::size_t i = 0; i < ranked.size(); ++i)
      if (ranked[i].first == path) return static_cast<int>(i);
    return -1;
  };
  // The 2,000-word printer names "discount" once, like the 25-word cart:
  // full length normalisation puts it last, none puts it level with the cart.
  auto full = rank("comp_bm25(docs, 1.0, 4.0, 1.0)", "discount");
  auto none = rank("comp_bm25(docs, 0.0, 4.0, 1.0)", "discount");
  ASSERT_EQ(full.size(), 4u);
  EXPECT_EQ(position(full, "src/printer.py"), 3);
  EXPECT_NEAR(none[static_cast<std::size_t>(position(none, "src/printer.py"))].second,
              none[static_cast<std::size_t>(position(none, "src/cart.py"))].second, 1e-12);
  // Term frequency still counts: two mentions beat one at any b, and a
  // mention in the path (weight 4) beats both.
  EXPECT_EQ(none[0].first, "docs/discount.md");
  EXPECT_EQ(none[1].first, "src/pricing.py");
  // Column weights: a match in the path column weighs 4x.
  auto weighted = rank("comp_bm25(docs, 0.75, 4.0, 1.0)", "docs");
  ASSERT_EQ(weighted.size(), 1u);
  EXPECT_EQ(weighted[0].first, "docs/discount.md");
}

TEST_F(Bm25Test, BadLengthNormalisationFallsBackToTheDefault) {
  fill();
  auto fallback = rank("comp_bm25(docs, 7.5, 4.0, 1.0)", "discount");
  auto standard = rank("comp_bm25(docs, 0.75, 4.0, 1.0)", "discount");
  ASSERT_EQ(fallback.size(), standard.size());
  for (std::size_t i = 0; i < fallback.size(); ++i) EXPECT_DOUBLE_EQ(fallback[i].second, standard[i].second);
}

}  // namespace
}  // namespace comp::graph
