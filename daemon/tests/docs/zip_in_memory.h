// Test and fuzz support (office_test.cc, office_fuzz.cc): a zip archive
// written in memory by libzip, for packages made part by part, and the
// office_fuzz input that is such a package.
#pragma once

#include <zip.h>

#include "docs/document.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace comp::docs::test_support {

struct Member {
  std::string name;
  std::string_view content;  // must live until zip_in_memory returns
};

// The archive's bytes, members stored (or deflated); "" when libzip fails.
inline std::string zip_in_memory(const std::vector<Member>& members, bool deflate = false) {
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, nullptr);
  if (buffer == nullptr) return {};
  zip_source_keep(buffer);  // read back after zip_close
  zip_t* zip = zip_open_from_source(buffer, ZIP_TRUNCATE, nullptr);
  if (zip == nullptr) {
    zip_source_free(buffer);
    zip_source_free(buffer);
    return {};
  }
  for (const Member& member : members) {
    zip_source_t* part = zip_source_buffer(zip, member.content.data(), member.content.size(), 0);
    if (part == nullptr) continue;
    zip_int64_t index = zip_file_add(zip, member.name.c_str(), part, ZIP_FL_OVERWRITE);
    if (index < 0) {
      zip_source_free(part);
      continue;
    }
    zip_set_file_compression(zip, static_cast<zip_uint64_t>(index), deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
  }
  std::string out;
  if (zip_close(zip) != 0) {
    zip_discard(zip);
  } else if (zip_source_open(buffer) == 0) {
    char chunk[64 * 1024];
    for (zip_int64_t n; (n = zip_source_read(buffer, chunk, sizeof chunk)) > 0;) {
      out.append(chunk, static_cast<std::size_t>(n));
    }
    zip_source_close(buffer);
  }
  zip_source_free(buffer);
  return out;
}

// The small limits office_fuzz runs with; regression inputs run with them too.
inline Limits office_fuzz_limits() {
  Limits limits;
  limits.max_file_bytes = 8u << 20;
  limits.max_uncompressed_bytes = 8u << 20;
  limits.max_member_bytes = 4u << 20;
  limits.max_members = 1000;
  limits.max_xml_depth = 64;
  limits.max_cells_per_sheet = 5000;
  limits.max_text_bytes = 1u << 20;
  return limits;
}

// office_fuzz's second kind of input: a tag ('D' docx, 'S' pptx, 'X' xlsx)
// then XML parts separated by NUL bytes, stored under these names in order.
struct PartsLayout {
  char tag;
  std::vector<const char*> names;
};

inline const std::vector<PartsLayout>& parts_layouts() {
  static const std::vector<PartsLayout> layouts = {
      {'D',
       {"_rels/.rels", "word/document.xml", "word/_rels/document.xml.rels", "word/styles.xml", "word/footnotes.xml",
        "word/comments.xml"}},
      {'S',
       {"_rels/.rels", "ppt/presentation.xml", "ppt/_rels/presentation.xml.rels", "ppt/slides/slide1.xml",
        "ppt/slides/_rels/slide1.xml.rels", "ppt/notesSlides/notesSlide1.xml", "ppt/slides/slide2.xml"}},
      {'X',
       {"_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/sharedStrings.xml",
        "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"}},
  };
  return layouts;
}

struct PartsPackage {
  char tag;         // 'D', 'S' or 'X'
  std::string zip;  // the package
};

// The package a parts input stands for; nullopt when `input` is not one.
inline std::optional<PartsPackage> package_from_parts(std::string_view input) {
  for (const PartsLayout& layout : parts_layouts()) {
    if (input.empty() || input[0] != layout.tag) continue;
    std::vector<Member> members;
    std::string_view rest = input.substr(1);
    while (members.size() < layout.names.size()) {
      std::size_t end = rest.find('\0');
      members.push_back({layout.names[members.size()], rest.substr(0, end)});
      if (end == std::string_view::npos) break;
      rest = rest.substr(end + 1);
    }
    return PartsPackage{layout.tag, zip_in_memory(members)};
  }
  return std::nullopt;
}

}  // namespace comp::docs::test_support
