#include "pipeline/render.h"

#include <algorithm>

#include "utf8/utf8.h"

namespace comp::pipeline {
namespace {

// A fence no line of `content` can close: one backtick more than its longest
// run (at least three, CommonMark's least).
std::string fence_for(const std::string& content) {
  std::size_t longest = 0, run = 0;
  for (char c : content) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

// `names`, each as `show` prints it, comma-separated: the first `most`.
template <typename Show>
void join(std::string& out, const std::vector<std::string>& names, std::size_t most, Show show) {
  for (std::size_t i = 0; i < names.size() && i < most; ++i) {
    if (i) out += ", ";
    out += show(names[i]);
  }
  if (names.size() > most) out += ", ...";
}

}  // namespace

std::string file_heading(const PivotFile& pivot) {
  std::string out = "## " + utf8::quote_name(pivot.path);
  std::vector<std::string> notes;
  if (pivot.outline) {
    notes.push_back("outline");
  } else {
    if (pivot.level == 1) notes.push_back("no comments");
    if (pivot.level == 2) notes.push_back("skeleton");
    if (!pivot.lines.empty()) notes.push_back("lines " + pivot.lines);
    if (!pivot.full_bodies.empty()) {
      std::string bodies = "in full: ";
      join(bodies, pivot.full_bodies, 8, utf8::escape_controls);
      notes.push_back(std::move(bodies));
    }
  }
  if (!pivot.documents.empty()) notes.push_back("documents " + utf8::quote_name(pivot.documents));
  if (!pivot.required_by.empty()) notes.push_back("asked for by " + utf8::quote_name(pivot.required_by));
  if (!pivot.used_by.empty()) notes.push_back("used by " + utf8::quote_name(pivot.used_by));
  if (!pivot.uses.empty()) notes.push_back("uses " + utf8::quote_name(pivot.uses));
  if (!pivot.changed_with.empty()) notes.push_back("changed with " + utf8::quote_name(pivot.changed_with));
  if (!pivot.manifest_of.empty()) notes.push_back("manifest of " + utf8::quote_name(pivot.manifest_of));
  if (!notes.empty()) {
    out += " (";
    for (std::size_t i = 0; i < notes.size(); ++i) out += (i ? "; " : "") + notes[i];
    out += ")";
  }
  if (pivot.outline) return out + "\n";  // numbered lines: none can open or close a fence
  return out + "\n" + fence_for(pivot.content) + "\n";
}

std::string file_closing(const PivotFile& pivot) {
  bool ends_line = pivot.content.empty() || pivot.content.back() == '\n';
  if (pivot.outline) return ends_line ? "\n" : "\n\n";
  return (ends_line ? "" : "\n") + fence_for(pivot.content) + "\n\n";
}

std::string to_markdown(const PivotFile& pivot) { return file_heading(pivot) + pivot.content + file_closing(pivot); }

std::string summary_line(std::size_t files, std::size_t max_tokens, std::size_t saved) {
  return "# Context: " + std::to_string(files) + (files == 1 ? " file" : " files") + " within " +
         std::to_string(max_tokens) + " tokens (" +
         std::to_string(saved) + " saved)\n\n";
}

std::string closing_lines(const std::vector<std::string>& left_out, std::size_t max_tokens, std::size_t stale_files) {
  std::string out;
  if (!left_out.empty()) {
    constexpr std::size_t kMostNamed = 8, kTokensPerName = 1000;
    const std::size_t named = std::min(kMostNamed, max_tokens / kTokensPerName);
    const std::string all = std::to_string(left_out.size());
    if (named == 0) {
      out += "Left out: " + all + (left_out.size() == 1 ? " ranked file\n" : " ranked files\n");
    } else {
      out += "Left out: ";
      join(out, left_out, named, utf8::quote_name);
      if (left_out.size() > named) out += " (" + all + " in all)";
      out += "\n";
    }
  }
  if (stale_files)
    out += std::to_string(stale_files) +
           (stale_files == 1 ? " file changed since it was indexed\n" : " files changed since they were indexed\n");
  return out;
}

std::string to_markdown(const Result& result) {
  std::string out = summary_line(result.pivot_files.size(), result.max_tokens, result.token_savings);
  for (const PivotFile& pivot : result.pivot_files) out += to_markdown(pivot);
  return out + closing_lines(result.left_out, result.max_tokens, result.stale_files);
}

}  // namespace comp::pipeline
