// digest: the one hashing routine of comP (OpenSSL's SHA-256).
#pragma once

#include <string>
#include <string_view>

namespace comp::digest {

// Lower-case hex SHA-256 of `data` (64 characters).
std::string sha256_hex(std::string_view data);

}  // namespace comp::digest
