#pragma once
// UDP headers (RFC 768).
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
// The same into a default-constructed `out` (partial on an error: the caller discards it).
std::optional<decode_error> decode_udp_into(byte_view bytes, udp_header& out);

}  // namespace netlib::packet
