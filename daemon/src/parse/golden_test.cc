// Golden tests: every fixture under daemon/tests/golden/<language>/ is parsed
// and its symbols compared with the checked-in <fixture>.symbols beside it.
// After an intended change, refresh the expectations with
//   COMP_UPDATE_GOLDEN=1 build/daemon/parse_test --gtest_filter='Golden*'
// and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "parse/symbols.h"

namespace comp::parse {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// One line per symbol: "L:C-EL:EC kind scope [exported]  | signature".
std::string render(const ParseResult& result) {
  std::ostringstream out;
  for (const Symbol& symbol : result.symbols) {
    out << symbol.line << ":" << symbol.column << "-" << symbol.end_line << ":" << symbol.end_column << " "
        << symbol.kind << " " << symbol.scope << (symbol.is_exported ? " exported" : "") << "  | "
        << symbol.signature << "\n";
  }
  for (const std::string& error : result.errors) out << "error: " << error << "\n";
  return out.str();
}

struct Fixture {
  lang::Language language;
  fs::path source;
};

std::vector<Fixture> fixtures() {
  std::vector<Fixture> out;
  fs::path root = fs::path(COMP_SOURCE_DIR) / "daemon" / "tests" / "golden";
  for (lang::Language language : lang::all_languages()) {
    fs::path directory = root / std::string(lang::name(language));
    if (!fs::is_directory(directory)) continue;
    for (const auto& entry : fs::directory_iterator(directory)) {
      if (entry.path().extension() == ".symbols") continue;
      out.push_back({language, entry.path()});
    }
  }
  std::sort(out.begin(), out.end(), [](const Fixture& a, const Fixture& b) { return a.source < b.source; });
  return out;
}

TEST(Golden, EveryLanguageHasAFixture) {
  std::vector<Fixture> all = fixtures();
  for (lang::Language language : lang::all_languages()) {
    bool found = std::any_of(all.begin(), all.end(), [&](const Fixture& f) { return f.language == language; });
    EXPECT_TRUE(found) << "no golden fixture for " << lang::name(language);
  }
}

TEST(Golden, SymbolsMatchExpectations) {
  bool update = std::getenv("COMP_UPDATE_GOLDEN") != nullptr;
  SymbolExtractor extractor;
  for (const Fixture& fixture : fixtures()) {
    SCOPED_TRACE(fixture.source.string());
    std::string relative = std::string(lang::name(fixture.language)) + "/" + fixture.source.filename().string();
    std::string actual = render(extractor.extract(fixture.language, read_all(fixture.source), relative));
    fs::path expected_path = fixture.source;
    expected_path += ".symbols";
    if (update) {
      std::ofstream(expected_path, std::ios::binary) << actual;
      continue;
    }
    ASSERT_TRUE(fs::exists(expected_path)) << "missing " << expected_path << ": run with COMP_UPDATE_GOLDEN=1";
    EXPECT_EQ(read_all(expected_path), actual);
  }
}

}  // namespace
}  // namespace comp::parse
