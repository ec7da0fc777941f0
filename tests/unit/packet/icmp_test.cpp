// ICMP and ICMPv6: echo identifiers and sequence numbers, the MTU of "fragmentation needed" and
// "packet too big", and the quoted datagram of error messages (UDP ports of a traceroute probe,
// an echo's identifier and sequence, a TCP sequence number, an RFC 4884 length), on hand-made
// messages, and every truncation of them.
#include <gtest/gtest.h>

#include "netlib/packet/icmp.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "packet_bytes.hpp"

namespace {

using namespace netlib::packet;
using netlab::test::packet_bytes;

// An IPv4 header from 10.0.0.1 to 10.0.0.2 with this protocol, TTL, total length and id.
packet_bytes ip4(unsigned protocol, unsigned ttl, unsigned total, unsigned id = 0x1234, unsigned frag = 0) {
  packet_bytes p;
  p.u8(0x45).u8(0).be16(total).be16(id).be16(frag).u8(ttl).u8(protocol).be16(0);
  p.bytes({10, 0, 0, 1, 10, 0, 0, 2});
  return p;
}

// A traceroute probe: UDP 40000 -> 33435 with 32 bytes of data, TTL 1.
packet_bytes probe() {
  packet_bytes udp;
  udp.be16(40000).be16(33435).be16(8 + 32).be16(0xabcd);
  for (int i = 0; i < 32; ++i) udp.u8(0x40 + i);
  return ip4(ip_protocol::udp, 1, 20 + 40).append(udp);
}

// ICMP time exceeded from a router quoting the first 28 bytes of the probe (RFC 792).
packet_bytes time_exceeded(std::size_t quote = 28) {
  packet_bytes icmp;
  icmp.u8(11).u8(0).be16(0).be32(0);
  const auto p = probe();
  for (std::size_t i = 0; i < quote && i < p.size(); ++i) icmp.b.push_back(p.b[i]);
  return icmp;
}

TEST(Icmp, EchoRequestIdentifierAndSequence) {
  packet_bytes m;
  m.u8(8).u8(0).be16(0x1111).be16(0x0abc).be16(7).text("abcdefgh");
  const auto d = decode_icmp(netlib::byte_view(m.b), false);
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->is_echo_request());
  EXPECT_FALSE(d->is_error());
  EXPECT_EQ(d->identifier(), 0x0abc);
  EXPECT_EQ(d->sequence(), 7);
  EXPECT_EQ(d->type_name(), "echo request");
  EXPECT_EQ(d->payload.size(), 8u);
  EXPECT_FALSE(d->mtu());
  EXPECT_FALSE(decode_quoted_datagram(*d)) << "an echo quotes nothing";
  EXPECT_EQ(decode_quoted_datagram(*d).error().reason, "not an error message");
}

TEST(Icmp, TimeExceededQuotesTheProbesUdpPorts) {
  const auto m = time_exceeded();
  const auto d = decode_icmp(netlib::byte_view(m.b), false);
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->is_time_exceeded());
  EXPECT_TRUE(d->is_error());
  EXPECT_EQ(d->code_name(), "TTL exceeded in transit");
  const auto q = decode_quoted_datagram(*d);
  ASSERT_TRUE(q) << q.error().message();
  ASSERT_TRUE(q->ipv4());
  EXPECT_EQ(q->ipv4()->ttl, 1);
  EXPECT_EQ(q->ipv4()->identification, 0x1234);
  EXPECT_EQ(q->ipv4()->dst.to_string(), "10.0.0.2");
  EXPECT_TRUE(q->ipv4()->truncated) << "the quote is shorter than the datagram";
  EXPECT_EQ(q->quoted_bytes, 28u);
  ASSERT_TRUE(q->transport);
  EXPECT_EQ(q->transport->protocol, ip_protocol::udp);
  EXPECT_EQ(q->transport->src_port, 40000);
  EXPECT_EQ(q->transport->dst_port, 33435);
}

