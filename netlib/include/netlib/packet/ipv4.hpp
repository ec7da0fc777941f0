#pragma once
// IPv4 headers (RFC 791 §3.1), with options kept as bytes and fragments flagged (not reassembled).
#include <cstdint>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"
#include "netlib/packet/ip_address.hpp"

namespace netlib::packet {

namespace ip_protocol {
inline constexpr std::uint8_t icmp = 1;
inline constexpr std::uint8_t tcp = 6;
inline constexpr std::uint8_t udp = 17;
inline constexpr std::uint8_t icmpv6 = 58;
}  // namespace ip_protocol

struct ipv4_header {
  std::uint8_t header_length = 20;  // IHL * 4
  std::uint8_t tos = 0;
  std::uint16_t total_length = 0;
  std::uint16_t identification = 0;
  bool dont_fragment = false;
  bool more_fragments = false;
  std::uint16_t fragment_offset = 0;  // in bytes
  std::uint8_t ttl = 0;
  std::uint8_t protocol = 0;
  std::uint16_t checksum = 0;
  ip_address src;
  ip_address dst;
  byte_view options;
  byte_view payload;       // up to total_length (trailer padding removed)
  bool truncated = false;  // the capture holds fewer bytes than total_length

  [[nodiscard]] bool is_fragment() const noexcept { return more_fragments || fragment_offset != 0; }
};

// Errors: "truncated header", "bad version", "bad header length", "bad total length".
decoded<ipv4_header> decode_ipv4(byte_view bytes);
// The same into a default-constructed `out` (partial on an error: the caller discards it).
std::optional<decode_error> decode_ipv4_into(byte_view bytes, ipv4_header& out);

}  // namespace netlib::packet
