// UDP (RFC 768): ports, length including the 8-byte header, checksum.
#include "netlib/packet/udp.hpp"

#include <algorithm>

#include "netlib/packet/wire.hpp"

namespace netlib::packet {

decoded<udp_header> decode_udp(byte_view b) {
  udp_header h;
  if (auto e = decode_udp_into(b, h)) return *e;
  return h;
}

std::optional<decode_error> decode_udp_into(byte_view b, udp_header& h) {
  if (b.size() < 8) return decode_error{"udp", "truncated header"};
  h.src_port = wire::be16(b.data());
  h.dst_port = wire::be16(b.data() + 2);
  h.length = wire::be16(b.data() + 4);
  h.checksum = wire::be16(b.data() + 6);
  if (h.length < 8) return decode_error{"udp", "bad length"};
  h.truncated = h.length > b.size();
  h.payload = b.subspan(8, std::min<std::size_t>(h.length, b.size()) - 8);
  return std::nullopt;
}

}  // namespace netlib::packet
