// Test support for docs/: the fixtures folder, file helpers, a temporary
// directory, and a readable dump of a Document for failure messages.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "docs/document.h"

namespace comp::docs::testing {

inline const std::filesystem::path kFixtures = std::filesystem::path(COMP_SOURCE_DIR) / "daemon/tests/docs/fixtures";

inline std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A fresh directory under the temporary directory, removed at destruction.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "comp-docs-test-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string describe(const Document& document) {
  std::string out = "skip_reason: " + document.skip_reason + "\n";
  for (const Section& s : document.sections)
    out += "[" + s.kind + "] " + s.name + " sig=" + s.signature + "\n" + s.text + "\n";
  for (const std::string& e : document.errors) out += "error: " + e + "\n";
  return out;
}

inline bool contains(const std::vector<std::string>& errors, const std::string& part) {
  for (const std::string& e : errors)
    if (e.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace comp::docs::testing
