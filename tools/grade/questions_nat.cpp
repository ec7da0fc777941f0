// The NAT lab's questions (Kurose & Ross, "Wireshark Lab: NAT"), from two captures recorded at the
// same time on a NAT router's inside (LAN) and outside (WAN) interfaces: for each flow that crossed
// the router, the address and port it left with (the translation table's entry), in which outside
// frame it appears, and what the router changed in the headers (TTL, IP header checksum, the
// TCP/UDP checksum), the address the server's reply came back to, and the router's public address.
//
// Theory of operation. Each capture is read once with netlib::capture::replay_packets; a flow is
// the TCP or UDP packets over IPv4 between two endpoints, named by the direction of its first
// packet, with that packet's fingerprint: the protocol, the destination endpoint, the IP
// identification and the TCP sequence number or a hash of the UDP payload. A source NAT
// (masquerade, RFC 3022 §2.2 "NAPT") rewrites the source address and maybe the port, the TTL
// and the checksums, and none of the fingerprint, so an inside flow is the outside flow with the
// same fingerprint. Inside flows without a match did not cross the router (or were dropped) and
// are not asked about.
#include <fmt/format.h>

#include <map>
#include <tuple>

#include "netlib/capture/packet_replay.hpp"
#include "questions_families.hpp"

namespace netlab::grade {

namespace {

namespace packet = netlib::packet;

constexpr std::size_t max_flows = 100000;  // flows tracked per capture (memory)

struct nat_packet {
  std::uint64_t frame = 0;
  std::uint16_t ip_id = 0;
  std::uint8_t ttl = 0;
  std::uint16_t ip_checksum = 0;
  std::uint16_t transport_checksum = 0;
};

struct nat_flow {
  std::uint8_t protocol = 0;  // 6 or 17
  packet::endpoint src, dst;
  nat_packet first;
  std::uint64_t fingerprint = 0;    // TCP sequence number, or the UDP payload's hash
  std::optional<nat_packet> reply;  // the first packet the other way
};

using flow_key = std::tuple<std::uint8_t, packet::endpoint, packet::endpoint>;

struct flows_read {
  std::vector<nat_flow> flows;  // in order of their first packet
  std::map<flow_key, std::size_t> index;
};

std::uint64_t fnv1a(netlib::byte_view b) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (auto c : b) h = (h ^ static_cast<std::uint8_t>(c)) * 0x100000001b3ULL;
  return h;
}

flows_read read_flows(const std::string& capture) {
  flows_read r;
  netlib::capture::replay_packets(capture, [&](const netlib::capture::captured_packet& p) {
    const auto* ip = p.packet.ipv4();
    if (ip == nullptr || ip->is_fragment()) return;
    const auto* tcp = p.packet.tcp();
    const auto* udp = p.packet.udp();
    if (tcp == nullptr && udp == nullptr) return;
    const std::uint8_t protocol = tcp ? 6 : 17;
    const packet::endpoint src{ip->src, tcp ? tcp->src_port : udp->src_port};
    const packet::endpoint dst{ip->dst, tcp ? tcp->dst_port : udp->dst_port};
    const nat_packet facts{p.frame, ip->identification, ip->ttl, ip->checksum, tcp ? tcp->checksum : udp->checksum};
    if (r.index.contains({protocol, src, dst})) return;
    if (const auto back = r.index.find({protocol, dst, src}); back != r.index.end()) {
      auto& f = r.flows[back->second];
      if (!f.reply) f.reply = facts;
      return;
    }
    if (r.flows.size() >= max_flows) return;
    r.index[{protocol, src, dst}] = r.flows.size();
    r.flows.push_back({protocol, src, dst, facts, tcp ? tcp->seq : fnv1a(udp->payload), std::nullopt});
  });
  return r;
}

// The outside flows by what a source NAT leaves alone of their first packet (the first such flow
// wins), so that matching is a lookup, not a scan of every pair.
using fingerprint_key = std::tuple<std::uint8_t, packet::endpoint, std::uint16_t, std::uint64_t>;

std::map<fingerprint_key, const nat_flow*> by_fingerprint(const flows_read& r) {
  std::map<fingerprint_key, const nat_flow*> out;
  for (const auto& f : r.flows) out.emplace(fingerprint_key{f.protocol, f.dst, f.first.ip_id, f.fingerprint}, &f);
  return out;
}

}  // namespace

