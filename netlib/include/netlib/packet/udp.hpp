#pragma once
// UDP (RFC 768) and ICMP / ICMPv6 (RFC 792, RFC 4443) headers.
#include <cstdint>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"

namespace netlib::packet {

struct udp_header {
  std::uint16_t src_port = 0;
  std::uint16_t dst_port = 0;
  std::uint16_t length = 0;
  std::uint16_t checksum = 0;
  byte_view payload;       // up to `length`
  bool truncated = false;  // the capture holds fewer bytes than `length`
};

// Errors: "truncated header", "bad length".
decoded<udp_header> decode_udp(byte_view bytes);

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
