// Layered packet decoding. Theory of operation: decode_link() strips the link header and yields
// an ethertype and the network bytes; decode_network() dispatches on the ethertype; then the IP
// protocol number picks the transport decoder. Each step records a decode_error and stops when
// its layer is malformed; unknown protocols stop quietly. Ethernet, IPv4, IPv6, TCP and UDP are
// decoded in place, into the packet's own slot (no header decoded aside and then moved in); a
// layer that fails is reset, so the packet holds exactly the layers that decoded.
// Fast path: the most common frame, untagged Ethernet II + IPv4 without options (not a later
// fragment) + TCP without options, whole, is decoded in one pass by decode_plain_tcp_frame(); it
// fills exactly what the layer decoders fill (a unit test compares both on every truncation and on
// mutated frames). Anything else, including every malformed frame, takes the layered path.
#include "netlib/packet/packet_decoder.hpp"

#include "netlib/packet/wire.hpp"

namespace netlib::packet {
namespace {

// BSD address families for IPv6 differ per OS (NetBSD/OpenBSD 24, FreeBSD 28, Darwin 30).
std::uint16_t family_to_ethertype(std::uint32_t family) {
  if (family == 2) return ethertype::ipv4;
  if (family == 24 || family == 28 || family == 30) return ethertype::ipv6;
  return 0;
}

std::uint16_t version_to_ethertype(byte_view b) {
  if (b.empty()) return 0;
  const auto version = wire::u8(b.data()) >> 4;
  return version == 4 ? ethertype::ipv4 : version == 6 ? ethertype::ipv6 : 0;
}

// Fills p.ethertype and returns the network-layer bytes, or sets p.error.
byte_view decode_link(decoded_packet& p, byte_view f) {
  switch (p.link) {
    case link_type::ethernet: {
      ethernet_frame& e = p.ethernet.emplace();
      if (auto error = decode_ethernet_into(f, e)) {
        p.ethernet.reset();
        return p.error = error, byte_view{};
      }
      p.ethertype = e.ethertype;
      return e.payload;
    }
    case link_type::null_bsd:
    case link_type::loop: {
      if (f.size() < 4) return p.error = decode_error{"loopback", "truncated header"}, byte_view{};
      // NULL stores the family in the capturing host's byte order; accept either.
      const std::uint32_t be = wire::be32(f.data());
      const std::uint32_t le = wire::le32(f.data());
      p.ethertype = family_to_ethertype(p.link == link_type::loop ? be : (be < 256 ? be : le));
      return f.subspan(4);
    }
    case link_type::raw:
      p.ethertype = version_to_ethertype(f);
      return f;
    case link_type::ipv4:
      p.ethertype = ethertype::ipv4;
      return f;
    case link_type::ipv6:
      p.ethertype = ethertype::ipv6;
      return f;
    case link_type::linux_sll:  // https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
      if (f.size() < 16) return p.error = decode_error{"linux_sll", "truncated header"}, byte_view{};
      p.ethertype = wire::be16(f.data() + 14);
      return f.subspan(16);
    case link_type::linux_sll2:  // https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
      if (f.size() < 20) return p.error = decode_error{"linux_sll2", "truncated header"}, byte_view{};
      p.ethertype = wire::be16(f.data());
      return f.subspan(20);
  }
  p.error = decode_error{"link", "unsupported link type"};
  return {};
}

template <class T>
bool keep(decoded_packet& p, decoded<T> d, auto& slot) {
  if (!d) {
    p.error = d.error();
    return false;
  }
  slot = std::move(d).value();
  return true;
}

// Decodes a layer into a fresh T in `slot`; on an error the slot goes back to empty (nullptr).
template <class T, class Slot>
const T* decode_into_slot(decoded_packet& p, Slot& slot, byte_view b,
                          std::optional<decode_error> (*decode)(byte_view, T&)) {
  T& h = slot.template emplace<T>();
  if (auto error = decode(b, h)) {
    slot.template emplace<std::monostate>();
    p.error = error;
    return nullptr;
  }
  return &h;
}

void decode_transport(decoded_packet& p, std::uint8_t protocol, byte_view b) {
  if (protocol == ip_protocol::tcp)
    decode_into_slot<tcp_header>(p, p.transport, b, decode_tcp_into);
  else if (protocol == ip_protocol::udp)
    decode_into_slot<udp_header>(p, p.transport, b, decode_udp_into);
  else if (protocol == ip_protocol::icmp)
    keep(p, decode_icmp(b, false), p.transport);
  else if (protocol == ip_protocol::icmpv6)
    keep(p, decode_icmp(b, true), p.transport);
}

// The end of the IP packet in `f` (bytes from the IP header) when `f` is an untagged
// Ethernet/IPv4/TCP frame without IP or TCP options whose headers are all present and valid,
// else 0.
inline std::size_t plain_tcp_ip_end(byte_view f) noexcept {
  if (f.size() < 14 + 20 + 20 || wire::be16(f.data() + 12) != ethertype::ipv4) return 0;
  const std::byte* ip = f.data() + 14;
  const std::uint16_t total = wire::be16(ip + 2);
  const std::uint16_t frag = wire::be16(ip + 6);
  if (wire::u8(ip) != 0x45 || wire::u8(ip + 9) != ip_protocol::tcp || (frag & 0x1fff) != 0) return 0;
  if (total != 0 && total < 20 + 20) return 0;  // too short for a TCP header: the layered path says why
  const std::size_t ip_end = std::min<std::size_t>(total == 0 ? f.size() - 14 : total, f.size() - 14);
  if (ip_end < 40 || wire::u8(ip + 20 + 12) >> 4 != 5) return 0;
  return ip_end;
}

// The TCP header fields of such a frame (RFC 9293 §3.1), as decode_tcp_into gives them.
inline void plain_tcp_fields(const std::byte* tcp, std::size_t ip_end, tcp_header& t) noexcept {
  t.src_port = wire::be16(tcp);
  t.dst_port = wire::be16(tcp + 2);
  t.seq = wire::be32(tcp + 4);
  t.ack = wire::be32(tcp + 8);
  t.header_length = 20;
  t.flags = wire::u8(tcp + 13);
  t.window = wire::be16(tcp + 14);
  t.checksum = wire::be16(tcp + 16);
  t.urgent = wire::be16(tcp + 18);
  t.payload = byte_view(tcp + 20, ip_end - 40);
}

// The fast path: true when `f` was an untagged Ethernet/IPv4/TCP frame without IP or TCP options
// whose headers are all present and valid, now decoded into p; false (p untouched) otherwise.
// Each field is what decode_ethernet_into (RFC 894), decode_ipv4_into (RFC 791 §3.1) and
// decode_tcp_into (RFC 9293 §3.1) would give for such a frame.
bool decode_plain_tcp_frame(decoded_packet& p, byte_view f) {
  const std::size_t ip_end = plain_tcp_ip_end(f);
  if (ip_end == 0) return false;
  const std::byte* ip = f.data() + 14;
  const std::uint16_t total = wire::be16(ip + 2);
  const std::uint16_t frag = wire::be16(ip + 6);
  const std::byte* tcp = ip + 20;
  ethernet_frame& e = p.ethernet.emplace();
  e.dst = mac_address::from_bytes(f.data());
  e.src = mac_address::from_bytes(f.data() + 6);
  e.ethertype = ethertype::ipv4;
  e.header_length = 14;
  e.payload = f.subspan(14);
  p.ethertype = ethertype::ipv4;
  ipv4_header& h = p.network.emplace<ipv4_header>();
  h.header_length = 20;
  h.tos = wire::u8(ip + 1);
  h.total_length = total;
  h.identification = wire::be16(ip + 4);
  h.dont_fragment = (frag & 0x4000) != 0;
  h.more_fragments = (frag & 0x2000) != 0;
  h.ttl = wire::u8(ip + 8);
  h.protocol = ip_protocol::tcp;
  h.checksum = wire::be16(ip + 10);
  h.src = ip_address::v4_from_bytes(ip + 12);
  h.dst = ip_address::v4_from_bytes(ip + 16);
  h.options = byte_view(ip + 20, 0);
  h.truncated = total > f.size() - 14;
  h.payload = byte_view(tcp, ip_end - 20);
  plain_tcp_fields(tcp, ip_end, p.transport.emplace<tcp_header>());
  return true;
}

}  // namespace

bool decode_plain_tcp(link_type link, byte_view frame, ip_address& src, ip_address& dst, tcp_header& tcp) noexcept {
  if (link != link_type::ethernet) return false;
  const std::size_t ip_end = plain_tcp_ip_end(frame);
  if (ip_end == 0) return false;
  const std::byte* ip = frame.data() + 14;
  if ((wire::be16(ip + 6) & 0x2000) != 0) return false;  // a first fragment (MF): not fed, as decode_packet says
  src = ip_address::v4_from_bytes(ip + 12);
  dst = ip_address::v4_from_bytes(ip + 16);
  plain_tcp_fields(ip + 20, ip_end, tcp);
  return true;
}

decoded_packet decode_packet(link_type link, byte_view frame) {
  decoded_packet p;
  p.link = link;
  if (link == link_type::ethernet && decode_plain_tcp_frame(p, frame)) return p;
  const byte_view net = decode_link(p, frame);
  if (p.error) return p;
  if (p.ethertype == ethertype::arp) {
    keep(p, decode_arp(net), p.network);
  } else if (p.ethertype == ethertype::ipv4) {
    const ipv4_header* h = decode_into_slot<ipv4_header>(p, p.network, net, decode_ipv4_into);
    if (h != nullptr && h->fragment_offset == 0) decode_transport(p, h->protocol, h->payload);
  } else if (p.ethertype == ethertype::ipv6) {
    const ipv6_header* h = decode_into_slot<ipv6_header>(p, p.network, net, decode_ipv6_into);
    if (h != nullptr && h->fragment_offset == 0) decode_transport(p, h->protocol, h->payload);
  }
  return p;
}

std::optional<ip_address> decoded_packet::src_ip() const noexcept {
  if (const auto* h = ipv4()) return h->src;
  if (const auto* h = ipv6()) return h->src;
  return std::nullopt;
}
std::optional<ip_address> decoded_packet::dst_ip() const noexcept {
  if (const auto* h = ipv4()) return h->dst;
  if (const auto* h = ipv6()) return h->dst;
  return std::nullopt;
}
bool decoded_packet::is_fragment() const noexcept {
  if (const auto* h = ipv4()) return h->is_fragment();
  if (const auto* h = ipv6()) return h->is_fragment;
  return false;
}
bool decoded_packet::is_truncated() const noexcept {
  if (const auto* h = ipv4()) return h->truncated;
  if (const auto* h = ipv6()) return h->truncated;
  return false;
}

}  // namespace netlib::packet
