// ECMP placement: paths are well formed and follow the hash; per-link bytes add up; and
// polarization comes out as the arithmetic says it must (same seed: each aggregation switch of a
// k=4 fat-tree uses exactly one of its two core uplinks; per-switch SipHash or Toeplitz seeds: all
// of them).
#include "netlib/dc/ecmp.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "netlib/dc/loads.hpp"
#include "netlib/dc/traffic.hpp"

namespace ecmp_test {

using namespace netlib::dc;

std::vector<flow> uniform_flows(const topology& t, std::size_t n, std::uint64_t seed = 1) {
  traffic_config c;
  c.flows = n;
  c.seed = seed;
  c.size_bytes = 1000;
  return generate_flows(t, c);
}

TEST(DcEcmp, paths_are_connected_shortest_and_hash_driven) {
  const auto t = fat_tree(4, 2, 10e9, 10e9);
  const routes r(t);
  for (auto name : {"crc16", "crc32", "xor", "toeplitz", "linux"}) {
    for (auto seeds : {seed_mode::same, seed_mode::per_switch}) {
      auto cfg = *parse_hash(name);
      cfg.seeds = seeds;
      cfg.seed = 42;
      const ecmp_model m(t, r, cfg);
      std::vector<arc_id> path(m.max_path());
      for (const auto& f : uniform_flows(t, 300)) {
        const auto n = m.route(f, path);
        ASSERT_GE(n, 2u);
        EXPECT_EQ(path[0], t.host_uplink(f.src));
        EXPECT_EQ(path[n - 1], t.host_uplink(f.dst) ^ 1u);
        for (std::size_t i = 1; i < n; ++i) ASSERT_EQ(t.arc_from(path[i]), t.arc_to(path[i - 1]));
        const node_id s = t.attachment(f.src), d = t.attachment(f.dst);
        EXPECT_EQ(n, 2 + (s == d ? 0 : r.distance(s, d)));
        // Each switch's choice is its hash's pick among its next hops.
        for (std::size_t i = 1; i + 1 < n; ++i) {
          const node_id v = t.arc_from(path[i]);
          const auto hops = r.next_hops(v, d);
          EXPECT_EQ(path[i], hops[m.select(m.hash(f.key, v), hops.size())]);
        }
      }
    }
  }
}

TEST(DcEcmp, per_switch_seeds_differ_and_are_never_zero) {
  std::set<std::uint32_t> seen;
  for (node_id v = 0; v < 1000; ++v) {
    const auto s = per_switch_seed(7, v);
    EXPECT_NE(s, 0u);
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_NE(per_switch_seed(7, 3), per_switch_seed(8, 3));
}

TEST(DcEcmp, bytes_add_up_along_paths) {
  const auto t = leaf_spine(4, 2, 2, 10e9, 10e9);
  const routes r(t);
  const ecmp_model m(t, r, *parse_hash("crc32"));
  const auto flows = uniform_flows(t, 500);
  const auto p = place_flows(m, flows, true);
  EXPECT_EQ(p.placed, flows.size());
  // Every byte leaves a host once and reaches one once.
  double up = 0, down = 0, total = 0;
  for (const auto& f : flows) total += f.bytes;
  for (node_id h : t.hosts()) {
    up += p.arc_bytes[t.host_uplink(h)];
    down += p.arc_bytes[t.host_uplink(h) ^ 1u];
  }
  EXPECT_EQ(up, total);
  EXPECT_EQ(down, total);
  // Flows between leaves cross exactly one leaf uplink and one spine downlink.
  double fabric = 0;
  for (arc_id a = 0; a < t.arc_count(); ++a) {
    if (!t.is_host(t.arc_from(a)) && !t.is_host(t.arc_to(a))) fabric += p.arc_bytes[a];
  }
  double crossing = 0;
  for (const auto& f : flows) crossing += t.attachment(f.src) != t.attachment(f.dst) ? 2 * f.bytes : 0;
  EXPECT_EQ(fabric, crossing);
  ASSERT_EQ(p.path_begin.size(), flows.size() + 1);
}

TEST(DcEcmp, the_same_seed_polarizes_the_second_tier) {
  const auto t = fat_tree(4, 2, 10e9, 10e9);
  const routes r(t);
  const auto flows = uniform_flows(t, 2000);
  const auto share = [&](const char* hash, seed_mode seeds) {
    auto cfg = *parse_hash(hash);
    cfg.seeds = seeds;
    cfg.seed = 11;
    const ecmp_model m(t, r, cfg);
    const auto p = place_flows(m, flows, false);
    const auto s = summarize_loads(t, p.arc_bytes, 1.0);
    EXPECT_EQ(s.tiers.size(), 3u);
    EXPECT_EQ(s.tiers[2].uplinks, 16u);  // 8 aggregation switches x 2 core uplinks
    EXPECT_EQ(s.tiers[1].unused_uplinks, 0u) << hash;
    return s.tiers[2].unused_uplink_share();
  };
  // Same hash, same seed, two next hops at both tiers: an aggregation switch only ever receives
  // flows whose hash picked it, and picks with the same bit again.
  for (auto h : {"crc16", "crc32", "xor", "toeplitz", "linux"}) EXPECT_EQ(share(h, seed_mode::same), 0.5) << h;
  EXPECT_EQ(share("linux", seed_mode::per_switch), 0.0);
  EXPECT_EQ(share("toeplitz", seed_mode::per_switch), 0.0);
  // A CRC is affine: a per-switch seed flips the choice for all flows from one edge switch alike,
  // so an aggregation switch uses its second uplink only if its two edge switches' seeds differ
  // in that bit.
  const double crc = share("crc16", seed_mode::per_switch);
  EXPECT_LT(crc, 0.5);
  EXPECT_GT(crc, 0.0);
}

TEST(DcEcmp, different_fields_per_tier) {
  const auto t = fat_tree(4, 2, 10e9, 10e9);
  const routes r(t);
  auto cfg = *parse_hash("crc16");
  cfg.tier_fields = {field_set::five, field_set::five, field_set::three};
  const ecmp_model m(t, r, cfg);
  EXPECT_EQ(m.fields_of(*t.find("agg1-1")), field_set::three);
  EXPECT_EQ(m.fields_of(*t.find("edge1-1")), field_set::five);
}

TEST(DcEcmp, jain_and_tiers_by_hand) {
  EXPECT_DOUBLE_EQ(jain_index(std::vector<double>{1, 1, 1, 1}), 1.0);
  EXPECT_DOUBLE_EQ(jain_index(std::vector<double>{4, 0, 0, 0}), 0.25);
  EXPECT_DOUBLE_EQ(jain_index(std::vector<double>{1, 3}), 16.0 / 20.0);
  EXPECT_DOUBLE_EQ(jain_index(std::vector<double>{}), 1.0);
  // One flow of 1 MB from h1 to h3 in a 2x2 leaf-spine over a 1 s window: 8 Mbit/s on four arcs.
  const auto t = leaf_spine(2, 2, 2, 10e6, 20e6);
  const routes r(t);
  const ecmp_model m(t, r, *parse_hash("crc16"));
  flow f;
  f.src = *t.find("h1");
  f.dst = *t.find("h3");
  f.key = {host_address(0), host_address(2), 6, 40000, 5001};
  f.bytes = 1e6;
  const auto p = place_flows(m, std::vector<flow>{f}, false);
  const auto s = summarize_loads(t, p.arc_bytes, 1.0);
  EXPECT_DOUBLE_EQ(s.mlu, 0.8);  // the 10 Mbps host links
  EXPECT_EQ(t.arc_name(s.busiest), "h1->leaf1");
  EXPECT_EQ(s.tiers[1].uplinks, 4u);
  EXPECT_EQ(s.tiers[1].unused_uplinks, 3u);
  EXPECT_DOUBLE_EQ(s.tiers[1].uplink_jain, 0.25);
  EXPECT_DOUBLE_EQ(s.tiers[1].max_utilisation, 0.4);
}

}  // namespace ecmp_test
