// compress: shrinks one source file for an AI agent's context, by levels,
// with the tree-sitter tree of the file (seed section 3.5). Knows nothing of
// files on disk, the database or JSON.
//
// Level 0 is the input; level 1 strips comments and blank-line runs; level 2
// (skeleton) also replaces function, method and constructor bodies with a
// placeholder that still parses. Compression never fails: on any problem the
// result is a lower level (at worst the input) plus an error, and it never
// returns text that parses with more ERROR/MISSING nodes than the input, nor
// (when the input has some: error recovery can read the same definition
// otherwise) with fewer definitions outside the elided bodies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/language.h"

namespace comp::compress {

// The version of compress()'s output. Bump it with any change that alters
// the text (or errors) some input compresses to: outputs kept in the index's
// cache (pack/cache.h) under another version are never read, and index runs
// delete them.
inline constexpr int kVersion = 2;

enum class Level {
  kRaw = 0,         // the input, unchanged
  kNoComments = 1,  // comments, trailing whitespace and blank-line runs removed; strings untouched
  kSkeleton = 2,    // level 1, and function/method/constructor bodies elided
};

struct Compressed {
  std::string text;
  Level level = Level::kRaw;  // the level `text` is at: lower than asked when a higher one failed
  // The asked level's output parsed with no more ERROR/MISSING nodes than the
  // input and, when the input has some, still defines every function the
  // input's tree does outside the elided bodies. False when it parsed worse,
  // lost a definition (or the parse timed out): `text` is then a lower level
  // that passed the check. True without a check when Options::verify is off,
  // and at level 0.
  bool reparsed_clean = true;
  // A parse ran out of time: the result depends on the machine's load, so
  // it is not a pure function of the input (never cached).
  bool timed_out = false;
  std::vector<std::string> errors;  // "python level 2: output parses with 3 errors (input 0); level 1 used"
  // Level 2: the input byte ranges [first, second) of the bodies replaced, in order.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> elided;
};

struct Options {
  bool verify = true;          // re-parse the output and fall back when it parses worse
  unsigned timeout_ms = 10000; // per parse (0: no limit); a timeout returns the input with an error
  // Level 2: functions whose lines overlap one of these input line ranges
  // (1-based, inclusive) keep their bodies: the symbols a task is about, in
  // full, inside the skeleton of the rest.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> keep_lines;
};

// Never fails: on any problem returns a lower level (at worst the input) with
// an error. Thread-safe (one tree-sitter parser per thread).
Compressed compress(lang::Language language, std::string_view source, Level level,
                    const Options& options = {});

// Lines [first, last] of `text` (1-indexed, inclusive, each with its line
// break; clipped to the text; "" when first > last or past the end).
std::string slice_lines(std::string_view text, std::uint32_t first, std::uint32_t last);

}  // namespace comp::compress
