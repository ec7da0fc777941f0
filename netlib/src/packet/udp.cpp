// UDP (RFC 768: ports, length including the 8-byte header, checksum) and ICMP (RFC 792) /
// ICMPv6 (RFC 4443 §2.1: type, code, checksum, then 4 type-specific bytes).
#include "netlib/packet/udp.hpp"

#include <algorithm>

#include "netlib/packet/wire.hpp"

namespace netlib::packet {

decoded<udp_header> decode_udp(byte_view b) {
  if (b.size() < 8) return decode_error{"udp", "truncated header"};
  udp_header h;
  h.src_port = wire::be16(b.data());
  h.dst_port = wire::be16(b.data() + 2);
  h.length = wire::be16(b.data() + 4);
  h.checksum = wire::be16(b.data() + 6);
  if (h.length < 8) return decode_error{"udp", "bad length"};
  h.truncated = h.length > b.size();
  h.payload = b.subspan(8, std::min<std::size_t>(h.length, b.size()) - 8);
  return h;
}

decoded<icmp_message> decode_icmp(byte_view b, bool v6) {
  if (b.size() < 8) return decode_error{v6 ? "icmpv6" : "icmp", "truncated header"};
  icmp_message m;
  m.v6 = v6;
  m.type = wire::u8(b.data());
  m.code = wire::u8(b.data() + 1);
  m.checksum = wire::be16(b.data() + 2);
  m.rest = wire::be32(b.data() + 4);
  m.payload = b.subspan(8);
  return m;
}

}  // namespace netlib::packet
