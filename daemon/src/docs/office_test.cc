// Office extraction on documents written by real producers (npm docx,
// pptxgenjs, exceljs; daemon/tests/docs/make_office.mjs) and on hostile files:
// zip bombs, truncated and corrupt zips, wrong formats, entity expansion,
// deep nesting, invalid UTF-8. Hostile input must end in a skip_reason or
// errors, never in a crash, an exception or a hang.
#include "docs/office.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "../../tests/docs/zip_in_memory.h"

#include "docs/test_support.h"

namespace comp::docs {
namespace {

using namespace comp::docs::testing;

namespace fs = std::filesystem;
using test_support::zip_in_memory;



std::string fixture(const std::string& name) { return read(kFixtures / name); }


std::string describe(const Document& document) {
  std::string out = "skip_reason: " + document.skip_reason + "\n";
  for (const Section& s : document.sections) {
    out += "[" + s.kind + "] " + s.name + " (level " + std::to_string(s.level) + ") sig=" + s.signature + "\n" +
           s.text + "\n";
  }
  for (const std::string& e : document.errors) out += "error: " + e + "\n";
  return out;
}

using Extractor = std::function<Document(std::string_view, const Limits&)>;
const std::vector<std::pair<const char*, Extractor>> kExtractors = {
    {"docx", extract_docx}, {"pptx", extract_pptx}, {"xlsx", extract_xlsx}};

// ---------------------------------------------------------------- docx

TEST(OfficeDocx, HeadingsStartSectionsWithTheirLevels) {
  Document d = extract_docx(fixture("report.docx"), {});
  ASSERT_EQ(d.skip_reason, "") << describe(d);
  EXPECT_EQ(d.format, Format::kDocx);
  EXPECT_TRUE(d.errors.empty()) << describe(d);
  ASSERT_EQ(d.sections.size(), 7u) << describe(d);

  EXPECT_EQ(d.sections[0].kind, "document");
  EXPECT_EQ(d.sections[0].name, "(start)");
  EXPECT_EQ(d.sections[0].text, "Draft, not for circulation.");

  EXPECT_EQ(d.sections[1].kind, "section");
  EXPECT_EQ(d.sections[1].name, "Quarterly report");  // Title
  EXPECT_EQ(d.sections[1].level, 1);
  EXPECT_EQ(d.sections[1].text, "Prepared by the finance team.");

  EXPECT_EQ(d.sections[2].name, "Revenue");
  EXPECT_EQ(d.sections[2].level, 1);
  EXPECT_EQ(d.sections[3].name, "Costs");
  EXPECT_EQ(d.sections[3].level, 2);
  EXPECT_EQ(d.sections[3].text, "Costs fell.");
  EXPECT_EQ(d.sections[4].name, "Outlook");
  EXPECT_EQ(d.sections[4].level, 1);
  EXPECT_EQ(d.sections[4].text, "Stable.");
}

TEST(OfficeDocx, TabsBreaksTablesAndFootnoteMarks) {
  Document d = extract_docx(fixture("report.docx"), {});
  ASSERT_GE(d.sections.size(), 3u) << describe(d);
  // The paragraph's w:tabs/w:tab is a tab stop, not text: exactly two tabs.
  EXPECT_EQ(d.sections[2].text,
            "Revenue grew by 12%[^1].\n"
            "Region\tNorth\tSouth\n"
            "First line\nSecond line\n"
            "Quarter\tAmount\n"
            "Q1\t100\n"
            "Q2\t112");
}

TEST(OfficeDocx, FootnotesAndCommentsAreFinalSections) {
  Document d = extract_docx(fixture("report.docx"), {});
  ASSERT_EQ(d.sections.size(), 7u) << describe(d);
  EXPECT_EQ(d.sections[5].kind, "section");
  EXPECT_EQ(d.sections[5].name, "Footnotes");
  EXPECT_EQ(d.sections[5].text, "[^1]: Source: the 2023 ledger.");
  EXPECT_EQ(d.sections[6].kind, "section");
  EXPECT_EQ(d.sections[6].name, "Comments");
  EXPECT_EQ(d.sections[6].text, "Ada: Check these numbers.");
}

// ---------------------------------------------------------------- pptx

TEST(OfficePptx, SlidesFollowPresentationOrderNotPartNames) {
  // Parts slide1..slide4 are shown as slide3, slide1, slide4, slide2.
  Document d = extract_pptx(fixture("slides.pptx"), {});
  ASSERT_EQ(d.skip_reason, "") << describe(d);
  EXPECT_EQ(d.format, Format::kPptx);
  EXPECT_TRUE(d.errors.empty()) << describe(d);
  ASSERT_EQ(d.sections.size(), 4u) << describe(d);
  const char* titles[] = {"Tabs", "Introduction", "Closing", "Numbers"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(d.sections[i].kind, "slide");
    EXPECT_EQ(d.sections[i].name, "Slide " + std::to_string(i + 1));
    EXPECT_EQ(d.sections[i].signature, titles[i]);
  }
}

TEST(OfficePptx, TextFramesTablesAndNotes) {
  Document d = extract_pptx(fixture("slides.pptx"), {});
  ASSERT_EQ(d.sections.size(), 4u) << describe(d);
  // a:tabLst's a:tab elements are tab stops: the one tab is the a:t's own.
  EXPECT_EQ(d.sections[0].text, "Tabs\nName\tValue\nline two");
  EXPECT_EQ(d.sections[1].text, "Introduction\nWhy we are here\nNotes: Greet the audience.");
  EXPECT_EQ(d.sections[2].text, "Closing\nQuestions?\nNotes: Thank everyone.");
  EXPECT_EQ(d.sections[3].text, "Numbers\nQuarter\tAmount\nQ1\t100\nQ2\t112\nNotes: Mention the Q2 growth.");
}

// ---------------------------------------------------------------- xlsx

void expect_workbook(const Document& d) {
  ASSERT_EQ(d.skip_reason, "") << describe(d);
  EXPECT_EQ(d.format, Format::kXlsx);
  EXPECT_TRUE(d.errors.empty()) << describe(d);
  ASSERT_EQ(d.sections.size(), 3u) << describe(d);
  // Workbook order (Summary was moved first), not part order.
  EXPECT_EQ(d.sections[0].kind, "sheet");
  EXPECT_EQ(d.sections[0].name, "Summary");
  EXPECT_EQ(d.sections[0].signature, "Total | 112.6");
  EXPECT_EQ(d.sections[0].text, "Total\t112.6");

  EXPECT_EQ(d.sections[1].name, "Sales");
  EXPECT_EQ(d.sections[1].signature, "Region | Quarter | Amount | Label");
  EXPECT_EQ(d.sections[1].text,
            "Region\tQuarter\tAmount\tLabel\n"
            "North\tQ1\t100\tNorth-Q1\n"  // formula string result
            "South\tQ1\t12.5\tSouth-Q1\n"
            "North\tQ2\t0.1\tTRUE\n"      // boolean formula result
            "\tBold and plain\t\t112.6");  // rich text; columns kept

  EXPECT_EQ(d.sections[2].name, "Notes");
  EXPECT_EQ(d.sections[2].signature, "Only cell");
  EXPECT_EQ(d.sections[2].text, "\tOnly cell\nBelow");
}

TEST(OfficeXlsx, SharedStringsAndRichTextInWorkbookOrder) {
  expect_workbook(extract_xlsx(fixture("sheets.xlsx"), {}));
}

TEST(OfficeXlsx, InlineAndFormulaStringsWithoutSharedStrings) {
  // ExcelJS's streaming writer: t="str" strings and a t="inlineStr" rich text.
  expect_workbook(extract_xlsx(fixture("sheets_inline.xlsx"), {}));
}

TEST(OfficeXlsx, CellsPastTheLimitAreNotRead) {
  Limits limits;
  limits.max_cells_per_sheet = 5;
  Document d = extract_xlsx(fixture("sheets.xlsx"), limits);
  ASSERT_EQ(d.skip_reason, "");
  ASSERT_EQ(d.sections.size(), 3u) << describe(d);
  EXPECT_EQ(d.sections[1].text, "Region\tQuarter\tAmount\tLabel\nNorth") << describe(d);
  EXPECT_TRUE(contains(d.errors, "sheet Sales: cells after 5 not read")) << describe(d);
  EXPECT_FALSE(contains(d.errors, "sheet Summary")) << describe(d);
}

// ---------------------------------------------------------------- hostile

// Overwrites the uncompressed size a zip declares for `member` (local header
// and central directory), as a zip bomb that lies about its sizes does.
std::string with_declared_size(std::string zip, const std::string& member, std::uint32_t size) {
  auto le32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    std::memcpy(&v, zip.data() + at, 4);
    return v;
  };
  auto le16 = [&](std::size_t at) {
    return static_cast<std::uint16_t>(static_cast<unsigned char>(zip[at]) | static_cast<unsigned char>(zip[at + 1]) << 8);
  };
  int patched = 0;
  for (std::size_t at = 0; at + 46 < zip.size(); ++at) {
    std::uint32_t signature = le32(at);
    if (signature == 0x04034b50 && zip.compare(at + 30, member.size(), member) == 0 && le16(at + 26) == member.size()) {
      std::memcpy(zip.data() + at + 22, &size, 4);
      ++patched;
    } else if (signature == 0x02014b50 && zip.compare(at + 46, member.size(), member) == 0 &&
               le16(at + 28) == member.size()) {
      std::memcpy(zip.data() + at + 24, &size, 4);
      ++patched;
    }
  }
  EXPECT_EQ(patched, 2);
  return zip;
}

TEST(OfficeHostile, WrongFormatsAreNamed) {
  EXPECT_EQ(extract_docx(fixture("hostile/pdf_named.docx"), {}).skip_reason, "not a docx: it is a PDF");
  EXPECT_EQ(extract_docx(fixture("hostile/ole.docx"), {}).skip_reason, "encrypted or legacy (OLE) Office file");
  EXPECT_EQ(extract_xlsx(fixture("hostile/ole.docx"), {}).skip_reason, "encrypted or legacy (OLE) Office file");
  EXPECT_EQ(extract_docx(fixture("hostile/pptx_named.docx"), {}).skip_reason, "not a docx: it is a pptx");
  EXPECT_EQ(extract_xlsx(fixture("report.docx"), {}).skip_reason, "not an xlsx: it is a docx");
  EXPECT_EQ(extract_pptx(fixture("sheets.xlsx"), {}).skip_reason, "not a pptx: it is an xlsx");
  EXPECT_EQ(extract_xlsx(fixture("hostile/empty.xlsx"), {}).skip_reason, "empty file");
  EXPECT_TRUE(extract_pptx("plain text, not a zip", {}).skip_reason.starts_with("corrupt zip: "));
  std::string odt = zip_in_memory({{"mimetype", "application/vnd.oasis.opendocument.text"}, {"content.xml", "<x/>"}});
  EXPECT_EQ(extract_docx(odt, {}).skip_reason, "not a docx: it is an OpenDocument file");
  std::string other = zip_in_memory({{"readme.txt", "hello"}});
  EXPECT_EQ(extract_xlsx(other, {}).skip_reason, "not an xlsx: no xl/workbook.xml");
}

TEST(OfficeHostile, TruncatedZipsAreCorrupt) {
  for (const char* name : {"hostile/truncated_half.docx", "hostile/truncated_end.pptx", "hostile/truncated_start.xlsx"}) {
    for (const auto& [format, extract] : kExtractors) {
      Document d = extract(fixture(name), {});
      EXPECT_TRUE(d.skip_reason.starts_with("corrupt zip: ")) << name << " as " << format << ": " << describe(d);
      EXPECT_TRUE(d.sections.empty());
    }
  }
}

TEST(OfficeHostile, EveryTruncationOfTheFixturesReturns) {
  for (const char* name : {"report.docx", "slides.pptx", "sheets.xlsx"}) {
    std::string bytes = fixture(name);
    for (std::size_t size = 0; size < bytes.size(); size += 97) {
      std::string_view prefix(bytes.data(), size);
      for (const auto& [format, extract] : kExtractors) {
        Document d = extract(prefix, {});
        EXPECT_FALSE(d.skip_reason.empty()) << name << " cut at " << size << " as " << format;
      }
    }
  }
}

TEST(OfficeHostile, ZipBombIsRefusedByItsDeclaredSize) {
  // word/document.xml: 200 MB of zeros in 210 KB.
  Document d = extract_docx(fixture("hostile/bomb.docx"), {});
  EXPECT_TRUE(d.skip_reason.starts_with("zip bomb: word/document.xml declares 209715200 bytes")) << describe(d);
  EXPECT_TRUE(d.sections.empty());
}

TEST(OfficeHostile, ZipBombThatLiesAboutItsSizeIsCountedWhileInflating) {
  std::string bomb = with_declared_size(fixture("hostile/bomb.docx"), "word/document.xml", 1000);
  Document d = extract_docx(bomb, {});
  EXPECT_TRUE(d.skip_reason.starts_with("zip bomb: word/document.xml inflates past ")) << describe(d);
  Limits roomy;
  roomy.max_ratio = 1e6;
  d = extract_docx(bomb, roomy);
  EXPECT_EQ(d.skip_reason, "zip bomb: word/document.xml inflates past 67108864 bytes") << describe(d);
}

TEST(OfficeHostile, MemberAndTotalAndCountLimits) {
  Limits limits;
  limits.max_member_bytes = 1000;
  Document d = extract_docx(fixture("report.docx"), limits);
  EXPECT_TRUE(d.skip_reason.starts_with("zip bomb: word/document.xml declares ")) << describe(d);

  limits = {};
  limits.max_uncompressed_bytes = 10000;
  d = extract_pptx(fixture("slides.pptx"), limits);
  // The presentation fits; slides past the total do not, and say so.
  EXPECT_EQ(d.skip_reason, "") << describe(d);
  EXPECT_TRUE(contains(d.errors, "bytes uncompressed in total")) << describe(d);

  limits = {};
  limits.max_members = 3;
  d = extract_xlsx(fixture("sheets.xlsx"), limits);
  EXPECT_TRUE(d.skip_reason.starts_with("zip bomb: ")) << describe(d);
  EXPECT_NE(d.skip_reason.find("members (limit 3)"), std::string::npos) << describe(d);
}

TEST(OfficeHostile, BillionLaughsIsNotExpanded) {
  Document d = extract_docx(fixture("hostile/billion_laughs.docx"), {});
  std::size_t total = 0;
  for (const Section& s : d.sections) total += s.text.size();
  EXPECT_LT(total, 10000u) << describe(d);
  ASSERT_FALSE(d.sections.empty()) << describe(d);
  EXPECT_NE(d.sections[0].text.find("before"), std::string::npos) << describe(d);
  EXPECT_EQ(d.sections[0].text.find("lollol"), std::string::npos) << describe(d);
}

TEST(OfficeHostile, DeepNestingIsRejectedAndWalkedWithoutRecursion) {
  Document d = extract_docx(fixture("hostile/deep.docx"), {});
  EXPECT_EQ(d.skip_reason, "word/document.xml: XML nested deeper than 256") << describe(d);
  // Allowed that deep, it is read: walks that recursed would overflow the stack.
  Limits deep;
  deep.max_xml_depth = 1u << 20;
  d = extract_docx(fixture("hostile/deep.docx"), deep);
  EXPECT_EQ(d.skip_reason, "") << describe(d);
  ASSERT_FALSE(d.sections.empty());
  EXPECT_EQ(d.sections[0].text, "shallow\ndeep");
}

TEST(OfficeHostile, InvalidUtf8IsPassedOnNotFatal) {
  Document d = extract_docx(fixture("hostile/invalid_utf8.docx"), {});
  EXPECT_EQ(d.skip_reason, "") << describe(d);
  ASSERT_EQ(d.sections.size(), 3u) << describe(d);  // and the fixture's Footnotes, Comments
  EXPECT_EQ(d.sections[0].name, "Head\xff\xfe");
  EXPECT_EQ(d.sections[0].level, 1);
  EXPECT_NE(d.sections[0].text.find(" ok "), std::string::npos) << describe(d);
}

TEST(OfficeHostile, MissingSlideKeepsTheNumbering) {
  Document d = extract_pptx(fixture("hostile/missing_slide.pptx"), {});
  EXPECT_EQ(d.skip_reason, "") << describe(d);
  ASSERT_EQ(d.sections.size(), 4u) << describe(d);
  EXPECT_EQ(d.sections[3].name, "Slide 4");
  EXPECT_EQ(d.sections[3].text, "");
  EXPECT_TRUE(contains(d.errors, "Slide 4: missing part ppt/slides/slide2.xml")) << describe(d);
  EXPECT_EQ(d.sections[2].signature, "Closing");
}

TEST(OfficeHostile, MissingSheetAndSharedStrings) {
  Document d = extract_xlsx(fixture("hostile/missing_sheet.xlsx"), {});
  EXPECT_EQ(d.skip_reason, "") << describe(d);
  ASSERT_EQ(d.sections.size(), 3u) << describe(d);
  EXPECT_EQ(d.sections[2].name, "Notes");
  EXPECT_EQ(d.sections[2].text, "");
  EXPECT_TRUE(contains(d.errors, "sheet Notes: missing part xl/worksheets/sheet2.xml")) << describe(d);
  EXPECT_TRUE(contains(d.errors, "sheet Sales: shared string index out of range")) << describe(d);
  // Numbers and formula results do not need the shared strings.
  EXPECT_NE(d.sections[1].text.find("100\tNorth-Q1"), std::string::npos) << describe(d);
}

TEST(OfficeHostile, TextBudgetStopsExtraction) {
  Limits limits;
  limits.max_text_bytes = 60;
  Document d = extract_docx(fixture("report.docx"), limits);
  std::size_t total = 0;
  for (const Section& s : d.sections) total += s.text.size() + s.name.size();
  EXPECT_LE(total, 60u) << describe(d);
  EXPECT_TRUE(contains(d.errors, "not read")) << describe(d);
}

// Random byte changes to the real fixtures (a fixed seed): every extractor
// returns, whatever it makes of them.
TEST(OfficeHostile, CorruptedBytesReturn) {
  std::mt19937 random(20240102);
  Limits small;
  small.max_member_bytes = 1 << 20;
  small.max_uncompressed_bytes = 4 << 20;
  for (const char* name : {"report.docx", "slides.pptx", "sheets.xlsx", "sheets_inline.xlsx"}) {
    std::string original = fixture(name);
    for (int round = 0; round < 150; ++round) {
      std::string bytes = original;
      int changes = 1 + static_cast<int>(random() % 8);
      for (int i = 0; i < changes; ++i) bytes[random() % bytes.size()] = static_cast<char>(random());
      for (const auto& [format, extract] : kExtractors) extract(bytes, small);
    }
  }
}

// Every file in fixtures/hostile and fixtures/regressions (inputs that once
// crashed, leaked or hung office_fuzz: copy its artifact there as it is)
// through every extractor, with the default limits and office_fuzz's. A
// parts input (see zip_in_memory.h) also goes, as its package, to its own.
TEST(OfficeHostile, RegressionsAndHostileFilesReturn) {
  std::size_t files = 0;
  for (const char* folder : {"hostile", "regressions"}) {
    if (!fs::is_directory(kFixtures / folder)) continue;
    for (const fs::directory_entry& entry : fs::directory_iterator(kFixtures / folder)) {
      if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
      std::string bytes = read(entry.path());
      for (const Limits& limits : {Limits{}, test_support::office_fuzz_limits()}) {
        for (const auto& [format, extract] : kExtractors) {
          Document d = extract(bytes, limits);
          EXPECT_TRUE(!d.skip_reason.empty() || !d.sections.empty() || !d.errors.empty())
              << entry.path() << " as " << format;
        }
        if (auto parts = test_support::package_from_parts(bytes)) {
          const char* formats = "DSX";
          Document d = kExtractors[std::string_view(formats).find(parts->tag)].second(parts->zip, limits);
          EXPECT_TRUE(!d.skip_reason.empty() || !d.sections.empty() || !d.errors.empty()) << entry.path();
        }
      }
      ++files;
    }
  }
  EXPECT_GE(files, 14u);
}

// ---------------------------------------------------------------- packages made part by part

const char kRootRels[] =
    R"(<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">)"
    R"(<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="%s"/>)"
    R"(</Relationships>)";

