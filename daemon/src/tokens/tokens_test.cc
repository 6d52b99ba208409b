#include "tokens/tokens.h"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace fs = std::filesystem;
using comp::tokens::count;
using comp::tokens::encode;

namespace {

struct Expected {
  const char* name;
  std::string_view text;
  std::vector<std::uint32_t> ids;  // tiktoken's
  bool gpt_tokenizer_agrees;
};

const std::vector<Expected>& expected_cases() {
  static const std::vector<Expected> cases = {
#include "tokens/tokens_expected.inc"
  };
  return cases;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// What the tokenizer sees: invalid UTF-8 replaced as WHATWG decoders do.
std::string decoded(const std::vector<std::uint32_t>& ids) {
  std::string out;
  for (auto id : ids) out += comp::tokens::token_bytes(id);
  return out;
}

// An independent UTF-8 check (not the library's).
bool is_valid_utf8(std::string_view s) {
  std::size_t i = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  while (i < s.size()) {
    unsigned c = p[i];
    std::size_t len = c < 0x80 ? 1 : (c >= 0xc2 && c <= 0xdf) ? 2 : (c >= 0xe0 && c <= 0xef) ? 3 : (c >= 0xf0 && c <= 0xf4) ? 4 : 0;
    if (!len || i + len > s.size()) return false;
    std::uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    for (std::size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xc0) != 0x80) return false;
      cp = cp << 6 | (p[i + k] & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += len;
  }
  return true;
}

// gpt-tokenizer decodes U+FEFF-prefixed byte sequences without the BOM while
// merging, and its \s (JavaScript's) has U+FEFF and lacks U+0085.
bool has_gpt_tokenizer_quirk(std::string_view text) {
  return text.find("\xef\xbb\xbf") != std::string_view::npos || text.find("\xc2\x85") != std::string_view::npos;
}

TEST(Tokens, ExpectedIdsFromTiktoken) {
  ASSERT_FALSE(expected_cases().empty());
  for (const auto& c : expected_cases()) {
    EXPECT_EQ(encode(c.text), c.ids) << c.name;
    EXPECT_EQ(count(c.text), c.ids.size()) << c.name;
    if (!c.gpt_tokenizer_agrees) {
      EXPECT_TRUE(has_gpt_tokenizer_quirk(c.text)) << c.name;
    }
  }
}

TEST(Tokens, Empty) {
  EXPECT_EQ(count(""), 0u);
  EXPECT_TRUE(encode("").empty());
}

TEST(Tokens, VocabularyAndRoundTrip) {
  EXPECT_EQ(comp::tokens::vocabulary_size(), 199998u);
  EXPECT_EQ(comp::tokens::token_bytes(0), "!");
  EXPECT_EQ(comp::tokens::token_bytes(220), " ");
  EXPECT_EQ(comp::tokens::token_bytes(199999), "");  // <|endoftext|> is no ordinary token
  for (const auto& c : expected_cases())
    if (is_valid_utf8(c.text)) {
      EXPECT_EQ(decoded(encode(c.text)), c.text) << c.name;
    }
}

TEST(Tokens, InvalidUtf8BecomesReplacementCharacters) {
  // Each maximal invalid subsequence is one U+FFFD (WHATWG, as Node.js reads files).
  EXPECT_EQ(decoded(encode("\xff\xfe abc")), "\xef\xbf\xbd\xef\xbf\xbd abc");
  EXPECT_EQ(decoded(encode("a\xe2\x82")), "a\xef\xbf\xbd");                 // truncated: one U+FFFD
  EXPECT_EQ(decoded(encode("\xed\xa0\x80")), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // a surrogate: three
  EXPECT_EQ(decoded(encode("\xf0\x9f\x91")), "\xef\xbf\xbd");              // a truncated emoji
  EXPECT_EQ(decoded(encode("\xf0\x9f\x91x")), "\xef\xbf\xbdx");
  EXPECT_EQ(count(std::string_view("\0", 1)), 1u);
  // Random bytes: never a crash, always a round trip to the sanitised text.
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::string s(static_cast<std::size_t>(rng() % 300), '\0');
    for (auto& ch : s) ch = static_cast<char>(rng());
    const auto ids = encode(s);
    EXPECT_EQ(count(s), ids.size());
    EXPECT_TRUE(is_valid_utf8(decoded(ids)));
  }
}

TEST(Tokens, LongInputs) {
  const std::size_t mb = 1 << 20;
  for (const std::string& s : {std::string(mb, 'a'), std::string(mb, '='), std::string(mb, ' '), std::string(mb, '\n'),
                               std::string(mb / 2, '\t') + "x", [&] {
                                 std::string t;
                                 while (t.size() < mb) t += "\xe6\x97\xa5\xe6\x9c\xac";  // one long CJK piece
                                 return t;
                               }()}) {
    const auto ids = encode(s);
    EXPECT_EQ(count(s), ids.size());
    EXPECT_EQ(decoded(ids), s);
    EXPECT_LT(ids.size(), s.size());
  }
  // A 1 MB source-like file: the repository's own sources, concatenated.
  std::string big;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(COMP_SOURCE_DIR) / "daemon" / "src")) {
    if (!entry.is_regular_file() || big.size() >= mb) continue;
    big += read_file(entry.path());
  }
  big.resize(std::min(big.size(), mb));
  const auto ids = encode(big);
  EXPECT_EQ(count(big), ids.size());
  EXPECT_GT(ids.size(), big.size() / 8);
}

