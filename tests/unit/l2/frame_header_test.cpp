#include "netlib/l2/frame_header.hpp"
#include "netlib/l2/frame_builder.hpp"

#include <gtest/gtest.h>

namespace {

using netlib::l2::decode_frame_header;
using netlib::l2::mac_address;

TEST(MacAddress, ParsesAndPrints) {
  auto m = mac_address::parse("AA:bb:0c:dd:ee:0F");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->to_string(), "aa:bb:0c:dd:ee:0f");
  EXPECT_EQ(fmt::format("{}", *m), "aa:bb:0c:dd:ee:0f");
  EXPECT_EQ(mac_address::parse("aa-bb-0c-dd-ee-0f"), m);
  EXPECT_FALSE(mac_address::parse("aa:bb:0c:dd:ee"));
  EXPECT_FALSE(mac_address::parse("aa:bb:0c:dd:ee:0g"));
  EXPECT_TRUE(mac_address::parse("01:00:5e:00:00:01")->is_multicast());
  EXPECT_TRUE(mac_address::broadcast().is_broadcast());
  EXPECT_EQ(netlib::l2::mac_from_u64(netlib::l2::to_u64(*m)), *m);
}

TEST(FrameHeader, UntaggedAndTagged) {
  const auto dst = *mac_address::parse("ff:ff:ff:ff:ff:ff");
  const auto src = *mac_address::parse("02:00:00:00:00:01");
  auto f = netlib::l2::build_arp_request(src, {10, 0, 0, 1}, {10, 0, 0, 2});
  auto h = decode_frame_header(f);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->dst, dst);
  EXPECT_EQ(h->src, src);
  EXPECT_EQ(h->ethertype, 0x0806);
  EXPECT_EQ(h->header_size, 14U);
  EXPECT_FALSE(h->tag);
  f = netlib::l2::build_arp_request(src, {10, 0, 0, 1}, {10, 0, 0, 2}, 4094);
  h = decode_frame_header(f);
  ASSERT_TRUE(h);
  ASSERT_TRUE(h->tag);
  EXPECT_EQ(h->tag->vid, 4094);
  EXPECT_EQ(h->ethertype, 0x0806);
  EXPECT_EQ(h->header_size, 18U);
}

TEST(FrameHeader, EveryTruncatedHeaderIsMalformed) {
  const auto src = *mac_address::parse("02:00:00:00:00:01");
  const auto tagged = netlib::l2::build_ethernet(mac_address::broadcast(), src, 0x0800, {}, 7);
  for (std::size_t n = 0; n < 18; ++n) {  // shorter than dst+src+tag+type
    EXPECT_FALSE(decode_frame_header(std::span(tagged).first(n))) << n;
  }
  EXPECT_TRUE(decode_frame_header(tagged));
  std::vector<std::byte> huge(netlib::l2::max_frame_size + 1);
  EXPECT_FALSE(decode_frame_header(huge));
}

TEST(FrameBuilder, ChecksumsVerify) {
  const auto f =
      netlib::l2::build_icmp_echo(*mac_address::parse("02:00:00:00:00:01"), *mac_address::parse("02:00:00:00:00:02"),
                                  {10, 0, 0, 1}, {10, 0, 0, 2}, 7, 1, false);
  ASSERT_EQ(f.size(), 14U + 20 + 8 + 32);
  EXPECT_EQ(netlib::l2::internet_checksum(std::span(f).subspan(14, 20)), 0);  // RFC 1071: sums to 0
  EXPECT_EQ(netlib::l2::internet_checksum(std::span(f).subspan(34)), 0);
}

}  // namespace
