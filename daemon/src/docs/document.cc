#include "docs/document.h"
#include "utf8/utf8.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>

#include "docs/office.h"
#include "docs/parquet.h"

namespace comp::docs {
namespace {

namespace fs = std::filesystem;

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

std::string describe_size(std::uint64_t bytes) { return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes"); }

// An open file descriptor, closed on scope exit.
class File {
 public:
  explicit File(int fd) : fd_(fd) {}
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// `length` bytes at `offset` (fewer only if the file shrank meanwhile).
bool read_at(int fd, std::uint64_t offset, std::uint64_t length, std::string& out, std::string& error) {
  out.resize(length);
  std::uint64_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::string("read error: ") + std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    done += static_cast<std::uint64_t>(n);
  }
  out.resize(done);
  return true;
}

// Parquet: the first 4 bytes, the last 8, then the footer they announce.
Document extract_parquet_file(int fd, std::uint64_t size, const Limits& limits) {
  Document doc;
  doc.format = Format::kParquet;
  std::string head, tail, error;
  const std::uint64_t last = std::min<std::uint64_t>(size, 8);
  if (!read_at(fd, 0, std::min<std::uint64_t>(size, 4), head, error) || !read_at(fd, size - last, last, tail, error)) {
    doc.skip_reason = error;
    return doc;
  }
  const std::uint64_t tail_size = parquet_tail_size(tail, size, limits);
  if (tail_size > tail.size() && !read_at(fd, size - tail_size, tail_size, tail, error)) {
    doc.skip_reason = error;
    return doc;
  }
  return extract_parquet(head, tail, size, limits);
}

// Writes `bytes` to a private temporary file for pdftotext, removed after.
Document extract_pdf_bytes(std::string_view bytes, const Limits& limits) {
  Document doc;
  doc.format = Format::kPdf;
  std::error_code ec;
  fs::path dir = fs::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string name = (dir / "comp-pdf-XXXXXX.pdf").string();
  const int fd = ::mkstemps(name.data(), 4);
  if (fd < 0) {
    doc.skip_reason = std::string("cannot create a temporary file for pdftotext: ") + std::strerror(errno);
    return doc;
  }
  bool written = true;
  {
    File file(fd);
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        written = false;
        doc.skip_reason = std::string("cannot write a temporary file for pdftotext: ") + std::strerror(errno);
        break;
      }
      done += static_cast<std::size_t>(n);
    }
  }
  if (written) doc = extract_pdf(name, limits);
  ::unlink(name.c_str());
  return doc;
}

// --- render ---------------------------------------------------------------

// Valid UTF-8: each maximal invalid subsequence becomes U+FFFD (the WHATWG
// decoder's rule, as browsers and Node.js read files); CR LF and lone CR
// become LF; NUL becomes U+FFFD (C-string consumers would stop there).
std::string clean_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '\r') {
        out += '\n';
        i += (i + 1 < n && s[i + 1] == '\n') ? 2 : 1;
      } else if (c == 0) {
        out += utf8::kReplacement;
        ++i;
      } else {
        out += static_cast<char>(c);
        ++i;
      }
      continue;
    }
    std::size_t skip = 0;
    std::size_t length = utf8::sequence(s, i, &skip);
    if (length) {
      out.append(s.substr(i, length));
      i += length;
    } else {
      out += utf8::kReplacement;  // one per maximal ill-formed subpart
      i += skip;
    }
  }
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\v' || c == '\r'; }

std::string trim_trailing(std::string s) {
  while (!s.empty() && is_space(s.back())) s.pop_back();
  return s;
}

// Leading blank lines and all trailing whitespace removed.
std::string trim_text(std::string s) {
  s = trim_trailing(std::move(s));
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size() && is_space(s[i]); ++i) {
    if (s[i] == '\n') start = i + 1;
  }
  return s.substr(start);
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

// The lines a section starts with, before its text ("" = none).
std::string heading_of(const Section& s) {
  if (s.kind == "document") return "";
  if (s.kind == "column") return "- " + one_line(s.name) + ": " + one_line(s.signature);
  if (s.kind == "schema") return "# Parquet: " + one_line(s.signature);
  if (s.kind == "page") return "# " + one_line(s.name);
  if (s.kind == "sheet") {
    std::string heading = "# Sheet: " + one_line(s.name);
    const std::string header = trim_text(s.signature);
    if (!header.empty()) heading += "\n" + header;
    return heading;
  }
  if (s.kind == "section") return std::string(static_cast<std::size_t>(std::clamp(s.level, 1, 6)), '#') + " " + one_line(s.name);
  // "slide" and any other kind: "# Slide 3: Title".
  std::string heading = "# " + one_line(s.name);
  if (!s.signature.empty()) heading += ": " + one_line(trim_trailing(s.signature));
  return heading;
}

std::uint32_t count_lines(std::string_view block) {
  return block.empty() ? 0 : static_cast<std::uint32_t>(std::count(block.begin(), block.end(), '\n') + 1);
}

}  // namespace

std::optional<Format> format_of(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = base.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;  // ".pdf" alone is a hidden file's name
  const std::string_view ext = base.substr(dot + 1);
  if (iequals(ext, "docx")) return Format::kDocx;
  if (iequals(ext, "pptx")) return Format::kPptx;
  if (iequals(ext, "xlsx")) return Format::kXlsx;
  if (iequals(ext, "pdf")) return Format::kPdf;
  if (iequals(ext, "parquet")) return Format::kParquet;
  return std::nullopt;
}