TEST(Tokens, ThreadSafe) {
  std::vector<std::string> texts;
  for (const auto& c : expected_cases()) texts.emplace_back(c.text);
  texts.push_back(read_file(fs::path(COMP_SOURCE_DIR) / "daemon" / "src" / "tokens" / "tokens.cc"));
  std::vector<std::size_t> want;
  for (const auto& t : texts) want.push_back(encode(t).size());
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      for (int round = 0; round < 50; ++round)
        for (std::size_t i = 0; i < texts.size(); ++i)
          if (count(texts[i]) != want[i]) ++failures[k];
    });
  for (auto& t : threads) t.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

// ---------------------------------------------------------------------------
// Parity with the oracles (bench/tokens/oracle.mjs): OpenAI's tiktoken (WASM)
// must agree exactly; gpt-tokenizer too, except on text holding U+FEFF (it
// strips a BOM while merging and treats U+FEFF as a space) or U+0085.

std::string node_skip_reason() {
  const fs::path modules = fs::path(COMP_SOURCE_DIR) / "third_party" / "tokenizer" / "node_modules";
  if (!fs::exists(modules / "tiktoken") || !fs::exists(modules / "gpt-tokenizer"))
    return "third_party/tokenizer/node_modules lacks tiktoken or gpt-tokenizer: run scripts/setup.sh";
  bool found = false;
  std::istringstream path(std::getenv("PATH") ? std::getenv("PATH") : "");
  for (std::string dir; !found && std::getline(path, dir, ':');)
    found = !dir.empty() && access((fs::path(dir) / "node").c_str(), X_OK) == 0;
  if (!found) return "node is not on PATH";
  return "";
}