TEST(Icmp, FragmentationNeededCarriesTheNextHopMtu) {
  packet_bytes m;
  m.u8(3).u8(4).be16(0).be16(0).be16(1400);  // RFC 1191 §4
  packet_bytes echo;
  echo.u8(8).u8(0).be16(0).be16(0x77).be16(3);
  m.append(ip4(ip_protocol::icmp, 63, 1428, 0x99, 0x4000)).append(echo);
  const auto d = decode_icmp(netlib::byte_view(m.b), false);
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->is_destination_unreachable());
  EXPECT_EQ(d->code_name(), "fragmentation needed");
  EXPECT_EQ(d->mtu(), 1400u);
  const auto q = decode_quoted_datagram(*d);
  ASSERT_TRUE(q);
  EXPECT_TRUE(q->ipv4()->dont_fragment);
  ASSERT_TRUE(q->transport);
  EXPECT_EQ(q->transport->icmp_type, 8);
  EXPECT_EQ(q->transport->icmp_identifier, 0x77);
  EXPECT_EQ(q->transport->icmp_sequence, 3);
}

TEST(Icmp, QuotedTcpGivesPortsAndSequence) {
  packet_bytes m;
  m.u8(3).u8(3).be16(0).be32(0);
  packet_bytes tcp;
  tcp.be16(5000).be16(80).be32(0xdeadbeef);
  m.append(ip4(ip_protocol::tcp, 64, 60)).append(tcp);
  const auto q = decode_quoted_datagram(*decode_icmp(netlib::byte_view(m.b), false));
  ASSERT_TRUE(q);
  EXPECT_EQ(q->transport->dst_port, 80);
  EXPECT_EQ(q->transport->tcp_seq, 0xdeadbeefu);
}

TEST(Icmp, QuoteOfALaterFragmentHasNoTransport) {
  packet_bytes m;
  m.u8(11).u8(1).be16(0).be32(0);  // fragment reassembly time exceeded
  m.append(ip4(ip_protocol::udp, 64, 1500, 0x55, 185)).bytes({1, 2, 3, 4, 5, 6, 7, 8});
  const auto d = decode_icmp(netlib::byte_view(m.b), false);
  EXPECT_EQ(d->code_name(), "fragment reassembly time exceeded");
  const auto q = decode_quoted_datagram(*d);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->ipv4()->fragment_offset, 185 * 8);
  EXPECT_FALSE(q->transport);
}

TEST(Icmp, Rfc4884LengthBoundsTheQuote) {
  // Length 7 words = 28 bytes of original datagram, then an extension structure.
  packet_bytes m;
  m.u8(11).u8(0).be16(0).u8(0).u8(7).be16(0);
  const auto p = probe();
  for (std::size_t i = 0; i < 28; ++i) m.b.push_back(p.b[i]);
  m.bytes({0x20, 0, 0, 0, 0, 8, 1, 1, 0, 0, 0, 0});
  const auto q = decode_quoted_datagram(*decode_icmp(netlib::byte_view(m.b), false));
  ASSERT_TRUE(q);
  EXPECT_EQ(q->quoted_bytes, 28u);
  EXPECT_EQ(q->ipv4()->payload.size(), 8u);
}

