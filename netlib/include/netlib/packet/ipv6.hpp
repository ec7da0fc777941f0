#pragma once
// IPv6 headers (RFC 8200 §3) with the extension headers skipped (§4) to the upper-layer protocol.
#include <cstdint>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"
#include "netlib/packet/ip_address.hpp"

namespace netlib::packet {

struct ipv6_header {
  std::uint8_t traffic_class = 0;
  std::uint32_t flow_label = 0;
  std::uint16_t payload_length = 0;
  std::uint8_t next_header = 0;  // the first Next Header value
  std::uint8_t protocol = 0;     // after skipping extension headers; 59 = no next header
  std::uint8_t hop_limit = 0;
  ip_address src;
  ip_address dst;
  std::uint8_t extension_headers = 0;
  bool is_fragment = false;           // a Fragment header was present (RFC 8200 §4.5)
  std::uint16_t fragment_offset = 0;  // in bytes; the upper layer is decoded only at offset 0
  bool more_fragments = false;        // the Fragment header's M flag
  std::uint32_t fragment_id = 0;      // the Fragment header's Identification
  byte_view fragment_data;            // the fragment's bytes: everything after the Fragment header
  byte_view payload;                  // the upper-layer bytes
  bool truncated = false;             // the capture holds fewer bytes than payload_length
};

inline constexpr std::size_t max_ipv6_extension_headers = 16;

// Errors: "truncated header", "bad version", "truncated extension header", "too many extension
// headers".
decoded<ipv6_header> decode_ipv6(byte_view bytes);
// The same into a default-constructed `out` (partial on an error: the caller discards it).
std::optional<decode_error> decode_ipv6_into(byte_view bytes, ipv6_header& out);

}  // namespace netlib::packet
