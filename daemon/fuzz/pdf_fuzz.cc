// libFuzzer target for the PDF path (docs::extract with Format::kPdf: the
// bytes go to a temporary file and through pdftotext in a child process with
// a 2 s timeout and a 512 MiB memory limit), then render. It fuzzes comP's
// side: the child's spawning, limits, exit statuses, output splitting and
// reaping; poppler's own parser gets whatever the mutations make. Slow (a
// process per input, ~100 executions per second) but cheap to keep.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "docs/document.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  comp::docs::Limits limits;
  limits.max_file_bytes = 8u << 20;
  limits.max_text_bytes = 1u << 20;
  limits.pdf_timeout = std::chrono::milliseconds(2000);
  limits.pdf_memory_bytes = 512ull << 20;
  comp::docs::Document doc =
      comp::docs::extract(comp::docs::Format::kPdf, std::string_view(reinterpret_cast<const char*>(data), size), limits);
  (void)comp::docs::render(doc, limits);
  return 0;
}