packet_bytes ip6_header(unsigned next, unsigned payload_length, unsigned hop_limit = 64) {
  packet_bytes p;
  p.be32(0x6000beef).be16(payload_length).u8(next).u8(hop_limit);
  p.bytes({0xfd, 0x28, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  p.bytes({0xfd, 0x28, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  return p;
}

TEST(Icmp, Icmpv6PacketTooBigQuotesAFragmentedEcho) {
  // The quoted datagram: IPv6 + Fragment header (offset 0, M, id 0x01020304) + echo request.
  packet_bytes frag_hdr;
  frag_hdr.u8(58).u8(0).be16(0x0001).be32(0x01020304);
  packet_bytes echo;
  echo.u8(128).u8(0).be16(0).be16(0x42).be16(9);
  for (int i = 0; i < 40; ++i) echo.u8(i);
  auto inner = ip6_header(44, 1448).append(frag_hdr).append(echo);
  packet_bytes m;
  m.u8(2).u8(0).be16(0).be32(1280).append(inner);
  const auto d = decode_icmp(netlib::byte_view(m.b), true);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->type_name(), "packet too big");
  EXPECT_TRUE(d->is_error());
  EXPECT_EQ(d->mtu(), 1280u);
  const auto q = decode_quoted_datagram(*d);
  ASSERT_TRUE(q) << q.error().message();
  ASSERT_TRUE(q->ipv6());
  EXPECT_TRUE(q->ipv6()->is_fragment);
  EXPECT_TRUE(q->ipv6()->more_fragments);
  EXPECT_EQ(q->ipv6()->fragment_id, 0x01020304u);
  EXPECT_EQ(q->ipv6()->flow_label, 0xbeefu);
  ASSERT_TRUE(q->transport);
  EXPECT_EQ(q->transport->icmp_type, 128);
  EXPECT_EQ(q->transport->icmp_identifier, 0x42);
  EXPECT_EQ(q->transport->icmp_sequence, 9);
}

TEST(Icmp, Icmpv6EchoThroughThePacketDecoder) {
  packet_bytes echo;
  echo.u8(129).u8(0).be16(0).be16(0x42).be16(9).text("x");
  auto f = netlab::test::ethernet_header(ethertype::ipv6)
               .append(ip6_header(58, static_cast<unsigned>(echo.size()), 61))
               .append(echo);
  const auto p = decode_packet(link_type::ethernet, f.b);
  ASSERT_FALSE(p.error);
  ASSERT_TRUE(p.icmp());
  EXPECT_TRUE(p.icmp()->v6);
  EXPECT_TRUE(p.icmp()->is_echo_reply());
  EXPECT_EQ(p.ipv6()->hop_limit, 61);
}

TEST(Icmp, LaterIpv6FragmentStopsTheExtensionWalk) {
  // A fragment at offset 8 whose data happens to start like a Destination Options header: it is
  // data, not a header.
  packet_bytes frag_hdr;
  frag_hdr.u8(60).u8(0).be16(8 | 0).be32(7);
  packet_bytes data;
  data.bytes({58, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8});
  auto f = netlab::test::ethernet_header(ethertype::ipv6)
               .append(ip6_header(44, static_cast<unsigned>(8 + data.size())))
               .append(frag_hdr)
               .append(data);
  const auto p = decode_packet(link_type::ethernet, f.b);
  ASSERT_FALSE(p.error) << p.error->message();
  ASSERT_TRUE(p.ipv6());
  EXPECT_TRUE(p.is_fragment());
  EXPECT_EQ(p.ipv6()->fragment_offset, 8);
  EXPECT_FALSE(p.ipv6()->more_fragments);
  EXPECT_EQ(p.ipv6()->fragment_id, 7u);
  EXPECT_EQ(p.ipv6()->payload.size(), 16u);
  EXPECT_EQ(p.ipv6()->fragment_data.size(), 16u);
}

// Every truncation of an error message decodes to an error or to what its bytes hold, never
// past them.
TEST(Icmp, EveryTruncationIsSafe) {
  const auto m = time_exceeded();
  for (std::size_t k = 0; k <= m.size(); ++k) {
    const auto d = decode_icmp(netlib::byte_view(m.b).first(k), false);
    if (k < 8) {
      EXPECT_FALSE(d);
      continue;
    }
    ASSERT_TRUE(d);
    const auto q = decode_quoted_datagram(*d);
    if (k < 8 + 20) {
      EXPECT_FALSE(q) << k;
      continue;
    }
    ASSERT_TRUE(q) << k;
    const std::size_t udp = k - 28;
    EXPECT_EQ(q->transport->dst_port.has_value(), udp >= 4) << k;
  }
}

}  // namespace
