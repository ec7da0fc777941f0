// Fuzzes the POP3 response parser, alternating single- and multi-line expectations.
#include <cstddef>
#include <cstdint>

#include "netlib/pop3/response.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const netlib::byte_view input(reinterpret_cast<const std::byte*>(data), size);
  netlib::pop3::response_parser p(4096);
  std::size_t used = 0;
  for (int n = 0; n < 10000; ++n) {
    const auto r = p.next(input.subspan(used), n % 2 == 0);
    used += r.consumed;
    if (used > size) __builtin_trap();
    if (r.status != netlib::pop3::response_status::response) break;
  }
  return 0;
}
