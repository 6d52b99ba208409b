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

}  // namespace comp::pipeline