// Runs node with an argument vector (no shell); returns stdout's lines.
std::vector<std::string> run_node(const std::vector<std::string>& args) {
  std::vector<std::string> argv_storage = {"node", std::string(COMP_SOURCE_DIR) + "/bench/tokens/oracle.mjs"};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  int out[2];
  if (pipe(out) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_addclose(&actions, out[1]);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "node", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  std::string text;
  if (rc == 0) {
    char buf[1 << 16];
    ssize_t n;
    while ((n = read(out[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  }
  close(out[0]);
  int status = 0;
  if (rc == 0) waitpid(pid, &status, 0);
  EXPECT_EQ(rc, 0) << "cannot spawn node";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "oracle.mjs failed";
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("comp_tokens_test_" + std::to_string(getpid()) + "_" + name);
}

// Oracle (tiktoken, gpt-tokenizer) ids for each text.
std::vector<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> oracle_ids(
    const std::vector<std::string>& texts) {
  const fs::path file = temp_path("records");
  {
    std::ofstream out(file, std::ios::binary);
    for (const auto& t : texts) {
      const std::uint32_t n = static_cast<std::uint32_t>(t.size());
      const unsigned char le[4] = {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                                   static_cast<unsigned char>(n >> 16), static_cast<unsigned char>(n >> 24)};
      out.write(reinterpret_cast<const char*>(le), 4);
      out.write(t.data(), static_cast<std::streamsize>(t.size()));
    }
  }
  const auto lines = run_node({"--ids", "--records", file.string()});
  fs::remove(file);
  std::vector<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> result;
  auto parse = [](std::string_view json) {
    std::vector<std::uint32_t> ids;
    std::uint64_t v = 0;
    bool in_number = false;
    for (char c : json) {
      if (c >= '0' && c <= '9') {
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
        in_number = true;
      } else if (in_number) {
        ids.push_back(static_cast<std::uint32_t>(v));
        v = 0;
        in_number = false;
      }
    }
    return ids;
  };
  for (const auto& line : lines) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    result.emplace_back(parse(std::string_view(line).substr(0, tab)), parse(std::string_view(line).substr(tab + 1)));
  }
  return result;
}


std::string utf8(std::uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += {static_cast<char>(0xc0 | cp >> 6), static_cast<char>(0x80 | (cp & 0x3f))};
  } else if (cp < 0x10000) {
    s += {static_cast<char>(0xe0 | cp >> 12), static_cast<char>(0x80 | (cp >> 6 & 0x3f)),
          static_cast<char>(0x80 | (cp & 0x3f))};
  } else {
    s += {static_cast<char>(0xf0 | cp >> 18), static_cast<char>(0x80 | (cp >> 12 & 0x3f)),
          static_cast<char>(0x80 | (cp >> 6 & 0x3f)), static_cast<char>(0x80 | (cp & 0x3f))};
  }
  return s;
}

// Strings meant to break a tokenizer: boundaries between classes of characters,
// runs of spaces before letters, CR/LF mixes, contractions in all cases,
// combining marks, every Unicode plane, invalid bytes, long pieces.
std::vector<std::string> tricky_strings() {
  const std::vector<std::string> atoms = {
      " ", "  ", "   ", "\t", "\n", "\r\n", "\r", "\n\n", " \n", "\u00a0", "\u3000", "\u2028", "\u0085", "\ufeff",
      "\u200b", "a", "Z", "abc", "ABC", "Abc", "aBC", "x1", "1", "12", "123", "1234", "٣", "½", "'s", "'S", "'ll", "'LL",
      "'Re", "'ve", "'d", "'t", "'m", "'x", "'", "\"", "//", "/", "///", "/*", "*/", "=", "==", "===", "->", "::", "{", "}",
      "(", ")", ";", ",", ".", "...", "!", "?", "#", "$", "%", "&&", "||", "_", "__init__", "camelCase", "snake_case",
      "SCREAMING_CASE", "XMLHttp", "é", "e\u0301", "\u0301", "ǅ", "ʰ", "ß", "İ", "ﬁ", "日本", "語", "한국어", "ไทย",
      "हिन्दी", "العربية", "עברית", "Ελλάδα", "Россия", "👍", "👍🏽", "👨‍👩‍👧", "🇫🇷", "❤️", "\U0001d400", "\U00020000",
      "\U000e0001", "\ue000", "\U0010fffd", "<|endoftext|>", "<|fim_prefix|>", std::string(1, '\0'), "\x01", "\x7f", "\xff", "\xc3",
      "\xe2\x82", "\xed\xa0\x80", "\xf0\x9f", "\x80", "\xc0\xaf", "ſ", "'ſ", "K", "µ"};
  std::vector<std::string> out;
  std::mt19937 rng(20240601);
  for (int i = 0; i < 3000; ++i) {
    std::string s;
    const int parts = 1 + static_cast<int>(rng() % 12);
    for (int k = 0; k < parts; ++k) s += atoms[rng() % atoms.size()];
    out.push_back(s);
  }
  // Random code points from every plane (assigned or not), between letters and spaces.
  for (int i = 0; i < 2000; ++i) {
    std::string s;
    const int parts = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < parts; ++k) {
      std::uint32_t cp;
      switch (rng() % 4) {
        case 0: cp = rng() % 0x80; break;
        case 1: cp = rng() % 0x3000; break;
        case 2: cp = rng() % 0x10000; break;
        default: cp = rng() % 0x110000; break;
      }
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 'x';
      s += utf8(cp);
      if (rng() % 3 == 0) s += atoms[rng() % atoms.size()];
    }
    out.push_back(s);
  }
  // Long pieces (the heap merge), long whitespace, long numbers.
  for (const char* unit : {"a", "ab", "Zx", "=", "-=", " ", " \n", "9", "é", "語", "👍", "\xff"})
    for (std::size_t n : {100u, 129u, 1000u, 5000u}) {
      std::string s;
      while (s.size() < n) s += unit;
      out.push_back(s);
      out.push_back("x" + s + "y\n");
    }
  return out;
}

TEST(Parity, GeneratedStringsMatchTiktoken) {
  if (const auto reason = node_skip_reason(); !reason.empty()) GTEST_SKIP() << reason;
  auto texts = tricky_strings();
  for (const auto& c : expected_cases()) texts.emplace_back(c.text);
  const auto oracle = oracle_ids(texts);
  ASSERT_EQ(oracle.size(), texts.size());
  std::size_t tiktoken_mismatches = 0, gpt_mismatches = 0, gpt_quirks = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto ours = encode(texts[i]);
    if (ours != oracle[i].first && ++tiktoken_mismatches <= 10)
      ADD_FAILURE() << "tiktoken differs on " << ::testing::PrintToString(texts[i]);
    EXPECT_EQ(count(texts[i]), ours.size());
    if (ours != oracle[i].second) {
      const std::string text = decoded(ours);
      if (has_gpt_tokenizer_quirk(text)) ++gpt_quirks;
      else if (++gpt_mismatches <= 10) ADD_FAILURE() << "gpt-tokenizer differs on " << ::testing::PrintToString(texts[i]);
    }
  }
  EXPECT_EQ(tiktoken_mismatches, 0u);
  EXPECT_EQ(gpt_mismatches, 0u);
  std::cout << texts.size() << " strings: " << tiktoken_mismatches << " differ from tiktoken, " << gpt_mismatches
            << " from gpt-tokenizer (+" << gpt_quirks << " with U+FEFF/U+0085, where gpt-tokenizer is wrong)\n";
}

// Every code point in contexts where the pattern's classes matter (letter,
// number, upper/lower case, contraction, space): catches a Unicode table that
// differs from tiktoken's (16.0). Same strings as oracle.mjs --codepoints.
TEST(Parity, CodePointsMatchTiktoken) {
  if (const auto reason = node_skip_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const auto lines = run_node({"--codepoints"});
  std::size_t i = 0, mismatches = 0;
  for (std::uint32_t cp = 0; cp < 0x110000; ++cp) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (cp >= 0x40000 && !(cp >= 0xe0000 && cp < 0xe0200) && cp % 997 != 0) continue;
    const std::string c = utf8(cp);
    const std::string probe = c + "'s 11" + c + "11 A" + c + "'t\n x" + c + " a" + c + "'S " + c + "\n " + c + c + "!";
    ASSERT_LT(i, lines.size());
    const std::size_t want = std::stoul(lines[i++]);
    if (count(probe) != want && ++mismatches <= 20)
      ADD_FAILURE() << "U+" << std::hex << cp << std::dec << ": " << count(probe) << " tokens, tiktoken " << want;
  }
  EXPECT_EQ(i, lines.size());
  EXPECT_EQ(mismatches, 0u);
  std::cout << i << " code points, " << mismatches << " mismatches\n";
}

struct TreeResult {
  std::size_t files = 0, bytes = 0, tiktoken_mismatches = 0, gpt_mismatches = 0, gpt_quirks = 0;
  double ours_ms = 0, tiktoken_ms = 0, gpt_ms = 0;
};

// Counts of every file in `paths` by us and by both oracles.
TreeResult compare_files(const std::vector<fs::path>& paths) {
  TreeResult r;
  const fs::path list = temp_path("files");
  {
    std::ofstream out(list, std::ios::binary);
    for (const auto& p : paths) out << p.string() << '\0';
  }
  const auto lines = run_node({"--files", list.string()});
  fs::remove(list);
  EXPECT_EQ(lines.size(), paths.size() + 1);
  if (lines.size() != paths.size() + 1) return r;
  using clock = std::chrono::steady_clock;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string text = read_file(paths[i]);
    const auto start = clock::now();
    const std::size_t ours = count(text);
    r.ours_ms += std::chrono::duration<double, std::milli>(clock::now() - start).count();
    std::size_t want_tiktoken = 0, want_gpt = 0;
    std::istringstream(lines[i]) >> want_tiktoken >> want_gpt;
    ++r.files;
    r.bytes += text.size();
    if (ours != want_tiktoken && ++r.tiktoken_mismatches <= 10)
      ADD_FAILURE() << paths[i] << ": " << ours << " tokens, tiktoken " << want_tiktoken;
    if (ours != want_gpt) {
      if (has_gpt_tokenizer_quirk(decoded(encode(text)))) ++r.gpt_quirks;
      else if (++r.gpt_mismatches <= 10) ADD_FAILURE() << paths[i] << ": " << ours << " tokens, gpt-tokenizer " << want_gpt;
    }
  }
  std::istringstream time(lines.back().substr(lines.back().find(' ') + 1));
  std::size_t bytes = 0;
  time >> bytes >> r.tiktoken_ms >> r.gpt_ms;
  return r;
}

