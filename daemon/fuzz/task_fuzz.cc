// libFuzzer target for the task reader (pipeline::analyze_task): any bytes
// as an issue text, up to the 4 MB scripts/fuzz.sh allows (the reader reads
// the first megabyte). It must return, in bounded time, whatever the text
// holds: frames, paths, quoted messages, names, words. Built from task.cc and
// the regex unit alone (no grammars), so it builds in seconds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pipeline/task.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  comp::pipeline::TaskTerms terms =
      comp::pipeline::analyze_task(std::string_view(reinterpret_cast<const char*>(data), size));
  (void)terms;
  return 0;
}