std::string root_rels(const std::string& main) {
  std::string out = kRootRels;
  out.replace(out.find("%s"), 2, main);
  return out;
}

std::string relationships(const std::vector<std::pair<std::string, std::string>>& id_targets, const char* type) {
  std::string out = R"(<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">)";
  for (const auto& [id, target] : id_targets) {
    out += R"(<Relationship Id=")" + id + R"(" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/)" +
           type + R"(" Target=")" + target + R"("/>)";
  }
  return out + "</Relationships>";
}

const char kW[] = R"(xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main")";

std::string docx_with(const std::string& body, const std::string& styles = "") {
  std::string rels = root_rels("word/document.xml");
  std::string document = std::string("<w:document ") + kW + "><w:body>" + body + "</w:body></w:document>";
  std::vector<test_support::Member> members = {{"_rels/.rels", rels}, {"word/document.xml", document}};
  if (!styles.empty()) members.push_back({"word/styles.xml", styles});
  return zip_in_memory(members);
}

TEST(OfficeDocx, LocalizedStyleNamesAndOutlineLevelsAreHeadings) {
  // German Word: style id "berschrift1", name "heading 1"; a style based on it;
  // a paragraph with a direct outline level.
  std::string styles = std::string("<w:styles ") + kW + ">" +
                       R"(<w:style w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>)"
                       R"(<w:style w:styleId="Mine"><w:name w:val="Mine"/><w:basedOn w:val="berschrift1"/></w:style>)"
                       R"(<w:style w:styleId="Outlined"><w:name w:val="Outlined"/><w:pPr><w:outlineLvl w:val="3"/></w:pPr></w:style>)"
                       "</w:styles>";
  std::string body =
      R"(<w:p><w:pPr><w:pStyle w:val="berschrift1"/></w:pPr><w:r><w:t>Eins</w:t></w:r></w:p>)"
      R"(<w:p><w:pPr><w:pStyle w:val="Mine"/></w:pPr><w:r><w:t>Based</w:t></w:r></w:p>)"
      R"(<w:p><w:pPr><w:pStyle w:val="Outlined"/></w:pPr><w:r><w:t>Styled outline</w:t></w:r></w:p>)"
      R"(<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>Direct</w:t></w:r></w:p>)"
      R"(<w:p><w:pPr><w:outlineLvl w:val="9"/></w:pPr><w:r><w:t>Body text</w:t></w:r></w:p>)"
      R"(<w:p><w:pPr><w:pStyle w:val="Heading3"/></w:pPr><w:r><w:t xml:space="preserve"> </w:t></w:r></w:p>)";
  Document d = extract_docx(docx_with(body, styles), {});
  ASSERT_EQ(d.skip_reason, "") << describe(d);
  ASSERT_EQ(d.sections.size(), 4u) << describe(d);
  EXPECT_EQ(d.sections[0].name, "Eins");
  EXPECT_EQ(d.sections[0].level, 1);
  EXPECT_EQ(d.sections[1].name, "Based");
  EXPECT_EQ(d.sections[1].level, 1);
  EXPECT_EQ(d.sections[2].name, "Styled outline");
  EXPECT_EQ(d.sections[2].level, 4);
  EXPECT_EQ(d.sections[3].name, "Direct");
  EXPECT_EQ(d.sections[3].level, 2);
  // Outline level 9 is body text; an empty heading starts no section.
  EXPECT_EQ(d.sections[3].text, "Body text");
}

