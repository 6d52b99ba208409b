#include "parse/tree.h"

#include <chrono>
#include <cstdint>

namespace comp::parse {

TSTree* parse_tree(TSParser* parser, lang::Language language, std::string_view source, unsigned timeout_ms) {
  if (!ts_parser_set_language(parser, lang::grammar(language))) return nullptr;
  using Clock = std::chrono::steady_clock;
  struct Deadline {
    Clock::time_point at;
    bool enabled;
  } deadline{Clock::now() + std::chrono::milliseconds(timeout_ms), timeout_ms != 0};
  TSParseOptions options{};
  options.payload = &deadline;
  options.progress_callback = [](TSParseState* state) -> bool {
    auto* d = static_cast<Deadline*>(state->payload);
    return d->enabled && Clock::now() > d->at;  // true cancels
  };
  struct Text {
    std::string_view source;
  } text{source};
  TSInput input{};
  input.payload = &text;
  input.encoding = TSInputEncodingUTF8;
  input.read = [](void* payload, std::uint32_t byte, TSPoint, std::uint32_t* bytes_read) -> const char* {
    auto* t = static_cast<Text*>(payload);
    if (byte >= t->source.size()) {
      *bytes_read = 0;
      return "";
    }
    *bytes_read = static_cast<std::uint32_t>(t->source.size() - byte);
    return t->source.data() + byte;
  };
  TSTree* tree = ts_parser_parse_with_options(parser, nullptr, input, options);
  if (!tree) ts_parser_reset(parser);
  return tree;
}

bool next_node(TSTreeCursor* cursor, bool descend) {
  if (descend && ts_tree_cursor_goto_first_child(cursor)) return true;
  while (!ts_tree_cursor_goto_next_sibling(cursor))
    if (!ts_tree_cursor_goto_parent(cursor)) return false;
  return true;
}

std::size_t count_syntax_errors(TSNode root) {
  if (!ts_node_has_error(root)) return 0;
  std::size_t count = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  do {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (ts_node_is_error(node) || ts_node_is_missing(node)) ++count;
  } while (next_node(&cursor, ts_node_has_error(ts_tree_cursor_current_node(&cursor))));
  ts_tree_cursor_delete(&cursor);
  return count;
}

}  // namespace comp::parse
