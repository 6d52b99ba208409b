// The format-independent layer: format_of, extract/extract_file dispatch and
// its limits (too large, not a regular file, a multi-GB Parquet file read by
// its tail), and render(): headings per kind, line ranges, invalid UTF-8,
// the text cap.
#include "docs/document.h"
#include "docs/test_support.h"
#include "utf8/utf8.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace comp::docs {
namespace {

using namespace comp::docs::testing;

namespace fs = std::filesystem;





std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Lines line..end_line (1-based, inclusive) of `text`.
std::string line_range(const std::string& text, std::uint32_t line, std::uint32_t end_line) {
  const std::vector<std::string> lines = lines_of(text);
  std::string out;
  for (std::uint32_t i = line; i <= end_line && i <= lines.size(); ++i) out += lines[i - 1] + "\n";
  return out;
}

bool valid_utf8(std::string_view s) { return utf8::valid(s); }

Section section(std::string kind, std::string name, std::string signature, std::string text, int level = 0) {
  Section s;
  s.kind = std::move(kind);
  s.name = std::move(name);
  s.signature = std::move(signature);
  s.text = std::move(text);
  s.level = level;
  return s;
}

// ---------------------------------------------------------------- format_of

TEST(DocumentFormat, ByExtensionCaseInsensitive) {
  EXPECT_EQ(format_of("a/b/report.docx"), Format::kDocx);
  EXPECT_EQ(format_of("Deck.PPTX"), Format::kPptx);
  EXPECT_EQ(format_of("x.XlSx"), Format::kXlsx);
  EXPECT_EQ(format_of("/abs/paper.Pdf"), Format::kPdf);
  EXPECT_EQ(format_of("data/part-0001.parquet"), Format::kParquet);
  EXPECT_EQ(format_of("archive.tar.pdf"), Format::kPdf);
  EXPECT_EQ(format_of("notes.doc"), std::nullopt);
  EXPECT_EQ(format_of("pdf"), std::nullopt);
  EXPECT_EQ(format_of(".pdf"), std::nullopt);          // a hidden file named "pdf"
  EXPECT_EQ(format_of("dir.pdf/readme"), std::nullopt);  // the extension of the last component only
  EXPECT_EQ(format_of("file.pdf.bak"), std::nullopt);
  EXPECT_EQ(format_of(""), std::nullopt);
}

TEST(DocumentFormat, Names) {
  EXPECT_STREQ(name(Format::kDocx), "docx");
  EXPECT_STREQ(name(Format::kPptx), "pptx");
  EXPECT_STREQ(name(Format::kXlsx), "xlsx");
  EXPECT_STREQ(name(Format::kPdf), "pdf");
  EXPECT_STREQ(name(Format::kParquet), "parquet");
  for (const char* ext : {"docx", "pptx", "xlsx", "pdf", "parquet"}) {
    EXPECT_STREQ(name(*format_of(std::string("f.") + ext)), ext);
  }
}

// ---------------------------------------------------------------- render

TEST(DocumentRender, HeadingsPerKindAndLineRanges) {
  Document doc;
  doc.sections.push_back(section("document", "", "", "Intro before any heading.\nSecond line."));
  doc.sections.push_back(section("section", "Overview", "", "Body of the overview.", 1));
  doc.sections.push_back(section("section", "Details", "", "Deeper.\n\nTwo paragraphs.", 2));
  doc.sections.push_back(section("slide", "Slide 3", "Roadmap", "Q1: ship\nQ2: scale"));
  doc.sections.push_back(section("sheet", "Sales", "Region\tTotal", "North\t10\nSouth\t20"));
  doc.sections.push_back(section("page", "Page 2", "first line", "first line\nmore"));
  doc.sections.push_back(section("schema", "schema", "10 rows, 1 row group, 2 columns", "owner: me"));
  doc.sections.push_back(section("column", "a", "INT64 optional", "ignored text", 1));
  doc.sections.push_back(section("column", "b.c", "BYTE_ARRAY STRING optional", "", 2));
  const std::string text = render(doc);
  const std::string expected =
      "Intro before any heading.\n"
      "Second line.\n"
      "\n"
      "# Overview\n"
      "Body of the overview.\n"
      "\n"
      "## Details\n"
      "Deeper.\n"
      "\n"
      "Two paragraphs.\n"
      "\n"
      "# Slide 3: Roadmap\n"
      "Q1: ship\n"
      "Q2: scale\n"
      "\n"
      "# Sheet: Sales\n"
      "Region\tTotal\n"
      "North\t10\n"
      "South\t20\n"
      "\n"
      "# Page 2\n"
      "first line\n"
      "more\n"
      "\n"
      "# Parquet: 10 rows, 1 row group, 2 columns\n"
      "owner: me\n"
      "\n"
      "- a: INT64 optional\n"
      "- b.c: BYTE_ARRAY STRING optional\n";
  EXPECT_EQ(text, expected);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges = {
      {1, 2}, {4, 5}, {7, 10}, {12, 14}, {16, 19}, {21, 23}, {25, 26}, {28, 28}, {29, 29}};
  ASSERT_EQ(doc.sections.size(), ranges.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    EXPECT_EQ(doc.sections[i].line, ranges[i].first) << i;
    EXPECT_EQ(doc.sections[i].end_line, ranges[i].second) << i;
  }
  EXPECT_TRUE(doc.sections[7].text.empty());  // a column has no text
  EXPECT_TRUE(doc.errors.empty());
  // Rendering again gives the same text and ranges.
  EXPECT_EQ(render(doc), expected);
  EXPECT_EQ(doc.sections[4].line, 16u);
}

TEST(DocumentRender, EachSectionsRangeHoldsItsHeadingAndText) {
  Document doc;
  for (int i = 1; i <= 20; ++i) {
    std::string text;
    for (int k = 0; k < i % 4; ++k) text += "line " + std::to_string(k) + " of " + std::to_string(i) + "\n";
    doc.sections.push_back(section(i % 3 == 0 ? "page" : "section", "Part " + std::to_string(i), "", text, 1 + i % 3));
  }
  const std::string text = render(doc);
  for (const Section& s : doc.sections) {
    const std::string range = line_range(text, s.line, s.end_line);
    EXPECT_NE(range.find("Part "), std::string::npos) << s.name;
    EXPECT_NE(range.find(s.name + "\n"), std::string::npos) << s.name;
    if (!s.text.empty()) {
      EXPECT_NE(range.find(s.text), std::string::npos) << s.name;
    }
    EXPECT_EQ(s.end_line - s.line + 1, lines_of(range).size());
  }
}

TEST(DocumentRender, LevelsAreClampedToMarkdownHeadings) {
  Document doc;
  doc.sections.push_back(section("section", "Zero", "", "", 0));
  doc.sections.push_back(section("section", "Nine", "", "", 9));
  EXPECT_EQ(render(doc), "# Zero\n\n###### Nine\n");
}

TEST(DocumentRender, EmptyDocumentSectionHasNoLines) {
  Document doc;
  doc.sections.push_back(section("document", "", "", "  \n\n"));
  doc.sections.push_back(section("page", "Page 1", "", ""));
  EXPECT_EQ(render(doc), "# Page 1\n");
  EXPECT_EQ(doc.sections[0].line, 0u);
  EXPECT_EQ(doc.sections[0].end_line, 0u);
  EXPECT_EQ(doc.sections[1].line, 1u);
  EXPECT_EQ(doc.sections[1].end_line, 1u);
  Document empty;
  EXPECT_EQ(render(empty), "");
}

TEST(DocumentRender, InvalidUtf8BecomesReplacementCharacters) {
  Document doc;
  std::string body = "ok \xE2\x82 bad\xFF\xFE end\r\nCR\rNUL[";
  body += '\0';
  body += "] \xED\xA0\x80 \xF0\x9F\x98\x80";
  doc.sections.push_back(section("slide", "Slide 1", "T\xC3", body));
  const std::string text = render(doc);
  EXPECT_TRUE(valid_utf8(text)) << text;
  // WHATWG: a truncated sequence is one U+FFFD; each invalid byte one; a surrogate three.
  EXPECT_EQ(text,
            "# Slide 1: T\xEF\xBF\xBD\n"
            "ok \xEF\xBF\xBD bad\xEF\xBF\xBD\xEF\xBF\xBD end\n"
            "CR\n"
            "NUL[\xEF\xBF\xBD] \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \xF0\x9F\x98\x80\n");
  EXPECT_EQ(doc.sections[0].end_line, 4u);
  EXPECT_TRUE(valid_utf8(doc.sections[0].text));
  EXPECT_TRUE(valid_utf8(doc.sections[0].signature));
}

TEST(DocumentRender, RandomBytesAlwaysRenderValidUtf8) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    Document doc;
    for (int i = 0; i < 3; ++i) {
      std::string junk(rng() % 200, '\0');
      for (char& c : junk) c = static_cast<char>(rng());
      doc.sections.push_back(section(i == 0 ? "section" : "page", junk.substr(0, 10), junk.substr(std::min<std::size_t>(junk.size(), 10), 5), junk, 2));
    }
    const std::string text = render(doc);
    ASSERT_TRUE(valid_utf8(text)) << round;
    const std::size_t lines = lines_of(text).size();
    for (const Section& s : doc.sections) {
      ASSERT_LE(s.line, s.end_line);
      ASSERT_LE(s.end_line, lines);
    }
  }
}

