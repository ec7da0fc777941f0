// Theory of operation. One pass over the capture with the packet decoder (netlib::packet) and the
// IP reassembler gives what the textbook's IP and ICMP labs ask about:
//   - "the host" of each IP version: the source of the first packet of that version that is not
//     an ICMP error, neighbour discovery or multicast listener message, and whose source is
//     neither unspecified nor link-local (the computer that pinged or traced);
//   - the IP header fields of every packet the host sent (ip.*.n, ipv6.*.n, in capture order);
//   - every fragmented datagram, as the reassembler put it back together (its fragments in offset
//     order);
//   - ICMP messages, decoded where the datagram is whole (an unfragmented packet, or the frame
//     that completed a reassembly, as Wireshark shows them): echo requests matched with the first
//     reply carrying the same identifier and sequence between the same hosts (Wireshark's
//     response time), error messages with their quoted datagram;
//   - the path: every datagram (its first fragment) is kept by source, destination, IP
//     identification and its first 8 upper-layer bytes, which is what an ICMP error quotes; a
//     time-exceeded error quoting a probe names the router at the probe's TTL, a port
//     unreachable or an echo reply from the probe's destination says the destination was
//     reached. Hop h is the router that answered the first answered probe sent with TTL h to the
//     destination of the first probe answered at all; its RTT is that answer's time minus the
//     probe's.
// Memory: at most max_kept IP packets (a summary of their headers), datagrams sent (their key as
// an error would quote them) and ICMP messages are kept (a lab capture holds a few hundred); the
// questions ask about the first max_per_kind of each kind.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/packet/ip_reassembly.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "questions_packets.hpp"

