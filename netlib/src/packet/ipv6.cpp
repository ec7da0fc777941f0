// IPv6 header decoding (RFC 8200). Theory of operation: the fixed 40-byte header, then a bounded
// walk over extension headers (§4): Hop-by-Hop (0), Routing (43), Destination Options (60),
// Mobility (135), HIP (139), Shim6 (140) with length (n+1)*8; Fragment (44) of 8 bytes, whose
// offset says whether the upper layer header is here; AH (51, RFC 4302) with length (n+2)*4.
// The walk stops at the first other value: that is the upper-layer protocol. It also stops after
// the Fragment header of a fragment other than the first: what follows is a piece of the middle
// of the datagram, not a header (RFC 8200 §4.5).
#include "netlib/packet/ipv6.hpp"

#include "netlib/packet/wire.hpp"

namespace netlib::packet {
namespace {

bool is_extension(std::uint8_t nh) {
  return nh == 0 || nh == 43 || nh == 44 || nh == 51 || nh == 60 || nh == 135 || nh == 139 || nh == 140;
}

}  // namespace

decoded<ipv6_header> decode_ipv6(byte_view b) {
  ipv6_header h;
  if (auto e = decode_ipv6_into(b, h)) return *e;
  return h;
}

std::optional<decode_error> decode_ipv6_into(byte_view b, ipv6_header& h) {
  constexpr std::string_view layer = "ipv6";
  if (b.size() < 40) return decode_error{layer, "truncated header"};
  const std::uint32_t first = wire::be32(b.data());
  if ((first >> 28) != 6) return decode_error{layer, "bad version"};
  h.traffic_class = static_cast<std::uint8_t>((first >> 20) & 0xff);
  h.flow_label = first & 0xfffff;
  h.payload_length = wire::be16(b.data() + 4);
  h.next_header = wire::u8(b.data() + 6);
  h.hop_limit = wire::u8(b.data() + 7);
  h.src = ip_address::v6_from_bytes(b.data() + 8);
  h.dst = ip_address::v6_from_bytes(b.data() + 24);
  // A payload length of 0 means a jumbogram (RFC 2675) or offload: take the rest.
  const std::size_t end = h.payload_length == 0 ? b.size() : 40u + h.payload_length;
  h.truncated = end > b.size();
  byte_view rest = b.subspan(40, std::min(end, b.size()) - 40);
  std::uint8_t nh = h.next_header;
  while (is_extension(nh)) {
    if (h.extension_headers == max_ipv6_extension_headers) return decode_error{layer, "too many extension headers"};
    if (rest.size() < 8) return decode_error{layer, "truncated extension header"};
    const std::uint8_t next = wire::u8(rest.data());
    std::size_t len = (wire::u8(rest.data() + 1) + 1u) * 8u;
    if (nh == 51) len = (wire::u8(rest.data() + 1) + 2u) * 4u;
    if (nh == 44) {
      len = 8;
      const auto offset_flags = wire::be16(rest.data() + 2);
      h.is_fragment = true;
      h.fragment_offset = static_cast<std::uint16_t>(offset_flags & 0xfff8);
      h.more_fragments = (offset_flags & 1) != 0;
      h.fragment_id = wire::be32(rest.data() + 4);
      h.fragment_data = rest.subspan(8);
    }
    if (rest.size() < len) return decode_error{layer, "truncated extension header"};
    rest = rest.subspan(len);
    nh = next;
    ++h.extension_headers;
    if (h.is_fragment && h.fragment_offset != 0) break;
  }
  h.protocol = nh;
  h.payload = rest;
  return std::nullopt;
}

}  // namespace netlib::packet
