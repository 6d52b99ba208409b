#include "pipeline/task.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <unordered_set>

#include "regex/regex.h"

namespace comp::pipeline {
namespace {

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Names that look like code rather than prose: snake_case, camelCase,
// PascalCase with an inner capital, ALL_CAPS with '_', or with digits.
bool code_like(std::string_view word) {
  if (word.size() < 3) return false;
  bool lower = false, upper_after_lower = false, underscore = false, digit = false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    if (c == '_' && i > 0 && i + 1 < word.size()) underscore = true;
    if (std::isdigit(static_cast<unsigned char>(c)) && i > 0) digit = true;
    if (std::islower(static_cast<unsigned char>(c))) lower = true;
    if (std::isupper(static_cast<unsigned char>(c)) && lower) upper_after_lower = true;
  }
  return underscore || upper_after_lower || (digit && lower);
}

const std::unordered_set<std::string>& stop_words() {
  static const std::unordered_set<std::string> words = {
      "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do", "does", "doing",
      "for", "from", "had", "has", "have", "he", "her", "here", "how", "i", "if", "in", "into", "is", "it", "its",
      "just", "me", "my", "no", "not", "of", "on", "or", "our", "she", "should", "so", "some", "such", "than", "that",
      "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "too", "was", "we", "were",
      "what", "when", "where", "which", "while", "who", "why", "will", "with", "would", "you", "your", "also", "get",
      "got", "use", "used", "using", "like", "see", "seems", "seem", "one", "two", "any", "all", "more", "most",
      "other", "only", "same", "very", "way", "want", "need", "make", "made", "work", "works", "working", "issue",
      "bug", "error", "problem", "expected", "actual", "behavior", "behaviour", "example", "following", "code",
      "reproduce", "steps", "version", "versions", "python", "thanks", "please", "hi", "hello", "after", "before",
      "about", "above", "below", "because", "instead", "now", "new", "still", "being", "both", "each", "few",
      "own", "same", "over", "under", "again", "further", "once", "out", "up", "down", "off", "between", "through",
      "during", "until", "against", "am", "let", "lets", "may", "might", "must", "shall", "true", "false", "none",
      "null", "return", "returns", "def", "class", "import", "self", "print", "file", "line", "run", "case",
      // words of code and tracebacks that name nothing in a repository
      "traceback", "recent", "call", "last", "most", "stdin", "module", "python3", "pip", "install", "assert",
      "lambda", "yield", "elif", "else", "try", "except", "raise", "finally", "async", "await", "global", "pass",
      "break", "continue", "const", "let", "var", "function", "export", "public", "private", "static", "void",
      "int", "str", "float", "bool", "dict", "list", "tuple", "set", "object", "string", "number", "new", "this",
      "console", "log", "usr", "lib", "local", "home", "site", "packages", "dist", "http", "https", "www", "com",
      "org", "github", "html", "master", "main", "src", "users", "bin", "env", "venv", "shell", "version", "date",
      "linux", "windows", "macos", "darwin", "platform", "system", "cpu", "memory", "output", "input", "result",
      "results", "value", "values", "data", "name", "type", "types", "test", "tests",
  };
  return words;
}

template <typename T>
void add_unique(std::vector<T>& list, std::unordered_set<std::string>& seen, const std::string& key, T value) {
  if (seen.insert(key).second) list.push_back(std::move(value));
}

// A Markdown image, ![alt](url), as its alt text: a screenshot's address
// (a host, a numbered folder, a hash) names nothing in a repository.
void append_without_images(std::string& out, std::string_view text) {
  for (std::size_t at = 0;;) {
    std::size_t bang = text.find("![", at);
    std::size_t close = bang == std::string_view::npos ? bang : text.find("](", bang + 2);
    std::size_t end = close == std::string_view::npos ? close : text.find(')', close + 2);
    if (end == std::string_view::npos || text.substr(bang, end - bang).find('\n') != std::string_view::npos) {
      out.append(text.substr(at));
      return;
    }
    out.append(text.substr(at, bang - at));
    out.append(text.substr(bang + 2, close - bang - 2));
    at = end + 1;
  }
}

}  // namespace

