#pragma once
// DHCP messages (RFC 2131 §2) over BOOTP (RFC 951): the fixed fields, then the options after the
// magic cookie (RFC 2132), with option overload (§9.3: options carried in the `file` and `sname`
// fields too) and long options split over several instances joined again (RFC 3396). Sans-I/O: a
// datagram's payload (UDP ports 67 and 68) goes to decode_dhcp().
//
//   auto m = netlib::packet::decode_dhcp(udp.payload);
//   if (m && m->message_type() == dhcp_message_type::offer) ... m->yiaddr, m->lease_time() ...
//
// Limits: at most max_options option instances are read (a 576-byte message holds about 300 at
// most; the options field of a larger datagram is bounded the same way); a message without the
// magic cookie is plain BOOTP and has no options.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"
#include "netlib/packet/ethernet.hpp"
#include "netlib/packet/ip_address.hpp"

namespace netlib::packet {

// Option 53's values (RFC 2132 §9.6, RFC 4388 §6.1 for the lease queries).
namespace dhcp_message_type {
inline constexpr std::uint8_t discover = 1;
inline constexpr std::uint8_t offer = 2;
inline constexpr std::uint8_t request = 3;
inline constexpr std::uint8_t decline = 4;
inline constexpr std::uint8_t ack = 5;
inline constexpr std::uint8_t nak = 6;
inline constexpr std::uint8_t release = 7;
inline constexpr std::uint8_t inform = 8;
}  // namespace dhcp_message_type

// Option codes (RFC 2132) the labs ask about.
namespace dhcp_option_code {
inline constexpr std::uint8_t pad = 0;
inline constexpr std::uint8_t subnet_mask = 1;
inline constexpr std::uint8_t router = 3;
inline constexpr std::uint8_t dns_servers = 6;
inline constexpr std::uint8_t host_name = 12;
inline constexpr std::uint8_t domain_name = 15;
inline constexpr std::uint8_t broadcast_address = 28;
inline constexpr std::uint8_t requested_address = 50;
inline constexpr std::uint8_t lease_time = 51;
inline constexpr std::uint8_t overload = 52;
inline constexpr std::uint8_t message_type = 53;
inline constexpr std::uint8_t server_identifier = 54;
inline constexpr std::uint8_t parameter_request_list = 55;
inline constexpr std::uint8_t max_message_size = 57;
inline constexpr std::uint8_t renewal_time = 58;
inline constexpr std::uint8_t rebinding_time = 59;
inline constexpr std::uint8_t vendor_class = 60;
inline constexpr std::uint8_t client_identifier = 61;
inline constexpr std::uint8_t end = 255;
}  // namespace dhcp_option_code

// "DISCOVER", "OFFER", "REQUEST", "DECLINE", "ACK", "NAK", "RELEASE", "INFORM"; "TYPE<n>" otherwise.
std::string dhcp_message_type_name(std::uint8_t type);

struct dhcp_option {
  std::uint8_t code = 0;
  std::vector<std::byte> value;  // every instance of the code, concatenated in order (RFC 3396 §7)
};

struct dhcp_message {
  std::uint8_t op = 0;     // 1 BOOTREQUEST (client to server), 2 BOOTREPLY
  std::uint8_t htype = 0;  // 1 Ethernet
  std::uint8_t hlen = 0;
  std::uint8_t hops = 0;
  std::uint32_t xid = 0;  // transaction id
  std::uint16_t secs = 0;
  std::uint16_t flags = 0;  // the top bit: BROADCAST (RFC 2131 §2, figure 2)
  ip_address ciaddr;        // client's address, when it has one (RENEWING, BOUND...)
  ip_address yiaddr;        // "your" address: the one the server offers or assigns
  ip_address siaddr;        // next server (TFTP)
  ip_address giaddr;        // relay agent (RFC 2131 §4.1); 0.0.0.0 without a relay
  std::array<std::uint8_t, 16> chaddr{};
  std::string sname, file;           // up to the first NUL; empty when overloaded with options
  bool has_cookie = false;           // the magic cookie 99.130.83.99 (RFC 2131 §3)
  std::vector<dhcp_option> options;  // in order of each code's first instance; no PAD or END

  [[nodiscard]] bool broadcast() const noexcept { return (flags & 0x8000) != 0; }
  // chaddr as a MAC address when htype is Ethernet and hlen 6.
  [[nodiscard]] std::optional<mac_address> client_mac() const noexcept;
  [[nodiscard]] const dhcp_option* option(std::uint8_t code) const noexcept;
  // Option 53, when present and one byte long.
  [[nodiscard]] std::optional<std::uint8_t> message_type() const noexcept;
  // An option holding one IPv4 address (1, 28, 50, 54); nullopt when absent or not 4 bytes.
  [[nodiscard]] std::optional<ip_address> address_option(std::uint8_t code) const;
  // An option holding a list of IPv4 addresses (3, 6); empty when absent or not a multiple of 4.
  [[nodiscard]] std::vector<ip_address> address_list_option(std::uint8_t code) const;
  // A 32-bit option (51, 58, 59); nullopt when absent or not 4 bytes.
  [[nodiscard]] std::optional<std::uint32_t> u32_option(std::uint8_t code) const;
  // A text option (12, 15, 60) without a trailing NUL.
  [[nodiscard]] std::optional<std::string> text_option(std::uint8_t code) const;
  // Option 55's codes in the client's order.
  [[nodiscard]] std::vector<std::uint8_t> parameter_request_list() const;
};

struct dhcp_limits {
  std::size_t max_options = 512;  // option instances read, PAD excluded
};

// Errors ("dhcp" layer): "truncated header" (fewer than the 236 bytes of the fixed fields),
// "truncated option" (an option's length runs past its field), "too many options".
decoded<dhcp_message> decode_dhcp(byte_view message, const dhcp_limits& limits = {});

}  // namespace netlib::packet
