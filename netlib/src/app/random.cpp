#include "netlib/app/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "netlib/app/program.hpp"

namespace netlib::app {

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::getrandom(buf.data() + got, bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw failure(std::string("getrandom: ") + std::strerror(errno));
    got += static_cast<std::size_t>(n);
  }
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes);
  for (unsigned char b : buf) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace netlib::app
