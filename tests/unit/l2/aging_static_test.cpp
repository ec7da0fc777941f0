// Aging (default 300 s, 0 = never, refreshed by each frame from the source) and static entries.
#include "switch_scenario.hpp"

#include <gtest/gtest.h>

namespace aging_static_test {  // named: unity batches share one translation unit

using namespace netlab::test;
using netlib::l2::aged;

const mac_address A = mac("02:00:00:00:00:0a");
const mac_address B = mac("02:00:00:00:00:0b");

TEST(Aging, EntryAgesAfterThreeHundredSecondsByDefault) {
  switch_scenario s(3);
  EXPECT_EQ(s.sw().table().aging(), 300s);
  s.expect(0, frame(B, A), decision::flood, {1, 2});
  s.after(299s).expect(1, frame(A, B), decision::forward, {0});
  auto events = s.after(1s).sw().tick(s.clock().now());
  ASSERT_EQ(events.size(), 1U);
  const auto* a = std::get_if<aged>(&events[0]);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->mac, A);
  EXPECT_EQ(a->port, 0);
  s.expect(1, frame(A, B), decision::flood, {0, 2});
}

TEST(Aging, EachFrameFromTheSourceRefreshesIt) {
  switch_scenario s(2);
  s.expect(0, frame(B, A), decision::flood, {1});
  for (int i = 0; i < 5; ++i) s.after(200s).expect(0, frame(B, A), decision::flood, {1});
  s.after(299s).expect(1, frame(A, B), decision::forward, {0});  // 1000 s after first sight, still known
  // A was last seen 300 s ago at the next frame: it ages first, so that frame floods; B does not
  auto d = s.after(1s).expect(1, frame(A, B), decision::flood, {0});
  ASSERT_EQ(count_events<aged>(d.events), 1);
  EXPECT_EQ(std::get<aged>(d.events[0]).mac, A);
  EXPECT_EQ(d.events.size(), 1U);  // B refreshed, not learned again
}

TEST(Aging, ZeroMeansNever) {
  auto config = switch_scenario::config_for(2);
  config.aging = 0s;
  switch_scenario s(config);
  s.expect(0, frame(B, A), decision::flood, {1});
  s.after(std::chrono::hours(24 * 365)).expect(1, frame(A, B), decision::forward, {0});
  EXPECT_EQ(s.sw().counters().events.aged, 0U);
}

TEST(Aging, ConfigurableAgingTimeAndReportedAge) {
  auto config = switch_scenario::config_for(2);
  config.aging = 10s;
  switch_scenario s(config);
  s.expect(0, frame(B, A), decision::flood, {1});
  s.after(4s).expect(1, frame(A, B), decision::forward, {0});
  auto entries = s.sw().table().entries(s.clock().now());
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[0].mac, A);
  EXPECT_EQ(entries[0].age, 4s);
  EXPECT_EQ(entries[1].age, 0s);
  s.after(6s).expect(1, frame(A, B), decision::flood, {0});
}

TEST(StaticEntries, NeverAgedNeverOverwritten) {
  auto config = switch_scenario::config_for(3);
  config.aging = 10s;
  switch_scenario s(config);
  s.sw().add_static(A, 0, 2);
  s.expect(1, frame(A, B), decision::forward, {2});
  // A speaks from port 0: the static entry does not move
  auto d = s.expect(0, frame(B, A), decision::forward, {1});
  EXPECT_TRUE(d.events.empty());
  s.after(1000s).expect(1, frame(A, B), decision::forward, {2});
  auto entries = s.sw().table().entries(s.clock().now());
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_TRUE(entries[0].is_static);
  EXPECT_EQ(entries[0].port, 2);
  EXPECT_EQ(entries[0].age, 0s);
}

TEST(StaticEntries, ReplaceADynamicEntryAndDoNotCountAgainstCapacity) {
  auto config = switch_scenario::config_for(3);
  config.capacity = 1;
  switch_scenario s(config);
  s.expect(0, frame(B, A), decision::flood, {1, 2});
  s.sw().add_static(A, 0, 1);
  EXPECT_EQ(s.sw().table().dynamic_size(), 0U);
  s.expect(2, frame(A, B), decision::forward, {1});
  EXPECT_EQ(s.sw().table().dynamic_size(), 1U);
  EXPECT_EQ(s.sw().table().size(), 2U);
}

}  // namespace aging_static_test

namespace aging_static_test {  // named: unity batches share one translation unit

TEST(Aging, NextExpiryTellsWhenTheOldestEntryAges) {
  auto config = netlab::test::switch_scenario::config_for(2);
  config.aging = 10s;
  netlab::test::switch_scenario s(config);
  EXPECT_FALSE(s.sw().table().next_expiry());
  s.expect(0, netlab::test::frame(B, A), decision::flood, {1});
  const auto t0 = s.clock().now();
  s.after(3s).expect(1, netlab::test::frame(A, B), decision::forward, {0});
  EXPECT_EQ(s.sw().table().next_expiry(), t0 + 10s);
  EXPECT_EQ(s.sw().tick(t0 + 10s).size(), 1U);
  EXPECT_EQ(s.sw().table().next_expiry(), t0 + 13s);
}

}  // namespace aging_static_test
