#include "tokens/tokens.h"
#include "utf8/utf8.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <queue>
#include <string>

#include "tokens/table_format.h"

// The blob written by tiktoken_pack, embedded by cmake/Tokens.cmake.
extern "C" const unsigned char comp_o200k_base_blob[];
extern "C" const unsigned char comp_o200k_base_blob_end[];

namespace comp::tokens {
namespace {

constexpr std::uint32_t kNone = table::kNoRank;

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "comp::tokens: %s\n", what);
  std::abort();
}

// ---------------------------------------------------------------------------
// Rank table (read in place from the embedded blob).

class Table {
 public:
  Table() {
    const auto* base = comp_o200k_base_blob;
    const std::size_t size = static_cast<std::size_t>(comp_o200k_base_blob_end - comp_o200k_base_blob);
    if (size < sizeof(table::Header)) die("embedded o200k_base table is truncated");
    std::memcpy(&header_, base, sizeof header_);
    if (header_.magic != table::kMagic || header_.version != table::kVersion)
      die("embedded o200k_base table has a wrong magic or version (stale build?)");
    const std::size_t n_slots = std::size_t{1} << header_.table_bits;
    const std::size_t need =
        sizeof(table::Header) + (header_.n_ranks + 1 + n_slots + 256 + 65536) * sizeof(std::uint32_t) +
        header_.bytes_len;
    if (size != need) die("embedded o200k_base table has a wrong size");
    offsets_ = reinterpret_cast<const std::uint32_t*>(base + sizeof(table::Header));
    slots_ = offsets_ + header_.n_ranks + 1;
    byte_rank_ = slots_ + n_slots;
    pair_rank_ = byte_rank_ + 256;
    bytes_ = reinterpret_cast<const unsigned char*>(pair_rank_ + 65536);
    mask_ = n_slots - 1;
    for (unsigned a = 0; a < 256; ++a)
      if (byte_rank_[a] == kNone) die("embedded o200k_base table lacks a single byte");
  }

  std::uint32_t lookup(const unsigned char* p, std::size_t n, std::uint64_t hash) const {
    std::size_t i = hash & mask_;
    for (;;) {
      const std::uint32_t slot = slots_[i];
      if (!slot) return kNone;
      const std::uint32_t r = slot - 1;
      const std::uint32_t begin = offsets_[r];
      if (offsets_[r + 1] - begin == n && std::memcmp(bytes_ + begin, p, n) == 0) return r;
      i = (i + 1) & mask_;
    }
  }
  std::uint32_t lookup(const unsigned char* p, std::size_t n) const {
    if (n == 1) return byte_rank_[p[0]];
    if (n == 2) return pair_rank_[p[0] << 8 | p[1]];
    if (n > header_.max_token_len) return kNone;
    return lookup(p, n, table::hash_bytes(p, n));
  }
  std::uint32_t byte_rank(unsigned char b) const { return byte_rank_[b]; }
  std::uint32_t max_token_len() const { return header_.max_token_len; }
  std::size_t size() const { return header_.n_ranks; }
  std::string_view bytes(std::uint32_t r) const {
    if (r >= header_.n_ranks) return {};
    return {reinterpret_cast<const char*>(bytes_ + offsets_[r]), offsets_[r + 1] - offsets_[r]};
  }

 private:
  table::Header header_{};
  const std::uint32_t* offsets_ = nullptr;
  const std::uint32_t* slots_ = nullptr;
  const unsigned char* bytes_ = nullptr;
  std::size_t mask_ = 0;
  const std::uint32_t* byte_rank_ = nullptr;  // [256]
  const std::uint32_t* pair_rank_ = nullptr;  // [65536]
};

const Table& ranks() {
  static const Table t;
  return t;
}

// ---------------------------------------------------------------------------
// Byte-pair merge of one piece (tiktoken's algorithm: repeatedly merge the
// adjacent pair whose concatenation has the lowest rank, the leftmost on ties).

constexpr std::size_t kLinearMax = 128;  // above this, the heap version

