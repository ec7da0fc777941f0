// VLAN-aware mode: access and trunk ports, one table per VLAN, flooding confined to the VLAN,
// tags added and removed at the edge.
#include "switch_scenario.hpp"

#include <gtest/gtest.h>

namespace vlan_test {  // named: unity batches share one translation unit

using namespace netlab::test;
using netlib::l2::egress_tagging;
using netlib::l2::port_config;
using netlib::l2::port_mode;

const mac_address A = mac("02:00:00:00:00:0a");
const mac_address B = mac("02:00:00:00:00:0b");
const mac_address C = mac("02:00:00:00:00:0c");

// ports 0,1: access VLAN 10; port 2: access VLAN 20; port 3: trunk 10,20; port 4: trunk 20 + native 30
switch_scenario vlan_switch() {
  auto config = switch_scenario::config_for(5);
  config.vlan_aware = true;
  std::vector<port_config> ports(5);
  ports[0].pvid = 10;
  ports[1].pvid = 10;
  ports[2].pvid = 20;
  ports[3].mode = port_mode::trunk;
  ports[3].allowed = {10, 20};
  ports[4].mode = port_mode::trunk;
  ports[4].allowed = {20};
  ports[4].native = 30;
  return switch_scenario(config, ports);
}

TEST(Vlan, FloodingIsConfinedToTheVlanWithTheRightTagging) {
  auto s = vlan_switch();
  auto d = s.expect(0, frame(mac_address::broadcast(), A), decision::flood, {1, 3});
  EXPECT_EQ(d.vlan, 10);
  EXPECT_EQ(d.out[0].tagging, egress_tagging::untagged);
  EXPECT_EQ(d.out[1].tagging, egress_tagging::tagged);
  EXPECT_EQ(d.out[1].vid, 10);
  d = s.expect(2, frame(mac_address::broadcast(), C), decision::flood, {3, 4});
  EXPECT_EQ(d.out[0].tagging, egress_tagging::tagged);
  EXPECT_EQ(d.out[1].tagging, egress_tagging::tagged);
  d = s.expect(4, frame(mac_address::broadcast(), B), decision::flood, {});  // native 30: alone
  EXPECT_EQ(d.vlan, 30);
}

TEST(Vlan, OneTablePerVlan) {
  auto s = vlan_switch();
  s.expect(0, frame(B, A), decision::flood, {1, 3});
  s.expect(3, frame(A, B, 10), decision::forward, {0});  // B learned on port 3 in VLAN 10
  // The same MAC in VLAN 20 is a different station as far as the table goes
  s.expect(2, frame(A, B), decision::flood, {3, 4});  // A unknown in VLAN 20; B learned in 20 on port 2
  s.expect(3, frame(B, A, 20), decision::forward, {2});
  s.expect(3, frame(B, A, 10), decision::filter, {});  // A moved in VLAN 10 only
  const auto entries = s.sw().table().entries(s.clock().now());
  ASSERT_EQ(entries.size(), 4U);
  EXPECT_EQ(entries[0].vlan, 10);
  EXPECT_EQ(entries[2].vlan, 20);
  EXPECT_EQ(s.sw().table().lookup(B, 10), 3);
  EXPECT_EQ(s.sw().table().lookup(B, 20), 2);
}

TEST(Vlan, IngressFiltering) {
  auto s = vlan_switch();
  auto d = s.expect(0, frame(B, A, 20), decision::drop, {});  // access 10 gets a VLAN 20 tag
  EXPECT_EQ(d.reason, netlib::l2::drop_reason::vlan);
  s.expect(0, frame(B, A, 10), decision::flood, {1, 3});  // its own VID is accepted
  s.expect(0, frame(B, A, 0), decision::flood, {1, 3});   // priority-tagged counts as untagged
  s.expect(3, frame(B, C), decision::drop, {});           // trunk without native: untagged dropped
  s.expect(3, frame(B, C, 30), decision::drop, {});       // VLAN not allowed on the trunk
  s.expect(4, frame(B, C, 30), decision::flood, {});      // the native VLAN, tagged, is accepted
  EXPECT_EQ(s.sw().counters().decisions.drop_vlan, 3U);
}

TEST(Vlan, TagsAreAddedAndRemovedAtTheEdge) {
  auto s = vlan_switch();
  const auto untagged = frame(mac_address::broadcast(), A);
  auto d = s.expect(0, untagged, decision::flood, {1, 3});
  const auto to_trunk = netlib::l2::egress_frame(untagged, *d.header, d.out[1]);
  EXPECT_EQ(to_trunk, frame(mac_address::broadcast(), A, 10));
  const auto to_access = netlib::l2::egress_frame(untagged, *d.header, d.out[0]);
  EXPECT_EQ(to_access, untagged);

  const auto tagged = frame(mac_address::broadcast(), C, 20);
  d = s.expect(3, tagged, decision::flood, {2, 4});
  EXPECT_EQ(netlib::l2::egress_frame(tagged, *d.header, d.out[0]), frame(mac_address::broadcast(), C));
  EXPECT_EQ(netlib::l2::egress_frame(tagged, *d.header, d.out[1]), tagged);
}

TEST(Vlan, NotAwareSwitchIgnoresTagsAndKeepsBytes) {
  switch_scenario s(3);
  auto d = s.expect(0, frame(B, A, 10), decision::flood, {1, 2});
  EXPECT_EQ(d.vlan, 10);  // reported, not used
  EXPECT_EQ(d.out[0].tagging, egress_tagging::as_received);
  s.expect(1, frame(A, B, 20), decision::forward, {0});
  EXPECT_EQ(s.sw().table().entries(s.clock().now())[0].vlan, 0);
}

TEST(EgressFrame, RewriteKeepsPriorityBits) {
  auto f = frame(B, A, 10);
  f[14] = std::byte{0xa0};  // PCP 5, DEI 0, VID 10
  const auto h = netlib::l2::decode_frame_header(f);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->tag->pcp, 5);
  const auto out = netlib::l2::egress_frame(f, *h, {1, egress_tagging::tagged, 20});
  const auto h2 = netlib::l2::decode_frame_header(out);
  ASSERT_TRUE(h2);
  EXPECT_EQ(h2->tag->pcp, 5);
  EXPECT_EQ(h2->tag->vid, 20);
  EXPECT_EQ(out.size(), f.size());
}

}  // namespace vlan_test
