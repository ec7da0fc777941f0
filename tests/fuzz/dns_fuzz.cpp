// Fuzz target for the DNS decoders (netlib/packet/dns.hpp).
//   first byte even: the rest is one message for decode_dns, with the default limits and with
//     tiny ones (4 records, 2 pointer jumps); a message the tiny limits accept must decode the
//     same with the default ones, and every name must fit RFC 1035's 255 octets (escaped: at most
//     4 characters per octet).
//   first byte odd: the rest is a DNS-over-TCP stream fed to dns_stream_decoder in pieces of
//     (first byte >> 1) + 1 bytes; what stays buffered after draining is less than one complete
//     message (2 + 65535 bytes).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <variant>

#include "netlib/packet/dns.hpp"

namespace {

using namespace netlib::packet;

std::size_t touch(const dns_message& m) {
  std::size_t sink = m.questions.size() + m.rcode();
  const auto name = [&](const std::string& n) {
    if (n.size() > 255 * 4) std::abort();
    sink += n.size();
  };
  for (const auto& q : m.questions) name(q.name);
  for (const auto* section : {&m.answers, &m.authority, &m.additional}) {
    for (const auto& r : *section) {
      name(r.name);
      sink += dns_type_name(r.type).size();
      if (const auto* n = std::get_if<dns_name_data>(&r.data)) name(n->name);
      if (const auto* mx = std::get_if<dns_mx>(&r.data)) name(mx->exchange);
      if (const auto* srv = std::get_if<dns_srv>(&r.data)) name(srv->target);
      if (const auto* soa = std::get_if<dns_soa>(&r.data)) {
        name(soa->mname);
        name(soa->rname);
      }
      if (const auto* txt = std::get_if<dns_txt>(&r.data)) sink += txt->strings.size();
      if (const auto* ip = std::get_if<ip_address>(&r.data)) sink += ip->to_string().size();
    }
  }
  return sink;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const netlib::byte_view rest(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  if ((data[0] & 1) == 0) {
    const auto full = decode_dns(rest);
    dns_limits tiny;
    tiny.max_records = 4;
    tiny.max_pointer_jumps = 2;
    const auto small = decode_dns(rest, tiny);
    if (small) {
      if (!full || touch(*small) != touch(*full)) std::abort();
    }
    if (full)
      touch(*full);
    else if (full.error().message().empty())
      std::abort();
    return 0;
  }
  dns_stream_decoder stream;
  const std::size_t piece = (data[0] >> 1) + 1u;
  for (std::size_t i = 0; i < rest.size(); i += piece) {
    stream.feed(rest.subspan(i, std::min(piece, rest.size() - i)));
    while (auto m = stream.next()) {
      if (*m) touch(**m);
    }
    if (stream.buffered() >= 2 + 65535) std::abort();
  }
  return 0;
}
