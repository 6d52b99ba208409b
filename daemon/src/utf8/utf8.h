// utf8: the one UTF-8 validator of comP. Invalid input is read as the WHATWG
// Encoding Standard reads it (browsers, Node.js's Buffer#toString and
// TextDecoder): each maximal subpart of an ill-formed sequence is one U+FFFD.
// Used by the tokenizer (parity with the JavaScript tokenizers) and by the
// document text renderer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace comp::utf8 {

inline constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// At s[i], a byte >= 0x80: the length of the well-formed sequence starting
// there, or 0 when there is none, with *skip set to the length of the
// maximal ill-formed subpart (at least 1) that becomes one U+FFFD.
std::size_t sequence(std::string_view s, std::size_t i, std::size_t* skip);

bool valid(std::string_view s);
// `s` with each maximal ill-formed subpart replaced by U+FFFD.
std::string replace_invalid(std::string_view s);

}  // namespace comp::utf8
