// libFuzzer target for the task reader: any bytes as an issue text, up to
// the 4 MB scripts/fuzz.sh allows (the reader reads the first megabyte),
// read the way run_pipeline reads it: the visible text (template comments
// dropped, `visible_text`), its terms (`analyze_task`), the singulars of its
// words (`with_singulars`) and the proper names of its first line
// (`proper_names`). Each must return, in bounded time, whatever the text
// holds. Built from task.cc and the regex unit alone (no grammars), so it
// builds in seconds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "pipeline/task.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string visible = comp::pipeline::visible_text(std::string_view(reinterpret_cast<const char*>(data), size));
  comp::pipeline::TaskTerms terms = comp::pipeline::analyze_task(visible);
  std::vector<std::string> words = comp::pipeline::with_singulars(terms.words);
  std::vector<std::string> names = comp::pipeline::proper_names(std::string_view(visible).substr(0, visible.find('\n')));
  (void)words;
  (void)names;
  return 0;
}
