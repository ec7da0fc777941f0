#pragma once
// Unpredictable identifiers for the programs (session ids, Message-ID tokens), read from the
// kernel with getrandom(2). Not std::random_device: Debian 12's static libstdc++ implements it
// with arc4random, a GLIBC_2.36 symbol that the release bundle may not need (its floor is 2.35,
// cmake/NetlabPortable.cmake).
#include <cstddef>
#include <string>

namespace netlib::app {

// `bytes` random bytes from the kernel as 2 * bytes lowercase hex digits; throws
// netlib::app::failure when the kernel cannot give them.
std::string random_hex(std::size_t bytes);

}  // namespace netlib::app
