#pragma once
// TCP headers (RFC 9293 §3.1) and their options (MSS, window scale, SACK, timestamps).
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"

namespace netlib::packet {

namespace tcp_flag {
inline constexpr std::uint8_t fin = 0x01;
inline constexpr std::uint8_t syn = 0x02;
inline constexpr std::uint8_t rst = 0x04;
inline constexpr std::uint8_t psh = 0x08;
inline constexpr std::uint8_t ack = 0x10;
inline constexpr std::uint8_t urg = 0x20;
inline constexpr std::uint8_t ece = 0x40;
inline constexpr std::uint8_t cwr = 0x80;
}  // namespace tcp_flag

struct tcp_options {
  std::optional<std::uint16_t> mss;
  std::optional<std::uint8_t> window_scale;
  bool sack_permitted = false;
  std::uint8_t sack_block_count = 0;
  std::array<std::pair<std::uint32_t, std::uint32_t>, 4> sack_blocks{};
  std::optional<std::pair<std::uint32_t, std::uint32_t>> timestamps;  // TSval, TSecr
};

struct tcp_header {
  std::uint16_t src_port = 0;
  std::uint16_t dst_port = 0;
  std::uint32_t seq = 0;
  std::uint32_t ack = 0;
  std::uint8_t header_length = 20;  // data offset * 4
  std::uint8_t flags = 0;
  std::uint16_t window = 0;
  std::uint16_t checksum = 0;
  std::uint16_t urgent = 0;
  tcp_options options;
  byte_view payload;

  [[nodiscard]] bool has(std::uint8_t flag) const noexcept { return (flags & flag) != 0; }
  // "SYN", "SYN,ACK", "FIN,ACK"... in Wireshark's order.
  [[nodiscard]] std::string flag_names() const;
};

// Errors: "truncated header", "bad data offset", "truncated options", "bad option length".
decoded<tcp_header> decode_tcp(byte_view bytes);
// The same into a default-constructed `out` (partial on an error: the caller discards it).
std::optional<decode_error> decode_tcp_into(byte_view bytes, tcp_header& out);

}  // namespace netlib::packet