// Calls emit(begin, end) for each final part, left to right; returns the count.
template <typename Emit>
std::size_t merge_linear(const Table& t, const unsigned char* p, std::size_t n, Emit&& emit) {
  // starts[i] = start of part i, pair[i] = rank of parts i and i+1 merged.
  std::uint32_t starts[kLinearMax + 1];
  std::uint32_t pair[kLinearMax + 1];
  std::size_t parts = n;
  for (std::size_t i = 0; i < n; ++i) starts[i] = static_cast<std::uint32_t>(i);
  starts[n] = static_cast<std::uint32_t>(n);
  for (std::size_t i = 0; i + 1 < n; ++i) pair[i] = t.lookup(p + i, 2);
  pair[n - 1] = kNone;
  auto rank_at = [&](std::size_t i) -> std::uint32_t {  // parts i and i+1 merged
    if (i + 2 > parts) return kNone;
    return t.lookup(p + starts[i], starts[i + 2] - starts[i]);
  };
  while (parts > 1) {
    std::uint32_t best = kNone;
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < parts; ++i)
      if (pair[i] < best) {
        best = pair[i];
        at = i;
      }
    if (best == kNone) break;
    // Merge parts at and at+1.
    std::memmove(starts + at + 1, starts + at + 2, (parts - at - 1) * sizeof starts[0]);
    std::memmove(pair + at + 1, pair + at + 2, (parts - at - 2) * sizeof pair[0]);
    --parts;
    pair[at] = rank_at(at);
    if (at > 0) pair[at - 1] = rank_at(at - 1);
  }
  for (std::size_t i = 0; i < parts; ++i) emit(starts[i], starts[i + 1]);
  return parts;
}

template <typename Emit>
std::size_t merge_heap(const Table& t, const unsigned char* p, std::size_t n, Emit&& emit) {
  // Parts form a linked list over their start offsets.
  std::vector<std::uint32_t> next(n + 1), prev(n + 1), pair(n + 1, kNone);
  std::vector<char> alive(n + 1, 1);
  for (std::size_t i = 0; i <= n; ++i) {
    next[i] = static_cast<std::uint32_t>(i + 1);
    prev[i] = static_cast<std::uint32_t>(i ? i - 1 : 0);
  }
  // Heap keys: rank << 32 | start, smallest first (the lowest rank, then the leftmost).
  auto key = [](std::uint32_t rank, std::uint32_t start) { return std::uint64_t{rank} << 32 | start; };
  std::vector<std::uint64_t> storage;
  storage.reserve(n);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    pair[i] = t.lookup(p + i, 2);
    if (pair[i] != kNone) storage.push_back(key(pair[i], static_cast<std::uint32_t>(i)));
  }
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> heap(std::greater<>{},
                                                                                       std::move(storage));
  auto rank_from = [&](std::uint32_t s) -> std::uint32_t {  // part at s merged with its next
    const std::uint32_t b = next[s];
    if (b >= n) return kNone;
    const std::uint32_t e = next[b];
    return t.lookup(p + s, e - s);
  };
  std::size_t parts = n;
  while (!heap.empty()) {
    const std::uint32_t rank = static_cast<std::uint32_t>(heap.top() >> 32);
    const std::uint32_t s = static_cast<std::uint32_t>(heap.top());
    heap.pop();
    if (!alive[s] || pair[s] != rank) continue;  // stale
    const std::uint32_t b = next[s];
    alive[b] = 0;
    next[s] = next[b];
    if (next[b] <= n) prev[next[b]] = s;
    --parts;
    pair[s] = rank_from(s);
    if (pair[s] != kNone) heap.push(key(pair[s], s));
    if (s > 0) {
      const std::uint32_t a = prev[s];
      pair[a] = rank_from(a);
      if (pair[a] != kNone) heap.push(key(pair[a], a));
    }
  }
  for (std::uint32_t s = 0; s < n; s = next[s]) emit(s, next[s]);
  return parts;
}

template <typename Emit>
std::size_t byte_pair_merge(const Table& t, const unsigned char* p, std::size_t n, Emit&& emit) {
  if (n <= kLinearMax) return merge_linear(t, p, n, emit);
  return merge_heap(t, p, n, emit);
}

// ---------------------------------------------------------------------------
// Pre-tokenization: tiktoken's o200k_base pattern (tiktoken_ext/openai_public.py,
// also the "pat_str" of the tiktoken npm package's encoders/o200k_base.json):

//   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//   |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//   |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+

// gpt-tokenizer's JavaScript version of it (src/encodingParams/constants.ts)
// spells the contractions as '(?:[sS]|[dD]|...)' and means the same, but its
// \s is JavaScript's. Here, as in tiktoken's Rust regex:
//  - \s is Unicode White_Space, spelled out (PCRE2's and JavaScript's \s
//    differ from it on U+0085 and U+FEFF);
//  - the classes follow Unicode 16.0: PCRE2's \p tables (14.0 in 10.42) plus
//    the characters encoded since (unicode_additions.inc). Those explicit
//    ranges halve PCRE2's speed, so they are in a second compiled pattern,
//    used only for a text that holds one of those (rare) characters.
// Compiled anchored: every position starts a match (each character is a
// letter, a number, a space or something else, and each has an alternative).
#include "tokens/unicode_additions.inc"

