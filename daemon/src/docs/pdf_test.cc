// PDF through pdftotext in a child process, on PDFs written by pdfkit
// (daemon/tests/docs/make_parquet_pdf.mjs; pdf.oracle.json lists the strings
// written on each page: the producer's input, independent of poppler), and on
// hostile or awkward input: random bytes, truncated and encrypted files, a
// relative path that looks like an option, a timeout, a tiny memory limit,
// output beyond the text limit, pdftotext missing. Each ends in text, errors
// or a skip_reason: never a crash, a hang or a stray child.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "docs/document.h"
#include "docs/test_support.h"

extern char** environ;

namespace comp::docs {
namespace {

using namespace comp::docs::testing;

namespace fs = std::filesystem;
using nlohmann::json;






// Runs argv (no shell) and returns its stdout, or nullopt when it fails.
std::optional<std::string> run(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  std::string out;
  if (rc == 0) {
    char buf[65536];
    ssize_t n;
    while ((n = ::read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (rc != 0) return std::nullopt;
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

std::string trim_trailing(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\f')) s.pop_back();
  return s;
}

// No child may outlive extract_pdf: every pdftotext it started was reaped.
void expect_no_children() {
  int status = 0;
  EXPECT_EQ(::waitpid(-1, &status, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

const json& oracle() {
  static const json value = json::parse(read(kFixtures / "pdf.oracle.json"));
  return value;
}

// ---------------------------------------------------------------- real PDFs

TEST(Pdf, PagesHoldTheStringsTheProducerWrote) {
  std::size_t strings = 0;
  for (const char* name : {"three_pages.pdf", "empty_page.pdf"}) {
    SCOPED_TRACE(name);
    const json& pages = oracle()[name]["pages"];
    const Document doc = extract_pdf(kFixtures / name);
    ASSERT_EQ(doc.skip_reason, "");
    EXPECT_EQ(doc.format, Format::kPdf);
    EXPECT_TRUE(doc.errors.empty()) << describe(doc);
    ASSERT_EQ(doc.sections.size(), pages.size()) << describe(doc);
    for (std::size_t i = 0; i < pages.size(); ++i) {
      const Section& s = doc.sections[i];
      EXPECT_EQ(s.kind, "page");
      EXPECT_EQ(s.name, "Page " + std::to_string(i + 1));
      for (const auto& expected : pages[i]) {
        ++strings;
        EXPECT_NE(s.text.find(expected.get<std::string>()), std::string::npos)
            << "page " << i + 1 << " lacks " << expected << "\n" << describe(doc);
      }
      // The signature is the page's first line: here the heading the producer wrote first.
      if (!pages[i].empty()) {
        EXPECT_EQ(s.signature, pages[i][0].get<std::string>());
      } else {
        EXPECT_EQ(s.signature, "");
        EXPECT_EQ(s.text, "");
      }
    }
  }
  std::cout << "[ pdf oracle ] " << strings << " strings found on their pages\n";
}

TEST(Pdf, EachPageMatchesPdftotextRunOnThatPageAlone) {
  const fs::path file = kFixtures / "three_pages.pdf";
  const Document doc = extract_pdf(file);
  ASSERT_EQ(doc.sections.size(), 3u);
  for (int page = 1; page <= 3; ++page) {
    const std::optional<std::string> alone = run({"pdftotext", "-f", std::to_string(page), "-l", std::to_string(page),
                                                  "-enc", "UTF-8", "-eol", "unix", file.string(), "-"});
    ASSERT_TRUE(alone);
    EXPECT_EQ(doc.sections[static_cast<std::size_t>(page) - 1].text, trim_trailing(*alone)) << page;
  }
}

TEST(Pdf, NonAsciiTextComesOutAsUtf8) {
  const Document doc = extract_pdf(kFixtures / "three_pages.pdf");
  ASSERT_EQ(doc.sections.size(), 3u);
  EXPECT_NE(doc.sections[1].text.find("Grüße aus Köln"), std::string::npos);
  EXPECT_NE(doc.sections[1].text.find("12 € per unit – “quoted”"), std::string::npos) << doc.sections[1].text;
}

TEST(Pdf, RenderGivesAHeadingPerPage) {
  Document doc = extract_file(Format::kPdf, kFixtures / "empty_page.pdf");
  const std::string text = render(doc);
  EXPECT_EQ(text,
            "# Page 1\nBefore the gap\nFirst page text alpha.\n\n"
            "# Page 2\n\n"
            "# Page 3\nAfter the gap\nThird page text omega.\n");
  EXPECT_EQ(doc.sections[1].line, 5u);
  EXPECT_EQ(doc.sections[1].end_line, 5u);
  EXPECT_EQ(doc.sections[2].line, 7u);
}

TEST(Pdf, EncryptedIsSkipped) {
  ASSERT_TRUE(oracle()["encrypted.pdf"]["encrypted"].get<bool>());
  const Document doc = extract_pdf(kFixtures / "encrypted.pdf");
  EXPECT_EQ(doc.skip_reason.rfind("encrypted", 0), 0u) << doc.skip_reason;
  EXPECT_NE(doc.skip_reason.find("Incorrect password"), std::string::npos) << doc.skip_reason;
  EXPECT_TRUE(doc.sections.empty());
  expect_no_children();
}

// ---------------------------------------------------------------- hostile input

TEST(PdfHostile, RandomBytesAreSkipped) {
  TempDir dir;
  std::mt19937 rng(3);
  for (int round = 0; round < 5; ++round) {
    std::string junk(1000 + rng() % 5000, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    if (round % 2 == 0) junk.replace(0, 9, "%PDF-1.7\n");
    const fs::path file = dir.path() / ("junk" + std::to_string(round) + ".pdf");
    write(file, junk);
    const Document doc = extract_pdf(file);
    EXPECT_NE(doc.skip_reason, "") << describe(doc);
    EXPECT_EQ(doc.skip_reason.rfind("pdftotext failed (exit 1): ", 0), 0u) << doc.skip_reason;
    EXPECT_TRUE(doc.sections.empty());
  }
  expect_no_children();
}

TEST(PdfHostile, TruncatedPdfGivesTextOrAReason) {
  TempDir dir;
  const std::string bytes = read(kFixtures / "three_pages.pdf");
  for (const std::size_t keep : {bytes.size() / 4, bytes.size() / 2, bytes.size() - 200, bytes.size() - 10}) {
    const fs::path file = dir.path() / ("cut" + std::to_string(keep) + ".pdf");
    write(file, bytes.substr(0, keep));
    const Document doc = extract_pdf(file);
    // poppler reconstructs what it can: some pages or a reason, never both empty-handed silently.
    EXPECT_TRUE(!doc.skip_reason.empty() || !doc.sections.empty() || !doc.errors.empty()) << keep;
    if (!doc.skip_reason.empty()) {
      EXPECT_TRUE(doc.sections.empty());
    }
  }
  expect_no_children();
}

TEST(PdfHostile, MissingFileIsSkipped) {
  const Document doc = extract_pdf("/nonexistent/dir/file.pdf");
  EXPECT_NE(doc.skip_reason.find("Couldn't open file"), std::string::npos) << doc.skip_reason;
}

// A relative path starting with '-' would be an option to pdftotext: it is
// made absolute first.
TEST(PdfHostile, RelativePathThatLooksLikeAnOption) {
  TempDir dir;
  write(dir.path() / "-v.pdf", read(kFixtures / "three_pages.pdf"));
  const fs::path before = fs::current_path();
  fs::current_path(dir.path());
  const Document doc = extract_pdf("-v.pdf");
  fs::current_path(before);
  ASSERT_EQ(doc.skip_reason, "") << describe(doc);
  EXPECT_EQ(doc.sections.size(), 3u);
}

TEST(PdfHostile, TimeoutKillsTheChild) {
  Limits limits;
  limits.pdf_timeout = std::chrono::milliseconds(1);  // less than pdftotext needs to start
  const auto start = std::chrono::steady_clock::now();
  const Document doc = extract_pdf(kFixtures / "three_pages.pdf", limits);
  // Returns instead of hanging (a liveness bound, not a speed assertion).
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(doc.skip_reason, "timeout") << describe(doc);
  EXPECT_TRUE(doc.sections.empty());
  expect_no_children();
}

TEST(PdfHostile, TinyMemoryLimitFailsCleanly) {
  Limits limits;
  limits.pdf_memory_bytes = 4 << 20;  // too small to even load poppler
  const Document doc = extract_pdf(kFixtures / "three_pages.pdf", limits);
  EXPECT_NE(doc.skip_reason, "") << describe(doc);
  EXPECT_TRUE(doc.sections.empty());
  expect_no_children();
}

TEST(PdfHostile, OutputBeyondTheTextLimitIsCut) {
  Limits limits;
  limits.max_text_bytes = 100;
  const Document doc = extract_pdf(kFixtures / "three_pages.pdf", limits);
  ASSERT_EQ(doc.skip_reason, "") << describe(doc);
  ASSERT_FALSE(doc.sections.empty());
  std::size_t total = 0;
  for (const Section& s : doc.sections) total += s.text.size();
  EXPECT_LE(total, 100u);
  EXPECT_EQ(doc.sections[0].signature, "Quarterly Report");
  bool noted = false;
  for (const std::string& e : doc.errors) noted |= e.find("max_text_bytes") != std::string::npos;
  EXPECT_TRUE(noted) << describe(doc);
  expect_no_children();
}

TEST(PdfHostile, PdftotextMissing) {
  const char* saved = std::getenv("PATH");
  const std::string path = saved != nullptr ? saved : "";
  ::setenv("PATH", "/nonexistent-bin", 1);
  const Document doc = extract_pdf(kFixtures / "three_pages.pdf");
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(doc.skip_reason, "pdftotext not installed (Debian poppler-utils)");
}

TEST(PdfHostile, DescriptorsAreNotLeaked) {
  auto open_fds = [] {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
    return n;
  };
  const std::size_t before = open_fds();
  for (int i = 0; i < 5; ++i) (void)extract_pdf(kFixtures / (i % 2 ? "encrypted.pdf" : "three_pages.pdf"));
  EXPECT_EQ(open_fds(), before);
}

}  // namespace
}  // namespace comp::docs
