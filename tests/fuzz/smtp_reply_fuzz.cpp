// Fuzzes the SMTP reply parser and the MAIL/RCPT path parser.
#include <cstddef>
#include <cstdint>
#include <string>

#include "netlib/smtp/command.hpp"
#include "netlib/smtp/reply.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const netlib::byte_view input(reinterpret_cast<const std::byte*>(data), size);
  netlib::smtp::reply_parser p;
  std::size_t used = 0;
  for (int n = 0; n < 10000; ++n) {
    const auto r = p.next(input.subspan(used));
    used += r.consumed;
    if (used > size) __builtin_trap();
    if (r.status != netlib::smtp::reply_status::reply) break;
  }
  std::string why;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)netlib::smtp::parse_path(text, "FROM:", why);
  (void)netlib::smtp::split_command(text);
  return 0;
}
