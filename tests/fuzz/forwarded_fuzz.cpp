// Fuzzes the Forwarded reader (RFC 7239) with any field value: it never reads past its input, and
// what it returns is an address the peer was trusted to name, or the peer itself.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "netlib/http/fields.hpp"
#include "netlib/http/forwarded.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string value(reinterpret_cast<const char*>(data), size);
  netlib::http::fields f;
  f.add("Forwarded", value);
  const auto found = netlib::http::last_forwarded_for(f);
  if (found && (found->empty() || found->size() > size)) __builtin_trap();
  const std::vector<std::string> trusted{"127.0.0.1"};
  const std::string who = netlib::http::client_address(f, "127.0.0.2", trusted);
  if (who != "127.0.0.2") __builtin_trap();  // an untrusted peer is never replaced
  return 0;
}
