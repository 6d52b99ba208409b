// libFuzzer target for the .docx, .pptx and .xlsx extractors, with small
// limits. They must return (never throw, crash, leak or hang) whatever the
// bytes. Two kinds of input:
//
// - a zip (anything not starting with D, S or X): through all three
//   extractors. Mutations of deflated members mostly end in CRC errors, so
//   these exercise the zip layer;
// - 'D', 'S' or 'X' then XML parts separated by NUL bytes: the parts are put
//   uncompressed into a package under fixed names (parts_layouts() in
//   daemon/tests/docs/zip_in_memory.h) and extracted as a docx, pptx or xlsx,
//   so that mutations reach the XML and relationship handling.
//   scripts/fuzz.sh makes such seeds from the fixtures.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../tests/docs/zip_in_memory.h"
#include "docs/office.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const comp::docs::Limits limits = comp::docs::test_support::office_fuzz_limits();
  std::string_view bytes(reinterpret_cast<const char*>(data), size);

  if (auto parts = comp::docs::test_support::package_from_parts(bytes)) {
    if (parts->tag == 'D') comp::docs::extract_docx(parts->zip, limits);
    if (parts->tag == 'S') comp::docs::extract_pptx(parts->zip, limits);
    if (parts->tag == 'X') comp::docs::extract_xlsx(parts->zip, limits);
    return 0;
  }
  comp::docs::extract_docx(bytes, limits);
  comp::docs::extract_pptx(bytes, limits);
  comp::docs::extract_xlsx(bytes, limits);
  return 0;
}
