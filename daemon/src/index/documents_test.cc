// Documents in the index: Office, PDF and Parquet files written by real
// producers (daemon/tests/docs/make_*.mjs) become nodes and searchable text,
// and the pipeline sends them; unreadable ones are recorded with a reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "index/indexer.h"
#include "index/test_tree.h"
#include "pipeline/pipeline.h"

namespace comp::index {
namespace {

namespace fs = std::filesystem;
using testing::TempTree;

const fs::path kFixtures = fs::path(COMP_SOURCE_DIR) / "daemon" / "tests" / "docs" / "fixtures";

class DocumentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"report.docx", "slides.pptx", "sheets.xlsx", "three_pages.pdf", "orders.parquet",
                             "encrypted.pdf", "encrypted.parquet"})
      fs::copy_file(kFixtures / name, tree_.root() / "docs" / name, fs::copy_options::overwrite_existing);
    tree_.write("src/report.py", "def render_quarter(q):\n    return q\n");
    // A PDF saved under a Word name.
    fs::copy_file(kFixtures / "three_pages.pdf", tree_.root() / "docs" / "fake.docx");
  }
  IndexSummary index(std::uint64_t max_file_size = 1u << 20) {
    IndexOptions options;
    options.root = tree_.root();
    options.jobs = 2;
    options.max_file_size = max_file_size;
    return run_index(options);
  }
  TempTree tree_{"documents"};
  bool made_ = [this] {
    fs::create_directories(tree_.root() / "docs");
    return true;
  }();
};

TEST_F(DocumentsTest, SectionsBecomeNodesAndTextIsSearchable) {
  IndexSummary summary = index(/*max_file_size=*/4096);  // documents have their own, larger limit
  EXPECT_EQ(summary.files_by_language["pptx"], 1u);
  EXPECT_EQ(summary.files_by_language["parquet"], 1u);  // the encrypted one is skipped
  auto store = graph::Store::open_existing(tree_.root());

  std::vector<graph::NodeRecord> slides = store->symbols({"", "docs/slides.pptx", "slide", 0});
  ASSERT_EQ(slides.size(), 4u);
  EXPECT_EQ(slides[0].name, "Slide 1");
  EXPECT_EQ(slides[1].signature, "Introduction");
  EXPECT_EQ(slides[1].id, "docs/slides.pptx::Slide 2");
  EXPECT_LT(slides[0].line, slides[1].line);

  auto zip = store->symbols({"customer.address.zip", "docs/orders.parquet", "", 0});
  ASSERT_EQ(zip.size(), 1u);
  EXPECT_EQ(zip[0].kind, "column");
  EXPECT_NE(zip[0].signature.find("BYTE_ARRAY"), std::string::npos);

  auto pages = store->symbols({"", "docs/three_pages.pdf", "page", 0});
  EXPECT_EQ(pages.size(), 3u);
  EXPECT_EQ(store->symbols({"", "docs/sheets.xlsx", "sheet", 0}).size() >= 2, true);
  EXPECT_FALSE(store->symbols({"", "docs/report.docx", "section", 0}).empty());

  // Speaker notes are text of the slide, found by full-text search.
  auto hits = store->search_files("\"audience\"", 5);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].first, "docs/slides.pptx");
  std::optional<std::string> text = store->file_text("docs/slides.pptx");
  ASSERT_TRUE(text);
  EXPECT_NE(text->find("# Slide 2: Introduction"), std::string::npos);
  EXPECT_NE(text->find("Notes: Greet the audience."), std::string::npos);

  // Unreadable documents: recorded with the reason, nothing else.
  auto encrypted = store->file("docs/encrypted.pdf");
  ASSERT_TRUE(encrypted);
  EXPECT_EQ(encrypted->skip_reason, "unreadable-document");
  EXPECT_NE(encrypted->error.find("encrypted"), std::string::npos);
  auto pare = store->file("docs/encrypted.parquet");
  ASSERT_TRUE(pare);
  EXPECT_NE(pare->error.find("encrypted"), std::string::npos);
  auto fake = store->file("docs/fake.docx");
  ASSERT_TRUE(fake);
  EXPECT_EQ(fake->skip_reason, "unreadable-document");
  EXPECT_NE(fake->error.find("PDF"), std::string::npos);
}

TEST_F(DocumentsTest, RerunsReadNothingAndEditsAreSeen) {
  tree_.backdate();
  index();
  IndexSummary again = index();
  EXPECT_EQ(again.files_parsed, 0u);
  // The same bytes rewritten (new mtime): read, hashed, not re-extracted.
  fs::copy_file(kFixtures / "slides.pptx", tree_.root() / "docs" / "slides.pptx", fs::copy_options::overwrite_existing);
  tree_.set_mtime("docs/slides.pptx", 1700000000);
  IndexSummary touched = index();
  EXPECT_EQ(touched.files_touched, 1u);
  EXPECT_EQ(touched.files_parsed, 0u);
  // Replaced by another deck: its slides replace the old ones.
  fs::copy_file(kFixtures / "report.docx", tree_.root() / "docs" / "slides.pptx", fs::copy_options::overwrite_existing);
  fs::rename(tree_.root() / "docs" / "slides.pptx", tree_.root() / "docs" / "was_slides.docx");
  index();
  auto store = graph::Store::open_existing(tree_.root());
  EXPECT_TRUE(store->symbols({"", "docs/slides.pptx", "", 0}).empty());
  EXPECT_FALSE(store->symbols({"", "docs/was_slides.docx", "section", 0}).empty());
}

TEST_F(DocumentsTest, ThePipelineSendsTheDocumentSectionsATaskPointsAt) {
  index();
  auto store = graph::Store::open_existing(tree_.root());
  pipeline::Request request;
  request.task = "The slide deck's speaker notes should mention the Q2 growth of the quarter amounts";
  request.max_tokens = 2000;
  pipeline::Result result = pipeline::run_pipeline(*store, tree_.root(), request);
  ASSERT_FALSE(result.pivot_files.empty());
  EXPECT_EQ(result.pivot_files[0].path, "docs/slides.pptx");
  EXPECT_NE(result.pivot_files[0].content.find("Mention the Q2 growth"), std::string::npos);
  EXPECT_LE(result.tokens_sent, 2000u);

  request.task = "which Parquet file has the customer address zip column, and what is its type?";
  result = pipeline::run_pipeline(*store, tree_.root(), request);
  ASSERT_FALSE(result.pivot_files.empty());
  EXPECT_EQ(result.pivot_files[0].path, "docs/orders.parquet");
  EXPECT_NE(result.pivot_files[0].content.find("customer.address.zip: BYTE_ARRAY"), std::string::npos);
}

}  // namespace
}  // namespace comp::index
