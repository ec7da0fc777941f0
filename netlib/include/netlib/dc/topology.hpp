#pragma once
// A data-centre fabric as a graph (docs/architecture.md, "Data-centre core"): hosts and switches
// joined by full-duplex links with a capacity each way. Built-in shapes (a two-tier leaf-spine, a
// three-tier fat-tree for even k) and a small text format for any other graph:
//
//   # comment
//   switch leaf1            switch NAME [tier N]
//   switch spine1 tier 2
//   host h1                 host NAME
//   link h1 leaf1 10Gbps    link A B RATE
//
// Every link has two arcs, one per direction: arc 2·l goes from links()[l].a to .b, arc 2·l + 1
// back. Tiers: hosts are tier 0; a switch is its hop distance to the nearest host unless the
// file gives it. An arc from tier t to tier t + 1 is a tier-t uplink.
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace netlib::dc {

using node_id = std::uint32_t;
using link_id = std::uint32_t;
using arc_id = std::uint32_t;

enum class node_kind : std::uint8_t { host, switch_node };

struct node {
  std::string name;
  node_kind kind = node_kind::switch_node;
  int tier = -1;  // -1 until finish() (or as given by "tier N")
};

struct link {
  node_id a = 0;
  node_id b = 0;
  double capacity_bps = 0;  // each way
};

// A topology that is not valid; line() is the text format's line (0 when not from a file).
// what() may quote words of the text (a node name, a rate); wordless() says the same without any
// byte of the text, for a program that reads files it was pointed at with more rights than its
// user has (lab-dc run through sudo must not show a line of /etc/shadow).
class topology_error : public std::runtime_error {
 public:
  explicit topology_error(const std::string& what, std::size_t line = 0, const std::string& wordless = {});
  [[nodiscard]] std::size_t line() const noexcept { return line_; }
  [[nodiscard]] const std::string& wordless() const noexcept { return wordless_; }

 private:
  std::size_t line_;
  std::string wordless_;
};

struct topology_limits {
  std::size_t max_nodes = 4096;
  std::size_t max_links = 65536;
  std::size_t max_line = 1024;     // bytes per line of the text format
  std::size_t max_name = 32;       // bytes per node name: [A-Za-z0-9_.-]
  std::size_t max_text = 4 << 20;  // bytes of text
};

class topology {
 public:
  // Building: add nodes and links, then finish() validates and computes tiers and adjacency.
  // Errors throw topology_error; `line` is passed through for the parser's messages.
  node_id add_node(std::string name, node_kind kind, int tier = -1, std::size_t line = 0);
  link_id add_link(node_id a, node_id b, double capacity_bps, std::size_t line = 0);
  void finish();
  void set_description(std::string d) { description_ = std::move(d); }
  void set_limits(const topology_limits& l) { limits_ = l; }

  [[nodiscard]] const std::vector<node>& nodes() const noexcept { return nodes_; }
  [[nodiscard]] const std::vector<link>& links() const noexcept { return links_; }
  [[nodiscard]] const std::string& description() const noexcept { return description_; }
  [[nodiscard]] std::size_t arc_count() const noexcept { return links_.size() * 2; }
  [[nodiscard]] node_id arc_from(arc_id a) const noexcept { return a % 2 ? links_[a / 2].b : links_[a / 2].a; }
  [[nodiscard]] node_id arc_to(arc_id a) const noexcept { return a % 2 ? links_[a / 2].a : links_[a / 2].b; }
  [[nodiscard]] double capacity(arc_id a) const noexcept { return links_[a / 2].capacity_bps; }
  // Arcs leaving a node, in increasing arc order.
  [[nodiscard]] std::span<const arc_id> out_arcs(node_id n) const noexcept {
    return {out_.data() + out_begin_[n], out_begin_[n + 1] - out_begin_[n]};
  }
  [[nodiscard]] bool is_host(node_id n) const noexcept { return nodes_[n].kind == node_kind::host; }
  // Hosts in the order they were added; host_index(h) is a host's position in it.
  [[nodiscard]] const std::vector<node_id>& hosts() const noexcept { return hosts_; }
  [[nodiscard]] std::size_t host_index(node_id h) const noexcept { return host_index_[h]; }
  // The switch a host hangs off, and the host's arc up to it.
  [[nodiscard]] node_id attachment(node_id host) const noexcept { return arc_to(host_up_[host_index_[host]]); }
  [[nodiscard]] arc_id host_uplink(node_id host) const noexcept { return host_up_[host_index_[host]]; }
  // Switches with at least one host (top-of-rack, leaf or edge switches), in node order.
  [[nodiscard]] const std::vector<node_id>& edge_switches() const noexcept { return edges_; }
  [[nodiscard]] std::optional<node_id> find(std::string_view name) const;
  [[nodiscard]] int max_tier() const noexcept { return max_tier_; }
  // "leaf1->spine2", for messages and tables.
  [[nodiscard]] std::string arc_name(arc_id a) const;
  // Whether the arc goes from tier t to tier t + 1 (an uplink) or back (a downlink).
  [[nodiscard]] bool is_uplink(arc_id a) const noexcept { return nodes_[arc_to(a)].tier > nodes_[arc_from(a)].tier; }
  // Whether the switch's tier came from the text ("tier N") rather than from the hop count.
  [[nodiscard]] bool tier_given(node_id n) const noexcept { return tier_given_[n]; }

 private:
  std::vector<node> nodes_;
  std::vector<link> links_;
  std::vector<arc_id> out_;
  std::vector<std::size_t> out_begin_;
  std::vector<node_id> hosts_;
  std::vector<std::size_t> host_index_;
  std::vector<arc_id> host_up_;
  std::vector<node_id> edges_;
  std::unordered_map<std::string, node_id> by_name_;
  std::vector<bool> tier_given_;
  std::unordered_set<std::uint64_t> link_pairs_;  // (min << 32) | max, against parallel links
  std::string description_;
  topology_limits limits_;
  int max_tier_ = 0;
  bool finished_ = false;
};

// Leaves × spines, every leaf linked to every spine, hosts_per_leaf hosts on each leaf. Names:
// leaf1.., spine1.., hosts h1.. numbered leaf by leaf.
topology leaf_spine(std::size_t leaves, std::size_t spines, std::size_t hosts_per_leaf, double host_rate_bps,
                    double fabric_rate_bps);
// The k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge and k/2 aggregation
// switches, (k/2)^2 core switches, hosts_per_edge hosts on each edge switch (k/2 in the paper).
// Aggregation switch i of every pod links to cores i·k/2+1 .. (i+1)·k/2. Names: core1.., agg<pod>-<i>,
// edge<pod>-<i>, hosts h1.. numbered edge by edge.
topology fat_tree(std::size_t k, std::size_t hosts_per_edge, double host_rate_bps, double fabric_rate_bps);

// The text format above.
topology parse_topology(std::string_view text, const topology_limits& limits = {});
// The text format of a topology (parse_topology(to_text(t)) gives t back).
std::string to_text(const topology& t);
// A rate as the text formats write it and read it back exactly: "10Gbps", "2.5Gbps", "1234bps".
std::string rate_text(double bps);
// The rate in a text file's word, or a topology_error-worthy message in `error`.
std::optional<double> parse_rate_word(std::string_view word, std::string& error);

// A link named by its two ends, "A-B" or "A--B" in either order (node names may hold '-', so
// every split is tried): "leaf1-spine2", "edge1-1-agg1-2". nullopt when no split names two nodes
// with a link between them, or when the text is longer than two names can be.
std::optional<link_id> parse_link_name(const topology& t, std::string_view text);

// The same fabric without some links (a failure, for the commands that only see the fabric
// after it): the nodes in the same order (the same ids), the other links in order; tiers given in
// the text stay, the others are computed again. Throws topology_error when what is left is not a
// valid topology.
topology without_links(const topology& t, std::span<const link_id> failed);

// "leaf-spine:LxS" or "leaf-spine:LxSxH" (H hosts per leaf, default S: one host per spine), and
// "fat-tree:K" or "fat-tree:KxH" (default K/2); nullopt when `spec` names neither shape (a file,
// then). A malformed or out-of-range spec throws topology_error.
struct shape_rates {
  double host_bps = 10e9;
  double fabric_bps = 10e9;
};
std::optional<topology> parse_shape(std::string_view spec, const shape_rates& rates = {});

}  // namespace netlib::dc
