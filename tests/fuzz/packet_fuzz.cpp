// Fuzz target for the packet decoders and the TCP reassembler.
//   first byte < 0x80: the rest is a frame of one of the link types (first byte picks it); the
//     decoders must answer with decoded layers or a decode_error, never a crash or an over-read,
//     and decode_plain_tcp may take only a frame decode_packet decodes as the same plain TCP.
//   first byte >= 0x80: the rest is a script of TCP segments (direction+flags, seq, length, data)
//     fed to a tcp_reassembler with small limits; delivered bytes must never exceed what was fed.
//     The same segments are recorded as a TCP trace (tcp_trace.hpp), whose analyses must stay
//     within it (indices inside the trace, no more retransmissions than segments).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "netlib/packet/packet_decoder.hpp"
#include "netlib/packet/tcp_reassembler.hpp"
#include "netlib/packet/tcp_trace.hpp"

namespace {

using namespace netlib::packet;

void decode_frame(std::uint8_t selector, netlib::byte_view frame) {
  static constexpr link_type links[] = {link_type::ethernet,  link_type::null_bsd,   link_type::loop, link_type::raw,
                                        link_type::linux_sll, link_type::linux_sll2, link_type::ipv4, link_type::ipv6};
  const auto p = decode_packet(links[selector % std::size(links)], frame);
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
  if (sink == 0xffffffffffff) std::abort();  // keeps the reads observable
  // The capture driver's shortcut takes a frame only when decode_packet gives the same plain TCP.
  ip_address src, dst;
  tcp_header t;
  if (decode_plain_tcp(links[selector % std::size(links)], frame, src, dst, t)) {
    const auto* w = p.tcp();
    if (w == nullptr || p.error || p.is_fragment() || src != *p.src_ip() || dst != *p.dst_ip() || t.seq != w->seq ||
        t.ack != w->ack || t.flags != w->flags || t.src_port != w->src_port || t.dst_port != w->dst_port ||
        t.payload.data() != w->payload.data() || t.payload.size() != w->payload.size()) {
      std::abort();
    }
  }
}

struct counter : tcp_trace_recorder {
  counter() : tcp_trace_recorder([](const tcp_conversation&) { return true; }, 64, 4) {}
  std::uint64_t delivered = 0;
  void on_data(const tcp_conversation&, tcp_direction, netlib::byte_view b, netlib::time_point) override {
    delivered += b.size();
  }
};

void reassemble(netlib::byte_view script) {
  counter c;
  reassembly_limits limits;
  limits.max_buffered_bytes = 64;
  limits.closed_linger = std::chrono::seconds(1);
  std::uint64_t fed = 0;
  {
    tcp_reassembler r(c, limits);
    const auto a = *ip_address::parse("10.0.0.1");
    const auto b = *ip_address::parse("10.0.0.2");
    std::size_t i = 0;
    std::int64_t t = 0;
    while (i + 6 <= script.size()) {
      const auto control = static_cast<std::uint8_t>(script[i]);
      tcp_header h;
      h.flags = control & 0x3f;
      const bool up = (control & 0x80) != 0;
      h.src_port = up ? 1000 : 80;
      h.dst_port = up ? 80 : 1000;
      h.seq = static_cast<std::uint32_t>(static_cast<std::uint8_t>(script[i + 1])) << 24 |
              static_cast<std::uint32_t>(static_cast<std::uint8_t>(script[i + 2])) << 8;
      h.ack = h.seq ^ 0x5a5a;
      const std::size_t len =
          std::min<std::size_t>(static_cast<std::uint8_t>(script[i + 3]) % 32, script.size() - i - 6);
      h.payload = script.subspan(i + 6, len);
      fed += len;
      t += (control & 0x40) ? 2'000'000'000 : 1000;
      r.feed(up ? a : b, up ? b : a, h, netlib::from_nanoseconds(t));
      i += 6 + len;
    }
    r.finish();
  }
  if (c.delivered > fed) std::abort();
  for (const auto& [id, t] : c.traces()) {
    for (auto d : {tcp_direction::client_to_server, tcp_direction::server_to_client}) {
      for (const auto& row : rtt_estimates(t, d, 8)) {
        if (row.segment >= t.segments.size() || (row.ack_segment && *row.ack_segment >= t.segments.size()))
          std::abort();
        if (row.sample_rtt_s && *row.sample_rtt_s < 0) std::abort();
      }
      if (const auto loss = first_loss(t, d)) {
        if (loss->first_retransmission >= t.segments.size() || loss->retransmissions > t.segments.size()) std::abort();
      }
      (void)throughput(t, d);
      (void)min_receive_window(t, d);
      if (bytes_in_flight(t, d).size() != t.segments.size()) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const netlib::byte_view rest(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  if (data[0] < 0x80)
    decode_frame(data[0], rest);
  else
    reassemble(rest);
  return 0;
}
