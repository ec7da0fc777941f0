// Ethernet II, 802.3 and stacked 802.1Q decoding on hand-made frames, with every truncation.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <unordered_set>

#include "netlib/packet/ethernet.hpp"

namespace {

using namespace netlib::packet;

std::vector<std::byte> bytes_of(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int b : v) out.push_back(std::byte(b));
  return out;
}

TEST(MacAddress, ParseFormatAndFlags) {
  auto m = mac_address::parse("AA:bb:0C:dd:ee:01");
  ASSERT_TRUE(m);
  EXPECT_EQ(fmt::format("{}", *m), "aa:bb:0c:dd:ee:01");
  EXPECT_EQ(mac_address::parse("aa-bb-0c-dd-ee-01"), m);
  EXPECT_FALSE(mac_address::parse("aa:bb:0c:dd:ee"));
  EXPECT_FALSE(mac_address::parse("aa:bb:0c:dd:ee:0g"));
  EXPECT_FALSE(mac_address::parse("aa:bb:0c:dd:ee:011"));
  EXPECT_TRUE(mac_address::broadcast().is_broadcast());
  EXPECT_TRUE(mac_address::broadcast().is_multicast());
  EXPECT_TRUE(mac_address::parse("01:00:5e:00:00:01")->is_multicast());
  EXPECT_FALSE(m->is_multicast());
  std::unordered_set<mac_address> set{*m, mac_address::broadcast(), *m};
  EXPECT_EQ(set.size(), 2u);
}

TEST(Ethernet, DecodesUntaggedFrame) {
  const auto f =
      bytes_of({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x08, 0x06, 0xde, 0xad});
  auto d = decode_ethernet(f);
  ASSERT_TRUE(d) << d.error().message();
  EXPECT_TRUE(d->dst.is_broadcast());
  EXPECT_EQ(d->src.to_string(), "00:11:22:33:44:55");
  EXPECT_EQ(d->ethertype, ethertype::arp);
  EXPECT_TRUE(d->tags.empty());
  EXPECT_EQ(d->header_length, 14u);
  EXPECT_EQ(d->payload.size(), 2u);
}

TEST(Ethernet, DecodesStackedVlanTagsAndEveryTruncation) {
  const auto f =
      bytes_of({1,    2,    3,    4,    5, 6, 7, 8, 9, 10, 11, 12, 0x88, 0xa8, 0x20, 0x64,  // S-tag pcp 1 vid 100
                0x81, 0x00, 0xb0, 0x0a,                                                     // C-tag pcp 5 dei vid 10
                0x86, 0xdd, 0x60});
  auto d = decode_ethernet(f);
  ASSERT_TRUE(d);
  ASSERT_EQ(d->tags.size(), 2u);
  EXPECT_EQ(d->tags[0], (vlan_tag{ethertype::qinq, 1, false, 100}));
  EXPECT_EQ(d->tags[1], (vlan_tag{ethertype::vlan, 5, true, 10}));
  EXPECT_EQ(d->ethertype, ethertype::ipv6);
  EXPECT_EQ(d->header_length, 22u);
  EXPECT_EQ(d->payload.size(), 1u);
  for (std::size_t k = 0; k < 22; ++k) {
    auto t = decode_ethernet(netlib::byte_view(f).first(k));
    ASSERT_FALSE(t) << k;
    EXPECT_EQ(t.error().message(), k < 14 ? "ethernet: truncated header" : "ethernet: truncated vlan tag");
  }
  EXPECT_TRUE(decode_ethernet(netlib::byte_view(f).first(22)));
}

TEST(Ethernet, RejectsTooManyTagsAndTrims8023Padding) {
  std::vector<std::byte> f = bytes_of({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  for (int i = 0; i < 5; ++i) {
    auto tag = bytes_of({0x81, 0x00, 0x00, 0x01});
    f.insert(f.end(), tag.begin(), tag.end());
  }
  f.push_back(std::byte{0x08});
  f.push_back(std::byte{0x00});
  EXPECT_EQ(decode_ethernet(f).error().reason, "too many vlan tags");
  auto llc = bytes_of({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x00, 0x03, 0x42, 0x42, 0x03, 0, 0, 0});
  auto d = decode_ethernet(llc);
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->is_802_3());
  EXPECT_EQ(d->payload.size(), 3u);
}

TEST(Ethernet, EncodeRoundTripsAndPads) {
  ethernet_frame h;
  h.dst = *mac_address::parse("02:00:00:00:00:02");
  h.src = *mac_address::parse("02:00:00:00:00:01");
  h.tags.push_back({ethertype::vlan, 3, false, 42});
  h.ethertype = ethertype::ipv4;
  const auto payload = bytes_of({0x45, 0x00});
  const auto frame = encode_ethernet(h, payload);
  EXPECT_EQ(frame.size(), 60u);
  auto d = decode_ethernet(frame);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->dst, h.dst);
  EXPECT_EQ(d->src, h.src);
  EXPECT_EQ(d->tags, h.tags);
  EXPECT_EQ(d->ethertype, ethertype::ipv4);
  EXPECT_EQ(static_cast<int>(d->payload[0]), 0x45);
}

}  // namespace
