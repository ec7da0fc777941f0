// Fuzz target for the ICMP and ICMPv6 decoders and the quoted-datagram decoder: the first byte
// picks ICMP (even) or ICMPv6 (odd), the rest is the message. Every decode must end in a decoded
// message or a decode_error, and every view it returns must lie inside the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "netlib/packet/icmp.hpp"

namespace {

using namespace netlib::packet;

void inside(netlib::byte_view whole, netlib::byte_view part) {
  if (part.empty()) return;
  if (part.data() < whole.data() || part.data() + part.size() > whole.data() + whole.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool v6 = (data[0] & 1) != 0;
  const netlib::byte_view bytes(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  const auto m = decode_icmp(bytes, v6);
  if (!m) return 0;
  inside(bytes, m->payload);
  std::size_t sink = m->type_name().size() + m->code_name().size() + m->identifier() + m->sequence();
  if (const auto mtu = m->mtu()) sink += *mtu;
  const auto q = decode_quoted_datagram(*m);
  if (!q) {
    sink += q.error().message().size();
  } else {
    if (q->quoted_bytes > m->payload.size()) std::abort();
    if (const auto* h = q->ipv4()) inside(bytes, h->payload), inside(bytes, h->options);
    if (const auto* h = q->ipv6()) inside(bytes, h->payload), inside(bytes, h->fragment_data);
    if (q->transport) sink += q->transport->dst_port.value_or(0) + q->transport->icmp_sequence.value_or(0);
  }
  if (sink == 0xffffffffffff) std::abort();  // keeps the reads observable
  return 0;
}
