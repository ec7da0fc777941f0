// IP address parsing and RFC 5952 canonical text.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "netlib/packet/ip_address.hpp"

namespace {

using netlib::packet::endpoint;
using netlib::packet::ip_address;

std::string canon(std::string_view text) {
  auto a = ip_address::parse(text);
  return a ? a->to_string() : "invalid";
}

TEST(IpAddress, Rfc5952CanonicalForm) {
  EXPECT_EQ(canon("2001:0db8:0000:0000:0000:0000:0000:0001"), "2001:db8::1");  // §4.1, §4.2.1
  EXPECT_EQ(canon("2001:db8:0:0:1:0:0:1"), "2001:db8::1:0:0:1");               // §4.2.3 first run
  EXPECT_EQ(canon("2001:db8:0:1:1:1:1:1"), "2001:db8:0:1:1:1:1:1");            // §4.2.2 single 0
  EXPECT_EQ(canon("2001:DB8::A:0:0:0"), "2001:db8:0:0:a::");                   // §4.3, longest
  EXPECT_EQ(canon("::"), "::");
  EXPECT_EQ(canon("::1"), "::1");
  EXPECT_EQ(canon("fe80::"), "fe80::");
  EXPECT_EQ(canon("::ffff:192.0.2.1"), "::ffff:192.0.2.1");  // §5
  EXPECT_EQ(canon("192.168.1.10"), "192.168.1.10");
  for (auto bad : {"1.2.3", "1.2.3.256", "1.2.3.4.5", "1::2::3", "12345::", "g::", ":::", "1:2:3:4:5:6:7:8:9", ""}) {
    EXPECT_EQ(canon(bad), "invalid") << bad;
  }
}

TEST(IpAddress, EndpointsPrintWithBracketsForIpv6) {
  EXPECT_EQ(fmt::format("{}", endpoint{*ip_address::parse("10.0.0.1"), 80}), "10.0.0.1:80");
  EXPECT_EQ(fmt::format("{}", endpoint{*ip_address::parse("2001:db8::1"), 443}), "[2001:db8::1]:443");
}

}  // namespace