std::string visible_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool fenced = false;
  std::string_view fence;  // the opening fence's run of ` or ~
  for (std::size_t at = 0; at < text.size();) {
    std::size_t eol = text.find('\n', at);
    std::size_t end = eol == std::string_view::npos ? text.size() : eol + 1;
    std::string_view line = text.substr(at, end - at);
    std::size_t indent = line.find_first_not_of(' ');
    if (indent != std::string_view::npos && indent <= 3 && (line[indent] == '`' || line[indent] == '~')) {
      std::size_t run = line.find_first_not_of(line[indent], indent);
      std::string_view marks = line.substr(indent, (run == std::string_view::npos ? line.size() : run) - indent);
      if (marks.size() >= 3 && (!fenced || (marks[0] == fence[0] && marks.size() >= fence.size()))) {
        fenced = !fenced;
        fence = marks;
        out.append(line);
        at = end;
        continue;
      }
    }
    if (fenced) {
      out.append(line);
      at = end;
      continue;
    }
    // Outside code: a comment may start on this line and end lines later
    // (looked for in the line: a search to the end of the text from every
    // line would be quadratic).
    std::size_t open = line.find("<!--");
    if (open == std::string_view::npos) {
      append_without_images(out, line);
      at = end;
      continue;
    }
    open += at;
    std::size_t close = text.find("-->", open + 4);
    if (close == std::string_view::npos) {  // never closed: the rest is text
      out.append(text.substr(at));
      break;
    }
    append_without_images(out, text.substr(at, open - at));
    at = close + 3;
  }
  return out;
}

std::vector<std::string> with_singulars(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const std::string& word : words) {
    out.push_back(word);
    std::size_t n = word.size();
    if (n < 5 || word.back() != 's' || !std::islower(static_cast<unsigned char>(word[0]))) continue;
    if (word.ends_with("ss") || word.ends_with("us") || word.ends_with("is")) continue;
    out.push_back(word.substr(0, n - 1));
    if (word.ends_with("ies")) out.push_back(word.substr(0, n - 3) + "y");
    if (word.ends_with("sses") || word.ends_with("xes") || word.ends_with("ches") || word.ends_with("shes"))
      out.push_back(word.substr(0, n - 2));
  }
  return out;
}

