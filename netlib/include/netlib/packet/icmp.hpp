#pragma once
// ICMP (RFC 792) and ICMPv6 (RFC 4443 §2.1) message headers.
#include <cstdint>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"

namespace netlib::packet {

struct icmp_message {
  bool v6 = false;
  std::uint8_t type = 0;
  std::uint8_t code = 0;
  std::uint16_t checksum = 0;
  std::uint32_t rest = 0;  // identifier/sequence, pointer, MTU... depending on the type
  byte_view payload;
};

// Errors: "truncated header". The layer is "icmp" or "icmpv6".
decoded<icmp_message> decode_icmp(byte_view bytes, bool v6);

}  // namespace netlib::packet
