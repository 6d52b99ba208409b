// utf8: the one UTF-8 validator of comP. Invalid input is read as the WHATWG
// Encoding Standard reads it (browsers, Node.js's Buffer#toString and
// TextDecoder): each maximal subpart of an ill-formed sequence is one U+FFFD.
// Used by the tokenizer (parity with the JavaScript tokenizers), by the
// document text renderer, and by every human-readable output that prints a
// name from outside (a path, through `quote_name`).
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

// A file name as a terminal may show it: `name` unchanged when it holds only
// printable characters; otherwise in double quotes with C escapes, the way
// git quotes such names (core.quotePath): \n \t \r \" \\ and the like,
// and octal \ooo for each byte of a control character (C0, DEL, C1), of a
// bidirectional override or isolate (U+202A-U+202E, U+2066-U+2069, which
// reorder what the reader sees), and of ill-formed UTF-8. Other UTF-8 is kept
// readable. A name holding `"` or `\` is quoted too, so that the output reads
// back one way only.
std::string quote_name(std::string_view name);
// `text` with the same characters escaped, but no quotes added and `"` and
// `\` kept: for text from outside shown inside other text (a signature, a
// log line), which then stays on one line and out of the terminal's control.
std::string escape_controls(std::string_view text);

}  // namespace comp::utf8