void nat_questions(const std::string& inside, const std::string& outside, const key_options& options,
                   std::vector<question>& out) {
  const auto in = read_flows(inside);
  const auto outside_flows = read_flows(outside);
  const auto outside_index = by_fingerprint(outside_flows);
  question_sink k{options, out, "nat"};
  std::vector<question> per_flow;
  question_sink q{options, per_flow, "nat"};
  std::size_t n = 0;
  std::optional<packet::ip_address> public_address;
  bool one_public_address = true;
  for (const auto& f : in.flows) {
    const auto match = outside_index.find({f.protocol, f.dst, f.first.ip_id, f.fingerprint});
    if (match == outside_index.end()) continue;
    const nat_flow* o = match->second;
    ++n;
    if (!public_address) public_address = o->src.address;
    one_public_address = one_public_address && *public_address == o->src.address;
    if (!q.within(n)) continue;
    const auto which = fmt::format("NAT flow {} ({} {} -> {}, first packet in frame {} of the inside capture)", n,
                                   f.protocol == 6 ? "TCP" : "UDP", f.src, f.dst, f.first.frame);
    const auto subject = fmt::format("flow {}", n);
    const auto id = [n](std::string_view what) { return fmt::format("nat.{}.{}", what, n); };
    q.add(
        id("outside_source"),
        fmt::format("{}: with which source IP address and port does it leave the router (the outside capture)?", which),
        o->src.to_string(), answer_kind::endpoint, subject, "translation");
    q.add(id("outside_frame"),
          fmt::format("{}: in which frame of the outside capture does that first packet appear?", which),
          std::to_string(o->first.frame), answer_kind::number, subject);
    q.add(id("ttl_inside"), fmt::format("{}: what TTL does that first packet carry inside?", which),
          std::to_string(f.first.ttl), answer_kind::number, subject, "ttl");
    q.add(id("ttl_outside"), fmt::format("{}: what TTL does that first packet carry outside?", which),
          std::to_string(o->first.ttl), answer_kind::number, subject, "ttl");
    q.add(id("ip_checksum_inside"),
          fmt::format("{}: what is that first packet's IP header checksum inside (0x....)?", which),
          hex(f.first.ip_checksum), answer_kind::hex_number, subject, "checksum");
    q.add(id("ip_checksum_outside"),
          fmt::format("{}: what is that first packet's IP header checksum outside (0x....)?", which),
          hex(o->first.ip_checksum), answer_kind::hex_number, subject, "checksum");
    q.add(id("transport_checksum_inside"),
          fmt::format("{}: what is that first packet's {} checksum inside (0x....)?", which,
                      f.protocol == 6 ? "TCP" : "UDP"),
          hex(f.first.transport_checksum), answer_kind::hex_number, subject, "checksum");
    q.add(id("transport_checksum_outside"),
          fmt::format("{}: what is that first packet's {} checksum outside (0x....)?", which,
                      f.protocol == 6 ? "TCP" : "UDP"),
          hex(o->first.transport_checksum), answer_kind::hex_number, subject, "checksum");
    if (o->reply) {
      q.add(id("reply_outside_frame"),
            fmt::format("{}: in which frame of the outside capture does the first reply from {} arrive?", which, f.dst),
            std::to_string(o->reply->frame), answer_kind::number, subject);
    }
    if (o->reply && f.reply) {
      q.add(id("reply_inside_destination"),
            fmt::format("{}: the router forwards the first reply from {} to the inside: to which IP address and port?",
                        which, f.dst),
            f.src.to_string(), answer_kind::endpoint, subject, "translation");
    }
  }
  if (n == 0) return;
  k.add("nat.flows", "How many TCP and UDP flows crossed the NAT router (seen in both captures)?", std::to_string(n),
        answer_kind::number);
  if (one_public_address) {
    k.add("nat.public_address", "Which IP address does the NAT router give every flow on the outside?",
          public_address->to_string(), answer_kind::ip);
  }
  out.insert(out.end(), per_flow.begin(), per_flow.end());
}

}  // namespace netlab::grade
