#include "regex/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstdint>
#include <string>

namespace comp::regex {
namespace {

// At most this much backtracking per match attempt, and this much heap for
// it: far above what any sane match of our patterns needs.
constexpr std::uint32_t kMatchLimit = 10'000'000;
constexpr std::uint32_t kHeapLimitKiB = 64 * 1024;

}  // namespace

struct Regex::Impl {
  pcre2_code* code = nullptr;
  pcre2_match_context* context = nullptr;
  std::uint32_t groups = 0;
  ~Impl() {
    pcre2_match_context_free(context);
    pcre2_code_free(code);
  }
};

Regex::Regex(std::string_view pattern) : impl_(std::make_unique<Impl>()) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  impl_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), 0, &error, &offset, nullptr);
  if (!impl_->code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    throw std::invalid_argument("bad regex at offset " + std::to_string(offset) + ": " +
                                reinterpret_cast<const char*>(message));
  }
  pcre2_jit_compile(impl_->code, PCRE2_JIT_COMPLETE);  // interpreted when JIT is unavailable
  pcre2_pattern_info(impl_->code, PCRE2_INFO_CAPTURECOUNT, &impl_->groups);
  impl_->context = pcre2_match_context_create(nullptr);
  pcre2_set_match_limit(impl_->context, kMatchLimit);
  pcre2_set_heap_limit(impl_->context, kHeapLimitKiB);
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

void Regex::for_each(std::string_view subject, const std::function<bool(const Match&)>& each) const {
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
  auto text = reinterpret_cast<PCRE2_SPTR>(subject.data());
  std::size_t at = 0;
  Match match;
  while (at <= subject.size()) {
    // pcre2_match runs the JIT code when there is some, else the interpreter;
    // either way the limits of the context hold.
    int rc = pcre2_match(impl_->code, text, subject.size(), at, PCRE2_NO_UTF_CHECK, data, impl_->context);
    if (rc <= 0) break;  // no match, or a limit reached: no more matches
    PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
    match.start = ovector[0];
    match.groups.assign(impl_->groups + 1, std::nullopt);
    for (std::uint32_t g = 0; g <= impl_->groups && static_cast<int>(g) < rc; ++g)
      if (ovector[2 * g] != PCRE2_UNSET) match.groups[g] = subject.substr(ovector[2 * g], ovector[2 * g + 1] - ovector[2 * g]);
    if (!each(match)) break;
    // Past the match; an empty match moves one byte on.
    at = ovector[1] > ovector[0] ? ovector[1] : ovector[0] + 1;
  }
  pcre2_match_data_free(data);
}

std::optional<Match> Regex::find(std::string_view subject) const {
  std::optional<Match> first;
  for_each(subject, [&](const Match& match) {
    first = match;
    return false;
  });
  return first;
}

}  // namespace comp::regex