std::string split_pattern(bool unicode16) {
  auto add = [&](const char* ranges) { return unicode16 ? std::string(ranges) : std::string(); };
  const std::string ws =
      "\\t\\n\\x{0B}\\f\\r\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}";
  const std::string not_letter_number = "[^\\r\\n\\p{L}\\p{N}" + add(kAddedLetterOrNumber) + "]";
  const std::string upperish = "[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}" + add(kAddedUpperish) + "]";
  const std::string lowerish = "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}" + add(kAddedLowerish) + "]";
  const std::string number = "[\\p{N}" + add(kAddedNumber) + "]";
  const std::string contraction = "(?i:'s|'t|'re|'ve|'m|'ll|'d)?";
  return not_letter_number + "?" + upperish + "*" + lowerish + "+" + contraction +
         "|" + not_letter_number + "?" + upperish + "+" + lowerish + "*" + contraction +
         "|" + number + "{1,3}" +
         "| ?[^" + ws + "\\p{L}\\p{N}" + add(kAddedLetterOrNumber) + "]+[\\r\\n/]*" +
         "|[" + ws + "]*[\\r\\n]+" +
         "|[" + ws + "]+(?![^" + ws + "])" +
         "|[" + ws + "]+";
}

// Does valid UTF-8 `s` hold a character of kAddedRanges (all >= U+0800)?
bool has_added_characters(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n;) {
    while (i + 8 <= n) {  // skip bytes below 0xe0 (leads of 1-2 byte sequences, continuations) fast
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      // A byte >= 0xe0 has its top three bits set.
      if (w & (w << 1) & (w << 2) & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= n) break;
    const unsigned char c = p[i];
    if (c < 0xe0) {
      ++i;
      continue;
    }
    std::uint32_t cp;
    if (c < 0xf0) {
      cp = (c & 0x0fu) << 12 | (p[i + 1] & 0x3fu) << 6 | (p[i + 2] & 0x3fu);
      i += 3;
    } else {
      cp = (c & 0x07u) << 18 | (p[i + 1] & 0x3fu) << 12 | (p[i + 2] & 0x3fu) << 6 | (p[i + 3] & 0x3fu);
      i += 4;
    }
    if (cp < kAddedRanges[0][0]) continue;
    const auto* end = std::end(kAddedRanges);
    const auto* it = std::upper_bound(std::begin(kAddedRanges), end, cp,
                                      [](std::uint32_t v, const std::uint32_t(&r)[2]) { return v < r[0]; });
    if (it != std::begin(kAddedRanges) && cp <= (*(it - 1))[1]) return true;
  }
  return false;
}

class Pattern {
 public:
  explicit Pattern(bool unicode16) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    const std::string text = split_pattern(unicode16);
    code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(),
                          PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED, &error, &offset, nullptr);
    if (!code_) {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(error, message, sizeof message);
      std::fprintf(stderr, "comp::tokens: split pattern: %s at %zu\n", reinterpret_cast<char*>(message),
                   static_cast<std::size_t>(offset));
      std::abort();
    }
    jit_ = pcre2_jit_compile(code_, PCRE2_JIT_COMPLETE) == 0;
  }
  ~Pattern() { pcre2_code_free(code_); }
  const pcre2_code* code() const { return code_; }
  bool jit() const { return jit_; }

 private:
  pcre2_code* code_ = nullptr;
  bool jit_ = false;
};

// The pattern for valid UTF-8 `s`.
const Pattern& pattern_for(std::string_view s) {
  static const Pattern basic(false);
  if (!has_added_characters(s)) return basic;
  static const Pattern unicode16(true);
  return unicode16;
}

// Per-thread match state. The JIT code's default 32 KiB stack suffices: the
// pattern has no nested repetition, so its backtracking needs no stack per
// character (1 MiB pieces of each class are tested).
struct Matcher {
  Matcher() {
    data = pcre2_match_data_create(1, nullptr);
    if (!data) die("out of memory");
  }
  ~Matcher() { pcre2_match_data_free(data); }
  pcre2_match_data* data = nullptr;
};

Matcher& matcher() {
  thread_local Matcher m;
  return m;
}