std::vector<std::string> proper_names(std::string_view title) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::vector<std::string_view> words;
  for (std::size_t k = 0; k < title.size();) {
    if (!std::isalpha(static_cast<unsigned char>(title[k])) || (k > 0 && (alnum(title[k - 1]) || title[k - 1] == '_'))) {
      ++k;
      continue;
    }
    std::size_t from = k;
    while (k < title.size() && (alnum(title[k]) || title[k] == '_')) ++k;
    if (k - from >= 3) words.push_back(title.substr(from, k - from));
  }
  std::size_t capitalised = 0;
  for (std::string_view word : words) capitalised += std::isupper(static_cast<unsigned char>(word[0])) != 0;
  std::vector<std::string> names;
  if (words.size() < 3 || capitalised * 2 > words.size()) return names;
  for (std::size_t k = 1; k < words.size(); ++k)
    if (std::isupper(static_cast<unsigned char>(words[k][0])) &&
        std::all_of(words[k].begin() + 1, words[k].end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
      names.emplace_back(words[k]);
  return names;
}

TaskTerms analyze_task(std::string_view text) {
  TaskTerms terms;
  std::unordered_set<std::string> seen_ident, seen_dotted, seen_path, seen_frame, seen_quoted, seen_word;
  // A task is never larger than a megabyte. Runs of over 400 name and path
  // characters name nothing (no path or name is that long; a pasted blob,
  // a minified line), and the path patterns below would rescan them from
  // every position in them: they go. Other characters (`%`, quotes,
  // brackets) end a run, so a long playground URL is still read.
  std::string input;
  {
    constexpr std::size_t kLongestRun = 400;
    auto in_run = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '-' || c == '@' ||
             c == '$';
    };
    std::string_view bounded = text.substr(0, 1u << 20);
    input.reserve(bounded.size());
    for (std::size_t at = 0; at < bounded.size();) {
      std::size_t end = at;
      while (end < bounded.size() && in_run(bounded[end])) ++end;
      if (end - at <= kLongestRun) input.append(bounded, at, end - at);
      std::size_t next = end;
      while (next < bounded.size() && !in_run(bounded[next])) ++next;
      input.append(bounded, end, next - end);
      at = next;
    }
  }

  // Stack frames.
  static const regex::Regex kPython(R"re(File "([^"\n]+)", line (\d+)(?:, in ([A-Za-z_<>][\w<>]*))?)re");
  static const regex::Regex kJs(R"re(at (?:([\w$.<>]+) )?\(?((?:[A-Za-z]:)?[^\s():]+\.[A-Za-z]+):(\d+):\d+\)?)re");
  static const regex::Regex kJava(R"re(at ([\w$.]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|scala)):(\d+)\))re");
  static const regex::Regex kGoRust(R"re((/?(?:[\w.-]+/)*[\w.-]+\.(?:go|rs)):(\d+)(?::\d+)?)re");
  // A line number as written; one too large for 32 bits is no line.
  auto line_of = [](std::string_view digits) -> std::uint32_t {
    std::uint64_t line = 0;
    for (char c : digits) {
      line = line * 10 + static_cast<std::uint64_t>(c - '0');
      if (line > 0xffffffffULL) return 0;
    }
    return static_cast<std::uint32_t>(line);
  };
  auto add_frame = [&](std::string_view path, std::string_view line, std::string function) {
    Frame frame{std::string(path), line_of(line), std::move(function)};
    add_unique(terms.frames, seen_frame, frame.path + ":" + std::to_string(frame.line), frame);
    return true;
  };
  kPython.for_each(input, [&](const regex::Match& m) { return add_frame(m.group(1), m.group(2), std::string(m.group(3))); });
  kJava.for_each(input, [&](const regex::Match& m) { return add_frame(m.group(3), m.group(4), std::string(m.group(2))); });
  kJs.for_each(input, [&](const regex::Match& m) {
    std::string function(m.group(1));
    std::size_t dot = function.rfind('.');
    if (dot != std::string::npos) function = function.substr(dot + 1);
    return add_frame(m.group(2), m.group(3), function);
  });
  kGoRust.for_each(input, [&](const regex::Match& m) { return add_frame(m.group(1), m.group(2), ""); });

  // Paths: something/with/slashes.ext or name.ext with a known source extension.
  static const regex::Regex kPath(
      R"re((?:[\w.@-]+/)*[\w@-][\w.-]*\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|java|kt|go|rs|c|h|cc|cpp|hpp|cs|rb|php|swift|lua|sh|json|yaml|yml|toml|md|rst|txt|cfg|ini|html|css|scss|vue|svelte)\b)re");
  kPath.for_each(input, [&](const regex::Match& m) {
    std::string path(m.group(0));
    while (!path.empty() && (path.front() == '.' || path.front() == '/')) path.erase(path.begin());
    if (path.find('/') != std::string::npos || path.size() >= 4) add_unique(terms.paths, seen_path, path, path);
    return true;
  });
  for (const Frame& frame : terms.frames) add_unique(terms.paths, seen_path, frame.path, frame.path);

  // Quoted strings (error messages, literals).
  // A single quote right after a letter is an apostrophe ("don't ... it's"),
  // not an opening quote; nor is one before a letter a closing quote.
  static const regex::Regex kQuoted(R"re("([^"\n]{8,200})"|(?:^|[^\w'])'([^'\n]{8,200})'(?![\w']))re");
  kQuoted.for_each(input, [&](const regex::Match& m) {
    std::string quoted(m.groups[1] ? *m.groups[1] : m.group(2));
    add_unique(terms.quoted, seen_quoted, quoted, quoted);
    return true;
  });

  // Code regions: fenced blocks and `inline code` weigh every name in them as code.
  std::vector<std::pair<std::size_t, std::size_t>> code;
  for (std::size_t at = input.find("```"); at != std::string::npos;) {
    std::size_t end = input.find("```", at + 3);
    code.emplace_back(at, end == std::string::npos ? input.size() : end);
    at = end == std::string::npos ? end : input.find("```", end + 3);
  }
  // A fenced block's lines that may be an excerpt of the project's code:
  // at least 20 characters and four words (not `}`), not an import.
  {
    constexpr std::size_t kShortest = 20, kWords = 4, kMostLines = 64;
    std::unordered_set<std::string> seen_line;
    for (const auto& [start, end] : code) {
      std::size_t body = input.find('\n', start);  // after the fence and its language tag
      std::string_view previous;
      for (std::size_t at = body; at != std::string::npos && at < end && terms.code_lines.size() < kMostLines;) {
        std::size_t stop = std::min(input.find('\n', at + 1), end);
        std::string_view line = std::string_view(input).substr(at + 1, stop > at + 1 ? stop - at - 1 : 0);
        at = stop < end ? stop : std::string::npos;
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
        // A Python traceback's frame and source line: the frame is evidence already.
        bool frame_source = previous.starts_with("File \"") || line.starts_with("File \"");
        previous = line;
        // Imports are what every user of the project writes, not its code.
        bool import = line.starts_with("import ") || (line.starts_with("from ") && line.find(" import ") != line.npos) ||
                      line.starts_with("#include") || line.starts_with("using ") ||
                      line.find("require(") != line.npos;
        if (frame_source || import || line.size() < kShortest || line.size() > 300) continue;
        std::size_t words = 0;
        for (std::size_t k = 0; k < line.size();) {
          if (!std::isalnum(static_cast<unsigned char>(line[k]))) {
            ++k;
            continue;
          }
          ++words;
          while (k < line.size() && std::isalnum(static_cast<unsigned char>(line[k]))) ++k;
        }
        if (words >= kWords) add_unique(terms.code_lines, seen_line, std::string(line), std::string(line));
      }
    }
  }
  for (std::size_t at = input.find('`'); at != std::string::npos;) {
    std::size_t end = input.find('`', at + 1);
    if (end == std::string::npos) break;
    if (end - at < 120) code.emplace_back(at, end);
    at = input.find('`', end + 1);
  }
  // As disjoint regions in order, so that a lookup is a binary search (a
  // task of backticks has hundreds of thousands of them).
  std::sort(code.begin(), code.end());
  std::vector<std::pair<std::size_t, std::size_t>> regions;
  for (const auto& region : code)
    if (!regions.empty() && region.first < regions.back().second)
      regions.back().second = std::max(regions.back().second, region.second);
    else
      regions.push_back(region);
  auto in_code = [&](std::size_t pos) {
    auto after = std::upper_bound(regions.begin(), regions.end(), std::make_pair(pos, std::size_t{0}),
                                  [](const auto& a, const auto& b) { return a.first < b.first; });
    if (after == regions.begin()) return false;
    const auto& [start, end] = *std::prev(after);
    return pos > start && pos < end;
  };
  for (const Frame& frame : terms.frames)
    if (!frame.function.empty() && frame.function[0] != '<' && !stop_words().count(frame.function))
      add_unique(terms.identifiers, seen_ident, frame.function, frame.function);

  // Compounds: two adjacent prose words joined by one space or hyphen may
  // be one name in the code ("sls invoke local" -> invokeLocal/,
  // "api-gateway" -> apiGateway/, "--trace-token" -> traceToken).
  {
    static const std::unordered_set<std::string> kGlue = {
        "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for", "from", "with", "is", "are",
        "was", "were", "be", "been", "it", "its", "this", "that", "these", "those", "i", "you", "we", "they", "he",
        "she", "my", "our", "your", "their", "me", "them", "if", "then", "else", "when", "where", "which", "who",
        "why", "how", "not", "no", "do", "does", "did", "can", "could", "should", "would", "will", "as", "so", "than",
        "too", "very", "just", "also", "there", "here", "what", "while", "has", "have", "had", "into", "via", "all"};
    struct Word {
      std::size_t start, end;
    };
    std::vector<Word> words;
    for (std::size_t k = 0; k < input.size();) {
      if (!std::isalpha(static_cast<unsigned char>(input[k]))) {
        ++k;
        continue;
      }
      std::size_t from = k;
      while (k < input.size() && std::isalnum(static_cast<unsigned char>(input[k]))) ++k;
      words.push_back({from, k});
    }
    auto plain = [&](const Word& w) {  // "invoke", "Local", "CLI"; not "useTLS" (a name already)
      std::size_t upper = 0;
      for (std::size_t k = w.start + 1; k < w.end; ++k) upper += std::isupper(static_cast<unsigned char>(input[k])) != 0;
      return upper == 0 || upper + 1 == w.end - w.start;
    };
    std::unordered_set<std::string> seen_compound;
    for (std::size_t w = 0; w + 1 < words.size(); ++w) {
      const Word& a = words[w];
      const Word& b = words[w + 1];
      if (b.start != a.end + 1 || (input[a.end] != ' ' && input[a.end] != '-')) continue;
      char before = a.start > 0 ? input[a.start - 1] : ' ';
      char after = b.end < input.size() ? input[b.end] : ' ';
      char after2 = b.end + 1 < input.size() ? input[b.end + 1] : ' ';
      if (before == '_' || before == '/' || before == '.' || after == '_' || after == '/' ||
          (after == '.' && std::isalnum(static_cast<unsigned char>(after2))))
        continue;  // part of a path or a dotted name
      if (!plain(a) || !plain(b)) continue;
      std::string first = input.substr(a.start, a.end - a.start), second = input.substr(b.start, b.end - b.start);
      std::transform(first.begin(), first.end(), first.begin(), [](unsigned char c) { return std::tolower(c); });
      std::transform(second.begin(), second.end(), second.begin(), [](unsigned char c) { return std::tolower(c); });
      if (kGlue.count(first) || kGlue.count(second) || first.size() + second.size() < 6) continue;
      add_unique(terms.compounds, seen_compound, first + second, first + second);
    }
  }

  // Words and dotted names.
  std::size_t i = 0;
  while (i < input.size()) {
    if (!is_ident_char(input[i]) || (i > 0 && is_ident_char(input[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t start = i;
    while (i < input.size() && (is_ident_char(input[i]) || (input[i] == '.' && i + 1 < input.size() &&
                                                           std::isalpha(static_cast<unsigned char>(input[i + 1])))))
      ++i;
    std::string token = input.substr(start, i - start);
    if (std::isdigit(static_cast<unsigned char>(token[0]))) continue;
    bool call = i < input.size() && input[i] == '(';
    bool code_context = in_code(start);
    std::vector<std::string> parts;
    std::size_t from = 0;
    while (from <= token.size()) {
      std::size_t dot = token.find('.', from);
      parts.push_back(token.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
      if (dot == std::string::npos) break;
      from = dot + 1;
    }
    if (parts.size() > 1) {
      bool is_path_like = seen_path.count(token) > 0;
      if (!is_path_like) add_unique(terms.dotted, seen_dotted, token, token);
    }
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const std::string& part = parts[k];
      if (part.size() < 2) continue;
      bool last = k + 1 == parts.size();
      std::string lowered = part;
      std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return std::tolower(c); });
      bool stop = stop_words().count(lowered) > 0;
      if (code_like(part) || (!stop && ((code_context && part.size() >= 3) || (call && last && part.size() >= 3) ||
                                        (parts.size() > 1 && part.size() >= 3)))) {
        add_unique(terms.identifiers, seen_ident, part, part);
      } else {
        std::string lower = part;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (lower.size() >= 3 && !stop_words().count(lower)) add_unique(terms.words, seen_word, lower, lower);
      }
    }
  }
  return terms;
}

}  // namespace comp::pipeline
