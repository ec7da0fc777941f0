#pragma once
// Decodes a captured frame layer by layer: link (Ethernet with VLAN tags, BSD NULL/LOOP, raw IP,
// Linux cooked v1/v2), network (ARP, IPv4, IPv6) and transport (TCP, UDP, ICMP, ICMPv6).
// Decoding stops at the first layer that is malformed or truncated and says why in `error`; layers
// it does not know (LLC, LLDP, GRE...) simply end the decoding without an error.
#include <optional>
#include <variant>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/arp.hpp"
#include "netlib/packet/decode_result.hpp"
#include "netlib/packet/ethernet.hpp"
#include "netlib/packet/icmp.hpp"
#include "netlib/packet/ipv4.hpp"
#include "netlib/packet/ipv6.hpp"
#include "netlib/packet/link_type.hpp"
#include "netlib/packet/tcp.hpp"
#include "netlib/packet/udp.hpp"

namespace netlib::packet {

struct decoded_packet {
  link_type link = link_type::ethernet;
  std::optional<ethernet_frame> ethernet;
  std::uint16_t ethertype = 0;  // the network protocol as an ethertype; 0 when not known
  std::variant<std::monostate, arp_packet, ipv4_header, ipv6_header> network;
  std::variant<std::monostate, tcp_header, udp_header, icmp_message> transport;
  std::optional<decode_error> error;  // why decoding stopped before the last layer

  [[nodiscard]] const arp_packet* arp() const noexcept { return std::get_if<arp_packet>(&network); }
  [[nodiscard]] const ipv4_header* ipv4() const noexcept { return std::get_if<ipv4_header>(&network); }
  [[nodiscard]] const ipv6_header* ipv6() const noexcept { return std::get_if<ipv6_header>(&network); }
  [[nodiscard]] const tcp_header* tcp() const noexcept { return std::get_if<tcp_header>(&transport); }
  [[nodiscard]] const udp_header* udp() const noexcept { return std::get_if<udp_header>(&transport); }
  [[nodiscard]] const icmp_message* icmp() const noexcept { return std::get_if<icmp_message>(&transport); }
  // Source and destination IP address (nullopt without an IP layer).
  [[nodiscard]] std::optional<ip_address> src_ip() const noexcept;
  [[nodiscard]] std::optional<ip_address> dst_ip() const noexcept;
  // An IPv4 or IPv6 fragment (the transport layer is decoded only in the first fragment).
  [[nodiscard]] bool is_fragment() const noexcept;
  // The IP layer says the capture holds fewer bytes than were sent (snaplen cut).
  [[nodiscard]] bool is_truncated() const noexcept;
};

decoded_packet decode_packet(link_type link, byte_view frame);

// The capture driver's shortcut for the usual frame: untagged Ethernet II + IPv4 without options,
// not a fragment (not even a first one) + TCP without options, headers whole. When `frame` is
// one, fills `src`, `dst` and the fields of `tcp` that such a header has (ports, numbers, flags,
// window, checksum, urgent, header length, payload), each equal to what decode_packet gives, and
// returns true; `tcp.options` is not touched (keep it empty: give the same object each time,
// filled only here). Otherwise returns false (decode_packet then says what the frame is). No
// decoded_packet is built.
bool decode_plain_tcp(link_type link, byte_view frame, ip_address& src, ip_address& dst, tcp_header& tcp) noexcept;

}  // namespace netlib::packet
