// The one tokenizer of comP: splits text into lower-case identifier tokens,
// and each compound identifier also into its parts, so that a search for
// "token" finds validateToken and VALIDATE_TOKEN, and a search for
// "validatetoken" finds the whole identifier.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace comp::graph {

// Calls `emit(token, start_byte, end_byte)` for every token of `text`, in
// order. A word is a run of ASCII letters, digits, '_' and any byte >= 0x80
// (UTF-8 text stays whole). Each word is emitted lower-cased (ASCII only);
// when it has several parts (camelCase, PascalCase, ACRONYMWord, snake_case,
// kebab-less digits boundaries), each part follows it. Parts of one letter and
// words longer than 64 bytes are not split.
void split_identifiers(std::string_view text,
                       const std::function<void(std::string_view token, int start, int end)>& emit);

// The tokens of `terms` a query looks for: each term split as above, tokens
// of 2-40 alphanumeric bytes, the first `max_atoms` distinct ones in order.
std::vector<std::string> fts_atoms(const std::vector<std::string>& terms, std::size_t max_atoms);
// An FTS5 query matching any of `atoms`, each a quoted phrase so that no
// user text is read as query syntax. "" when there is none.
std::string fts_or(const std::vector<std::string>& atoms);
// fts_or(fts_atoms(terms, max_atoms)).
std::string fts_any_of(const std::vector<std::string>& terms, std::size_t max_atoms);

// `text` as one FTS5 phrase string ("..." with inner quotes doubled): read
// as text and tokenized, never as query syntax.
std::string fts_phrase(std::string_view text);

// Registers the tokenizer as "comp_ident" with the FTS5 of `db`. Returns
// false (with the SQLite error in `error`) when FTS5 is unavailable.
bool register_identifier_tokenizer(sqlite3* db, std::string* error);

}  // namespace comp::graph
