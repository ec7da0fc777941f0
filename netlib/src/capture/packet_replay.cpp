// The per-packet capture driver. Theory of operation: one pass over the records, each decoded in
// full with its record's link type and handed to the callback with its frame number; UDP
// datagrams are the packets whose transport layer decoded as UDP, with their endpoints taken
// from the IP layer.
#include "netlib/capture/packet_replay.hpp"

#include <fmt/format.h>

namespace netlib::capture {

replay_stats replay_packets(capture_reader& reader, const packet_callback& on_packet) {
  replay_stats stats;
  while (auto rec = reader.next()) {
    if (stats.packets++ == 0) stats.first_ts = rec->ts;
    stats.last_ts = rec->ts;
    const auto p = packet::decode_packet(rec->link, rec->data);
    if (p.error && stats.decode_errors++ == 0) {
      stats.first_decode_error = fmt::format("frame {}: {}", stats.packets, p.error->message());
    }
    on_packet(captured_packet{stats.packets, *rec, p});
  }
  stats.truncated_records = reader.truncated_records();
  stats.skipped_blocks = reader.skipped_blocks();
  return stats;
}

replay_stats replay_packets(const std::filesystem::path& path, const packet_callback& on_packet) {
  auto reader = capture_reader::open(path);
  return replay_packets(reader, on_packet);
}

replay_stats replay_udp(capture_reader& reader, const udp_callback& on_datagram) {
  return replay_packets(reader, [&](const captured_packet& c) {
    const auto* udp = c.packet.udp();
    if (udp == nullptr) return;
    const auto src = c.packet.src_ip(), dst = c.packet.dst_ip();
    if (!src || !dst) return;
    on_datagram(udp_datagram{c.frame, c.record.ts, {*src, udp->src_port}, {*dst, udp->dst_port}, c.packet, *udp});
  });
}

replay_stats replay_udp(const std::filesystem::path& path, const udp_callback& on_datagram) {
  auto reader = capture_reader::open(path);
  return replay_udp(reader, on_datagram);
}

}  // namespace netlib::capture
