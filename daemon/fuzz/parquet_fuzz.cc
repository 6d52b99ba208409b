// libFuzzer target for the Parquet footer reader (docs::extract with
// Format::kParquet, then render), with small limits. It must return (never
// throw, crash, leak, hang or allocate without bound) whatever the bytes. Two
// kinds of input:
//
// - 'F' then a footer: the bytes are wrapped as "PAR1" + footer + length +
//   "PAR1", so every mutation reaches the Thrift decoder and the schema tree.
//   scripts/fuzz.sh makes such seeds from the fixtures' footers;
// - anything else: a whole file (magic, footer length, bounds checks).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "docs/document.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  comp::docs::Limits limits;
  limits.max_file_bytes = 8u << 20;
  limits.max_text_bytes = 1u << 20;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  std::string file;
  if (!bytes.empty() && bytes[0] == 'F') {
    const std::string_view footer = bytes.substr(1);
    file = "PAR1";
    file += footer;
    const auto n = static_cast<std::uint32_t>(footer.size());
    for (int i = 0; i < 4; ++i) file += static_cast<char>((n >> (8 * i)) & 0xFF);
    file += "PAR1";
  } else {
    file.assign(bytes);
  }
  comp::docs::Document doc = comp::docs::extract(comp::docs::Format::kParquet, file, limits);
  (void)comp::docs::render(doc, limits);
  return 0;
}
