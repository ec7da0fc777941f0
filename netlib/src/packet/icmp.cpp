// ICMP (RFC 792) / ICMPv6 (RFC 4443 §2.1): type, code, checksum, then 4 type-specific bytes.
// Theory of operation for error messages: the payload is the quoted datagram (RFC 792: the IP
// header and 64 bits of data; RFC 1812 §4.3.2.3 and RFC 4443 §2.4(c) allow more). Its IP header
// is decoded with the ordinary IPv4/IPv6 decoders, which mark it truncated (the quote is shorter
// than its total length says); then the first bytes of its upper layer give what they can (ports,
// an echo's identifier and sequence), each field only when its bytes are there.
#include "netlib/packet/icmp.hpp"

#include "netlib/packet/wire.hpp"

namespace netlib::packet {

bool icmp_message::is_error() const noexcept {
  if (v6) return type < 128;
  return type == icmp_type::destination_unreachable || type == icmp_type::source_quench ||
         type == icmp_type::redirect || type == icmp_type::time_exceeded || type == icmp_type::parameter_problem;
}

std::optional<std::uint32_t> icmp_message::mtu() const noexcept {
  if (v6) return type == icmpv6_type::packet_too_big ? std::optional<std::uint32_t>(rest) : std::nullopt;
  if (type == icmp_type::destination_unreachable && code == 4) return rest & 0xffff;  // RFC 1191 §4
  return std::nullopt;
}

std::string_view icmp_message::type_name() const noexcept {
  if (v6) {
    switch (type) {
      case icmpv6_type::destination_unreachable:
        return "destination unreachable";
      case icmpv6_type::packet_too_big:
        return "packet too big";
      case icmpv6_type::time_exceeded:
        return "time exceeded";
      case icmpv6_type::parameter_problem:
        return "parameter problem";
      case icmpv6_type::echo_request:
        return "echo request";
      case icmpv6_type::echo_reply:
        return "echo reply";
      case icmpv6_type::router_solicitation:
        return "router solicitation";
      case icmpv6_type::router_advertisement:
        return "router advertisement";
      case icmpv6_type::neighbor_solicitation:
        return "neighbor solicitation";
      case icmpv6_type::neighbor_advertisement:
        return "neighbor advertisement";
      case 137:
        return "redirect";
      case 143:
        return "multicast listener report v2";
      default:
        return "other";
    }
  }
  switch (type) {
    case icmp_type::echo_reply:
      return "echo reply";
    case icmp_type::destination_unreachable:
      return "destination unreachable";
    case icmp_type::source_quench:
      return "source quench";
    case icmp_type::redirect:
      return "redirect";
    case icmp_type::echo_request:
      return "echo request";
    case icmp_type::time_exceeded:
      return "time exceeded";
    case icmp_type::parameter_problem:
      return "parameter problem";
    case 13:
      return "timestamp";
    case 14:
      return "timestamp reply";
    default:
      return "other";
  }
}

std::string_view icmp_message::code_name() const noexcept {
  if (is_time_exceeded()) {
    if (code == 0) return v6 ? "hop limit exceeded in transit" : "TTL exceeded in transit";
    if (code == 1) return "fragment reassembly time exceeded";
    return {};
  }
  if (!is_destination_unreachable()) return {};
  if (v6) {
    static constexpr std::string_view names[] = {"no route to destination",
                                                 "administratively prohibited",
                                                 "beyond scope of source address",
                                                 "address unreachable",
                                                 "port unreachable",
                                                 "source address failed policy",
                                                 "reject route"};
    return code < std::size(names) ? names[code] : std::string_view{};
  }
  static constexpr std::string_view names[] = {"network unreachable",
                                               "host unreachable",
                                               "protocol unreachable",
                                               "port unreachable",
                                               "fragmentation needed",
                                               "source route failed",
                                               "destination network unknown",
                                               "destination host unknown",
                                               "source host isolated",
                                               "network administratively prohibited",
                                               "host administratively prohibited",
                                               "network unreachable for TOS",
                                               "host unreachable for TOS",
                                               "communication administratively prohibited",
                                               "host precedence violation",
                                               "precedence cutoff in effect"};
  return code < std::size(names) ? names[code] : std::string_view{};
}

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

namespace {

quoted_transport quoted_upper_layer(std::uint8_t protocol, byte_view b) {
  quoted_transport t;
  t.protocol = protocol;
  if (protocol == ip_protocol::udp || protocol == ip_protocol::tcp) {
    if (b.size() >= 4) {
      t.src_port = wire::be16(b.data());
      t.dst_port = wire::be16(b.data() + 2);
    }
    if (protocol == ip_protocol::tcp && b.size() >= 8) t.tcp_seq = wire::be32(b.data() + 4);
  } else if (protocol == ip_protocol::icmp || protocol == ip_protocol::icmpv6) {
    if (b.size() >= 2) {
      t.icmp_type = wire::u8(b.data());
      t.icmp_code = wire::u8(b.data() + 1);
    }
    const bool echo =
        t.icmp_type && (protocol == ip_protocol::icmp
                            ? (*t.icmp_type == icmp_type::echo_request || *t.icmp_type == icmp_type::echo_reply)
                            : (*t.icmp_type == icmpv6_type::echo_request || *t.icmp_type == icmpv6_type::echo_reply));
    if (echo && b.size() >= 8) {
      t.icmp_identifier = wire::be16(b.data() + 4);
      t.icmp_sequence = wire::be16(b.data() + 6);
    }
  }
  return t;
}

}  // namespace

decoded<quoted_datagram> decode_quoted_datagram(const icmp_message& m) {
  constexpr std::string_view layer = "icmp quote";
  if (!m.is_error()) return decode_error{layer, "not an error message"};
  byte_view quote = m.payload;
  // RFC 4884 §4.1 (ICMP: the second byte of the unused word, in 32-bit words) and §4.2 (ICMPv6:
  // the first byte, in 64-bit words): when set and within the payload, the quote ends there.
  const bool extensible = m.v6
                              ? (m.type == icmpv6_type::destination_unreachable || m.type == icmpv6_type::time_exceeded)
                              : (m.type == icmp_type::destination_unreachable || m.type == icmp_type::time_exceeded ||
                                 m.type == icmp_type::parameter_problem);
  if (extensible) {
    const std::size_t words = m.v6 ? (m.rest >> 24) : ((m.rest >> 16) & 0xff);
    const std::size_t length = words * (m.v6 ? 8 : 4);
    if (length != 0 && length <= quote.size()) quote = quote.first(length);
  }
  if (quote.empty()) return decode_error{layer, "truncated header"};
  const auto version = wire::u8(quote.data()) >> 4;
  quoted_datagram q;
  q.quoted_bytes = quote.size();
  if (version == 4) {
    auto h = decode_ipv4(quote);
    if (!h) return h.error();
    q.ip = std::move(h).value();
    const auto& v4 = *q.ipv4();
    if (v4.fragment_offset == 0) q.transport = quoted_upper_layer(v4.protocol, v4.payload);
  } else if (version == 6) {
    auto h = decode_ipv6(quote);
    if (!h) return h.error();
    q.ip = std::move(h).value();
    const auto& v6 = *q.ipv6();
    if (v6.fragment_offset == 0) q.transport = quoted_upper_layer(v6.protocol, v6.payload);
  } else {
    return decode_error{layer, "bad quoted version"};
  }
  return q;
}

}  // namespace netlib::packet
