#include "switch_scenario.hpp"

#include <gtest/gtest.h>

namespace learning_switch_test {  // named: unity batches share one translation unit

using namespace netlab::test;
using netlib::l2::drop_reason;
using netlib::l2::learned;
using netlib::l2::moved;

const mac_address A = mac("02:00:00:00:00:0a");
const mac_address B = mac("02:00:00:00:00:0b");
const mac_address C = mac("02:00:00:00:00:0c");

TEST(LearningSwitch, FiveStepsInOrder) {
  switch_scenario s(4);
  // (3) unknown unicast floods to every port but the ingress; (1) A is learned on port 0
  auto d = s.expect(0, frame(B, A), decision::flood, {1, 2, 3});
  ASSERT_EQ(d.events.size(), 1U);
  EXPECT_TRUE(std::holds_alternative<learned>(d.events[0]));
  // (5) B answers: A is known on port 0
  s.expect(1, frame(A, B), decision::forward, {0});
  s.expect(0, frame(B, A), decision::forward, {1});
  // (3) broadcast and multicast always flood
  s.expect(2, frame(mac_address::broadcast(), C), decision::flood, {0, 1, 3});
  s.expect(2, frame(mac("01:00:5e:00:00:01"), C), decision::flood, {0, 1, 3});
  // (4) C and a new station D share port 2: filtered
  const mac_address D = mac("02:00:00:00:00:0d");
  s.expect(2, frame(C, D), decision::filter, {});
  // (2) link-local destinations are dropped, but the source is still learned
  const mac_address E = mac("02:00:00:00:00:0e");
  d = s.expect(3, frame(mac("01:80:c2:00:00:00"), E), decision::drop, {});
  EXPECT_EQ(d.reason, drop_reason::link_local);
  s.expect(3, frame(mac("01:80:c2:00:00:0e"), E), decision::drop, {});
  s.expect(3, frame(mac("01:80:c2:00:00:10"), E), decision::flood, {0, 1, 2});  // outside the block
  s.expect(0, frame(E, A), decision::forward, {3});
}

TEST(LearningSwitch, FramesFromGroupOrZeroSourcesAreDroppedAndNotLearned) {
  // (0) as the Linux bridge (br_handle_frame: !is_valid_ether_addr(h_source) -> drop)
  switch_scenario s(3);
  auto d = s.expect(0, frame(B, mac("01:00:5e:00:00:01")), decision::drop, {});
  EXPECT_EQ(d.reason, drop_reason::invalid_source);
  d = s.expect(0, frame(B, mac("00:00:00:00:00:00")), decision::drop, {});
  EXPECT_EQ(d.reason, drop_reason::invalid_source);
  s.expect(0, frame(mac_address::broadcast(), mac("ff:ff:ff:ff:ff:ff")), decision::drop, {});
  EXPECT_EQ(s.sw().table().size(), 0U);
  EXPECT_EQ(s.sw().counters().decisions.drop_invalid_source, 3U);
  s.expect(1, frame(mac("01:00:5e:00:00:01"), B), decision::flood, {0, 2});  // a group destination still floods
}

TEST(LearningSwitch, MovedStationIsRelearned) {
  switch_scenario s(3);
  s.expect(0, frame(B, A), decision::flood, {1, 2});
  s.expect(1, frame(A, B), decision::forward, {0});
  auto d = s.expect(2, frame(B, A), decision::forward, {1});  // A moved to port 2
  ASSERT_EQ(d.events.size(), 1U);
  const auto* m = std::get_if<moved>(&d.events[0]);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->from, 0);
  EXPECT_EQ(m->to, 2);
  s.expect(1, frame(A, B), decision::forward, {2});
  EXPECT_EQ(s.sw().counters().events.moved, 1U);
}

TEST(LearningSwitch, HairpinPortSendsBackOutOfIngress) {
  switch_scenario s(3);
  s.sw().set_hairpin(1, true);
  s.expect(1, frame(B, A), decision::flood, {0, 1, 2});  // a hairpin port floods to itself too
  s.expect(1, frame(A, B), decision::forward, {1});      // not filtered: reflected
  s.expect(0, frame(A, C), decision::forward, {1});
  s.sw().set_hairpin(1, false);
  s.expect(1, frame(A, B), decision::filter, {});
}

