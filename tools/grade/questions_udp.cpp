// The UDP lab's questions (Kurose & Ross, "Wireshark Lab: UDP"): the header's four fields of each
// datagram (RFC 768: source port, destination port, length, checksum), the payload that length
// implies, and the protocol number the IP header gives UDP (17). Theory of operation: one pass
// with netlib::capture::replay_udp; a datagram is asked about when its whole header is in the
// capture and it is not an IP fragment (a first fragment's length covers bytes in later frames).
#include <fmt/format.h>

#include "netlib/capture/packet_replay.hpp"
#include "questions_families.hpp"

namespace netlab::grade {

std::string hex(std::uint64_t value, int digits) {
  return fmt::format("0x{:0{}x}", value, digits);
}

void udp_questions(const std::string& capture, const key_options& options, std::vector<question>& out) {
  question_sink k{options, out, "udp"};
  std::size_t n = 0;
  std::optional<std::uint8_t> protocol;
  std::vector<question> per_datagram;
  question_sink d{options, per_datagram, "udp"};
  netlib::capture::replay_udp(capture, [&](const netlib::capture::udp_datagram& g) {
    if (g.packet.is_fragment()) return;
    ++n;
    if (!protocol) protocol = g.packet.ipv4() ? g.packet.ipv4()->protocol : g.packet.ipv6()->protocol;
    if (!d.within(n)) return;
    const auto& u = g.udp;
    const auto which = fmt::format("UDP datagram {} (frame {}, {} -> {})", n, g.frame, g.src, g.dst);
    const auto subject = fmt::format("datagram {}", n);
    d.add(fmt::format("udp.src_port.{}", n), fmt::format("{}: the source port in its UDP header?", which),
          std::to_string(u.src_port), answer_kind::number, subject, "port");
    d.add(fmt::format("udp.dst_port.{}", n), fmt::format("{}: the destination port in its UDP header?", which),
          std::to_string(u.dst_port), answer_kind::number, subject, "port");
    d.add(fmt::format("udp.length.{}", n),
          fmt::format("{}: the value of the Length field of its UDP header (in bytes)?", which),
          std::to_string(u.length), answer_kind::number, subject, "length");
    d.add(fmt::format("udp.payload_bytes.{}", n),
          fmt::format("{}: how many bytes of payload does it carry (the Length field less the 8-byte header)?", which),
          std::to_string(u.length - 8u), answer_kind::number, subject, "length");
    d.add(fmt::format("udp.checksum.{}", n),
          fmt::format("{}: the value of its Checksum field, as Wireshark shows it (0x....)?", which), hex(u.checksum),
          answer_kind::hex_number, subject);
  });
  if (n == 0) return;
  k.add("udp.datagrams", "How many UDP datagrams does the capture hold (fragmented ones not counted)?",
        std::to_string(n), answer_kind::number);
  k.add("udp.protocol_number",
        "What is UDP's protocol number in the IP header (IPv4 Protocol, IPv6 Next Header), in decimal?",
        std::to_string(*protocol), answer_kind::number);
  out.insert(out.end(), per_datagram.begin(), per_datagram.end());
}

}  // namespace netlab::grade