TEST(OfficeDocx, TrackedDeletionsFieldCodesAndFallbacksAreNotText) {
  std::string body = std::string(
      R"(<w:p><w:r><w:t>kept</w:t></w:r><w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>)"
      R"(<w:ins><w:r><w:t xml:space="preserve"> inserted</w:t></w:r></w:ins>)"
      R"(<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r>)"
      R"(<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t xml:space="preserve"> 7</w:t></w:r>)"
      R"(<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>)"
      R"(<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">)"
      R"(<mc:Choice Requires="wps"><w:drawing><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice>)"
      R"(<mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback>)"
      R"(</mc:AlternateContent></w:r></w:p>)");
  Document d = extract_docx(docx_with(body), {});
  ASSERT_EQ(d.sections.size(), 1u) << describe(d);
  EXPECT_EQ(d.sections[0].text, "kept inserted 7\nboxed");
}

TEST(OfficeDocx, ExternalEntitiesAreNotLoaded) {
  std::string document = std::string(R"(<?xml version="1.0"?><!DOCTYPE w:document [)") +
                         R"(<!ENTITY xxe SYSTEM "file:///etc/passwd">]><w:document )" + kW +
                         R"(><w:body><w:p><w:r><w:t>x&xxe;y</w:t></w:r></w:p></w:body></w:document>)";
  std::string rels = root_rels("word/document.xml");
  Document d = extract_docx(zip_in_memory({{"_rels/.rels", rels}, {"word/document.xml", document}}), {});
  ASSERT_EQ(d.sections.size(), 1u) << describe(d);
  EXPECT_EQ(d.sections[0].text.find("root:"), std::string::npos) << describe(d);
}

