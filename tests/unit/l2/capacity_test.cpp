// Table capacity and the full-table policies, including a MAC-flooding attack (macof style).
#include "switch_scenario.hpp"

#include <gtest/gtest.h>

namespace {

using namespace netlab::test;
using netlib::l2::evicted;
using netlib::l2::full_table_policy;
using netlib::l2::learn_refused;

mac_address attacker_mac(std::uint32_t i) {
  return netlib::l2::mac_from_u64(0x0a0000000000ULL | i);  // locally administered, unicast
}

TEST(Capacity, DefaultIs2048AndEvictFair) {
  switch_scenario s(2);
  EXPECT_EQ(s.sw().table().capacity(), 2048U);
  EXPECT_EQ(s.sw().config().policy, full_table_policy::evict_fair);
}

TEST(Capacity, EvictFairRemovesTheOldestEntryOfTheFullestPort) {
  auto config = switch_scenario::config_for(3);
  config.capacity = 4;
  switch_scenario s(config);
  const auto B = mac("02:00:00:00:00:0b");
  s.expect(1, frame(B, mac("02:00:00:00:00:01")), decision::flood, {0, 2});  // port 1: 1 entry
  for (std::uint32_t i = 0; i < 3; ++i) s.after(1s).expect(0, frame(B, attacker_mac(i)), decision::flood, {1, 2});
  // full: a new station on port 2 evicts port 0's oldest (attacker 0), not port 1's older entry
  auto d = s.after(1s).expect(2, frame(B, mac("02:00:00:00:00:02")), decision::flood, {0, 1});
  ASSERT_EQ(count_events<evicted>(d.events), 1);
  EXPECT_EQ(std::get<evicted>(d.events[0]).mac, attacker_mac(0));
  EXPECT_EQ(std::get<evicted>(d.events[0]).port, 0);
  EXPECT_EQ(s.sw().table().dynamic_size(), 4U);
  EXPECT_EQ(s.sw().table().dynamic_size(1), 1U);
}

TEST(Capacity, StopLearningKeepsTheTableAndRefuses) {
  auto config = switch_scenario::config_for(2);
  config.capacity = 2;
  config.policy = full_table_policy::stop_learning;
  switch_scenario s(config);
  const auto B = mac("02:00:00:00:00:0b");
  s.expect(0, frame(B, attacker_mac(1)), decision::flood, {1});
  s.expect(0, frame(B, attacker_mac(2)), decision::flood, {1});
  auto d = s.expect(1, frame(attacker_mac(1), B), decision::forward, {0});
  EXPECT_EQ(count_events<learn_refused>(d.events), 1);
  s.expect(0, frame(B, attacker_mac(1)), decision::flood, {1});  // B never learned: flooded
  EXPECT_EQ(s.sw().counters().events.learn_refused, 1U);
  // moving an existing entry needs no room
  d = s.expect(1, frame(B, attacker_mac(2)), decision::flood, {0});
  EXPECT_EQ(count_events<netlib::l2::moved>(d.events), 1);
}

// Hosts on ports 1..3 talk; port 0 sends frames from 100000 random source MACs. Under evict-fair
// the hosts' traffic stays unicast throughout; under stop-learning a host that arrives after the
// table filled is flooded (the attack succeeds).
int flooded_legit_frames(full_table_policy policy) {
  auto config = switch_scenario::config_for(4);
  config.policy = policy;
  netlib::l2::learning_switch sw(config);
  netlib::virtual_clock clock;
  const mac_address hosts[] = {mac("02:00:00:00:00:01"), mac("02:00:00:00:00:02"), mac("02:00:00:00:00:03")};
  const auto victim = mac("02:00:00:00:00:ff");
  int flooded = 0;
  std::uint32_t state = 12345;
  for (std::uint32_t i = 0; i < 100000; ++i) {
    clock.advance(1ms);
    state = state * 1103515245U + 12345U;
    sw.receive(0, frame(victim, attacker_mac(state & 0xffffffU)), clock.now());
    if (i % 100 != 0) continue;
    const std::size_t active = i < 50000 ? 2 : 3;               // host 3 joins once the table is full
    const std::size_t k = (i / 100) % (active * (active - 1));  // every ordered pair in turn
    const std::size_t from = k / (active - 1);
    const std::size_t to = (from + 1 + k % (active - 1)) % active;
    auto d = sw.receive(static_cast<port_id>(from + 1), frame(hosts[to], hosts[from]), clock.now());
    const bool warm = i > 1000 && (i < 50000 || i > 51000);  // after everyone has spoken once
    if (warm && d.kind != decision::forward) ++flooded;
  }
  EXPECT_LE(sw.table().dynamic_size(), 2048U);
  return flooded;
}

TEST(Capacity, MacFloodingLegitimateTrafficStaysUnicastUnderTheFairPolicy) {
  EXPECT_EQ(flooded_legit_frames(full_table_policy::evict_fair), 0);
}

TEST(Capacity, MacFloodingBeatsStopLearning) {
  EXPECT_GT(flooded_legit_frames(full_table_policy::stop_learning), 100);
}

}  // namespace
