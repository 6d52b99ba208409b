// parse/tree: the one way comP runs tree-sitter over a file: with the
// language's grammar and a time limit, so that a pathological file costs a
// bounded amount of time. Used by symbol extraction and by compression.
#pragma once

#include <tree_sitter/api.h>

#include <string_view>

#include "lang/language.h"

namespace comp::parse {

// Parses `source` with `parser` (set to `language`'s grammar). Gives up after
// `timeout_ms` (0: no limit). Null on timeout or failure; the parser is then
// reset and can be used again. The caller owns the returned tree.
TSTree* parse_tree(TSParser* parser, lang::Language language, std::string_view source, unsigned timeout_ms);

}  // namespace comp::parse
