#include "netlib/calc/prng.hpp"

#include <cmath>
#include <stdexcept>

namespace netlib::calc {

double prng::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

long long prng::between(long long lo, long long hi) {
  if (hi < lo) throw std::logic_error("prng::between: hi < lo");
  const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
  if (span == 0) return static_cast<long long>(next());  // the whole 64-bit range
  // Reject the top partial block so every value is equally likely.
  const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % span + 1) % span;
  for (;;) {
    const std::uint64_t x = next();
    if (x <= limit) return lo + static_cast<long long>(x % span);
  }
}

double prng::exponential(double mean) {
  // 1 - u is in (0, 1], so the log is finite.
  return -mean * std::log(1.0 - uniform());
}

}  // namespace netlib::calc
