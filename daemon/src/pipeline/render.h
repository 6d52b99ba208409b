// render: run_pipeline's answer as an agent reads it, in Markdown: the text
// of MCP's get_context and `comp query`'s report. The JSON shape (seed 5.1)
// is the protocol layer's; this is the same answer with one heading per file
// and nothing an agent does not read (scores, counts, the ranking's evidence).
#pragma once

#include <string>
#include <vector>

#include "pipeline/pipeline.h"

namespace comp::pipeline {

// What comes before a sent file's content: "## PATH (skeleton)\n```\n" (the
// path as `utf8::quote_name` shows it; what the content is, when it is not
// the whole file: its level, its lines, the bodies kept; the fence longer
// than any run of backticks in the content). An outline goes without a
// fence, "## PATH (outline)\n": its lines are numbered ("12: def f():",
// "⋮"), so none can open or close one, and far down the ranking the fence
// was a tenth of what a file cost.
std::string file_heading(const PivotFile& pivot);
// What closes it: the fence (none for an outline), a blank line.
std::string file_closing(const PivotFile& pivot);
// One file as the answer shows it: heading, content, closing (also
// get_file's text).
std::string to_markdown(const PivotFile& pivot);

// The answer's first line and the blank line after it: "# Context: N files
// within M tokens (S saved)".
std::string summary_line(std::size_t files, std::size_t max_tokens, std::size_t saved);

// The answer's last lines: the ranked files left out, and how many files
// changed since they were indexed ("" for none). One is named for each
// 1,000 tokens of the budget, at most eight: a small budget is for code,
// not for names ("Left out: 19 ranked files").
std::string closing_lines(const std::vector<std::string>& left_out, std::size_t max_tokens, std::size_t stale_files);

// The whole answer: a line that says what it holds, then each sent file,
// best first (heading, content, closing), then its closing lines.
std::string to_markdown(const Result& result);

}  // namespace comp::pipeline