std::size_t utf8_length(unsigned char lead) {
  return lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

// Calls piece(begin, end) for each piece of valid UTF-8 `s`.
template <typename Piece>
void split(std::string_view s, Piece&& piece) {
  const Pattern& pat = pattern_for(s);
  Matcher& m = matcher();
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(s.data());
  const std::size_t n = s.size();
  PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(m.data);
  std::size_t pos = 0;
  while (pos < n) {
    int rc = pat.jit() ? pcre2_jit_match(pat.code(), subject, n, pos, 0, m.data, nullptr)
                       : pcre2_match(pat.code(), subject, n, pos, PCRE2_NO_UTF_CHECK, m.data, nullptr);
    if (rc < 0 && rc != PCRE2_ERROR_NOMATCH && pat.jit())  // e.g. JIT stack exhausted: the interpreter
      rc = pcre2_match(pat.code(), subject, n, pos, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, m.data, nullptr);
    std::size_t end;
    if (rc > 0 && ovector[0] == pos && ovector[1] > pos) {
      end = ovector[1];
    } else {
      // Cannot happen with this pattern (see above) short of a resource
      // limit; never crash nor loop: one character is one piece.
      end = std::min(n, pos + utf8_length(static_cast<unsigned char>(s[pos])));
    }
    piece(pos, end);
    pos = end;
  }
}

// ---------------------------------------------------------------------------
// Piece -> count cache, per thread, direct-mapped: bounded memory, no
// allocation after the first use, a collision simply replaces the entry.

struct CacheEntry {
  std::uint64_t hash = 0;
  std::uint32_t len = 0;  // 0 = empty
  std::uint32_t count = 0;
  unsigned char bytes[48];
};
static_assert(sizeof(CacheEntry) == 64);
constexpr std::size_t kCacheEntries = 8192;  // 512 KiB per thread

struct Cache {
  std::unique_ptr<CacheEntry[]> entries = std::make_unique<CacheEntry[]>(kCacheEntries);
};

Cache& cache() {
  thread_local Cache c;
  return c;
}

std::size_t count_piece(const Table& t, Cache& c, const unsigned char* p, std::size_t n) {
  if (n == 1) return 1;
  if (n > sizeof(CacheEntry::bytes)) {
    if (n <= t.max_token_len() && t.lookup(p, n) != kNone) return 1;
    return byte_pair_merge(t, p, n, [](std::uint32_t, std::uint32_t) {});
  }
  const std::uint64_t h = table::hash_bytes(p, n);
  if (t.lookup(p, n, h) != kNone) return 1;
  CacheEntry& e = c.entries[(h >> 40) & (kCacheEntries - 1)];
  if (e.hash == h && e.len == n && std::memcmp(e.bytes, p, n) == 0) return e.count;
  const std::size_t result = byte_pair_merge(t, p, n, [](std::uint32_t, std::uint32_t) {});
  e.hash = h;
  e.len = static_cast<std::uint32_t>(n);
  e.count = static_cast<std::uint32_t>(result);
  std::memcpy(e.bytes, p, n);
  return result;
}

template <typename Fn>
void with_valid_utf8(std::string_view text, Fn&& fn) {
  if (utf8::valid(text)) {
    fn(text);
  } else {
    const std::string fixed = utf8::replace_invalid(text);
    fn(std::string_view(fixed));
  }
}

}  // namespace

std::size_t count(std::string_view text) {
  if (text.empty()) return 0;
  const Table& t = ranks();
  Cache& c = cache();
  std::size_t total = 0;
  with_valid_utf8(text, [&](std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    split(s, [&](std::size_t begin, std::size_t end) { total += count_piece(t, c, p + begin, end - begin); });
  });
  return total;
}

std::vector<std::uint32_t> encode(std::string_view text) {
  std::vector<std::uint32_t> out;
  if (text.empty()) return out;
  const Table& t = ranks();
  with_valid_utf8(text, [&](std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    split(s, [&](std::size_t begin, std::size_t end) {
      const unsigned char* piece = p + begin;
      const std::size_t n = end - begin;
      const std::uint32_t whole = t.lookup(piece, n);
      if (whole != kNone) {
        out.push_back(whole);
        return;
      }
      byte_pair_merge(t, piece, n, [&](std::uint32_t b, std::uint32_t e) {
        const std::uint32_t r = t.lookup(piece + b, e - b);
        if (r == kNone) die("internal error: a merged part is not a token");
        out.push_back(r);
      });
    });
  });
  return out;
}

std::string_view token_bytes(std::uint32_t id) { return ranks().bytes(id); }

std::size_t vocabulary_size() { return ranks().size(); }

}  // namespace comp::tokens
