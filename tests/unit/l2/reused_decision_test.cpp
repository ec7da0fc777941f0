// receive() into a reused forwarding_decision (what lab-switch replay does, to avoid allocating per
// frame) decides exactly like receive() returning a fresh decision: same kind, reason, VLAN,
// outputs and events, frame after frame, with learning, moves, aging, eviction, tagged, S-tagged,
// link-local and malformed frames in the mix, VLAN-aware and not.
#include "netlib/l2/frame_builder.hpp"
#include "netlib/l2/learning_switch.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace {

namespace l2 = netlib::l2;
using l2::mac_address;

std::string describe(const l2::forwarding_decision& d) {
  std::string s = fmt::format("{}/{}", l2::to_string(d.kind), l2::to_string(d.reason));
  if (d.header) s += fmt::format(" {}>{}", d.header->src, d.header->dst);
  if (d.malformed) s += fmt::format(" malformed:{}", d.malformed->message());
  if (d.vlan) s += fmt::format(" vlan {}", *d.vlan);
  for (const auto& e : d.out) s += fmt::format(" out {}:{}", e.port, static_cast<int>(e.tagging));
  for (const auto& e : d.events) s += fmt::format(" {}", l2::event_name(e));
  return s;
}

std::vector<std::vector<std::byte>> frames() {
  std::vector<std::vector<std::byte>> out;
  for (std::uint8_t n = 0; n < 200; ++n) {
    const mac_address src{{2, 0, 0, 0, 0, static_cast<std::uint8_t>(n % 23)}};
    const auto vlan = n % 5 == 1   ? std::optional<std::uint16_t>(10)
                      : n % 5 == 2 ? std::optional<std::uint16_t>(0)
                                   : std::nullopt;
    auto f = l2::build_arp_request(src, {10, 0, 0, 1}, {10, 0, 0, 2}, vlan);
    if (n % 3 == 0) {  // unicast to a host seen before
      f[0] = std::byte{2}, f[1] = f[2] = f[3] = f[4] = std::byte{0}, f[5] = std::byte(n % 19);
    }
    if (n % 17 == 0) f[12] = std::byte{0x88}, f[13] = std::byte{0xa8};  // an S-tag TPID
    if (n % 29 == 0)
      f[0] = std::byte{0x01}, f[1] = std::byte{0x80}, f[2] = std::byte{0xc2},
      f[3] = f[4] = f[5] = std::byte{0};  // link-local
    if (n % 31 == 0) f.resize(n % 14);    // malformed
    out.push_back(std::move(f));
  }
  return out;
}

void same_decisions(const l2::switch_config& config, std::vector<l2::port_config> ports) {
  l2::learning_switch fresh(config, ports);
  l2::learning_switch reused(config, ports);
  l2::forwarding_decision d;
  const auto fs = frames();
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const auto port = static_cast<l2::port_id>((i * 7) % config.port_count);
    const auto now = netlib::from_nanoseconds(static_cast<std::int64_t>(i) * 400'000'000);  // aging at 10 s
    const auto want = fresh.receive(port, fs[i], now);
    reused.receive(port, fs[i], now, d);
    ASSERT_EQ(describe(d), describe(want)) << "frame " << i;
  }
  EXPECT_EQ(reused.table().size(), fresh.table().size());
  EXPECT_EQ(reused.counters().decisions.forward, fresh.counters().decisions.forward);
  EXPECT_GT(fresh.counters().decisions.forward, 0u);
  EXPECT_GT(fresh.counters().decisions.drop, 0u);
}

TEST(ReusedDecision, DecidesLikeAFreshDecision) {
  same_decisions({.port_count = 4, .aging = std::chrono::seconds(10), .capacity = 12}, {});
}

TEST(ReusedDecision, DecidesLikeAFreshDecisionWhenVlanAware) {
  l2::port_config trunk;
  trunk.mode = l2::port_mode::trunk;
  trunk.allowed = {10};
  trunk.native = 1;
  l2::switch_config config{.port_count = 4, .aging = std::chrono::seconds(10), .capacity = 12};
  config.vlan_aware = true;
  same_decisions(config, {l2::port_config{}, trunk, l2::port_config{}, trunk});
}

}  // namespace
