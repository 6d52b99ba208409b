// regex: PCRE2 patterns over text from outside (task texts, source code).
// std::regex matches by recursion on the C stack, one frame per repeated
// character, so a long run (a 900 KB "path" in an issue) overflows the stack
// and kills the process. PCRE2 keeps its backtracking on the heap, JIT or
// not, within a match limit: a pathological input yields fewer matches,
// never a crash.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace comp::regex {

// A match: the whole of it and each capture group (nullopt when the group
// took no part in the match).
struct Match {
  std::size_t start = 0;  // byte offset of the whole match in the subject
  std::vector<std::optional<std::string_view>> groups;  // [0]: the whole match
  std::string_view group(std::size_t i) const { return i < groups.size() && groups[i] ? *groups[i] : std::string_view(); }
};

class Regex {
 public:
  // Perl syntax over bytes (no UTF-8 validation: the subject may be any
  // bytes). Throws std::invalid_argument with PCRE2's message for a bad pattern.
  explicit Regex(std::string_view pattern);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // Calls `each` for every non-overlapping match, left to right, until it
  // returns false. A match that hits the limits ends the scan there.
  void for_each(std::string_view subject, const std::function<bool(const Match&)>& each) const;
  // The first match in `subject` (nullopt at the limits too).
  std::optional<Match> find(std::string_view subject) const;
  // Whether the pattern matches somewhere in `subject` (false at the limits).
  bool search(std::string_view subject) const { return find(subject).has_value(); }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace comp::regex
