#include "digest/sha256.h"

// OpenSSL's SHA-256 functions rather than EVP_Digest: OpenSSL 3 loads its
// configuration and providers on the first EVP call of a process, 2.2 ms
// here, a fortieth of a `comp query` (which hashes the files it packs to
// look up their compressed forms); SHA256_Init/Update/Final run the same
// hardware-accelerated code without them. They are deprecated in 3.0 but
// kept through the 3.x series.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <stdexcept>

namespace comp::digest {

std::string sha256_hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256_CTX context;
  if (SHA256_Init(&context) != 1 || SHA256_Update(&context, data.data(), data.size()) != 1 ||
      SHA256_Final(digest, &context) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex(2 * SHA256_DIGEST_LENGTH, '0');
  for (unsigned int i = 0; i < SHA256_DIGEST_LENGTH; ++i) {
    hex[2 * i] = kHex[digest[i] >> 4];
    hex[2 * i + 1] = kHex[digest[i] & 0xf];
  }
  return hex;
}

}  // namespace comp::digest
