// Max-min fair sharing and flow completion times, against allocations and times worked out by
// hand (each case says how), and against the definition of max-min fairness on random networks:
// every flow crosses a full arc on which no flow has a higher rate (Bertsekas and Gallager's
// bottleneck condition), and no arc carries more than its capacity.
#include "netlib/dc/fair_share.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "netlib/calc/prng.hpp"
#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/loads.hpp"
#include "netlib/dc/routes.hpp"

namespace fair_share_test {

using namespace netlib::dc;

path_list paths(std::initializer_list<std::initializer_list<arc_id>> ps) {
  path_list out;
  for (const auto& p : ps) out.add(std::vector<arc_id>(p));
  return out;
}

TEST(DcFairShare, one_link_is_split_evenly) {
  const std::vector<double> cap{10};
  const auto r = max_min_rates(cap, paths({{0}, {0}}));
  EXPECT_DOUBLE_EQ(r[0], 5);
  EXPECT_DOUBLE_EQ(r[1], 5);
}

TEST(DcFairShare, a_flow_limited_elsewhere_leaves_its_share_to_the_others) {
  // Arc 0 (10) carries x and y, arc 1 (4) carries y and z. Filling: arc 1 is full first at 2 per
  // flow (4/2 < 10/2), so y = z = 2; x grows alone on arc 0 to 10 - 2 = 8.
  const std::vector<double> cap{10, 4};
  const auto r = max_min_rates(cap, paths({{0}, {0, 1}, {1}}));
  EXPECT_DOUBLE_EQ(r[0], 8);
  EXPECT_DOUBLE_EQ(r[1], 2);
  EXPECT_DOUBLE_EQ(r[2], 2);
}

TEST(DcFairShare, bertsekas_gallager_example) {
  // Four arcs of capacity 1 in a line, flows over (0 1 2), (0), (1), (2 3), (3) ... a
  // classic: arc 0 has 2 flows, arc 1 has 2, arc 2 has 2, arc 3 has 2, all full at 1/2.
  const std::vector<double> cap{1, 1, 1, 1};
  const auto r = max_min_rates(cap, paths({{0, 1, 2}, {0}, {1}, {2, 3}, {3}}));
  for (double v : r) EXPECT_DOUBLE_EQ(v, 0.5);
  // With arc 3 at capacity 3, flow (2 3) is held by arc 2 at 1/2 and flow (3) takes 3 - 1/2.
  const std::vector<double> cap2{1, 1, 1, 3};
  const auto r2 = max_min_rates(cap2, paths({{0, 1, 2}, {0}, {1}, {2, 3}, {3}}));
  EXPECT_DOUBLE_EQ(r2[3], 0.5);
  EXPECT_DOUBLE_EQ(r2[4], 2.5);
}

TEST(DcFairShare, strict_priority_fills_the_higher_level_first) {
  // p (level 0) and q (level 1) on arc 0 of 10: p takes it all. With p also held to 4 by arc 1,
  // q gets the 6 left.
  const std::vector<double> cap{10, 4, 100};
  const std::vector<std::uint32_t> level{0, 1};
  auto r = max_min_rates(cap, paths({{0}, {0}}), level);
  EXPECT_DOUBLE_EQ(r[0], 10);
  EXPECT_DOUBLE_EQ(r[1], 0);
  r = max_min_rates(cap, paths({{0, 1}, {0, 2}}), level);
  EXPECT_DOUBLE_EQ(r[0], 4);
  EXPECT_DOUBLE_EQ(r[1], 6);
}

TEST(DcFairShare, empty_paths_inactive_flows_and_bad_input) {
  const std::vector<double> cap{10};
  const std::vector<char> active{1, 0, 1};
  const auto r = max_min_rates(cap, paths({{0}, {0}, {}}), {}, active);
  EXPECT_DOUBLE_EQ(r[0], 10);
  EXPECT_DOUBLE_EQ(r[1], 0);
  EXPECT_EQ(r[2], unlimited_rate);
  EXPECT_THROW(max_min_rates(cap, paths({{1}})), std::invalid_argument);
  const std::vector<double> zero{0};
  EXPECT_THROW(max_min_rates(zero, paths({{0}})), std::invalid_argument);
}

TEST(DcFairShare, random_networks_meet_the_bottleneck_condition) {
  netlib::calc::prng g(7);
  for (int round = 0; round < 200; ++round) {
    const auto arcs = static_cast<std::size_t>(g.between(1, 12));
    std::vector<double> cap(arcs);
    for (auto& c : cap) c = static_cast<double>(g.between(1, 20));
    path_list ps;
    const auto flows = static_cast<std::size_t>(g.between(1, 25));
    for (std::size_t f = 0; f < flows; ++f) {
      std::vector<arc_id> p;
      for (arc_id a = 0; a < arcs; ++a) {
        if (g.chance(0.3)) p.push_back(a);
      }
      if (p.empty()) p.push_back(static_cast<arc_id>(g.between(0, static_cast<long long>(arcs) - 1)));
      ps.add(p);
    }
    const auto r = max_min_rates(cap, ps);
    std::vector<double> load(arcs, 0), top(arcs, 0);
    for (std::size_t f = 0; f < flows; ++f) {
      for (arc_id a : ps[f]) {
        load[a] += r[f];
        top[a] = std::max(top[a], r[f]);
      }
    }
    for (arc_id a = 0; a < arcs; ++a) EXPECT_LE(load[a], cap[a] * (1 + 1e-9));
    for (std::size_t f = 0; f < flows; ++f) {
      bool bottleneck = false;
      for (arc_id a : ps[f]) bottleneck = bottleneck || (load[a] >= cap[a] * (1 - 1e-9) && r[f] >= top[a] * (1 - 1e-9));
      EXPECT_TRUE(bottleneck) << "round " << round << " flow " << f;
    }
  }
}

TEST(DcFairShare, completion_times_by_hand) {
  // 8 Mbit/s = 1 MB/s. 1 MB and 2 MB together on one link: 0.5 MB/s each; the first ends at 2 s
  // with 1 MB of the second left, which then goes alone at 1 MB/s: 3 s.
  const std::vector<double> cap{8e6};
  auto t = completion_times(cap, paths({{0}, {0}}), std::vector<sized_flow>{{1e6, 0, 0}, {2e6, 0, 0}});
  EXPECT_NEAR(t[0], 2, 1e-9);
  EXPECT_NEAR(t[1], 3, 1e-9);
  // 2 MB from 0 s, 1 MB from 1 s: the first alone for 1 s (1 MB left), then both at 0.5 MB/s:
  // both end at 3 s.
  t = completion_times(cap, paths({{0}, {0}}), std::vector<sized_flow>{{2e6, 0, 0}, {1e6, 1, 0}});
  EXPECT_NEAR(t[0], 3, 1e-9);
  EXPECT_NEAR(t[1], 3, 1e-9);
  // Priority: the level-1 flow waits for the level-0 flow: 1 s, then 2 s alone: 3 s.
  t = completion_times(cap, paths({{0}, {0}}), std::vector<sized_flow>{{1e6, 0, 0}, {2e6, 0, 1}});
  EXPECT_NEAR(t[0], 1, 1e-9);
  EXPECT_NEAR(t[1], 3, 1e-9);
  // No bytes, or no link: done when it starts.
  t = completion_times(cap, paths({{0}, {}}), std::vector<sized_flow>{{0, 0.5, 0}, {5e6, 0.25, 0}});
  EXPECT_DOUBLE_EQ(t[0], 0.5);
  EXPECT_DOUBLE_EQ(t[1], 0.25);
}

TEST(DcFairShare, two_elephants_on_one_uplink_take_twice_as_long) {
  // leaf-spine 2 leaves x 1 spine, 2 hosts per leaf, 10 Gbps: h1 -> h3 and h2 -> h4 share the
  // one uplink of leaf1; each alone takes 8e8 bits / 1e10 = 0.08 s, together 0.16 s.
  const auto t = leaf_spine(2, 1, 2, 10e9, 10e9);
  const routes r(t);
  hash_config cfg;
  const ecmp_model model(t, r, cfg);
  const auto h = [&](const char* n) { return *t.find(n); };
  const auto path_of = [&](node_id a, node_id b) {
    std::vector<arc_id> p(model.max_path());
    flow f;
    f.src = a;
    f.dst = b;
    p.resize(model.route(f, p));
    return p;
  };
  path_list one, two;
  one.add(path_of(h("h1"), h("h3")));
  two.add(path_of(h("h1"), h("h3")));
  two.add(path_of(h("h2"), h("h4")));
  const auto cap = arc_capacities(t);
  const auto alone = completion_times(cap, one, std::vector<sized_flow>{{100e6}});
  const auto shared = completion_times(cap, two, std::vector<sized_flow>{{100e6}, {100e6}});
  EXPECT_NEAR(alone[0], 0.08, 1e-12);
  EXPECT_NEAR(shared[0], 0.16, 1e-12);
  EXPECT_NEAR(shared[1], 0.16, 1e-12);
  EXPECT_NEAR(arc_capacities(t, 0.01)[0], 1e8, 1e-3);
}

TEST(DcFairShare, the_fluid_network_reports_each_completion_once) {
  fluid_network net({8e6, 8e6});
  const std::vector<arc_id> a{0}, b{0, 1}, none{};
  const auto f0 = net.start(a, 1e6);
  const auto f1 = net.start(b, 1e6);
  const auto f2 = net.start(none, 1e6);
  EXPECT_EQ(net.active(), 2u);
  EXPECT_DOUBLE_EQ(net.rate_bps(f0), 4e6);
  EXPECT_DOUBLE_EQ(net.next_completion(), 0);  // f2, which crosses nothing
  EXPECT_EQ(net.advance_to(0), std::vector<std::size_t>{f2});
  EXPECT_NEAR(net.next_completion(), 2, 1e-12);
  const auto done = net.advance_to(net.next_completion());
  EXPECT_EQ(done, (std::vector<std::size_t>{f0, f1}));
  EXPECT_EQ(net.active(), 0u);
  EXPECT_TRUE(net.advance_to(3).empty());
  EXPECT_THROW(net.advance_to(1), std::invalid_argument);
  EXPECT_NEAR(net.finish_time(f1), 2, 1e-12);
  EXPECT_DOUBLE_EQ(net.sent_bytes(f1), 1e6);
}

// A flow whose sending time is below half an ulp of the clock: now + time rounds to now, so
// advance_to(next_completion()) moves no time and sends nothing. It must still end there, or a
// caller that steps from completion to completion never moves on. Found by the fuzz target
// dc_collective: a ring all-reduce of a 19-byte buffer (2.4 bytes per flow) at 80 ms left flows
// with about 1e-8 bytes from the clock's rounding, which took 1e-18 s, and never ended. Here the
// same at a clock of 1000 s (ulp 1.1e-13 s) with 1e-5 bytes (8e-15 s at 10 Gbit/s).
TEST(DcFairShare, a_flow_shorter_than_the_clocks_resolution_still_ends) {
  fluid_network net({10e9});
  EXPECT_TRUE(net.advance_to(1000).empty());
  const std::vector<arc_id> a{0};
  const auto f = net.start(a, 1e-5);
  const double end = net.next_completion();
  EXPECT_EQ(end, 1000.0);
  EXPECT_EQ(net.advance_to(end), std::vector<std::size_t>{f});
  EXPECT_EQ(net.active(), 0u);
  EXPECT_EQ(net.finish_time(f), 1000.0);
}

}  // namespace fair_share_test
