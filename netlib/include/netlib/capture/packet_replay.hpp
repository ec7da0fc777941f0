#pragma once
// The capture driver for protocols read packet by packet rather than as a byte stream: every
// frame of a capture decoded (replay_packets), or only its UDP datagrams (replay_udp), each with
// its frame number (tshark's frame.number: 1 for the file's first record), its timestamp and all
// its decoded layers, so a UDP protocol core (DNS, DHCP...) or an analysis of IP or ICMP headers
// gets what it needs in one pass.
//
//   netlib::capture::replay_udp("x.pcapng", [&](const netlib::capture::udp_datagram& d) {
//     if (d.dst.port == 53 || d.src.port == 53) ... netlib::packet::decode_dns(d.udp.payload) ...
//   });
//
// IP fragments are passed as they are: the first fragment of a fragmented datagram carries the
// UDP header with `udp.truncated` set (and `packet.is_fragment()`); later fragments carry no UDP
// header and reach only replay_packets. A malformed frame is counted (decode_errors, with the
// first one's description) and still passed to replay_packets with what decoded; a corrupt file
// throws capture_error. The stats are replay_stats with the TCP counts left at 0, so damage_note()
// and require_some_packet() work on them.
#include <cstdint>
#include <filesystem>
#include <functional>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/tcp_replay.hpp"
#include "netlib/packet/packet_decoder.hpp"

namespace netlib::capture {

struct captured_packet {
  std::uint64_t frame = 0;               // 1-based, as tshark's frame.number
  const packet_record& record;           // timestamp, interface, captured and original length
  const packet::decoded_packet& packet;  // every layer that decoded
};
using packet_callback = std::function<void(const captured_packet&)>;

replay_stats replay_packets(capture_reader& reader, const packet_callback& on_packet);
replay_stats replay_packets(const std::filesystem::path& path, const packet_callback& on_packet);

struct udp_datagram {
  std::uint64_t frame = 0;
  time_point ts{};
  packet::endpoint src, dst;
  const packet::decoded_packet& packet;  // the IP layer (TTL, identification, protocol...) and the link layer
  const packet::udp_header& udp;         // ports, length, checksum and the payload this frame holds
};
using udp_callback = std::function<void(const udp_datagram&)>;

replay_stats replay_udp(capture_reader& reader, const udp_callback& on_datagram);
replay_stats replay_udp(const std::filesystem::path& path, const udp_callback& on_datagram);

}  // namespace netlib::capture