TEST(DocumentRender, NewlinesInNamesStayOnTheHeadingLine) {
  Document doc;
  doc.sections.push_back(section("slide", "Slide 1", "Two\nlines", "body"));
  doc.sections.push_back(section("column", "a\nb", "INT32\nrequired", ""));
  EXPECT_EQ(render(doc), "# Slide 1: Two lines\nbody\n\n- a b: INT32 required\n");
  EXPECT_EQ(doc.sections[1].line, 4u);
}

TEST(DocumentRender, CapDropsLaterSectionsWithAnError) {
  Document doc;
  for (int i = 1; i <= 10; ++i) {
    std::string text;
    for (int k = 0; k < 10; ++k) text += "page " + std::to_string(i) + " line " + std::to_string(k) + "\n";
    doc.sections.push_back(section("page", "Page " + std::to_string(i), "", text));
  }
  Limits limits;
  limits.max_text_bytes = 500;
  const std::string text = render(doc, limits);
  EXPECT_LE(text.size(), 500u);
  EXPECT_TRUE(valid_utf8(text));
  ASSERT_FALSE(doc.sections.empty());
  ASSERT_LT(doc.sections.size(), 10u);
  ASSERT_EQ(doc.errors.size(), 1u);
  EXPECT_NE(doc.errors[0].find("text capped at 500 bytes"), std::string::npos) << doc.errors[0];
  EXPECT_NE(doc.errors[0].find("sections dropped"), std::string::npos) << doc.errors[0];
  // The last kept section was cut at a line boundary and its range still matches.
  const Section& last = doc.sections.back();
  EXPECT_EQ(line_range(text, last.line, last.end_line), "# " + last.name + "\n" + last.text + "\n");
  EXPECT_EQ(last.end_line, lines_of(text).size());
  // Rendering the capped document again changes nothing and adds no error.
  EXPECT_EQ(render(doc, limits), text);
  EXPECT_EQ(doc.errors.size(), 1u);
}

