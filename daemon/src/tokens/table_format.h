// The layout of the o200k_base rank table that tiktoken_pack writes at build
// time and tokens.cc reads in place (embedded in the binary, never parsed at
// run time). Shared by both so the hash and the layout cannot drift apart.
//
// Blob (native endianness: built and used on the same host):
//   Header
//   std::uint32_t offsets[n_ranks + 1]   token r = bytes[offsets[r], offsets[r+1])
//   std::uint32_t slots[1 << table_bits] open addressing, linear probing;
//                                        rank + 1, 0 = empty
//   std::uint32_t byte_ranks[256]        rank of each single byte
//   std::uint32_t pair_ranks[65536]      rank of each two-byte string (a << 8 | b), kNoRank when none:
//                                        the first round of every merge, looked up without hashing
//   std::uint8_t  bytes[bytes_len]       the tokens' bytes, concatenated
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace comp::tokens::table {

inline constexpr std::uint32_t kMagic = 0x4b303032;  // "200K"
inline constexpr std::uint32_t kVersion = 2;
inline constexpr std::uint32_t kNoRank = 0xffffffffu;

struct Header {
  std::uint32_t magic;
  std::uint32_t version;
  std::uint32_t n_ranks;
  std::uint32_t table_bits;
  std::uint32_t bytes_len;
  std::uint32_t max_token_len;
  std::uint32_t reserved[2];
};
static_assert(sizeof(Header) == 32);

// A fast 64-bit hash of a short byte string (tokens are at most a few hundred
// bytes). Any change here must bump kVersion.
inline std::uint64_t hash_bytes(const unsigned char* p, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    p += 8;
    n -= 8;
  }
  if (n) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * 0x94d049bb133111ebull;
  }
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 32;
  return h;
}

}  // namespace comp::tokens::table