namespace netlab::grade {

namespace {

namespace pk = netlib::packet;
constexpr std::size_t max_kept = 100000;

struct ip_seen {
  std::uint64_t frame = 0;
  bool v6 = false;
  pk::ip_address src, dst;
  std::uint8_t ttl = 0;  // hop limit for IPv6
  std::uint16_t identification = 0;
  std::uint8_t protocol = 0;  // IPv4 protocol; IPv6: the first Next Header
  std::uint8_t header_length = 0;
  std::uint16_t length = 0;  // IPv4 total length; IPv6 payload length
  bool dont_fragment = false, more_fragments = false;
  std::uint16_t fragment_offset = 0;
  std::uint32_t flow_label = 0;
};

struct fragmented {
  std::uint64_t frame = 0;  // the frame that completed it
  pk::reassembled_datagram d;
};

struct quote_seen {
  bool v6 = false;
  pk::ip_address src, dst;
  std::uint8_t ttl = 0;
  std::uint16_t identification = 0;
  std::uint8_t protocol = 0;
  std::optional<std::uint16_t> dst_port;
  std::optional<std::uint16_t> echo_sequence;
  std::vector<std::byte> head;  // the first 8 upper-layer bytes quoted (fewer if the quote is short)
  bool later_fragment = false;
};

struct icmp_seen {
  std::uint64_t frame = 0;
  netlib::time_point ts{};
  bool v6 = false;
  pk::ip_address src, dst;
  std::uint8_t ttl = 0;
  std::uint8_t type = 0, code = 0;
  std::uint32_t rest = 0;
  bool error = false, echo_request = false, echo_reply = false;
  std::optional<std::uint32_t> mtu;
  std::string type_name, code_name;
  std::optional<quote_seen> quote;
};

// A datagram the host sent, as an error would quote it.
struct probe_key {
  bool v6 = false;
  pk::ip_address src, dst;
  std::uint8_t protocol = 0;
  std::uint16_t identification = 0;  // IPv4 only
  std::vector<std::byte> head;
  friend auto operator<=>(const probe_key&, const probe_key&) = default;
};
struct probe_sent {
  std::uint64_t frame = 0;
  netlib::time_point ts{};
  std::uint8_t ttl = 0;
};

struct ip_capture {
  std::optional<pk::ip_address> host[2];  // [0] IPv4, [1] IPv6
  std::vector<ip_seen> packets;
  std::vector<fragmented> datagrams;
  std::vector<icmp_seen> icmp;
  std::map<probe_key, std::vector<probe_sent>> probes;
  std::size_t probe_count = 0;
};

bool link_local_or_unspecified(const pk::ip_address& a) {
  if (!a.v6) return a.octets[0] == 0 || (a.octets[0] == 169 && a.octets[1] == 254);
  const bool zero = std::all_of(a.octets.begin(), a.octets.end(), [](std::uint8_t o) { return o == 0; });
  return zero || (a.octets[0] == 0xfe && (a.octets[1] & 0xc0) == 0x80);
}

std::vector<std::byte> first_bytes(netlib::byte_view b) {
  const auto n = std::min<std::size_t>(8, b.size());
  return {b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)};
}

quote_seen quote_of(const pk::quoted_datagram& q) {
  quote_seen s;
  if (const auto* h = q.ipv4()) {
    s.src = h->src;
    s.dst = h->dst;
    s.ttl = h->ttl;
    s.identification = h->identification;
    s.protocol = h->protocol;
    s.later_fragment = h->fragment_offset != 0;
    if (!s.later_fragment) s.head = first_bytes(h->payload);
  } else if (const auto* h6 = q.ipv6()) {
    s.v6 = true;
    s.src = h6->src;
    s.dst = h6->dst;
    s.ttl = h6->hop_limit;
    s.protocol = h6->protocol;
    s.identification = 0;
    s.later_fragment = h6->fragment_offset != 0;
    if (!s.later_fragment) s.head = first_bytes(h6->payload);
  }
  if (q.transport) {
    s.dst_port = q.transport->dst_port;
    s.echo_sequence = q.transport->icmp_sequence;
  }
  return s;
}

// An ICMP message whose datagram is whole: an unfragmented packet or a reassembled one.
void on_icmp(ip_capture& c, std::uint64_t frame, netlib::time_point ts, bool v6, const pk::ip_address& src,
             const pk::ip_address& dst, std::uint8_t ttl, netlib::byte_view icmp_bytes) {
  if (c.icmp.size() >= max_kept) return;
  const auto m = pk::decode_icmp(icmp_bytes, v6);
  if (!m) return;
  icmp_seen e;
  e.frame = frame;
  e.ts = ts;
  e.v6 = v6;
  e.src = src;
  e.dst = dst;
  e.ttl = ttl;
  e.type = m->type;
  e.code = m->code;
  e.rest = m->rest;
  e.error = m->is_error();
  e.echo_request = m->is_echo_request();
  e.echo_reply = m->is_echo_reply();
  e.mtu = m->mtu();
  e.type_name = std::string(m->type_name());
  e.code_name = std::string(m->code_name());
  if (e.error) {
    if (const auto q = pk::decode_quoted_datagram(*m)) e.quote = quote_of(*q);
  }
  c.icmp.push_back(std::move(e));
}

bool host_candidate(const pk::decoded_packet& p) {
  const auto src = p.src_ip();
  if (!src || link_local_or_unspecified(*src)) return false;
  if (const auto* m = p.icmp()) {
    if (m->is_error()) return false;
    if (m->v6 && m->type >= 130 && m->type <= 143) return false;  // MLD, NDP (RFC 4861, RFC 3810)
  }
  return true;
}

void remember_probe(ip_capture& c, const pk::decoded_packet& p, std::uint64_t frame, netlib::time_point ts) {
  if (c.probe_count >= max_kept) return;
  probe_key k;
  std::uint8_t ttl = 0;
  if (const auto* h = p.ipv4()) {
    if (h->fragment_offset != 0) return;
    k = {false, h->src, h->dst, h->protocol, h->identification, first_bytes(h->payload)};
    ttl = h->ttl;
  } else if (const auto* h6 = p.ipv6()) {
    if (h6->fragment_offset != 0) return;
    k = {true, h6->src, h6->dst, h6->protocol, 0, first_bytes(h6->payload)};
    ttl = h6->hop_limit;
  } else {
    return;
  }
  c.probes[std::move(k)].push_back({frame, ts, ttl});
  ++c.probe_count;
}

ip_capture read_ip_capture(const std::string& capture) {
  ip_capture c;
  auto reader = netlib::capture::capture_reader::open(capture);
  pk::ip_reassembler reassembler;
  std::uint64_t frame = 0;
  while (auto rec = reader.next()) {
    ++frame;
    const auto p = pk::decode_packet(rec->link, rec->data);
    const bool v4 = p.ipv4() != nullptr, v6 = p.ipv6() != nullptr;
    if (!v4 && !v6) continue;
    auto& host = c.host[v6 ? 1 : 0];
    if (!host && host_candidate(p)) host = p.src_ip();
    // Every IP packet is kept (up to max_kept): the host's are picked once it is known, which may
    // be after its first packets (neighbour discovery before the first echo request).
    if (c.packets.size() < max_kept) {
      ip_seen s;
      s.frame = frame;
      s.v6 = v6;
      s.src = *p.src_ip();
      s.dst = *p.dst_ip();
      if (v4) {
        const auto& h = *p.ipv4();
        s.ttl = h.ttl;
        s.identification = h.identification;
        s.protocol = h.protocol;
        s.header_length = h.header_length;
        s.length = h.total_length;
        s.dont_fragment = h.dont_fragment;
        s.more_fragments = h.more_fragments;
        s.fragment_offset = h.fragment_offset;
      } else {
        const auto& h = *p.ipv6();
        s.ttl = h.hop_limit;
        s.protocol = h.next_header;
        s.header_length = 40;
        s.length = h.payload_length;
        s.flow_label = h.flow_label;
        s.more_fragments = h.more_fragments;
        s.fragment_offset = h.fragment_offset;
        s.identification = static_cast<std::uint16_t>(h.fragment_id);
      }
      c.packets.push_back(s);
    }
    remember_probe(c, p, frame, rec->ts);
    const std::uint8_t ttl = v4 ? p.ipv4()->ttl : p.ipv6()->hop_limit;
    if (p.is_fragment()) {
      auto d = reassembler.feed(p, rec->ts, frame);
      if (!d) continue;
      const bool icmp = d->protocol == (d->v6 ? pk::ip_protocol::icmpv6 : pk::ip_protocol::icmp);
      if (icmp) on_icmp(c, frame, rec->ts, d->v6, d->src, d->dst, ttl, d->payload);
      if (c.datagrams.size() < max_kept) c.datagrams.push_back({frame, std::move(*d)});
      continue;
    }
    if (const auto* m = p.icmp()) {
      const auto bytes = v4 ? p.ipv4()->payload : p.ipv6()->payload;
      on_icmp(c, frame, rec->ts, m->v6, *p.src_ip(), *p.dst_ip(), ttl, bytes);
    }
  }
  return c;
}

struct adder {
  const key_options& options;
  std::vector<question>& out;
  void operator()(std::string id, std::string protocol, std::string text, std::string answer, answer_kind kind) const {
    out.push_back({std::move(id), std::move(protocol), std::move(text), std::move(answer), kind});
  }
  [[nodiscard]] bool within(std::size_t n) const { return n <= options.max_per_kind; }
};

std::string protocol_name(std::uint8_t p) {
  switch (p) {
    case 0:
      return "Hop-by-Hop Options";
    case pk::ip_protocol::icmp:
      return "ICMP";
    case pk::ip_protocol::tcp:
      return "TCP";
    case pk::ip_protocol::udp:
      return "UDP";
    case 43:
      return "Routing";
    case 44:
      return "Fragment";
    case pk::ip_protocol::icmpv6:
      return "ICMPv6";
    case 59:
      return "No Next Header";
    case 60:
      return "Destination Options";
    default:
      return fmt::format("protocol {}", p);
  }
}

std::string yes(bool b) {
  return b ? "yes" : "no";
}

void ipv4_packet_questions(const adder& add, const ip_seen& s, std::size_t n) {
  const auto which = fmt::format("IPv4 packet {} sent by the host {} (frame {}, to {})", n, s.src, s.frame, s.dst);
  const auto id = [&](std::string_view what) { return fmt::format("ip.{}.{}", what, n); };
  add(id("ttl"), "ip", fmt::format("{}: what is the value of its time-to-live (TTL) field?", which),
      std::to_string(s.ttl), answer_kind::number);
  add(id("identification"), "ip", fmt::format("{}: what is its identification field?", which),
      hex_answer(s.identification, 4), answer_kind::coded);
  add(id("protocol"), "ip", fmt::format("{}: which upper-layer protocol does its protocol field name?", which),
      coded_answer(protocol_name(s.protocol), s.protocol), answer_kind::coded);
  add(id("header_length"), "ip", fmt::format("{}: how many bytes long is its IP header?", which),
      std::to_string(s.header_length), answer_kind::number);
  add(id("total_length"), "ip", fmt::format("{}: what is its total length (bytes, header included)?", which),
      std::to_string(s.length), answer_kind::number);
  add(id("payload_length"), "ip",
      fmt::format("{}: how many bytes of payload does it carry (total length minus header)?", which),
      std::to_string(s.length - s.header_length), answer_kind::number);
  add(id("dont_fragment"), "ip", fmt::format("{}: is its Don't Fragment (DF) flag set?", which), yes(s.dont_fragment),
      answer_kind::yes_no);
  add(id("more_fragments"), "ip", fmt::format("{}: is its More Fragments (MF) flag set?", which), yes(s.more_fragments),
      answer_kind::yes_no);
  add(id("fragment_offset"), "ip", fmt::format("{}: what is its fragment offset, in bytes?", which),
      std::to_string(s.fragment_offset), answer_kind::number);
}

void ipv6_packet_questions(const adder& add, const ip_seen& s, std::size_t n) {
  const auto which = fmt::format("IPv6 packet {} sent by the host {} (frame {}, to {})", n, s.src, s.frame, s.dst);
  const auto id = [&](std::string_view what) { return fmt::format("ipv6.{}.{}", what, n); };
  add(id("destination"), "ipv6", fmt::format("{}: what is its destination address?", which), s.dst.to_string(),
      answer_kind::ip);
  add(id("flow_label"), "ipv6", fmt::format("{}: what is its flow label?", which), hex_answer(s.flow_label, 5),
      answer_kind::coded);
  add(id("hop_limit"), "ipv6", fmt::format("{}: what is its hop limit?", which), std::to_string(s.ttl),
      answer_kind::number);
  add(id("next_header"), "ipv6",
      fmt::format("{}: what does its Next Header field say comes after the IPv6 header?", which),
      coded_answer(protocol_name(s.protocol), s.protocol), answer_kind::coded);
  add(id("payload_length"), "ipv6",
      fmt::format("{}: what is its payload length (bytes after the 40-byte header)?", which), std::to_string(s.length),
      answer_kind::number);
}

std::string joined(const std::vector<std::uint32_t>& v) {
  std::string out;
  for (auto x : v) out += (out.empty() ? "" : ", ") + std::to_string(x);
  return out;
}

void fragment_questions(const adder& add, const ip_capture& c, bool v6) {
  const std::string family = v6 ? "ipv6" : "ip";
  std::size_t n = 0;
  for (const auto& f : c.datagrams) {
    if (f.d.v6 != v6) continue;
    ++n;
  }
  if (n == 0) return;
  add(family + ".fragmented_datagrams", family,
      fmt::format("How many {} datagrams were sent in fragments (and put back together from the capture)?",
                  v6 ? "IPv6" : "IPv4"),
      std::to_string(n), answer_kind::number);
  n = 0;
  for (const auto& f : c.datagrams) {
    if (f.d.v6 != v6 || !add.within(++n)) continue;
    auto pieces = f.d.fragments;
    std::sort(pieces.begin(), pieces.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
    std::vector<std::uint32_t> offsets, lengths;
    std::string frames;
    for (const auto& p : pieces) {
      offsets.push_back(p.offset);
      lengths.push_back(p.length);
    }
    for (const auto& p : f.d.fragments) frames += (frames.empty() ? "" : ", ") + std::to_string(p.sequence);
    const auto which = fmt::format("Fragmented {} datagram {} ({} from {} to {}, identification 0x{:0{}x}, frames {})",
                                   v6 ? "IPv6" : "IPv4", n, protocol_name(f.d.protocol), f.d.src, f.d.dst,
                                   f.d.identification, v6 ? 8 : 4, frames);
    const auto id = [&](std::string_view what) { return fmt::format("{}.{}.{}", family, what, n); };
    add(id("fragments"), family, fmt::format("{}: into how many fragments was it cut?", which),
        std::to_string(pieces.size()), answer_kind::number);
    add(id("fragment_offsets"), family,
        fmt::format("{}: what are the fragment offsets of its fragments, in bytes, in offset order?", which),
        joined(offsets), answer_kind::list);
    add(id("fragment_lengths"), family,
        fmt::format(
            "{}: how many bytes of the datagram does each fragment carry (after the IP header{}), in offset order?",
            which, v6 ? " and the Fragment header" : ""),
        joined(lengths), answer_kind::list);
    add(id("reassembled_length"), family,
        fmt::format("{}: how many bytes long is the reassembled {} (the {} message)?", which,
                    v6 ? "payload after the Fragment header" : "payload", protocol_name(f.d.protocol)),
        std::to_string(f.d.payload.size()), answer_kind::number);
  }
}

// Echo requests and their replies (Wireshark's icmp.resp_in, icmp.resptime).
void echo_questions(const adder& add, const ip_capture& c, bool v6) {
  const std::string family = v6 ? "icmpv6" : "icmp";
  std::size_t n = 0, requests = 0;
  for (const auto& e : c.icmp) requests += e.v6 == v6 && e.echo_request ? 1 : 0;
  if (requests == 0) return;
  add(family + ".echo_requests", family,
      fmt::format("How many {} echo requests does the capture hold?", v6 ? "ICMPv6" : "ICMP"), std::to_string(requests),
      answer_kind::number);
  for (std::size_t i = 0; i < c.icmp.size(); ++i) {
    const auto& e = c.icmp[i];
    if (e.v6 != v6 || !e.echo_request || !add.within(++n)) continue;
    const std::uint16_t ident = static_cast<std::uint16_t>(e.rest >> 16),
                        seq = static_cast<std::uint16_t>(e.rest & 0xffff);
    const auto which =
        fmt::format("{} echo request {} (frame {}, from {} to {})", v6 ? "ICMPv6" : "ICMP", n, e.frame, e.src, e.dst);
    const auto id = [&](std::string_view what) { return fmt::format("{}.{}.{}", family, what, n); };
    add(id("request_type"), family, fmt::format("{}: what is its type?", which), coded_answer(e.type_name, e.type),
        answer_kind::coded);
    add(id("request_code"), family, fmt::format("{}: what is its code?", which), std::to_string(e.code),
        answer_kind::number);
    add(id("identifier"), family, fmt::format("{}: what is its identifier?", which), hex_answer(ident, 4),
        answer_kind::coded);
    add(id("sequence"), family, fmt::format("{}: what is its sequence number?", which), hex_answer(seq, 4),
        answer_kind::coded);
    // The reply: the first later echo reply between the same hosts with the same identifier and sequence.
    for (std::size_t j = i + 1; j < c.icmp.size(); ++j) {
      const auto& r = c.icmp[j];
      if (r.v6 != v6 || !r.echo_reply || r.src != e.dst || r.dst != e.src || r.rest != e.rest) continue;
      add(id("reply_frame"), family, fmt::format("{}: in which frame is its echo reply?", which),
          std::to_string(r.frame), answer_kind::number);
      add(id("reply_type"), family, fmt::format("{}: what is the type of its reply?", which),
          coded_answer(r.type_name, r.type), answer_kind::coded);
      add(id("rtt"), family,
          fmt::format("{}: how long after it did its reply arrive (Wireshark's response time, in ms)?", which),
          duration_answer(netlib::to_seconds(r.ts - e.ts)), answer_kind::duration);
      break;
    }
  }
}

void error_questions(const adder& add, const ip_capture& c, bool v6) {
  const std::string family = v6 ? "icmpv6" : "icmp";
  std::size_t n = 0, errors = 0;
  for (const auto& e : c.icmp) errors += e.v6 == v6 && e.error ? 1 : 0;
  if (errors == 0) return;
  add(family + ".errors", family,
      fmt::format("How many {} error messages does the capture hold?", v6 ? "ICMPv6" : "ICMP"), std::to_string(errors),
      answer_kind::number);
  for (const auto& e : c.icmp) {
    if (e.v6 != v6 || !e.error || !add.within(++n)) continue;
    const auto which =
        fmt::format("{} error message {} (frame {}, from {} to {})", v6 ? "ICMPv6" : "ICMP", n, e.frame, e.src, e.dst);
    const auto id = [&](std::string_view what) { return fmt::format("{}.{}.{}", family, what, n); };
    add(id("error_type"), family, fmt::format("{}: what is its type?", which), coded_answer(e.type_name, e.type),
        answer_kind::coded);
    add(id("error_code"), family, fmt::format("{}: what is its code?", which),
        coded_answer(e.code_name.empty() ? "code" : e.code_name, e.code), answer_kind::coded);
    add(id("error_source"), family, fmt::format("{}: which address sent it?", which), e.src.to_string(),
        answer_kind::ip);
    if (e.mtu) {
      add(id("mtu"), family, fmt::format("{}: what MTU of the next hop does it report?", which), std::to_string(*e.mtu),
          answer_kind::number);
    }
    if (!e.quote) continue;
    const auto& q = *e.quote;
    add(id("quoted_destination"), family,
        fmt::format("{}: to which address was the datagram it quotes (the one that caused the error) sent?", which),
        q.dst.to_string(), answer_kind::ip);
    add(id("quoted_protocol"), family, fmt::format("{}: which protocol does the datagram it quotes carry?", which),
        coded_answer(protocol_name(q.protocol), q.protocol), answer_kind::coded);
    add(id("quoted_ttl"), family,
        fmt::format("{}: what {} does the quoted datagram's header hold (as it reached the sender of the error)?",
                    which, v6 ? "hop limit" : "TTL"),
        std::to_string(q.ttl), answer_kind::number);
    if (!v6) {
      add(id("quoted_identification"), family,
          fmt::format("{}: what identification does the quoted IPv4 header hold?", which),
          hex_answer(q.identification, 4), answer_kind::coded);
    }
    if (q.dst_port) {
      add(id("quoted_port"), family,
          fmt::format("{}: to which {} port was the quoted datagram sent?", which, protocol_name(q.protocol)),
          std::to_string(*q.dst_port), answer_kind::number);
    }
    if (q.echo_sequence) {
      add(id("quoted_sequence"), family,
          fmt::format("{}: what sequence number does the quoted echo request carry?", which),
          hex_answer(*q.echo_sequence, 4), answer_kind::coded);
    }
  }
}

// The probe an error or a reply answers: the latest datagram the host sent before it with this key.
const probe_sent* probe_for(const ip_capture& c, const probe_key& k, std::uint64_t before_frame) {
  const auto it = c.probes.find(k);
  if (it == c.probes.end()) return nullptr;
  const probe_sent* found = nullptr;
  for (const auto& p : it->second) {
    if (p.frame < before_frame) found = &p;
  }
  return found;
}

void path_questions(const adder& add, const ip_capture& c, bool v6) {
  const std::string family = v6 ? "icmpv6" : "icmp";
  if (!c.host[v6 ? 1 : 0]) return;
  struct answer {
    const probe_sent* probe;
    const icmp_seen* icmp;
    pk::ip_address destination;
  };
  std::vector<answer> answers;  // in the order the answers came
  for (const auto& e : c.icmp) {
    if (e.v6 != v6 || e.dst != *c.host[v6 ? 1 : 0]) continue;
    if (e.error && e.quote && !e.quote->later_fragment && e.quote->src == e.dst) {
      const auto& q = *e.quote;
      const bool answers_probe =
          e.type == (v6 ? pk::icmpv6_type::time_exceeded : pk::icmp_type::time_exceeded) ||
          (e.type == (v6 ? pk::icmpv6_type::destination_unreachable : pk::icmp_type::destination_unreachable) &&
           e.src == q.dst);
      if (!answers_probe) continue;
      if (const auto* p = probe_for(c, {v6, q.src, q.dst, q.protocol, q.identification, q.head}, e.frame))
        answers.push_back({p, &e, q.dst});
    } else if (e.echo_reply) {
      // An echo reply answers the host's echo request with the same identifier and sequence.
      for (const auto& [k, sent] : c.probes) {
        if (k.v6 != v6 || k.src != e.dst || k.dst != e.src || k.head.size() < 8) continue;
        const auto type = static_cast<std::uint8_t>(k.head[0]);
        if (type != (v6 ? pk::icmpv6_type::echo_request : pk::icmp_type::echo_request)) continue;
        const std::uint32_t rest = (std::uint32_t{static_cast<std::uint8_t>(k.head[4])} << 24) |
                                   (std::uint32_t{static_cast<std::uint8_t>(k.head[5])} << 16) |
                                   (std::uint32_t{static_cast<std::uint8_t>(k.head[6])} << 8) |
                                   static_cast<std::uint8_t>(k.head[7]);
        if (rest != e.rest) continue;
        if (const auto* p = probe_for(c, k, e.frame)) answers.push_back({p, &e, e.src});
        break;
      }
    }
  }
  // Only probes to the destination of the first probe answered by a time-exceeded message.
  std::optional<pk::ip_address> destination;
  for (const auto& a : answers) {
    if (a.icmp->error && a.icmp->src != a.destination) {
      destination = a.destination;
      break;
    }
  }
  if (!destination) return;
  std::map<std::uint8_t, const answer*> by_ttl;  // the first answer for each TTL
  std::optional<std::uint8_t> reached;
  for (const auto& a : answers) {
    if (a.destination != *destination) continue;
    const bool from_destination = a.icmp->src == *destination;
    const bool time_exceeded = a.icmp->error && !from_destination;
    if (!time_exceeded && !from_destination) continue;
    by_ttl.try_emplace(a.probe->ttl, &a);
    if (from_destination && (!reached || a.probe->ttl < *reached)) reached = a.probe->ttl;
  }
  // The hops: TTL 1, 2, ... up to the destination, each answered.
  std::vector<const answer*> hops;
  for (std::uint8_t ttl = 1; ttl != 0; ++ttl) {
    const auto it = by_ttl.find(ttl);
    if (it == by_ttl.end()) break;
    hops.push_back(it->second);
    if (reached && ttl == *reached) break;
  }
  if (hops.empty()) return;
  const auto dest_text = destination->to_string();
  if (reached && hops.size() == *reached) {
    add(family + ".hops", family,
        fmt::format("The host traced the route to {}: how many hops away is it (the TTL of the first probe it answered "
                    "itself)?",
                    dest_text),
        std::to_string(*reached), answer_kind::number);
  }
  for (std::size_t h = 1; h <= hops.size() && add.within(h); ++h) {
    const auto& a = *hops[h - 1];
    const auto which =
        fmt::format("The route to {}, hop {} (the first probe sent with {} {}, frame {}; answered in frame {})",
                    dest_text, h, v6 ? "hop limit" : "TTL", h, a.probe->frame, a.icmp->frame);
    add(fmt::format("{}.router.{}", family, h), family, fmt::format("{}: which address answered?", which),
        a.icmp->src.to_string(), answer_kind::ip);
    add(fmt::format("{}.hop_rtt.{}", family, h), family,
        fmt::format("{}: how long after the probe did the answer arrive (ms)?", which),
        duration_answer(netlib::to_seconds(a.icmp->ts - a.probe->ts)), answer_kind::duration);
  }
}

}  // namespace

void ip_questions(const std::string& capture, const key_options& options, std::vector<question>& out) {
  const auto c = read_ip_capture(capture);
  const adder add{options, out};
  std::size_t n4 = 0, n6 = 0;
  for (const auto& s : c.packets) {
    if (!s.v6 && c.host[0] && s.src == *c.host[0] && add.within(++n4)) ipv4_packet_questions(add, s, n4);
  }
  if (c.host[0]) {
    add("ip.host", "ip",
        "What is the IPv4 address of the host (the computer that sent the first IPv4 packet that is not an ICMP "
        "error)?",
        c.host[0]->to_string(), answer_kind::ip);
  }
  fragment_questions(add, c, false);
  for (const auto& s : c.packets) {
    if (s.v6 && c.host[1] && s.src == *c.host[1] && add.within(++n6)) ipv6_packet_questions(add, s, n6);
  }
  if (c.host[1]) {
    add("ipv6.host", "ipv6",
        "What is the IPv6 address of the host (the global address that sent the first IPv6 packet that is not ICMPv6 "
        "error, neighbour discovery or multicast listener traffic)?",
        c.host[1]->to_string(), answer_kind::ip);
  }
  fragment_questions(add, c, true);
  for (bool v6 : {false, true}) {
    echo_questions(add, c, v6);
    error_questions(add, c, v6);
    path_questions(add, c, v6);
  }
}

}  // namespace netlab::grade
