#include "graph/identifier_tokenizer.h"

#include "graph/bm25.h"

#include <cctype>
#include <unordered_set>

#include <sqlite3.h>

#include <string>

namespace comp::graph {
namespace {

bool is_word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}
bool is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

constexpr std::size_t kMaxSplitWord = 64;

// Emits the parts of word [begin, end) of `text`, lower-cased into `scratch`.
template <typename Emit>
void emit_parts(std::string_view text, int begin, int end, std::string& scratch, Emit&& emit) {
  int part_start = -1;
  int parts = 0;
  auto flush = [&](int part_end) {
    if (part_start >= 0 && part_end - part_start >= 2) {
      scratch.assign(text.substr(part_start, part_end - part_start));
      for (char& c : scratch)
        if (is_upper(static_cast<unsigned char>(c))) c = static_cast<char>(c - 'A' + 'a');
      emit(std::string_view(scratch), part_start, part_end);
      ++parts;
    }
    part_start = -1;
  };
  for (int i = begin; i < end; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '_') {
      flush(i);
      continue;
    }
    if (part_start < 0) {
      part_start = i;
      continue;
    }
    unsigned char prev = static_cast<unsigned char>(text[i - 1]);
    bool boundary = (is_upper(c) && is_lower(prev)) ||                        // fooBar
                    (is_upper(c) && is_upper(prev) && i + 1 < end &&          // HTTPServer
                     is_lower(static_cast<unsigned char>(text[i + 1]))) ||
                    (is_digit(c) != is_digit(prev) && c != '_' && prev != '_' &&  // utf8Decode
                     !(c >= 0x80 || prev >= 0x80));
    if (boundary) {
      flush(i);
      part_start = i;
    }
  }
  flush(end);
  (void)parts;
}

}  // namespace

namespace {

// The tokenizer proper; a template so that the FTS5 callback path pays no
// std::function call per token.
template <typename Emit>
void split(std::string_view text, Emit&& emit) {
  thread_local std::string whole, part;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word_byte(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t start = i;
    while (i < text.size() && is_word_byte(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start) break;
    whole.assign(text.substr(start, i - start));
    bool has_upper = false;
    for (char& c : whole)
      if (is_upper(static_cast<unsigned char>(c))) {
        c = static_cast<char>(c - 'A' + 'a');
        has_upper = true;
      }
    // Trim leading/trailing underscores of the whole token (__init__ -> init).
    std::size_t lead = whole.find_first_not_of('_');
    if (lead == std::string::npos) continue;
    std::size_t trail = whole.find_last_not_of('_');
    std::string_view token(whole.data() + lead, trail - lead + 1);
    emit(token, static_cast<int>(start + lead), static_cast<int>(start + trail + 1));
    if (token.size() > kMaxSplitWord) continue;
    bool compound = token.find('_') != std::string_view::npos || has_upper;
    if (!compound) {
      bool digit = false, alpha = false;
      for (char c : token) (is_digit(static_cast<unsigned char>(c)) ? digit : alpha) = true;
      compound = digit && alpha;
    }
    if (!compound) continue;
    // Emit the parts only when there are at least two.
    int count = 0;
    emit_parts(text, static_cast<int>(start + lead), static_cast<int>(start + trail + 1), part,
               [&](std::string_view, int, int) { ++count; });
    if (count < 2) continue;
    emit_parts(text, static_cast<int>(start + lead), static_cast<int>(start + trail + 1), part, emit);
  }
}

}  // namespace

void split_identifiers(std::string_view text,
                       const std::function<void(std::string_view token, int start, int end)>& emit) {
  split(text, emit);
}

namespace {

struct Tokenizer {};

int create(void*, const char**, int, Fts5Tokenizer** out) {
  *out = reinterpret_cast<Fts5Tokenizer*>(new Tokenizer());
  return SQLITE_OK;
}
void destroy(Fts5Tokenizer* tokenizer) { delete reinterpret_cast<Tokenizer*>(tokenizer); }

int tokenize(Fts5Tokenizer*, void* context, int, const char* text, int length,
             int (*token_callback)(void*, int, const char*, int, int, int)) {
  int rc = SQLITE_OK;
  split(std::string_view(text, length > 0 ? static_cast<std::size_t>(length) : 0),
        [&](std::string_view token, int start, int end) {
          if (rc != SQLITE_OK) return;
          rc = token_callback(context, 0, token.data(), static_cast<int>(token.size()), start, end);
        });
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

}  // namespace

bool register_identifier_tokenizer(sqlite3* db, std::string* error) {
  fts5_api* api = fts5_api_of(db);
  if (!api) {
    if (error) *error = "SQLite was built without FTS5";
    return false;
  }
  static fts5_tokenizer tokenizer{create, destroy, tokenize};
  int rc = api->xCreateTokenizer(api, "comp_ident", nullptr, &tokenizer, nullptr);
  if (rc != SQLITE_OK) {
    if (error) *error = sqlite3_errstr(rc);
    return false;
  }
  return true;
}

std::string fts_phrase(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::vector<std::string> fts_atoms(const std::vector<std::string>& terms, std::size_t max_atoms) {
  std::vector<std::string> atoms;
  std::unordered_set<std::string> seen;
  for (const std::string& term : terms) {
    split_identifiers(term, [&](std::string_view token, int, int) {
      if (token.size() < 2 || token.size() > 40) return;
      for (char c : token)
        if (!std::isalnum(static_cast<unsigned char>(c))) return;
      std::string atom(token);
      if (seen.insert(atom).second) atoms.push_back(atom);
    });
    if (atoms.size() >= max_atoms) break;
  }
  if (atoms.size() > max_atoms) atoms.resize(max_atoms);
  return atoms;
}

std::string fts_or(const std::vector<std::string>& atoms) {
  std::string query;
  for (const std::string& atom : atoms) query += (query.empty() ? "" : " OR ") + fts_phrase(atom);
  return query;
}

std::string fts_any_of(const std::vector<std::string>& terms, std::size_t max_atoms) {
  return fts_or(fts_atoms(terms, max_atoms));
}

}  // namespace comp::graph
