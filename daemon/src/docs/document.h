// docs: text and structure out of the documents a repository holds (Office
// .docx/.pptx/.xlsx, PDF, Parquet), so that they are searched and sent like
// code. Knows nothing of SQLite or JSON.
//
// A Document is a list of Sections (a heading's section, a slide, a sheet, a
// page, a Parquet schema and its columns). `render` lays them out as one
// Markdown-like text; each section knows its line range in it. That text is
// what the full-text index holds and what the pipeline sends.
//
// Extraction never throws and never crashes the caller on hostile input: a
// document it cannot read gets a `skip_reason`; partial problems go into
// `errors`. Limits bound the work (zip members, uncompressed bytes, ratio,
// XML depth, cells, time), and PDF text comes from a child process with a
// time and memory limit.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace comp::docs {

enum class Format { kDocx, kPptx, kXlsx, kPdf, kParquet };

// By extension (case-insensitive): .docx .pptx .xlsx .pdf .parquet.
std::optional<Format> format_of(std::string_view path);
const char* name(Format format);  // "docx", "pptx", "xlsx", "pdf", "parquet"

struct Limits {
  std::uint64_t max_file_bytes = 256ull << 20;          // documents larger than this are skipped
  std::uint64_t max_uncompressed_bytes = 128ull << 20;  // sum over the zip members read
  std::uint64_t max_member_bytes = 64ull << 20;         // one zip member
  std::size_t max_members = 20000;                      // entries in a zip
  double max_ratio = 200;                               // uncompressed / compressed, per member
  std::size_t max_xml_depth = 256;
  std::size_t max_cells_per_sheet = 200000;
  std::size_t max_text_bytes = 16u << 20;                // of extracted text per document
  std::chrono::milliseconds pdf_timeout{20000};
  std::uint64_t pdf_memory_bytes = 1ull << 30;           // address space of the PDF child
};

struct Section {
  std::string kind;       // "section" (docx heading), "slide", "sheet", "page", "schema", "column", "document"
  std::string name;       // the heading text, "Slide 3", the sheet's name, "Page 2", a column's dotted path
  std::string signature;  // a slide's title, a sheet's header row, a column's type, the schema summary
  std::string text;       // the section's own text (may be empty)
  int level = 0;          // heading level for docx sections (1 = top); nesting depth for Parquet columns
  std::uint32_t line = 0, end_line = 0;  // 1-based, inclusive, in render()'s text (set by render)
};

struct Document {
  Format format{};
  std::vector<Section> sections;
  std::vector<std::string> errors;  // problems that left the rest readable
  std::string skip_reason;          // set when nothing could be read: "encrypted", "corrupt zip: ...", "zip bomb: ...", "not a docx: it is a PDF", "timeout", ...
};

// From the file's bytes (Office, Parquet). Never throws.
Document extract(Format format, std::string_view bytes, const Limits& limits = {});
// PDF: from the file, through a child process (`pdftotext`). Never throws.
Document extract_pdf(const std::filesystem::path& file, const Limits& limits = {});
// Either of the above by format; reads the file itself. Never throws.
Document extract_file(Format format, const std::filesystem::path& file, const Limits& limits = {});

// The document as text: per section a Markdown heading line ("# Slide 2:
// Title", "## Heading", "# Sheet: Sales", "# Page 3", "# Parquet: ...", a
// column's "- path: type") then its text. Sets each section's line/end_line
// (both 0 for a section that renders no line: an empty "document"). Valid
// UTF-8 out (invalid bytes replaced), at most limits.max_text_bytes.
std::string render(Document& document, const Limits& limits = {});

}  // namespace comp::docs
