#include "utf8/utf8.h"

#include <cstdint>
#include <cstring>

namespace comp::utf8 {

std::size_t sequence(std::string_view s, std::size_t i, std::size_t* skip) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  const unsigned char c = p[i];
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;
    if (c == 0xED) high = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;
  } else {
    *skip = 1;  // 0x80..0xC1, 0xF5..0xFF: never a lead byte
    return 0;
  }
  // The longest valid prefix of the sequence (its maximal subpart).
  std::size_t k = 1;
  for (; k < length && i + k < n; ++k) {
    const unsigned char b = p[i + k];
    if (k == 1 ? (b < low || b > high) : (b < 0x80 || b > 0xBF)) break;
  }
  if (k == length) return length;
  *skip = k;
  return 0;
}

bool valid(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    // ASCII fast path, 8 bytes at a time.
    while (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (w & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= n) break;
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    std::size_t skip = 0;
    std::size_t length = sequence(s, i, &skip);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string replace_invalid(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  std::size_t i = 0;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      out.push_back(s[i++]);
      continue;
    }
    std::size_t skip = 0;
    std::size_t length = sequence(s, i, &skip);
    if (length) {
      out.append(s.substr(i, length));
      i += length;
    } else {
      out += kReplacement;
      i += skip;
    }
  }
  return out;
}

namespace {

// The character at text[i]: its length, and whether it is escaped (a
// control character, a bidirectional override or isolate, or ill-formed
// UTF-8, whose length is then that of the bad subpart). `quotes`: `"` and
// `\` are escaped too (inside a quoted name).
struct Char {
  std::size_t length = 1;
  bool escaped = false;
};

Char char_at(std::string_view text, std::size_t i, bool quotes) {
  const auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return {1, c < 0x20 || c == 0x7F || (quotes && (c == '"' || c == '\\'))};
  std::size_t skip = 0;
  std::size_t length = sequence(text, i, &skip);
  if (length == 0) return {skip, true};
  const auto b1 = static_cast<unsigned char>(text[i + 1]);
  if (length == 2 && c == 0xC2 && b1 < 0xA0) return {2, true};  // U+0080..U+009F: C1 controls
  if (length == 3 && c == 0xE2) {
    const auto b2 = static_cast<unsigned char>(text[i + 2]);
    if (b1 == 0x80 && b2 >= 0xAA && b2 <= 0xAE) return {3, true};  // U+202A..U+202E
    if (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9) return {3, true};  // U+2066..U+2069
  }
  return {length, false};
}

// `text` with each character char_at() escapes written as git's quote.c
// does: a letter where C has one, octal bytes otherwise. Sets *escaped when
// there was one.
std::string escape(std::string_view text, bool quotes, bool* escaped) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    Char next = char_at(text, i, quotes);
    if (!next.escaped) {
      out.append(text.substr(i, next.length));
      i += next.length;
      continue;
    }
    *escaped = true;
    for (std::size_t end = i + next.length; i < end; ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      constexpr std::string_view kEscaped = "\a\b\t\n\v\f\r\"\\", kLetter = "abtnvfr\"\\";
      std::size_t at = kEscaped.find(static_cast<char>(c));
      out += '\\';
      if (at != std::string_view::npos) {
        out += kLetter[at];
      } else {
        out += static_cast<char>('0' + (c >> 6));
        out += static_cast<char>('0' + ((c >> 3) & 7));
        out += static_cast<char>('0' + (c & 7));
      }
    }
  }
  return out;
}

}  // namespace

std::string quote_name(std::string_view name) {
  bool escaped = false;
  std::string out = escape(name, true, &escaped);
  return escaped ? '"' + out + '"' : out;
}

std::string escape_controls(std::string_view text) {
  bool escaped = false;
  return escape(text, false, &escaped);
}

}  // namespace comp::utf8
