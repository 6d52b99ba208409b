// Office Open XML extraction (docs internal): what `extract` calls for .docx,
// .pptx and .xlsx. Each reads the zip from memory within `limits` and never
// throws: a file it cannot read gets a skip_reason, partial problems go into
// errors. `bytes` need only live for the call.
#pragma once

#include <string_view>

#include "docs/document.h"

namespace comp::docs {

// Paragraphs and tables; a section per heading, "(start)" before the first,
// then "Footnotes", "Endnotes" and "Comments" when present.
Document extract_docx(std::string_view bytes, const Limits& limits);
// A section per slide in presentation order ("Slide N"), titled by its title
// placeholder, with its tables and its speaker notes ("Notes: ...").
Document extract_pptx(std::string_view bytes, const Limits& limits);
// A section per sheet in workbook order: tab-separated rows, the first
// non-empty row as signature.
Document extract_xlsx(std::string_view bytes, const Limits& limits);

}  // namespace comp::docs