TEST(LearningSwitch, PortDownFlushesItsEntriesAndTakesNoPart) {
  switch_scenario s(3);
  s.expect(0, frame(B, A), decision::flood, {1, 2});
  s.expect(1, frame(A, B), decision::forward, {0});
  s.sw().add_static(C, 0, 0);
  auto events = s.sw().set_port_up(0, false);
  EXPECT_EQ(count_events<netlib::l2::flushed>(events), 1);  // A only: C is static
  s.expect(1, frame(A, B), decision::flood, {2});           // A forgotten, port 0 excluded
  auto d = s.expect(0, frame(B, A), decision::drop, {});    // nothing comes in on a down port
  EXPECT_EQ(d.reason, drop_reason::port_down);
  d = s.expect(1, frame(C, B), decision::drop, {});  // the static entry points at a down port
  EXPECT_EQ(d.reason, drop_reason::port_down);
  s.sw().set_port_up(0, true);
  s.expect(1, frame(C, B), decision::forward, {0});
  s.expect(1, frame(A, B), decision::flood, {0, 2});
}

TEST(LearningSwitch, MalformedFramesAreCountedAndDropped) {
  switch_scenario s(2);
  std::vector<std::byte> runt(13, std::byte{0xff});
  auto d = s.expect(0, runt, decision::drop, {});
  EXPECT_EQ(d.reason, drop_reason::malformed);
  EXPECT_FALSE(d.header);
  std::vector<std::byte> cut_tag = frame(B, A, 5);
  cut_tag.resize(16);
  s.expect(0, cut_tag, decision::drop, {});
  EXPECT_EQ(s.sw().counters().decisions.drop_malformed, 2U);
  EXPECT_EQ(s.sw().table().size(), 0U);
  s.expect(0, frame(B, A), decision::flood, {1});
}

TEST(LearningSwitch, CountersPerPortAndPerDecision) {
  switch_scenario s(3);
  const auto f = frame(B, A);
  s.expect(0, f, decision::flood, {1, 2});
  s.expect(1, frame(A, B), decision::forward, {0});
  s.expect(1, frame(mac("01:80:c2:00:00:02"), B), decision::drop, {});
  s.expect(0, frame(A, mac("02:00:00:00:00:99")), decision::filter, {});
  const auto& c = s.sw().counters();
  EXPECT_EQ(c.decisions.flood, 1U);
  EXPECT_EQ(c.decisions.forward, 1U);
  EXPECT_EQ(c.decisions.drop, 1U);
  EXPECT_EQ(c.decisions.drop_link_local, 1U);
  EXPECT_EQ(c.decisions.filter, 1U);
  EXPECT_EQ(c.ports[0].rx_frames, 2U);
  EXPECT_EQ(c.ports[0].rx_filtered, 1U);
  EXPECT_EQ(c.ports[0].tx_frames, 1U);
  EXPECT_EQ(c.ports[1].rx_dropped, 1U);
  EXPECT_EQ(c.ports[2].tx_frames, 1U);
  EXPECT_EQ(c.ports[2].tx_bytes, f.size());
  EXPECT_EQ(c.events.learned, 3U);
}

TEST(LearningSwitch, MisuseIsALogicError) {
  switch_scenario s(2);
  EXPECT_THROW(s.sw().receive(2, frame(B, A), s.clock().now()), std::logic_error);
  EXPECT_THROW(s.sw().set_port_up(5, false), std::logic_error);
}

TEST(LearningSwitch, TimeNeverGoesBackwards) {
  switch_scenario s(2);
  s.after(100s);
  s.expect(0, frame(B, A), decision::flood, {1});
  s.sw().receive(1, frame(A, B), netlib::time_point{});  // an out-of-order capture timestamp
  EXPECT_EQ(s.sw().now(), s.clock().now());
  auto entries = s.sw().table().entries(s.sw().now());
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[1].age, netlib::duration::zero());
}

}  // namespace learning_switch_test
