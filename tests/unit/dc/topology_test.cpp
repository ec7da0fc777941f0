// Topologies: the built-in shapes have the sizes the formulas give, the text format reads back
// what to_text writes, and every error names its line. The parser reads whole texts (the program
// reads a file whole, bounded by max_text), so its limits are tested instead of split feeds.
#include "netlib/dc/topology.hpp"

#include <gtest/gtest.h>

#include <string>

#include "netlib/dc/routes.hpp"

namespace topology_test {

using namespace netlib::dc;

std::size_t count_kind(const topology& t, node_kind k) {
  std::size_t n = 0;
  for (const auto& v : t.nodes()) n += v.kind == k;
  return n;
}

TEST(DcTopology, leaf_spine_sizes_and_tiers) {
  const auto t = leaf_spine(4, 2, 3, 10e9, 40e9);
  EXPECT_EQ(t.hosts().size(), 12u);
  EXPECT_EQ(count_kind(t, node_kind::switch_node), 6u);
  EXPECT_EQ(t.links().size(), 12u + 8u);
  EXPECT_EQ(t.edge_switches().size(), 4u);
  EXPECT_EQ(t.max_tier(), 2);
  EXPECT_EQ(t.nodes()[*t.find("leaf3")].tier, 1);
  EXPECT_EQ(t.nodes()[*t.find("spine2")].tier, 2);
  EXPECT_EQ(t.nodes()[*t.find("h4")].tier, 0);
  EXPECT_EQ(t.nodes()[t.attachment(*t.find("h4"))].name, "leaf2");
  const arc_id up = t.host_uplink(*t.find("h4"));
  EXPECT_EQ(t.arc_name(up), "h4->leaf2");
  EXPECT_EQ(t.arc_name(up ^ 1u), "leaf2->h4");
  EXPECT_EQ(t.capacity(up), 10e9);
  EXPECT_TRUE(t.is_uplink(up));
}

TEST(DcTopology, fat_tree_sizes_follow_the_formulas) {
  for (std::size_t k : {2u, 4u, 6u, 8u}) {
    const auto t = fat_tree(k, k / 2, 10e9, 10e9);
    EXPECT_EQ(t.hosts().size(), k * k * k / 4) << k;
    EXPECT_EQ(count_kind(t, node_kind::switch_node), 5 * k * k / 4) << k;
    EXPECT_EQ(t.links().size(), 3 * k * k * k / 4) << k;  // hosts, edge-agg and agg-core links
    EXPECT_EQ(t.max_tier(), 3);
    const routes r(t);
    // Between pods, (k/2)^2 shortest paths: k/2 next hops at the edge and at the aggregation.
    const node_id e1 = *t.find("edge1-1"), e2 = *t.find(k > 2 ? "edge2-1" : "edge2-1");
    EXPECT_EQ(r.distance(e1, e2), 4u);
    EXPECT_EQ(r.next_hops(e1, e2).size(), k / 2);
    const node_id a1 = t.arc_to(r.next_hops(e1, e2)[0]);
    EXPECT_EQ(r.next_hops(a1, e2).size(), k / 2);
  }
}

TEST(DcTopology, text_round_trip) {
  const auto t = fat_tree(4, 2, 10e9, 40e9);
  const auto text = to_text(t);
  const auto back = parse_topology(text);
  ASSERT_EQ(back.nodes().size(), t.nodes().size());
  ASSERT_EQ(back.links().size(), t.links().size());
  for (std::size_t i = 0; i < t.nodes().size(); ++i) {
    EXPECT_EQ(back.nodes()[i].name, t.nodes()[i].name);
    EXPECT_EQ(back.nodes()[i].tier, t.nodes()[i].tier);
  }
  for (std::size_t i = 0; i < t.links().size(); ++i) {
    EXPECT_EQ(back.links()[i].a, t.links()[i].a);
    EXPECT_EQ(back.links()[i].capacity_bps, t.links()[i].capacity_bps);
  }
  EXPECT_EQ(to_text(back).substr(to_text(back).find('\n')), text.substr(text.find('\n')));
}

TEST(DcTopology, text_format_features) {
  const auto t = parse_topology(
      "# a triangle of switches\r\n"
      "switch a\n"
      "switch b tier 2   # explicit\n"
      "\tswitch c\n"
      "host h1\n"
      "link h1 a 2.5Gbps\n"
      "link a b 1Gbps\n"
      "link b c 100Mbps\n"
      "link c a 1234bps\n");
  EXPECT_EQ(t.nodes().size(), 4u);
  EXPECT_EQ(t.nodes()[*t.find("b")].tier, 2);
  EXPECT_TRUE(t.tier_given(*t.find("b")));
  EXPECT_EQ(t.nodes()[*t.find("c")].tier, 2);  // two hops from h1
  EXPECT_EQ(t.links()[0].capacity_bps, 2.5e9);
  EXPECT_EQ(t.links()[3].capacity_bps, 1234);
  EXPECT_EQ(rate_text(2.5e9), "2.5Gbps");
  EXPECT_EQ(rate_text(1234), "1.234kbps");
  EXPECT_EQ(rate_text(1e10), "10Gbps");
}

std::string error_of(const std::string& text, topology_limits limits = {}) {
  try {
    parse_topology(text, limits);
  } catch (const topology_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DcTopology, errors_name_the_line) {
  EXPECT_EQ(error_of("switch a\nswitch a\n"), "line 2: node 'a' is declared twice");
  EXPECT_EQ(error_of("switch a\n\nlink a b 1Gbps\n"),
            "line 3: unknown node 'b' (declare it first with 'switch b' or 'host b')");
  EXPECT_EQ(error_of("switch a\nswitch b\nlink a b fast\n").rfind("line 3: bad rate: 'fast' is not a rate", 0), 0u);
  // Found by fuzz_dc_parsers: a long rate word was echoed whole, twice.
  EXPECT_EQ(error_of("switch a\nswitch b\nlink a b 1" + std::string(200, 'x') + "0Gbps\n"),
            "line 3: bad rate: '1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is not a rate: write a number and a unit, "
            "e.g. 10Gbps");
  EXPECT_EQ(error_of("switch a\xc3\xa9"
                     "b\n"),
            "line 1: bad node name 'a??b': use 1 to 32 letters, digits, '_', '.' or '-' (not first)");
  // A control byte: some other file, not a topology; its bytes are not shown.
  EXPECT_EQ(error_of("switch a\nswitch b\nlink a b 1" + std::string(200, '\x03') + "0Gbps\n"),
            "line 3: binary data (byte 0x03): not a topology file, which is text lines 'switch NAME', 'host NAME', "
            "'link A B RATE'");
  EXPECT_EQ(error_of(std::string("\x7f"
                                 "ELF\x02\x01\x01\0",
                                 8))
                .rfind("line 1: binary data (byte 0x7f)", 0),
            0u);
  EXPECT_EQ(error_of("switch a\nswitch b\nlink a b 1Gbps\nlink b a 1Gbps\n"),
            "line 4: a second link between 'b' and 'a'");
  EXPECT_EQ(error_of("router x\n"), "line 1: unknown statement 'router' (expected switch, host or link)");
  EXPECT_EQ(error_of("switch a tier 0\n"), "line 1: bad tier '0': 1 to 64");
  EXPECT_EQ(error_of("switch a\nswitch b\nlink a a 1Gbps\n"), "line 3: a link from 'a' to itself");
  EXPECT_EQ(error_of("switch a\nswitch b\nlink a b 0bps\n"),
            "line 3: link a b: the rate must be above 0 and at most 1000Tbps");
  EXPECT_EQ(error_of("host h1\nhost h2\nlink h1 h2 1Gbps\n"),
            "line 3: link h1 h2: hosts connect to switches, not to each other");
  EXPECT_EQ(error_of("switch bad/name\n").rfind("line 1: bad node name 'bad/name'", 0), 0u);
  EXPECT_EQ(error_of("switch a b c\n"), "line 1: expected 'switch NAME' or 'switch NAME tier N'");
  EXPECT_EQ(error_of("link a\n"), "line 1: expected 'link A B RATE', e.g. 'link h1 leaf1 10Gbps'");
  // Whole-graph checks have no line.
  EXPECT_EQ(error_of("switch a\nswitch b\n"), "'b' is not connected to 'a': every node must reach every other");
  EXPECT_EQ(error_of("switch a\nswitch b\nhost h\nlink h a 1Gbps\nlink h b 1Gbps\n"),
            "host 'h' has 2 links: a host hangs off exactly one switch");
  EXPECT_EQ(error_of("# nothing\n"), "no nodes: declare switches, hosts and links");
}

TEST(DcTopology, limits) {
  topology_limits small;
  small.max_nodes = 3;
  small.max_line = 20;
  small.max_text = 200;
  EXPECT_EQ(error_of("switch a\nswitch b\nswitch c\nswitch d\n", small), "line 4: more than 3 nodes");
  EXPECT_EQ(error_of("switch a_very_long_line_indeed\n", small), "line 1: the line is longer than 20 bytes");
  EXPECT_EQ(error_of(std::string(201, '#'), small), "the topology text is 201 bytes; at most 200");
  EXPECT_EQ(error_of("switch " + std::string(33, 'x') + "\n").rfind("line 1: bad node name", 0), 0u);
}

TEST(DcTopology, shapes_from_specs) {
  const auto ls = parse_shape("leaf-spine:4x2");
  ASSERT_TRUE(ls);
  EXPECT_EQ(ls->hosts().size(), 8u);  // one host per spine on each leaf by default
  EXPECT_EQ(parse_shape("leaf-spine:4x2x5")->hosts().size(), 20u);
  EXPECT_EQ(parse_shape("fat-tree:4")->hosts().size(), 16u);
  EXPECT_EQ(parse_shape("fat-tree:4x1")->hosts().size(), 8u);
  EXPECT_EQ(parse_shape("fat-tree:4", {.host_bps = 1e9, .fabric_bps = 4e9})->links()[0].capacity_bps, 1e9);
  EXPECT_FALSE(parse_shape("fabric.txt"));
  for (const char* bad : {"fat-tree:5", "fat-tree:", "fat-tree:4x", "leaf-spine:4", "leaf-spine:4x2x3x1",
                          "leaf-spine:0x2", "leaf-spine", "fat-tree:66", "leaf-spine:axb"}) {
    EXPECT_THROW(parse_shape(bad), topology_error) << bad;
  }
  EXPECT_THROW(parse_shape("fat-tree:24"), topology_error);  // 4176 nodes
  // K even but too large: refused for its size, not as if K were odd.
  const auto error = [](const char* spec) {
    try {
      parse_shape(spec);
    } catch (const topology_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error("fat-tree:66"),
            "fat-tree:66 has 77319 nodes; at most 4096 (the largest with K/2 hosts per edge switch is fat-tree:22)");
  EXPECT_EQ(error("fat-tree:50x1"),
            "fat-tree:50 has 4375 nodes; at most 4096 (the largest with 1 host per edge switch is fat-tree:48x1)");
  EXPECT_EQ(error("fat-tree:5"), "fat-tree:5: K must be even and at least 2");
  EXPECT_EQ(error("fat-tree:99999999999"), "fat-tree:99999999999: K must be even and at least 2");
  EXPECT_EQ(error("fat-tree:99999999998").rfind("fat-tree:99999999998 has too many nodes", 0), 0u);
}

// What a privileged program shows (wordless()): the line and the kind of mistake, never a word of
// the text (issue 31: lab-dc run through sudo with --topology /etc/shadow).
TEST(DcTopology, wordless_errors_quote_nothing_of_the_text) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"root:$y$SECRET:19000:0:99999:7:::\n", "line 1: not a topology statement (expected switch, host or link)"},
      {"switch SECRETa\nswitch SECRETa\n", "line 2: a node is declared twice"},
      {"switch a\nlink a SECRETb 1Gbps\n",
       "line 2: a link names a node not declared before it (with 'switch NAME' or 'host NAME')"},
      {"switch a\nswitch b\nlink a b SECRETrate\n", "line 3: a bad rate: write a number and a unit, e.g. 10Gbps"},
      {"switch SECRET/x\n", "line 1: bad node name: use 1 to 32 letters, digits, '_', '.' or '-' (not first)"},
      {"switch a tier SECRET\n", "line 1: a bad tier: 1 to 64"},
      {"switch SECRETa\nswitch SECRETb\n", "the nodes are not all connected: every node must reach every other"},
      {"switch SECRETa\nswitch b\nhost SECRETh\nlink SECRETh SECRETa 1Gbps\nlink SECRETh b 1Gbps\n",
       "a host has 2 links: a host hangs off exactly one switch"},
      {"switch SECRETa\nswitch b\nlink SECRETa SECRETa 1Gbps\n", "line 3: a link from a node to itself"},
      {"switch SECRETa\nswitch b\nlink SECRETa b 1Gbps\nlink b SECRETa 1Gbps\n",
       "line 4: a second link between the same two nodes"},
      {"host SECRETa\nhost b\nlink SECRETa b 1Gbps\n", "line 3: a link between two hosts: hosts connect to switches"},
      {"switch a\nSECRET\x01\n",
       "line 2: binary data: not a topology file, which is text lines 'switch NAME', "
       "'host NAME', 'link A B RATE'"},
  };
  for (const auto& [text, wordless] : cases) {
    try {
      parse_topology(text);
      ADD_FAILURE() << "no error for " << text;
    } catch (const topology_error& e) {
      EXPECT_EQ(e.wordless(), wordless) << text;
      EXPECT_EQ(e.wordless().find("SECRET"), std::string::npos) << e.wordless();
    }
  }
  topology_limits small;
  small.max_text = 10;
  try {
    parse_topology("switch SECRETWORD\n", small);
  } catch (const topology_error& e) {
    EXPECT_EQ(e.wordless(), "the topology text is over the limit of 10 bytes");
  }
}

}  // namespace topology_test
