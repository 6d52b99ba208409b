// pipeline/task: reads a task (usually a GitHub issue: prose with code,
// stack traces, paths and names in it) the way an engineer would, into the
// evidence the search uses. Pure text processing; no index, no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace comp::pipeline {

struct Frame {            // one stack-trace frame
  std::string path;       // as written ("src/app/x.py", "x.ts", "C.java")
  std::uint32_t line = 0;
  std::string function;   // "" when the format gives none
};

struct TaskTerms {
  std::vector<std::string> identifiers;  // code-like names, in order of first use, unique: snake_case,
                                         // camelCase, names in code blocks/backticks, call names `f(`
  std::vector<std::string> dotted;       // dotted names ("pkg.mod.Class", "self.x.y")
  std::vector<std::string> paths;        // file paths and file names with an extension
  std::vector<Frame> frames;             // Python, JS/TS, Java, Go, Rust trace frames
  std::vector<std::string> quoted;       // quoted strings and error messages (> 8 chars)
  std::vector<std::string> words;        // the remaining prose words, lower-case, stop words dropped
  std::vector<std::string> compounds;    // two adjacent words as one name, lower-case: "invoke local",
                                         // "api-gateway", "--trace-token" -> invokelocal, apigateway, tracetoken
  std::vector<std::string> code_lines;   // lines of fenced code long enough to be an excerpt (trimmed, unique)
};

TaskTerms analyze_task(std::string_view text);

// What a reader of the rendered issue sees: HTML comments (`<!-- ... -->`,
// an issue template's instructions) removed, and a Markdown image
// (`![alt](url)`, a screenshot) as its alt text, except inside fenced code,
// where they are code. A comment never closed is kept: it may be the
// reporter's text after a stray `<!--`.
std::string visible_text(std::string_view text);

// The words and each plural's possible singulars after it, for a search
// that does not stem: "warnings" -> warnings, warning; "caches" -> caches,
// cache, cach; "dependencies" -> dependencies, dependencie, dependency. A
// form that is no word matches nothing. Lower-case words of 5+ letters
// only; "-ss", "-us", "-is" are no plurals.
std::vector<std::string> with_singulars(const std::vector<std::string>& words);

// Capitalised words after the first of a title written in sentence case:
// proper names, usually the component's ("Value for Select which allows
// ..." -> Select). A Title Case title (half its words or more capitalised)
// has none; words of one capital and the rest lower-case only (`InputLabel`
// is an identifier already).
std::vector<std::string> proper_names(std::string_view title);

}  // namespace comp::pipeline