TEST(DocumentRender, CapCutsAHeadinglessDocumentAtAUtf8Boundary) {
  Document doc;
  std::string body;
  for (int i = 0; i < 200; ++i) body += "\xC3\xA9";  // one long line of 'é'
  doc.sections.push_back(section("document", "", "", body));
  Limits limits;
  limits.max_text_bytes = 101;
  const std::string text = render(doc, limits);
  EXPECT_LE(text.size(), 101u);
  EXPECT_TRUE(valid_utf8(text));
  EXPECT_EQ(text.size(), 101u);  // 50 'é' + newline
  ASSERT_EQ(doc.sections.size(), 1u);
  EXPECT_EQ(doc.sections[0].line, 1u);
  EXPECT_EQ(doc.errors.size(), 1u);
}

TEST(DocumentRender, ZeroCapDropsEverything) {
  Document doc;
  doc.sections.push_back(section("page", "Page 1", "", "text"));
  Limits limits;
  limits.max_text_bytes = 0;
  EXPECT_EQ(render(doc, limits), "");
  EXPECT_TRUE(doc.sections.empty());
  EXPECT_EQ(doc.errors.size(), 1u);
}

// ---------------------------------------------------------------- extract / extract_file

TEST(DocumentExtract, TooLargeIsSkippedBeforeReading) {
  Limits limits;
  limits.max_file_bytes = 10;
  const Document doc = extract(Format::kDocx, std::string(11, 'x'), limits);
  EXPECT_EQ(doc.format, Format::kDocx);
  EXPECT_EQ(doc.skip_reason, "too large (11 bytes)");

  TempDir dir;
  write(dir.path() / "big.pdf", std::string(11, 'x'));
  const Document file_doc = extract_file(Format::kPdf, dir.path() / "big.pdf", limits);
  EXPECT_EQ(file_doc.skip_reason, "too large (11 bytes)");
  EXPECT_EQ(file_doc.format, Format::kPdf);
}

TEST(DocumentExtract, MissingFilesAndDirectoriesAreSkipped) {
  TempDir dir;
  Document doc = extract_file(Format::kXlsx, dir.path() / "nope.xlsx");
  EXPECT_NE(doc.skip_reason.find("cannot open"), std::string::npos) << doc.skip_reason;
  doc = extract_file(Format::kParquet, dir.path());
  EXPECT_EQ(doc.skip_reason, "not a regular file");
}