TEST(OfficePptx, TabInRunsIsTextTabInTabListIsNot) {
  const char a[] = R"(xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main")";
  const char p[] = R"(xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main")";
  const char r[] = R"(xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships")";
  std::string presentation = std::string("<p:presentation ") + p + " " + r +
                             R"(><p:sldIdLst><p:sldId id="256" r:id="rId7"/></p:sldIdLst></p:presentation>)";
  // An absolute, percent-encoded target.
  std::string rels = relationships({{"rId7", "/ppt/slides/my%20slide.xml"}}, "slide");
  std::string slide = std::string("<p:sld ") + a + " " + p + "><p:cSld><p:spTree>" +
                      R"(<p:grpSp><p:sp><p:nvSpPr><p:nvPr><p:ph type="ctrTitle"/></p:nvPr></p:nvSpPr>)"
                      R"(<p:txBody><a:p><a:r><a:t>Grouped</a:t></a:r><a:br/><a:r><a:t>title</a:t></a:r></a:p></p:txBody></p:sp></p:grpSp>)"
                      R"(<p:sp><p:txBody><a:p><a:pPr><a:tabLst><a:tab pos="914400" algn="l"/></a:tabLst></a:pPr>)"
                      R"(<a:r><a:t>left</a:t></a:r><a:tab/><a:r><a:t>right</a:t></a:r></a:p></p:txBody></p:sp>)"
                      "</p:spTree></p:cSld></p:sld>";
  std::string root = root_rels("ppt/presentation.xml");
  Document d = extract_pptx(zip_in_memory({{"_rels/.rels", root},
                                           {"ppt/presentation.xml", presentation},
                                           {"ppt/_rels/presentation.xml.rels", rels},
                                           {"ppt/slides/my slide.xml", slide}}),
                            {});
  ASSERT_EQ(d.skip_reason, "") << describe(d);
  ASSERT_EQ(d.sections.size(), 1u) << describe(d);
  EXPECT_EQ(d.sections[0].signature, "Grouped title");
  EXPECT_EQ(d.sections[0].text, "Grouped\ntitle\nleft\tright");
}

