// --fail's link names, routes without failed links, and the flows a failure moves under each
// next-hop group hashing.
#include <gtest/gtest.h>

#include "netlib/dc/failure.hpp"
#include "netlib/dc/routes.hpp"
#include "netlib/dc/traffic.hpp"

namespace netlib::dc {
namespace {

TEST(Failure, LinkNamesAreTheTwoEndsInEitherOrder) {
  const auto t = leaf_spine(4, 2, 1, 10e9, 10e9);
  const auto l = parse_link_name(t, "leaf1-spine2");
  ASSERT_TRUE(l);
  EXPECT_EQ(t.nodes()[t.links()[*l].a].name, "leaf1");
  EXPECT_EQ(t.nodes()[t.links()[*l].b].name, "spine2");
  EXPECT_EQ(parse_link_name(t, "spine2-leaf1"), l);
  EXPECT_EQ(parse_link_name(t, "leaf1--spine2"), l);
  EXPECT_FALSE(parse_link_name(t, "leaf1-spine3"));
  EXPECT_FALSE(parse_link_name(t, "leaf1-leaf2"));  // both exist, no link between them
  EXPECT_FALSE(parse_link_name(t, "leaf1"));
  EXPECT_FALSE(parse_link_name(t, "-"));
  EXPECT_FALSE(parse_link_name(t, ""));
  EXPECT_FALSE(parse_link_name(t, std::string(100, 'a') + "-spine2"));
  // Names with '-' in them: every split is tried.
  const auto f = fat_tree(4, 2, 10e9, 10e9);
  const auto e = parse_link_name(f, "edge1-1-agg1-2");
  ASSERT_TRUE(e);
  EXPECT_EQ(f.nodes()[f.links()[*e].a].name + "/" + f.nodes()[f.links()[*e].b].name, "edge1-1/agg1-2");
  EXPECT_EQ(parse_link_name(f, "agg1-2-edge1-1"), e);
}

TEST(Failure, RoutesGoAroundAFailedLink) {
  const auto t = leaf_spine(3, 2, 1, 10e9, 10e9);
  const auto leaf1 = *t.find("leaf1"), leaf2 = *t.find("leaf2"), spine2 = *t.find("spine2");
  const link_id down[] = {*parse_link_name(t, "leaf1-spine2")};
  const routes r(t, t.edge_switches(), down);
  // leaf1 reaches leaf2 through spine1 only, and so does leaf2 reach leaf1; spine2 reaches leaf1
  // the long way (through another leaf and spine1), so nobody sends to it for leaf1.
  ASSERT_EQ(r.next_hops(leaf1, leaf2).size(), 1u);
  EXPECT_EQ(t.nodes()[t.arc_to(r.next_hops(leaf1, leaf2)[0])].name, "spine1");
  ASSERT_EQ(r.next_hops(leaf2, leaf1).size(), 1u);
  EXPECT_EQ(t.nodes()[t.arc_to(r.next_hops(leaf2, leaf1)[0])].name, "spine1");
  EXPECT_EQ(r.distance(spine2, leaf1), 3u);
  const routes intact(t);
  EXPECT_EQ(intact.next_hops(leaf2, leaf1).size(), 2u);
}

TEST(Failure, WithoutLinksKeepsTheNodesAndDropsTheLink) {
  const auto t = leaf_spine(3, 2, 1, 10e9, 10e9);
  const link_id down[] = {*parse_link_name(t, "leaf1-spine2")};
  const auto u = without_links(t, down);
  ASSERT_EQ(u.nodes().size(), t.nodes().size());
  for (node_id v = 0; v < t.nodes().size(); ++v) {
    EXPECT_EQ(u.nodes()[v].name, t.nodes()[v].name);
    EXPECT_EQ(u.nodes()[v].tier, t.nodes()[v].tier);
  }
  EXPECT_EQ(u.links().size(), t.links().size() - 1);
  EXPECT_FALSE(parse_link_name(u, "leaf1-spine2"));
  EXPECT_TRUE(parse_link_name(u, "leaf1-spine1"));
  EXPECT_NE(u.description().find("with leaf1-spine2 down"), std::string::npos) << u.description();
  // Its routes are the ones routes() gives with the link failed, next hop for next hop.
  const routes a(t, t.edge_switches(), down), b(u);
  for (node_id v = 0; v < t.nodes().size(); ++v) {
    if (t.is_host(v)) continue;
    for (node_id d : t.edge_switches()) {
      std::vector<std::string> x, y;
      for (arc_id h : a.next_hops(v, d)) x.push_back(t.nodes()[t.arc_to(h)].name);
      for (arc_id h : b.next_hops(v, d)) y.push_back(u.nodes()[u.arc_to(h)].name);
      EXPECT_EQ(x, y) << t.nodes()[v].name << " to " << t.nodes()[d].name;
    }
  }
}

TEST(Failure, WithTwoPathsOnlyTheFailedLinksFlowsMove) {
  // Two spines: after leaf1-spine2 fails, every group that changed has one next hop left, so with
  // any hashing exactly the flows that crossed leaf1-spine2 move.
  const auto t = leaf_spine(4, 2, 2, 10e9, 10e9);
  traffic_config c;
  c.flows = 400;
  const auto flows = generate_flows(t, c);
  const link_id down[] = {*parse_link_name(t, "leaf1-spine2")};
  for (auto g : {group_hashing::modulo, group_hashing::threshold, group_hashing::resilient}) {
    auto cfg = *parse_hash("l4");
    cfg.grouping = g;
    const auto e = failure_moves(t, flows, cfg, down);
    SCOPED_TRACE(group_hashing_name(g));
    EXPECT_GT(e.had_to_move, 0u);
    EXPECT_EQ(e.moved, e.had_to_move);
    EXPECT_EQ(e.moved_needlessly, 0u);
    EXPECT_GE(e.through_changed, e.had_to_move);
  }
}

TEST(Failure, ResilientGroupsMoveOnlyTheFailedHopsFlows) {
  // Four spines: a group going from 4 to 3 next hops. Modulo moves most of the flows in changed
  // groups, hash-threshold fewer, resilient only those that crossed the failed link.
  const auto t = leaf_spine(8, 4, 4, 10e9, 10e9);
  traffic_config c;
  c.flows = 2000;
  const auto flows = generate_flows(t, c);
  const link_id down[] = {*parse_link_name(t, "leaf1-spine2")};
  std::vector<failure_effect> e;
  for (auto g : {group_hashing::modulo, group_hashing::threshold, group_hashing::resilient}) {
    auto cfg = *parse_hash("l4");
    cfg.grouping = g;
    e.push_back(failure_moves(t, flows, cfg, down));
  }
  EXPECT_EQ(e[2].moved, e[2].had_to_move);
  EXPECT_EQ(e[2].moved_needlessly, 0u);
  const auto share = [](const failure_effect& x) { return double(x.moved) / double(x.through_changed); };
  // In a changed group of 4 going to 3, hash mod 4 and hash mod 3 agree on about 1/4 of hashes;
  // hash-threshold keeps 1/4 of the failed hop's range... and half or more of the rest.
  EXPECT_GT(share(e[0]), 0.6);
  EXPECT_LT(share(e[1]), share(e[0]));
  EXPECT_GT(share(e[1]), share(e[2]));
  EXPECT_NEAR(share(e[2]), 0.25, 0.06);
}

TEST(Failure, WcmpWeighsNextHopsByCapacity) {
  // Two paths from s1 to s2, 40 and 10 Gbps: weights 4 and 1.
  const auto t = parse_topology(
      "host h1\nhost h2\nswitch s1\nswitch s2\nswitch a\nswitch b\nlink h1 s1 10Gbps\nlink h2 s2 10Gbps\n"
      "link s1 a 40Gbps\nlink a s2 40Gbps\nlink s1 b 10Gbps\nlink b s2 10Gbps\n");
  const routes r(t);
  const auto hops = r.next_hops(*t.find("s1"), *t.find("s2"));
  ASSERT_EQ(hops.size(), 2u);
  EXPECT_EQ(capacity_weights(t, hops), (std::vector<std::uint32_t>{4, 1}));
  const auto u = leaf_spine(2, 3, 1, 10e9, 25e9);
  const routes ru(u);
  EXPECT_EQ(capacity_weights(u, ru.next_hops(*u.find("leaf1"), *u.find("leaf2"))),
            (std::vector<std::uint32_t>{1, 1, 1}));
  traffic_config c;
  c.flows = 2000;
  const auto flows = generate_flows(t, c);
  auto cfg = *parse_hash("l4");
  cfg.weighted = true;
  const ecmp_model m(t, r, cfg);
  const auto p = place_flows(m, flows, false);
  const auto via_a = p.arc_flows[2 * *parse_link_name(t, "s1-a")];
  const auto via_b = p.arc_flows[2 * *parse_link_name(t, "s1-b")];
  EXPECT_NEAR(double(via_a) / double(via_a + via_b), 0.8, 0.04);
}

}  // namespace
}  // namespace netlib::dc
