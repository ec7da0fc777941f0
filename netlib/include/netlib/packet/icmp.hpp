#pragma once
// ICMP (RFC 792) and ICMPv6 (RFC 4443) messages: the common header, the echo identifier and
// sequence number, the MTU of "fragmentation needed" (RFC 1191) and "packet too big" (RFC 8201),
// and, for error messages, the quoted datagram: the IP header and the first bytes of the
// datagram that caused the error, decoded as far as they go (ports of a quoted UDP or TCP
// header, type, code, identifier and sequence of a quoted ICMP echo).
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"
#include "netlib/packet/ipv4.hpp"
#include "netlib/packet/ipv6.hpp"

namespace netlib::packet {

namespace icmp_type {  // RFC 792, RFC 950
inline constexpr std::uint8_t echo_reply = 0;
inline constexpr std::uint8_t destination_unreachable = 3;
inline constexpr std::uint8_t source_quench = 4;
inline constexpr std::uint8_t redirect = 5;
inline constexpr std::uint8_t echo_request = 8;
inline constexpr std::uint8_t time_exceeded = 11;
inline constexpr std::uint8_t parameter_problem = 12;
}  // namespace icmp_type

namespace icmpv6_type {  // RFC 4443 §2.1, RFC 4861 §4
inline constexpr std::uint8_t destination_unreachable = 1;
inline constexpr std::uint8_t packet_too_big = 2;
inline constexpr std::uint8_t time_exceeded = 3;
inline constexpr std::uint8_t parameter_problem = 4;
inline constexpr std::uint8_t echo_request = 128;
inline constexpr std::uint8_t echo_reply = 129;
inline constexpr std::uint8_t router_solicitation = 133;
inline constexpr std::uint8_t router_advertisement = 134;
inline constexpr std::uint8_t neighbor_solicitation = 135;
inline constexpr std::uint8_t neighbor_advertisement = 136;
}  // namespace icmpv6_type

struct icmp_message {
  bool v6 = false;
  std::uint8_t type = 0;
  std::uint8_t code = 0;
  std::uint16_t checksum = 0;
  std::uint32_t rest = 0;  // identifier/sequence, pointer, MTU... depending on the type
  byte_view payload;

  [[nodiscard]] bool is_echo_request() const noexcept {
    return type == (v6 ? icmpv6_type::echo_request : icmp_type::echo_request);
  }
  [[nodiscard]] bool is_echo_reply() const noexcept {
    return type == (v6 ? icmpv6_type::echo_reply : icmp_type::echo_reply);
  }
  [[nodiscard]] bool is_echo() const noexcept { return is_echo_request() || is_echo_reply(); }
  [[nodiscard]] bool is_time_exceeded() const noexcept {
    return type == (v6 ? icmpv6_type::time_exceeded : icmp_type::time_exceeded);
  }
  [[nodiscard]] bool is_destination_unreachable() const noexcept {
    return type == (v6 ? icmpv6_type::destination_unreachable : icmp_type::destination_unreachable);
  }
  // An error message, which quotes the datagram that caused it (RFC 792; RFC 4443 §2.1: types
  // below 128).
  [[nodiscard]] bool is_error() const noexcept;
  // Echo request and reply (RFC 792 p. 14, RFC 4443 §4.1): the identifier and sequence number.
  [[nodiscard]] std::uint16_t identifier() const noexcept { return static_cast<std::uint16_t>(rest >> 16); }
  [[nodiscard]] std::uint16_t sequence() const noexcept { return static_cast<std::uint16_t>(rest & 0xffff); }
  // The MTU of the next hop: ICMP "fragmentation needed and DF set" (type 3 code 4, RFC 1191 §4)
  // or ICMPv6 "packet too big" (RFC 4443 §3.2); nullopt for other messages.
  [[nodiscard]] std::optional<std::uint32_t> mtu() const noexcept;
  // "echo request", "time exceeded", "destination unreachable"...; "type N" for others.
  [[nodiscard]] std::string_view type_name() const noexcept;
  // The code in words for destination unreachable and time exceeded ("port unreachable",
  // "fragmentation needed", "TTL exceeded in transit"...); empty for the others.
  [[nodiscard]] std::string_view code_name() const noexcept;
};

// Errors: "truncated header". The layer is "icmp" or "icmpv6".
decoded<icmp_message> decode_icmp(byte_view bytes, bool v6);

// The first bytes of the quoted datagram's upper layer: RFC 792 quotes the IP header and 64 bits
// of the data, enough for UDP and TCP ports and for an ICMP echo's header.
struct quoted_transport {
  std::uint8_t protocol = 0;
  std::optional<std::uint16_t> src_port, dst_port;              // UDP, TCP (4 bytes needed)
  std::optional<std::uint32_t> tcp_seq;                         // TCP (8 bytes needed)
  std::optional<std::uint8_t> icmp_type, icmp_code;             // ICMP, ICMPv6 (2 bytes)
  std::optional<std::uint16_t> icmp_identifier, icmp_sequence;  // an echo (8 bytes)
};

struct quoted_datagram {
  std::variant<ipv4_header, ipv6_header> ip;  // its payload is the quoted upper-layer bytes
  std::size_t quoted_bytes = 0;               // bytes of the original datagram quoted (header included)
  std::optional<quoted_transport> transport;  // nullopt when the quote is a later fragment
  [[nodiscard]] const ipv4_header* ipv4() const noexcept { return std::get_if<ipv4_header>(&ip); }
  [[nodiscard]] const ipv6_header* ipv6() const noexcept { return std::get_if<ipv6_header>(&ip); }
};

// Decodes the datagram an error message quotes. An RFC 4884 length (the "original datagram"
// length in 32-bit words for ICMP, 64-bit words for ICMPv6), when set, bounds the quote; the
// extension structure after it is not decoded. The quoted header is decoded one level only: an
// ICMP error quoting an ICMP error (which RFC 1122 §3.2.2 forbids) gives the inner one's type and
// code, nothing deeper. Errors (layer "icmp quote"): "not an error message", "bad quoted
// version"; a quoted IP header that does not decode gives its decoder's error.
decoded<quoted_datagram> decode_quoted_datagram(const icmp_message& message);

}  // namespace netlib::packet