std::string xlsx_with(const std::string& sheet_data) {
  std::string root = root_rels("xl/workbook.xml");
  std::string workbook = R"(<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">)"
             R"(<sheets><sheet name="Wide" sheetId="1" r:id="rId1"/></sheets></workbook>)";
  std::string rels = relationships({{"rId1", "worksheets/../worksheets/./sheet1.xml"}}, "worksheet");
  std::string sheet = "<worksheet><sheetData>" + sheet_data + "</sheetData></worksheet>";
  return zip_in_memory({{"_rels/.rels", root},
                        {"xl/workbook.xml", workbook},
                        {"xl/_rels/workbook.xml.rels", rels},
                        {"xl/worksheets/sheet1.xml", sheet}},
                       /*deflate=*/true);
}

TEST(OfficeXlsx, InlineStringsErrorsAndRowsOutOfOrder) {
  Document d = extract_xlsx(
      xlsx_with(R"(<row r="3"><c r="A3" t="e"><v>#DIV/0!</v></c><c r="C3" t="b"><v>0</v></c></row>)"
                R"(<row r="2"><c r="B2" t="inlineStr"><is><t>tab	and)"
                "\n"
                R"(newline</t></is></c></row>)"
                R"(<row><c><v>1</v></c><c><v>2</v></c></row>)"),
      {});
  ASSERT_EQ(d.sections.size(), 1u) << describe(d);
  EXPECT_EQ(d.sections[0].name, "Wide");
  EXPECT_EQ(d.sections[0].signature, "tab and newline");
  EXPECT_EQ(d.sections[0].text, "\ttab and newline\n#DIV/0!\t\tFALSE\n1\t2");
}

TEST(OfficeXlsx, FarApartCellsStayWithinTheTextBudget) {
  // 50,000 rows with a cell in column A and one in XFD (and past it): laid
  // out in full that is 800 MB of tabs.
  std::string rows;
  for (int i = 1; i <= 50000; ++i) {
    std::string n = std::to_string(i);
    rows += "<row r=\"" + n + "\"><c r=\"A" + n + "\"><v>" + n + "</v></c><c r=\"XFD" + n + "\"><v>1</v></c>" +
            "<c r=\"ZZZZZ" + n + "\"><v>2</v></c></row>";
  }
  Limits limits;
  limits.max_text_bytes = 1 << 20;
  Document d = extract_xlsx(xlsx_with(rows), limits);
  ASSERT_EQ(d.sections.size(), 1u) << describe(d);
  EXPECT_LE(d.sections[0].text.size(), limits.max_text_bytes);
  EXPECT_TRUE(d.sections[0].text.starts_with("1" + std::string(16383, '\t') + "1\t2\n2\t")) << d.sections[0].text.substr(0, 20);
  EXPECT_TRUE(contains(d.errors, "text after")) << describe(d);
}

}  // namespace
}  // namespace comp::docs
