// parse/tree: the one way comP runs tree-sitter over a file: with the
// language's grammar and a time limit, so that a pathological file costs a
// bounded amount of time. Used by symbol extraction and by compression.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <string_view>

#include "lang/language.h"

namespace comp::parse {

// Parses `source` with `parser` (set to `language`'s grammar). Gives up after
// `timeout_ms` (0: no limit). Null on timeout or failure; the parser is then
// reset and can be used again. The caller owns the returned tree.
TSTree* parse_tree(TSParser* parser, lang::Language language, std::string_view source, unsigned timeout_ms);

// Moves `cursor` to the next node in document order: into the current node's
// first child when `descend` (and it has one), else to its next sibling or
// the next sibling of its nearest ancestor that has one. False when the walk
// is over (the cursor is then back at its root).
bool next_node(TSTreeCursor* cursor, bool descend);

// ERROR and MISSING nodes under `root` (itself included), entering only the
// subtrees that hold some.
std::size_t count_syntax_errors(TSNode root);

}  // namespace comp::parse
