// Frame serializers: Ethernet II (IEEE 802.3 §3.1.1) with an optional 802.1Q tag (§9.6), ARP
// (RFC 826 packet format), IPv4 (RFC 791 §3.1, no options, DF set, TTL 64) carrying ICMP echo
// (RFC 792 "Echo or Echo Reply Message"), checksums per RFC 1071.
#include "netlib/l2/frame_builder.hpp"

namespace netlib::l2 {

namespace {
void put16(std::vector<std::byte>& out, std::uint16_t v) {
  out.push_back(static_cast<std::byte>(v >> 8U));
  out.push_back(static_cast<std::byte>(v & 0xffU));
}
void put_mac(std::vector<std::byte>& out, mac_address mac) {
  for (auto o : mac.octets) out.push_back(static_cast<std::byte>(o));
}
void put_ip(std::vector<std::byte>& out, ipv4_address ip) {
  for (auto o : ip) out.push_back(static_cast<std::byte>(o));
}

std::vector<std::byte> arp(std::uint16_t op, mac_address sha, ipv4_address spa, mac_address tha, ipv4_address tpa) {
  std::vector<std::byte> p;
  put16(p, 1);               // hardware type: Ethernet
  put16(p, ethertype_ipv4);  // protocol type
  p.push_back(std::byte{6});
  p.push_back(std::byte{4});
  put16(p, op);  // 1 request, 2 reply
  put_mac(p, sha);
  put_ip(p, spa);
  put_mac(p, tha);
  put_ip(p, tpa);
  return p;
}
}  // namespace

std::uint16_t internet_checksum(std::span<const std::byte> data) noexcept {
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < data.size(); i += 2) {
    std::uint32_t word = std::to_integer<std::uint32_t>(data[i]) << 8U;
    if (i + 1 < data.size()) word |= std::to_integer<std::uint32_t>(data[i + 1]);
    sum += word;
  }
  while ((sum >> 16U) != 0) sum = (sum & 0xffffU) + (sum >> 16U);
  return static_cast<std::uint16_t>(~sum & 0xffffU);
}

std::vector<std::byte> build_ethernet(mac_address dst, mac_address src, std::uint16_t ethertype,
                                      std::span<const std::byte> payload, std::optional<std::uint16_t> vid) {
  netlib::packet::ethernet_frame header;
  header.dst = dst;
  header.src = src;
  if (vid)
    header.tags.push_back(netlib::packet::vlan_tag{tpid_8021q, 0, false, static_cast<std::uint16_t>(*vid & 0x0fffU)});
  header.ethertype = ethertype;
  return netlib::packet::encode_ethernet(header, payload);
}

std::vector<std::byte> build_arp_request(mac_address sender, ipv4_address sender_ip, ipv4_address target_ip,
                                         std::optional<std::uint16_t> vid) {
  return build_ethernet(mac_address::broadcast(), sender, ethertype_arp,
                        arp(1, sender, sender_ip, mac_address{}, target_ip), vid);
}

std::vector<std::byte> build_arp_reply(mac_address sender, ipv4_address sender_ip, mac_address target,
                                       ipv4_address target_ip, std::optional<std::uint16_t> vid) {
  return build_ethernet(target, sender, ethertype_arp, arp(2, sender, sender_ip, target, target_ip), vid);
}

std::vector<std::byte> build_icmp_echo(mac_address src, mac_address dst, ipv4_address src_ip, ipv4_address dst_ip,
                                       std::uint16_t id, std::uint16_t seq, bool reply,
                                       std::optional<std::uint16_t> vid) {
  std::vector<std::byte> icmp;
  icmp.push_back(std::byte{static_cast<std::uint8_t>(reply ? 0 : 8)});  // type
  icmp.push_back(std::byte{0});                                         // code
  put16(icmp, 0);                                                       // checksum, set below
  put16(icmp, id);
  put16(icmp, seq);
  for (int i = 0; i < 32; ++i) icmp.push_back(static_cast<std::byte>(0x20 + i));
  const std::uint16_t icmp_sum = internet_checksum(icmp);
  icmp[2] = static_cast<std::byte>(icmp_sum >> 8U);
  icmp[3] = static_cast<std::byte>(icmp_sum & 0xffU);

  std::vector<std::byte> ip;
  ip.push_back(std::byte{0x45});  // version 4, IHL 5
  ip.push_back(std::byte{0});
  put16(ip, static_cast<std::uint16_t>(20 + icmp.size()));
  put16(ip, seq);     // identification
  put16(ip, 0x4000);  // DF
  ip.push_back(std::byte{64});
  ip.push_back(std::byte{1});  // ICMP
  put16(ip, 0);
  put_ip(ip, src_ip);
  put_ip(ip, dst_ip);
  const std::uint16_t ip_sum = internet_checksum(ip);
  ip[10] = static_cast<std::byte>(ip_sum >> 8U);
  ip[11] = static_cast<std::byte>(ip_sum & 0xffU);
  ip.insert(ip.end(), icmp.begin(), icmp.end());
  return build_ethernet(dst, src, ethertype_ipv4, ip, vid);
}

}  // namespace netlib::l2