void report(const char* what, const TreeResult& r) {
  auto mbps = [&](double ms) { return ms > 0 ? r.bytes / 1e6 / (ms / 1e3) : 0.0; };
  std::cout << what << ": " << r.files << " files, " << r.bytes << " bytes; mismatches: tiktoken "
            << r.tiktoken_mismatches << ", gpt-tokenizer " << r.gpt_mismatches << " (+" << r.gpt_quirks
            << " files with U+FEFF/U+0085, where gpt-tokenizer is wrong)\n"
            << "  throughput: comp " << mbps(r.ours_ms) << " MB/s, tiktoken (WASM) " << mbps(r.tiktoken_ms)
            << " MB/s, gpt-tokenizer " << mbps(r.gpt_ms) << " MB/s\n";
}

bool looks_text(const std::string& head) { return head.find('\0') == std::string::npos; }

TEST(Parity, RepositoryFilesMatchTiktoken) {
  if (const auto reason = node_skip_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const fs::path root = COMP_SOURCE_DIR;
  std::vector<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(root / "daemon"); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == "node_modules") {  // npm's, not ours
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->file_size() <= (1u << 20)) paths.push_back(it->path());
  }
  // Grammar sources: generated C with huge tables and long lines (a few MB).
  std::size_t budget = 6u << 20;
  const fs::path grammars = root / "third_party" / "grammars" / "node_modules";
  std::vector<fs::path> c_files;
  if (fs::exists(grammars))
    for (const auto& entry : fs::recursive_directory_iterator(grammars)) {
      const auto& p = entry.path();
      if (entry.is_regular_file() && p.extension() == ".c" && p.parent_path().filename() == "src" &&
          p.string().find("tree-sitter-") != std::string::npos)
        c_files.push_back(p);
    }
  std::sort(c_files.begin(), c_files.end(), [](const fs::path& a, const fs::path& b) {
    return fs::file_size(a) < fs::file_size(b);
  });
  for (const auto& p : c_files) {
    const auto size = fs::file_size(p);
    if (size > budget) break;
    budget -= size;
    paths.push_back(p);
  }
  std::vector<fs::path> text_paths;
  for (const auto& p : paths)
    if (looks_text(read_file(p).substr(0, 8192))) text_paths.push_back(p);
  const TreeResult r = compare_files(text_paths);
  EXPECT_GT(r.files, 50u);
  EXPECT_EQ(r.tiktoken_mismatches, 0u);
  EXPECT_EQ(r.gpt_mismatches, 0u);
  report("repository", r);
}

// bench/tokens/parity.sh TREE: every text file of TREE (up to 4 MB each).
TEST(Parity, Tree) {
  const char* tree = std::getenv("COMP_TOKENS_PARITY_TREE");
  if (!tree) GTEST_SKIP() << "COMP_TOKENS_PARITY_TREE is not set (see bench/tokens/parity.sh)";
  if (const auto reason = node_skip_reason(); !reason.empty()) GTEST_SKIP() << reason;
  std::vector<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(tree, fs::directory_options::skip_permission_denied);
       it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || it->is_symlink() || it->file_size() > (4u << 20)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::string head(8192, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (looks_text(head)) paths.push_back(it->path());
  }
  std::sort(paths.begin(), paths.end());
  const TreeResult r = compare_files(paths);
  EXPECT_EQ(r.tiktoken_mismatches, 0u);
  EXPECT_EQ(r.gpt_mismatches, 0u);
  report(tree, r);
}

}  // namespace
