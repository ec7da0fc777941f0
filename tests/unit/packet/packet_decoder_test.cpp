// Layered decoding on hand-made frames for every supported link type, network and transport
// protocol, and every truncation of each frame.
#include <gtest/gtest.h>

#include "netlib/packet/packet_decoder.hpp"
#include "packet_bytes.hpp"

namespace {

using namespace netlib::packet;
using netlab::test::packet_bytes;

packet_bytes tcp_ipv4_frame(bool options = false) {
  auto tcp = netlab::test::tcp_header(40000, 80, 1000, 2000, tcp_flag::psh | tcp_flag::ack);
  tcp.text("GET /");
  auto f = netlab::test::ethernet_header(ethertype::ipv4);
  f.append(netlab::test::ipv4_header(ip_protocol::tcp, static_cast<unsigned>(tcp.size()), options)).append(tcp);
  return f;
}

packet_bytes tcp_ipv6_payload() {
  packet_bytes p;
  auto tcp = netlab::test::tcp_header(40000, 443, 1, 2, tcp_flag::syn);
  // Hop-by-hop (8 bytes) -> destination options (16 bytes) -> TCP.
  const unsigned plen = static_cast<unsigned>(8 + 16 + tcp.size());
  p.be32(0x60000000).be16(plen).u8(0).u8(64);
  p.bytes({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  p.bytes({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  p.bytes({60, 0, 1, 4, 0, 0, 0, 0});
  p.bytes({6, 1, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  return p.append(tcp);
}

TEST(PacketDecoder, EthernetIpv4TcpWithOptions) {
  const auto f = tcp_ipv4_frame(true);
  const auto p = decode_packet(link_type::ethernet, f.b);
  ASSERT_FALSE(p.error) << p.error->message();
  ASSERT_TRUE(p.ipv4());
  EXPECT_EQ(p.ipv4()->options.size(), 4u);
  EXPECT_EQ(p.src_ip()->to_string(), "10.0.0.1");
  ASSERT_TRUE(p.tcp());
  const auto& t = *p.tcp();
  EXPECT_EQ(t.src_port, 40000);
  EXPECT_EQ(t.seq, 1000u);
  EXPECT_EQ(t.flag_names(), "PSH,ACK");
  EXPECT_EQ(t.options.mss, 1460);
  EXPECT_TRUE(t.options.sack_permitted);
  EXPECT_EQ(t.options.window_scale, 7);
  ASSERT_TRUE(t.options.timestamps);
  EXPECT_EQ(t.options.timestamps->first, 1u);
  EXPECT_EQ(netlib::as_chars(t.payload), "GET /");
}

TEST(PacketDecoder, EveryTruncationOfIpv4TcpSaysWhy) {
  const auto f = tcp_ipv4_frame();
  const std::size_t tcp_end = 14 + 20 + 40;
  for (std::size_t k = 0; k < f.size(); ++k) {
    const auto p = decode_packet(link_type::ethernet, netlib::byte_view(f.b).first(k));
    if (k < 14) {
      ASSERT_TRUE(p.error);
      EXPECT_EQ(p.error->layer, "ethernet");
    } else if (k < 34) {
      ASSERT_TRUE(p.error) << k;
      EXPECT_EQ(p.error->message(), "ipv4: truncated header");
    } else if (k < tcp_end) {
      ASSERT_TRUE(p.error) << k;
      EXPECT_EQ(p.error->layer, "tcp");
      EXPECT_TRUE(p.is_truncated());
    } else {
      EXPECT_FALSE(p.error) << k;
      EXPECT_TRUE(p.is_truncated());
      EXPECT_EQ(p.tcp()->payload.size(), k - tcp_end);
    }
  }
}

TEST(PacketDecoder, Ipv6SkipsExtensionHeadersAndEveryTruncation) {
  auto f = netlab::test::ethernet_header(ethertype::ipv6).append(tcp_ipv6_payload());
  auto p = decode_packet(link_type::ethernet, f.b);
  ASSERT_FALSE(p.error) << p.error->message();
  ASSERT_TRUE(p.ipv6());
  EXPECT_EQ(p.ipv6()->extension_headers, 2);
  EXPECT_EQ(p.ipv6()->protocol, ip_protocol::tcp);
  EXPECT_EQ(p.src_ip()->to_string(), "2001:db8::1");
  ASSERT_TRUE(p.tcp());
  EXPECT_EQ(p.tcp()->dst_port, 443);
  for (std::size_t k = 14; k < f.size(); ++k) {
    auto t = decode_packet(link_type::ethernet, netlib::byte_view(f.b).first(k));
    ASSERT_TRUE(t.error) << k;
    EXPECT_EQ(t.error->layer, k < 14 + 40 + 24 ? "ipv6" : "tcp") << k;
  }
}

TEST(PacketDecoder, FragmentsAreFlaggedNotReassembled) {
  auto f = netlab::test::ethernet_header(ethertype::ipv4)
               .append(netlab::test::ipv4_header(ip_protocol::udp, 8, false, 0x0001));
  f.bytes({1, 2, 3, 4, 5, 6, 7, 8});
  auto p = decode_packet(link_type::ethernet, f.b);
  EXPECT_TRUE(p.is_fragment());
  EXPECT_EQ(p.ipv4()->fragment_offset, 8);
  EXPECT_FALSE(p.udp());
  EXPECT_FALSE(p.error);
}

TEST(PacketDecoder, UdpIcmpArpAndTheirTruncations) {
  packet_bytes udp;
  udp.be16(5353).be16(53).be16(12).be16(0).text("abcd");
  auto fu = netlab::test::ethernet_header(ethertype::ipv4)
                .append(netlab::test::ipv4_header(ip_protocol::udp, 12))
                .append(udp);
  auto pu = decode_packet(link_type::ethernet, fu.b);
  ASSERT_TRUE(pu.udp());
  EXPECT_EQ(netlib::as_chars(pu.udp()->payload), "abcd");
  packet_bytes bad_udp;
  bad_udp.be16(1).be16(2).be16(4).be16(0);
  EXPECT_EQ(decode_udp(bad_udp.b).error().reason, "bad length");

  packet_bytes icmp;
  icmp.u8(8).u8(0).be16(0).be16(1).be16(2).text("ping");
  auto fi = netlab::test::ethernet_header(ethertype::ipv4)
                .append(netlab::test::ipv4_header(ip_protocol::icmp, 12))
                .append(icmp);
  auto pi = decode_packet(link_type::ethernet, fi.b);
  ASSERT_TRUE(pi.icmp());
  EXPECT_EQ(pi.icmp()->type, 8);
  EXPECT_EQ(pi.icmp()->rest, 0x00010002u);
  for (std::size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(decode_icmp(netlib::byte_view(icmp.b).first(k), true).error().message(), "icmpv6: truncated header");
    EXPECT_EQ(decode_udp(netlib::byte_view(udp.b).first(k)).error().message(), "udp: truncated header");
  }

  packet_bytes arp;
  arp.be16(1).be16(0x0800).u8(6).u8(4).be16(1).bytes(
      {2, 0, 0, 0, 0, 1, 192, 168, 0, 1, 0, 0, 0, 0, 0, 0, 192, 168, 0, 2});
  auto fa = netlab::test::ethernet_header(ethertype::arp).append(arp);
  auto pa = decode_packet(link_type::ethernet, fa.b);
  ASSERT_TRUE(pa.arp());
  EXPECT_EQ(pa.arp()->operation, 1);
  EXPECT_EQ(pa.arp()->target_ip.to_string(), "192.168.0.2");
  EXPECT_EQ(pa.arp()->sender_mac.to_string(), "02:00:00:00:00:01");
  for (std::size_t k = 0; k < arp.size(); ++k) {
    EXPECT_EQ(decode_arp(netlib::byte_view(arp.b).first(k)).error().message(), "arp: truncated header");
  }
}

TEST(PacketDecoder, LinkTypes) {
  auto ip = netlab::test::ipv4_header(ip_protocol::udp, 8);
  ip.be16(1).be16(2).be16(8).be16(0);
  auto ip6 = tcp_ipv6_payload();
  struct case_t {
    link_type link;
    packet_bytes head;
    const packet_bytes* body;
    std::string_view error_layer;
  };
  packet_bytes null_le, null_be6, loop, sll, sll2, none;
  null_le.bytes({2, 0, 0, 0});
  null_be6.bytes({0, 0, 0, 30});
  loop.be32(2);
  sll.be16(0).be16(1).be16(6).bytes({2, 0, 0, 0, 0, 1, 0, 0}).be16(0x0800);
  sll2.be16(0x86dd).be16(0).be32(1).be16(1).u8(0).u8(6).bytes({2, 0, 0, 0, 0, 1, 0, 0});
  const case_t cases[] = {{link_type::null_bsd, null_le, &ip, "loopback"},
                          {link_type::null_bsd, null_be6, &ip6, "loopback"},
                          {link_type::loop, loop, &ip, "loopback"},
                          {link_type::raw, none, &ip6, ""},
                          {link_type::ipv4, none, &ip, ""},
                          {link_type::linux_sll, sll, &ip, "linux_sll"},
                          {link_type::linux_sll2, sll2, &ip6, "linux_sll2"}};
  for (const auto& c : cases) {
    packet_bytes f = c.head;
    f.append(*c.body);
    auto p = decode_packet(c.link, f.b);
    EXPECT_FALSE(p.error) << link_type_name(c.link) << ": " << p.error->message();
    EXPECT_TRUE(p.udp() || p.tcp()) << link_type_name(c.link);
    for (std::size_t k = 0; k < c.head.size(); ++k) {
      auto t = decode_packet(c.link, netlib::byte_view(f.b).first(k));
      ASSERT_TRUE(t.error);
      EXPECT_EQ(t.error->layer, c.error_layer);
    }
  }
  EXPECT_EQ(decode_packet(static_cast<link_type>(999), ip.b).error->message(), "link: unsupported link type");
}

TEST(PacketDecoder, MalformedHeaders) {
  packet_bytes v;
  v.u8(0x45).u8(0).be16(10).be32(0).be32(0).be32(0).be32(0);  // total length < IHL
  EXPECT_EQ(decode_ipv4(v.b).error().reason, "bad total length");
  v.b[0] = std::byte{0x44};
  EXPECT_EQ(decode_ipv4(v.b).error().reason, "bad header length");
  v.b[0] = std::byte{0x65};
  EXPECT_EQ(decode_ipv4(v.b).error().reason, "bad version");
  auto t = netlab::test::tcp_header(1, 2, 3, 4, 0);
  t.b[12] = std::byte{0x40};
  EXPECT_EQ(decode_tcp(t.b).error().reason, "bad data offset");
  t.b[12] = std::byte{0xa0};
  t.b[21] = std::byte{1};  // MSS option with length 1
  EXPECT_EQ(decode_tcp(t.b).error().reason, "bad option length");
  t.b[21] = std::byte{30};
  EXPECT_EQ(decode_tcp(t.b).error().reason, "truncated options");
}

}  // namespace