const char* name(Format format) {
  switch (format) {
    case Format::kDocx: return "docx";
    case Format::kPptx: return "pptx";
    case Format::kXlsx: return "xlsx";
    case Format::kPdf: return "pdf";
    case Format::kParquet: return "parquet";
  }
  return "unknown";
}

Document extract(Format format, std::string_view bytes, const Limits& limits) {
  Document doc;
  try {
    // Parquet reads only its footer, which read_parquet_footer bounds itself.
    if (format != Format::kParquet && bytes.size() > limits.max_file_bytes) {
      doc.skip_reason = "too large (" + describe_size(bytes.size()) + ")";
    } else {
      switch (format) {
        case Format::kDocx: doc = extract_docx(bytes, limits); break;
        case Format::kPptx: doc = extract_pptx(bytes, limits); break;
        case Format::kXlsx: doc = extract_xlsx(bytes, limits); break;
        case Format::kPdf: doc = extract_pdf_bytes(bytes, limits); break;
        case Format::kParquet: doc = extract_parquet(bytes, bytes, bytes.size(), limits); break;
      }
    }
  } catch (const std::exception& e) {
    doc = Document{};
    doc.skip_reason = std::string("extraction failed: ") + e.what();
  } catch (...) {
    doc = Document{};
    doc.skip_reason = "extraction failed";
  }
  doc.format = format;
  return doc;
}

Document extract_file(Format format, const fs::path& file, const Limits& limits) {
  Document doc;
  doc.format = format;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
    File fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) {
      doc.skip_reason = std::string("cannot open: ") + std::strerror(errno);
      return doc;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
      doc.skip_reason = std::string("cannot stat: ") + std::strerror(errno);
      return doc;
    }
    if (!S_ISREG(st.st_mode)) {
      doc.skip_reason = "not a regular file";
      return doc;
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (format == Format::kParquet) return extract_parquet_file(fd.get(), size, limits);
    if (size > limits.max_file_bytes) {
      doc.skip_reason = "too large (" + describe_size(size) + ")";
      return doc;
    }
    if (format == Format::kPdf) return extract_pdf(file, limits);
    std::string bytes, error;
    if (!read_at(fd.get(), 0, size, bytes, error)) {
      doc.skip_reason = error;
      return doc;
    }
    return extract(format, bytes, limits);
  } catch (const std::exception& e) {
    doc = Document{};
    doc.format = format;
    doc.skip_reason = std::string("extraction failed: ") + e.what();
  }
  return doc;
}

// Layout: sections in order, a blank line between them except between
// consecutive columns (one Markdown list), headings on one line (newlines in
// names become spaces), section levels clamped to Markdown's 1..6, text with
// leading blank lines and trailing whitespace removed. The sanitized name,
// signature and text are written back, so that a section's fields are what
// its lines show and a second render gives the same text.
std::string render(Document& document, const Limits& limits) {
  std::string out;
  std::uint32_t last_line = 0;        // lines in `out` so far
  const Section* previous = nullptr;  // the last section that produced lines
  auto append = [&](Section& s, std::string_view separator, std::string_view block) {
    out += separator;
    out += block;
    const auto newlines = static_cast<std::uint32_t>(separator.size());  // the separator is only newlines
    s.line = last_line + (newlines == 0 ? 1 : newlines);
    s.end_line = s.line + count_lines(block) - 1;
    last_line = s.end_line;
    previous = &s;
  };
  for (std::size_t i = 0; i < document.sections.size(); ++i) {
    Section& s = document.sections[i];
    s.name = clean_text(s.name);
    s.signature = clean_text(s.signature);
    s.text = s.kind == "column" ? std::string() : trim_text(clean_text(s.text));
    const std::string heading = heading_of(s);
    const std::string prefix = heading.empty() || s.text.empty() ? heading : heading + "\n";
    const std::string block = prefix + s.text;
    if (block.empty()) {
      s.line = s.end_line = 0;  // a section without lines (an empty "document")
      continue;
    }
    // A blank line before each section, except between consecutive columns.
    const bool list_item = s.kind == "column" && previous != nullptr && previous->kind == "column";
    const std::string separator = out.empty() ? "" : (list_item ? "\n" : "\n\n");
    // +1: the final newline.
    if (out.size() + separator.size() + block.size() + 1 <= limits.max_text_bytes) {
      append(s, separator, block);
      continue;
    }
    // Over the cap: keep the heading and the whole lines of text that fit,
    // drop the sections after.
    const std::size_t used = out.size() + separator.size() + 1;
    const std::size_t room = limits.max_text_bytes > used ? limits.max_text_bytes - used : 0;
    std::size_t kept = i;
    std::string what;
    if (!s.text.empty() && room > prefix.size()) {
      const std::size_t text_room = room - prefix.size();
      std::size_t cut = s.text.rfind('\n', text_room);
      if (cut == std::string::npos) {
        cut = text_room;
        while (cut > 0 && (static_cast<unsigned char>(s.text[cut]) & 0xC0) == 0x80) --cut;
      }
      s.text = trim_trailing(s.text.substr(0, cut));
      const std::string cut_block = s.text.empty() ? heading : prefix + s.text;
      if (!cut_block.empty()) {
        append(s, separator, cut_block);
        kept = i + 1;
        what = "section '" + one_line(s.name) + "' cut, ";
      }
    }
    const std::size_t dropped = document.sections.size() - kept;
    document.errors.push_back("text capped at " + describe_size(limits.max_text_bytes) + ": " + what +
                              std::to_string(dropped) + (dropped == 1 ? " section" : " sections") + " dropped");
    document.sections.resize(kept);
    break;
  }
  if (!out.empty()) out += '\n';
  return out;
}

}  // namespace comp::docs
