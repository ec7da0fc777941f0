// ARP (RFC 826): htype(2) ptype(2) hlen(1) plen(1) oper(2) sha spa tha tpa.
#include "netlib/packet/arp.hpp"

#include "netlib/packet/wire.hpp"

namespace netlib::packet {

decoded<arp_packet> decode_arp(byte_view b) {
  if (b.size() < 8) return decode_error{"arp", "truncated header"};
  arp_packet a;
  a.hardware_type = wire::be16(b.data());
  a.protocol_type = wire::be16(b.data() + 2);
  const auto hlen = wire::u8(b.data() + 4);
  const auto plen = wire::u8(b.data() + 5);
  a.operation = wire::be16(b.data() + 6);
  if (hlen != 6 || plen != 4) return decode_error{"arp", "unsupported address sizes"};
  if (b.size() < 28) return decode_error{"arp", "truncated header"};
  a.sender_mac = mac_address::from_bytes(b.data() + 8);
  a.sender_ip = ip_address::v4_from_bytes(b.data() + 14);
  a.target_mac = mac_address::from_bytes(b.data() + 18);
  a.target_ip = ip_address::v4_from_bytes(b.data() + 24);
  return a;
}

}  // namespace netlib::packet
