// ICMP (RFC 792) / ICMPv6 (RFC 4443 §2.1): type, code, checksum, then 4 type-specific bytes.
#include "netlib/packet/icmp.hpp"

#include "netlib/packet/wire.hpp"

namespace netlib::packet {

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
