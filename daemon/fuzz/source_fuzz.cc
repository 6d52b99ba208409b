// libFuzzer target for what comP does to every source file: symbol and
// reference extraction (parse::SymbolExtractor) and compression at levels 1
// and 2 with the re-parse check (compress::compress), whose outputs are then
// counted (tokens::count), as the pipeline does. The first byte chooses the
// language, the rest is the file. Whatever the bytes, each must return, and
// what it returns must hold together: positions inside the file, parents and
// enclosing symbols that exist, elided ranges in order and inside the input,
// never a level above the one asked. A broken promise aborts (a crash input).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "compress/compress.h"
#include "lang/language.h"
#include "parse/symbols.h"
#include "tokens/tokens.h"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "source_fuzz: broken promise: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& languages = comp::lang::all_languages();
  const comp::lang::Language language = languages[data[0] % languages.size()];
  const std::string_view source(reinterpret_cast<const char*>(data + 1), size - 1);
  std::uint32_t lines = 1;
  for (char c : source) lines += c == '\n';

  static comp::parse::SymbolExtractor extractor;
  comp::parse::ParseResult parsed = extractor.extract(language, source, "src/fuzz/input", 5000);
  for (std::size_t i = 0; i < parsed.symbols.size(); ++i) {
    const comp::parse::Symbol& symbol = parsed.symbols[i];
    check(symbol.start_byte <= symbol.end_byte && symbol.end_byte <= source.size(), "symbol bytes inside the file");
    check(symbol.line >= 1 && symbol.line <= symbol.end_line && symbol.end_line <= lines, "symbol lines inside the file");
    check(symbol.parent < static_cast<int>(i), "a symbol's parent comes before it");
    check(symbol.signature.size() <= 200, "signature at most 200 bytes");
  }
  for (const comp::parse::Reference& ref : parsed.references) {
    check(ref.byte <= source.size() && ref.line >= 1 && ref.line <= lines, "reference inside the file");
    check(ref.from < static_cast<int>(parsed.symbols.size()), "a reference's enclosing symbol exists");
  }

  comp::compress::Options options;
  options.timeout_ms = 5000;
  if (lines > 2) options.keep_lines = {{2, 2 + data[0] % (lines - 1)}};  // a body the task is about
  for (comp::compress::Level level : {comp::compress::Level::kNoComments, comp::compress::Level::kSkeleton}) {
    comp::compress::Compressed out = comp::compress::compress(language, source, level, options);
    check(static_cast<int>(out.level) <= static_cast<int>(level), "never above the level asked");
    check(out.level != level || out.reparsed_clean || out.timed_out, "a level kept only when it parsed clean");
    std::uint32_t previous = 0;
    for (const auto& [first, second] : out.elided) {
      check(previous <= first && first <= second && second <= source.size(), "elided ranges in order, inside");
      previous = second;
    }
    (void)comp::tokens::count(out.text);
  }
  return 0;
}
