// DHCP decoding on hand-made messages: a DISCOVER and an OFFER as udhcpc and dnsmasq send them,
// option overload into `file` and `sname`, long options split over instances, the limits, every
// truncation, and plain BOOTP.
#include <gtest/gtest.h>

#include "netlib/packet/dhcp.hpp"
#include "packet_bytes.hpp"

namespace dhcp_test {

using namespace netlib::packet;
using netlab::test::packet_bytes;

netlib::byte_view view(const packet_bytes& p) {
  return {p.b.data(), p.b.size()};
}

// BOOTP's 236 fixed bytes; `sname`/`file` filled with the given bytes (zero padded).
packet_bytes fixed(unsigned op, std::uint32_t xid, std::initializer_list<int> yiaddr, const packet_bytes& sname = {},
                   const packet_bytes& file = {}) {
  packet_bytes p;
  p.u8(op).u8(1).u8(6).u8(0).be32(xid).be16(3).be16(op == 1 ? 0x8000 : 0);
  p.bytes({0, 0, 0, 0}).bytes(yiaddr).bytes({10, 67, 0, 1}).bytes({0, 0, 0, 0});
  p.bytes({0x02, 0x00, 0x00, 0x00, 0x00, 0x42}).append(packet_bytes{std::vector<std::byte>(10)});
  auto pad = [&p](const packet_bytes& f, std::size_t n) {
    p.append(f).append(packet_bytes{std::vector<std::byte>(n - f.size())});
  };
  pad(sname, 64);
  pad(file, 128);
  return p;
}

packet_bytes discover() {
  auto p = fixed(1, 0x3903f326, {0, 0, 0, 0});
  p.bytes({99, 130, 83, 99});
  p.bytes({53, 1, 1});
  p.bytes({61, 7, 1, 0x02, 0, 0, 0, 0, 0x42});
  p.bytes({57, 2, 0x02, 0x40});
  p.bytes({55, 7, 1, 3, 6, 12, 15, 28, 42});
  p.u8(60).u8(12).text("udhcp 1.35.0");
  p.u8(0).u8(0);  // PAD
  p.u8(12).u8(6).text("client");
  p.u8(255);
  return p;
}

packet_bytes offer() {
  auto p = fixed(2, 0x3903f326, {10, 67, 0, 50});
  p.bytes({99, 130, 83, 99});
  p.bytes({53, 1, 2, 54, 4, 10, 67, 0, 1, 51, 4, 0, 0, 0x0e, 0x10, 58, 4, 0, 0, 0x07, 0x08});
  p.bytes({1, 4, 255, 255, 255, 0, 28, 4, 10, 67, 0, 255, 3, 4, 10, 67, 0, 1, 6, 8, 10, 67, 0, 1, 10, 67, 0, 2});
  p.u8(15).u8(11).text("campus.test").u8(255);
  return p;
}

TEST(Dhcp, DecodesADiscover) {
  const auto d = discover();
  const auto m = decode_dhcp(view(d));
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ(m->op, 1);
  EXPECT_EQ(m->xid, 0x3903f326u);
  EXPECT_EQ(m->secs, 3);
  EXPECT_TRUE(m->broadcast());
  EXPECT_EQ(m->ciaddr.to_string(), "0.0.0.0");
  EXPECT_EQ(m->giaddr.to_string(), "0.0.0.0");
  EXPECT_EQ(m->client_mac()->to_string(), "02:00:00:00:00:42");
  EXPECT_TRUE(m->has_cookie);
  EXPECT_EQ(m->message_type(), dhcp_message_type::discover);
  EXPECT_EQ(dhcp_message_type_name(*m->message_type()), "DISCOVER");
  EXPECT_EQ(m->parameter_request_list(), (std::vector<std::uint8_t>{1, 3, 6, 12, 15, 28, 42}));
  EXPECT_EQ(m->text_option(dhcp_option_code::vendor_class), "udhcp 1.35.0");
  EXPECT_EQ(m->text_option(dhcp_option_code::host_name), "client");
  ASSERT_NE(m->option(dhcp_option_code::max_message_size), nullptr);
  EXPECT_EQ(m->options.size(), 6u);  // 53 61 57 55 60 12, and no PAD or END
  EXPECT_EQ(m->options.back().code, 12);
}

TEST(Dhcp, DecodesAnOffer) {
  const auto o = offer();
  const auto m = decode_dhcp(view(o));
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ(m->op, 2);
  EXPECT_EQ(m->message_type(), dhcp_message_type::offer);
  EXPECT_EQ(m->yiaddr.to_string(), "10.67.0.50");
  EXPECT_EQ(m->siaddr.to_string(), "10.67.0.1");
  EXPECT_EQ(m->address_option(dhcp_option_code::server_identifier)->to_string(), "10.67.0.1");
  EXPECT_EQ(m->u32_option(dhcp_option_code::lease_time), 3600u);
  EXPECT_EQ(m->u32_option(dhcp_option_code::renewal_time), 1800u);
  EXPECT_EQ(m->address_option(dhcp_option_code::subnet_mask)->to_string(), "255.255.255.0");
  EXPECT_EQ(m->address_option(dhcp_option_code::broadcast_address)->to_string(), "10.67.0.255");
  ASSERT_EQ(m->address_list_option(dhcp_option_code::router).size(), 1u);
  const auto dns = m->address_list_option(dhcp_option_code::dns_servers);
  ASSERT_EQ(dns.size(), 2u);
  EXPECT_EQ(dns[1].to_string(), "10.67.0.2");
  EXPECT_EQ(m->text_option(dhcp_option_code::domain_name), "campus.test");
  EXPECT_FALSE(m->u32_option(dhcp_option_code::rebinding_time));
  EXPECT_FALSE(m->address_option(dhcp_option_code::router + 100));
}

TEST(Dhcp, OverloadedFieldsAndSplitOptionsAreJoined) {
  packet_bytes file;  // options in `file`: the second half of option 15, then 51
  file.u8(15).u8(4).text(".lab").bytes({51, 4, 0, 0, 0, 60, 255});
  packet_bytes sname;  // and in `sname`: option 3
  sname.bytes({3, 4, 10, 0, 0, 1, 255});
  auto p = fixed(2, 7, {10, 0, 0, 9}, sname, file);
  p.bytes({99, 130, 83, 99, 53, 1, 5, 52, 1, 3}).u8(15).u8(6).text("campus").u8(255);
  const auto m = decode_dhcp(view(p));
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ(m->text_option(dhcp_option_code::domain_name), "campus.lab");  // RFC 3396: options, then file
  EXPECT_EQ(m->u32_option(dhcp_option_code::lease_time), 60u);
  EXPECT_EQ(m->address_list_option(dhcp_option_code::router).at(0).to_string(), "10.0.0.1");
  EXPECT_TRUE(m->file.empty());
  EXPECT_TRUE(m->sname.empty());
}

TEST(Dhcp, PlainBootpHasNoOptions) {
  packet_bytes file;
  file.text("pxelinux.0");
  auto p = fixed(2, 9, {10, 0, 0, 9}, {}, file);
  const auto m = decode_dhcp(view(p));
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->has_cookie);
  EXPECT_TRUE(m->options.empty());
  EXPECT_FALSE(m->message_type());
  EXPECT_EQ(m->file, "pxelinux.0");
}

TEST(Dhcp, TruncationsAndLimits) {
  const auto d = discover();
  for (std::size_t n = 0; n < d.size(); ++n) {
    const auto m = decode_dhcp(netlib::byte_view(d.b.data(), n));
    if (n < 236) {
      ASSERT_FALSE(m) << n;
      EXPECT_EQ(m.error().reason, "truncated header");
    } else if (!m) {
      EXPECT_EQ(m.error().reason, "truncated option") << n;  // a cut inside an option
    }
  }
  auto bad = fixed(1, 1, {0, 0, 0, 0});
  bad.bytes({99, 130, 83, 99, 53, 1, 1, 12, 9}).text("abc");
  EXPECT_EQ(decode_dhcp(view(bad)).error().reason, "truncated option");
  auto many = fixed(1, 1, {0, 0, 0, 0});
  many.bytes({99, 130, 83, 99});
  for (int i = 0; i < 600; ++i) many.bytes({224, 0});  // 600 empty options
  many.u8(255);
  EXPECT_EQ(decode_dhcp(view(many)).error().reason, "too many options");
  dhcp_limits roomy;
  roomy.max_options = 1000;
  EXPECT_TRUE(decode_dhcp(view(many), roomy));
}

}  // namespace dhcp_test
