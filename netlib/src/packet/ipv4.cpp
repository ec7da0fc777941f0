// IPv4 header decoding (RFC 791 §3.1). Theory of operation: check the fixed 20 bytes, the
// version, IHL >= 5 and within the bytes, total length >= IHL; the payload is cut at the total
// length (Ethernet pads short frames) or flagged truncated when the capture was cut shorter.
#include "netlib/packet/ipv4.hpp"

#include "netlib/packet/wire.hpp"

namespace netlib::packet {

decoded<ipv4_header> decode_ipv4(byte_view b) {
  ipv4_header h;
  if (auto e = decode_ipv4_into(b, h)) return *e;
  return h;
}

std::optional<decode_error> decode_ipv4_into(byte_view b, ipv4_header& h) {
  constexpr std::string_view layer = "ipv4";
  if (b.size() < 20) return decode_error{layer, "truncated header"};
  const auto vihl = wire::u8(b.data());
  if ((vihl >> 4) != 4) return decode_error{layer, "bad version"};
  h.header_length = static_cast<std::uint8_t>((vihl & 0x0f) * 4);
  if (h.header_length < 20) return decode_error{layer, "bad header length"};
  if (b.size() < h.header_length) return decode_error{layer, "truncated header"};
  h.tos = wire::u8(b.data() + 1);
  h.total_length = wire::be16(b.data() + 2);
  h.identification = wire::be16(b.data() + 4);
  const auto frag = wire::be16(b.data() + 6);
  h.dont_fragment = (frag & 0x4000) != 0;
  h.more_fragments = (frag & 0x2000) != 0;
  h.fragment_offset = static_cast<std::uint16_t>((frag & 0x1fff) * 8);
  h.ttl = wire::u8(b.data() + 8);
  h.protocol = wire::u8(b.data() + 9);
  h.checksum = wire::be16(b.data() + 10);
  h.src = ip_address::v4_from_bytes(b.data() + 12);
  h.dst = ip_address::v4_from_bytes(b.data() + 16);
  h.options = b.subspan(20, h.header_length - 20u);
  // A total length of 0 happens with TCP segmentation offload on the sending host: take the rest.
  if (h.total_length != 0 && h.total_length < h.header_length) return decode_error{layer, "bad total length"};
  const std::size_t end = h.total_length == 0 ? b.size() : h.total_length;
  h.truncated = end > b.size();
  h.payload = b.subspan(h.header_length, std::min(end, b.size()) - h.header_length);
  return std::nullopt;
}

}  // namespace netlib::packet
