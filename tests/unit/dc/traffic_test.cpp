// Generated flows: the patterns' shapes, reproducibility from the seed, unique ports when asked,
// the Pareto sizes' mean, and captured conversations placed on hosts.
#include "netlib/dc/traffic.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace traffic_test {

using namespace netlib::dc;
using netlib::packet::ip_address;

const topology& fabric() {
  static const auto t = leaf_spine(4, 2, 4, 10e9, 10e9);
  return t;
}

TEST(DcTraffic, host_addresses) {
  EXPECT_EQ(host_address(0).to_string(), "10.0.0.2");
  EXPECT_EQ(host_address(1).to_string(), "10.0.0.6");
  EXPECT_EQ(host_address(64).to_string(), "10.0.1.2");
}

TEST(DcTraffic, patterns_have_their_shapes) {
  const auto& t = fabric();
  traffic_config c;
  c.flows = 40;
  c.pattern = traffic_pattern::permutation;
  auto flows = generate_flows(t, c);
  ASSERT_EQ(flows.size(), 40u);
  std::map<node_id, std::set<node_id>> to;
  for (const auto& f : flows) {
    EXPECT_NE(f.src, f.dst);
    to[f.src].insert(f.dst);
  }
  for (const auto& [s, d] : to) EXPECT_EQ(d.size(), 1u);  // a permutation: one destination per host

  c.pattern = traffic_pattern::incast;
  flows = generate_flows(t, c);
  std::set<node_id> sinks;
  for (const auto& f : flows) sinks.insert(f.dst);
  EXPECT_EQ(sinks.size(), 1u);

  c.pattern = traffic_pattern::all_to_all;
  c.hosts = 5;
  flows = generate_flows(t, c);
  EXPECT_EQ(flows.size(), 20u);

  c.pattern = traffic_pattern::ring;
  c.hosts = 8;
  c.size_bytes = 8e6;
  flows = generate_flows(t, c);
  ASSERT_EQ(flows.size(), 8u);
  std::map<node_id, int> out_deg, in_deg;
  for (const auto& f : flows) {
    ++out_deg[f.src];
    ++in_deg[f.dst];
    EXPECT_EQ(f.bytes, 2.0 * 7 / 8 * 8e6);  // 2(P-1)/P of the buffer
  }
  EXPECT_EQ(out_deg.size(), 8u);
  EXPECT_EQ(in_deg.size(), 8u);
}

TEST(DcTraffic, same_seed_same_flows_and_keys_follow_hosts) {
  const auto& t = fabric();
  traffic_config c;
  c.flows = 100;
  c.seed = 9;
  const auto a = generate_flows(t, c), b = generate_flows(t, c);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].key, b[i].key);
    EXPECT_EQ(a[i].start_s, b[i].start_s);
    EXPECT_EQ(a[i].key.src, host_address(t.host_index(a[i].src)));
    EXPECT_EQ(a[i].key.dst, host_address(t.host_index(a[i].dst)));
    EXPECT_GE(a[i].start_s, 0);
    EXPECT_LT(a[i].start_s, 1);
  }
  c.seed = 10;
  EXPECT_NE(generate_flows(t, c)[0].key, a[0].key);
}

TEST(DcTraffic, unique_ports_per_host) {
  const auto& t = fabric();
  traffic_config c;
  c.flows = 3000;
  c.pattern = traffic_pattern::incast;
  c.unique_ports = true;
  c.protocol = 17;
  const auto flows = generate_flows(t, c);
  std::set<std::pair<node_id, std::uint16_t>> src, dst;
  for (const auto& f : flows) {
    EXPECT_TRUE(src.insert({f.src, f.key.src_port}).second);
    EXPECT_TRUE(dst.insert({f.dst, f.key.dst_port}).second);
    EXPECT_EQ(f.key.protocol, 17);
  }
  c.flows = 6000;  // more than half the destination port range at one host
  EXPECT_THROW(generate_flows(t, c), std::invalid_argument);
}

TEST(DcTraffic, pareto_sizes_have_the_mean) {
  const auto& t = fabric();
  traffic_config c;
  c.flows = 200000;
  c.pareto_alpha = 2.5;  // finite variance, so the sample mean settles
  c.size_bytes = 10000;
  double sum = 0, biggest = 0;
  for (const auto& f : generate_flows(t, c)) {
    sum += f.bytes;
    biggest = std::max(biggest, f.bytes);
    EXPECT_GE(f.bytes, 10000 * 1.5 / 2.5 - 1);
  }
  EXPECT_NEAR(sum / 200000, 10000, 300);
  EXPECT_GT(biggest, 5 * 10000.0);  // heavy tail: some elephants
}

TEST(DcTraffic, bad_configurations) {
  const auto& t = fabric();
  traffic_config c;
  c.hosts = 17;
  EXPECT_THROW(generate_flows(t, c), std::invalid_argument);
  c.hosts = 1;
  EXPECT_THROW(generate_flows(t, c), std::invalid_argument);
  c = {};
  c.pareto_alpha = 1.0;
  EXPECT_THROW(generate_flows(t, c), std::invalid_argument);
  c = {};
  c.flows = 0;
  EXPECT_THROW(generate_flows(t, c), std::invalid_argument);
}

TEST(DcTraffic, captured_conversations_map_addresses_to_hosts) {
  const auto t = leaf_spine(2, 2, 1, 10e9, 10e9);  // two hosts
  const auto a = *ip_address::parse("192.0.2.1"), b = *ip_address::parse("192.0.2.2"),
             c = *ip_address::parse("192.0.2.3");
  const std::vector<conversation_flow> conv{
      {{a, b, 6, 40000, 80}, 1000, 50000, 0.5},
      {{c, a, 17, 5353, 5353}, 300, 0, 1.0},
  };
  const auto out = flows_from_conversations(t, conv);
  ASSERT_EQ(out.flows.size(), 3u);
  EXPECT_EQ(out.flows[0].src, t.hosts()[0]);
  EXPECT_EQ(out.flows[0].dst, t.hosts()[1]);
  EXPECT_EQ(out.flows[0].bytes, 1000);
  EXPECT_EQ(out.flows[1].key.src, b);  // the reply direction
  EXPECT_EQ(out.flows[1].key.src_port, 80);
  EXPECT_EQ(out.flows[1].bytes, 50000);
  EXPECT_EQ(out.flows[2].src, t.hosts()[0]);  // the third address folds onto the first host
  EXPECT_EQ(out.flows[2].dst, t.hosts()[0]);
  ASSERT_EQ(out.placed_addresses.size(), 3u);
}

// Addresses are dealt out rack by rack: two addresses are on two leaves whenever there are two.
TEST(DcTraffic, captured_addresses_go_to_every_rack_first) {
  const auto t = leaf_spine(2, 2, 2, 10e9, 10e9);  // h1 h2 on leaf1, h3 h4 on leaf2
  std::vector<conversation_flow> conv;
  for (int i = 1; i <= 5; ++i) {
    conv.push_back({{*ip_address::parse("192.0.2." + std::to_string(i)), *ip_address::parse("192.0.2.1"), 6,
                     static_cast<std::uint16_t>(40000 + i), 80},
                    100,
                    0,
                    0});
  }
  const auto out = flows_from_conversations(t, conv);
  ASSERT_EQ(out.placed_addresses.size(), 5u);
  std::vector<std::string> hosts;
  for (const auto& [addr, h] : out.placed_addresses) hosts.push_back(t.nodes()[h].name);
  EXPECT_EQ(hosts, (std::vector<std::string>{"h1", "h3", "h2", "h4", "h1"}));
}

}  // namespace traffic_test