TEST(DocumentExtract, FifoIsRefusedWithoutBlocking) {
  TempDir dir;
  const fs::path fifo = dir.path() / "pipe.pdf";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Document doc = extract_file(Format::kPdf, fifo);
  EXPECT_EQ(doc.skip_reason, "not a regular file");
}

TEST(DocumentExtract, ParquetFromBytesAndFromFileAgree) {
  const fs::path path = kFixtures / "orders.parquet";
  const std::string bytes = read(path);
  Document a = extract(Format::kParquet, bytes);
  Document b = extract_file(Format::kParquet, path);
  ASSERT_EQ(a.skip_reason, "");
  ASSERT_EQ(b.skip_reason, "");
  EXPECT_EQ(render(a), render(b));
  EXPECT_EQ(a.format, Format::kParquet);
}

// A 3 GB sparse file: extract_file reads its head, its last 8 bytes and the
// footer, and nothing else, so the size limit does not apply and it is quick.
TEST(DocumentExtract, HugeParquetIsReadByItsTail) {
  const std::string bytes = read(kFixtures / "flat.parquet");
  ASSERT_GT(bytes.size(), 12u);
  const std::uint32_t footer = static_cast<unsigned char>(bytes[bytes.size() - 8]) |
                               static_cast<unsigned char>(bytes[bytes.size() - 7]) << 8 |
                               static_cast<unsigned char>(bytes[bytes.size() - 6]) << 16 |
                               static_cast<unsigned char>(bytes[bytes.size() - 5]) << 24;
  TempDir dir;
  const fs::path path = dir.path() / "huge.parquet";
  {
    std::ofstream out(path, std::ios::binary);
    out.write("PAR1", 4);
    out.seekp(3LL << 30);
    const std::string tail = bytes.substr(bytes.size() - footer - 8);
    out.write(tail.data(), static_cast<std::streamsize>(tail.size()));
  }
  ASSERT_GT(fs::file_size(path), 3ull << 30);
  const auto start = std::chrono::steady_clock::now();
  Document doc = extract_file(Format::kParquet, path);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(doc.skip_reason, "");
  ASSERT_EQ(doc.sections.size(), 3u);  // schema + n + label
  EXPECT_EQ(doc.sections[1].name, "n");
  (void)elapsed;  // speed is for bench/, never asserted here (shared machines)
}

TEST(DocumentExtract, PdfFromBytesGoesThroughATemporaryFile) {
  const std::string bytes = read(kFixtures / "three_pages.pdf");
  // A private temporary directory: other processes' files do not count.
  TempDir tmp;
  const char* old_tmpdir = std::getenv("TMPDIR");
  std::string saved = old_tmpdir ? old_tmpdir : "";
  setenv("TMPDIR", tmp.path().c_str(), 1);
  Document from_bytes = extract(Format::kPdf, bytes);
  if (old_tmpdir)
    setenv("TMPDIR", saved.c_str(), 1);
  else
    unsetenv("TMPDIR");
  Document from_file = extract_file(Format::kPdf, kFixtures / "three_pages.pdf");
  ASSERT_EQ(from_bytes.skip_reason, "");
  EXPECT_EQ(from_bytes.sections.size(), 3u);
  EXPECT_EQ(render(from_bytes), render(from_file));
  // The temporary file is gone.
  EXPECT_TRUE(fs::is_empty(tmp.path()));
}

TEST(DocumentExtract, RenderOfAParquetDocument) {
  Document doc = extract_file(Format::kParquet, kFixtures / "orders.parquet");
  ASSERT_EQ(doc.skip_reason, "");
  const std::string text = render(doc);
  EXPECT_EQ(text.rfind("# Parquet: 5000 rows, 3 row groups, 23 columns", 0), 0u) << text.substr(0, 200);
  EXPECT_NE(text.find("\nowner: comP fixtures\n"), std::string::npos);
  EXPECT_NE(text.find("\n- customer.address.zip: BYTE_ARRAY UTF8 optional\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n- amount: INT64 DECIMAL(18, 3) optional\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n- uid: FIXED_LEN_BYTE_ARRAY(16) UUID optional\n"), std::string::npos) << text;
  for (const Section& s : doc.sections) {
    if (s.kind != "column") continue;
    EXPECT_EQ(s.line, s.end_line);
    EXPECT_EQ(line_range(text, s.line, s.end_line), "- " + s.name + ": " + s.signature + "\n");
  }
}

}  // namespace
}  // namespace comp::docs
