// Theory of operation: a topology is built node by node and link by link (the shapes and the
// parser use the same calls, so every check applies to both), then finish() checks what needs the
// whole graph (each host on exactly one link to a switch, everything connected), numbers the tiers
// with one breadth-first search from all hosts at once, and lays the arcs out per node.
#include "netlib/dc/topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <limits>

#include "netlib/core/ascii.hpp"
#include "netlib/core/units.hpp"

namespace netlib::dc {
namespace {

bool valid_name(std::string_view name, std::size_t max) {
  if (name.empty() || name.size() > max || name.front() == '-') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
  });
}

std::string prefix(std::size_t line) {
  return line ? fmt::format("line {}: ", line) : std::string();
}

std::optional<std::size_t> number(std::string_view text) {
  std::size_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || p != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

// The largest unit that leaves a short number that reads back exactly.
std::string rate_text(double bps) {
  for (auto [unit, scale] : {std::pair{"Tbps", 1e12}, {"Gbps", 1e9}, {"Mbps", 1e6}, {"kbps", 1e3}}) {
    if (bps >= scale) {
      const double v = bps / scale;
      const auto text = fmt::format("{}", v);
      if (text.size() <= 8 && units::parse_rate_bps(text + unit) == bps) return text + unit;
    }
  }
  return fmt::format("{}bps", bps);
}

std::optional<double> parse_rate_word(std::string_view word, std::string& error) {
  try {
    return units::parse_rate_bps(word);
  } catch (const units::unit_error& e) {
    const bool plain = word.size() <= 40 && ascii::excerpt(word) == word;
    // The units message names the word itself; a long or unprintable word is not repeated.
    error = plain ? e.what()
                  : fmt::format("'{}' is not a rate: write a number and a unit, e.g. 10Gbps", ascii::excerpt(word));
    return std::nullopt;
  }
}

topology_error::topology_error(const std::string& what, std::size_t line, const std::string& wordless)
    : std::runtime_error(prefix(line) + what),
      line_(line),
      wordless_(prefix(line) + (wordless.empty() ? what : wordless)) {}

node_id topology::add_node(std::string name, node_kind kind, int tier, std::size_t line) {
  if (finished_) throw topology_error("the topology is already finished", line);
  if (!valid_name(name, limits_.max_name)) {
    const auto rule = fmt::format("use 1 to {} letters, digits, '_', '.' or '-' (not first)", limits_.max_name);
    throw topology_error(fmt::format("bad node name '{}': {}", ascii::excerpt(name), rule), line,
                         "bad node name: " + rule);
  }
  if (nodes_.size() >= limits_.max_nodes)
    throw topology_error(fmt::format("more than {} nodes", limits_.max_nodes), line);
  if (by_name_.contains(name)) {
    throw topology_error(fmt::format("node '{}' is declared twice", name), line, "a node is declared twice");
  }
  if (tier != -1 && (kind == node_kind::host || tier < 1 || tier > 64)) {
    throw topology_error(fmt::format("node '{}': a switch's tier is 1 to 64 (hosts are tier 0)", name), line,
                         "a switch's tier is 1 to 64 (hosts are tier 0)");
  }
  const auto id = static_cast<node_id>(nodes_.size());
  by_name_.emplace(name, id);
  nodes_.push_back(node{std::move(name), kind, kind == node_kind::host ? 0 : tier});
  tier_given_.push_back(tier != -1);
  return id;
}

link_id topology::add_link(node_id a, node_id b, double capacity_bps, std::size_t line) {
  if (finished_) throw topology_error("the topology is already finished", line);
  if (a >= nodes_.size() || b >= nodes_.size()) throw topology_error("a link names an unknown node", line);
  if (a == b)
    throw topology_error(fmt::format("a link from '{}' to itself", nodes_[a].name), line,
                         "a link from a node to itself");
  if (!(capacity_bps > 0) || capacity_bps > 1e15) {
    throw topology_error(
        fmt::format("link {} {}: the rate must be above 0 and at most 1000Tbps", nodes_[a].name, nodes_[b].name), line,
        "a link's rate must be above 0 and at most 1000Tbps");
  }
  if (links_.size() >= limits_.max_links)
    throw topology_error(fmt::format("more than {} links", limits_.max_links), line);
  const auto key = (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
  if (!link_pairs_.insert(key).second) {
    throw topology_error(fmt::format("a second link between '{}' and '{}'", nodes_[a].name, nodes_[b].name), line,
                         "a second link between the same two nodes");
  }
  if (is_host(a) && is_host(b)) {
    throw topology_error(
        fmt::format("link {} {}: hosts connect to switches, not to each other", nodes_[a].name, nodes_[b].name), line,
        "a link between two hosts: hosts connect to switches");
  }
  links_.push_back(link{a, b, capacity_bps});
  return static_cast<link_id>(links_.size() - 1);
}

void topology::finish() {
  if (finished_) return;
  if (nodes_.empty()) throw topology_error("no nodes: declare switches, hosts and links");
  const std::size_t n = nodes_.size();
  // Arcs per node, in arc order.
  std::vector<std::size_t> degree(n, 0);
  for (const auto& l : links_) {
    ++degree[l.a];
    ++degree[l.b];
  }
  out_begin_.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) out_begin_[i + 1] = out_begin_[i] + degree[i];
  out_.assign(out_begin_[n], 0);
  std::vector<std::size_t> fill(out_begin_.begin(), out_begin_.end() - 1);
  for (arc_id a = 0; a < arc_count(); ++a) out_[fill[arc_from(a)]++] = a;
  // Hosts: exactly one link each, to a switch.
  host_index_.assign(n, std::numeric_limits<std::size_t>::max());
  hosts_.clear();
  host_up_.clear();
  for (node_id v = 0; v < n; ++v) {
    if (!is_host(v)) continue;
    if (degree[v] != 1) {
      throw topology_error(
          fmt::format("host '{}' has {} links: a host hangs off exactly one switch", nodes_[v].name, degree[v]), 0,
          fmt::format("a host has {} links: a host hangs off exactly one switch", degree[v]));
    }
    host_index_[v] = hosts_.size();
    hosts_.push_back(v);
    host_up_.push_back(out_arcs(v)[0]);
  }
  // Connected: a search from node 0 reaches every node.
  std::vector<int> seen(n, 0);
  std::deque<node_id> queue{0};
  seen[0] = 1;
  while (!queue.empty()) {
    const node_id v = queue.front();
    queue.pop_front();
    for (arc_id a : out_arcs(v)) {
      const node_id u = arc_to(a);
      if (!seen[u]) {
        seen[u] = 1;
        queue.push_back(u);
      }
    }
  }
  for (node_id v = 0; v < n; ++v) {
    if (!seen[v]) {
      throw topology_error(fmt::format("'{}' is not connected to '{}': every node must reach every other",
                                       nodes_[v].name, nodes_[0].name),
                           0, "the nodes are not all connected: every node must reach every other");
    }
  }
  // Tiers: hop distance to the nearest host (hosts 0), or 1 everywhere without hosts.
  std::vector<int> dist(n, -1);
  for (node_id h : hosts_) {
    dist[h] = 0;
    queue.push_back(h);
  }
  if (hosts_.empty()) {
    for (node_id v = 0; v < n; ++v) dist[v] = 1;
  }
  while (!queue.empty()) {
    const node_id v = queue.front();
    queue.pop_front();
    for (arc_id a : out_arcs(v)) {
      const node_id u = arc_to(a);
      if (dist[u] < 0) {
        dist[u] = dist[v] + 1;
        queue.push_back(u);
      }
    }
  }
  max_tier_ = 0;
  edges_.clear();
  for (node_id v = 0; v < n; ++v) {
    if (!tier_given_[v]) nodes_[v].tier = dist[v];
    max_tier_ = std::max(max_tier_, nodes_[v].tier);
    if (!is_host(v) &&
        std::any_of(out_arcs(v).begin(), out_arcs(v).end(), [&](arc_id a) { return is_host(arc_to(a)); })) {
      edges_.push_back(v);
    }
  }
  finished_ = true;
}

std::optional<node_id> topology::find(std::string_view name) const {
  const auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::string topology::arc_name(arc_id a) const {
  return nodes_[arc_from(a)].name + "->" + nodes_[arc_to(a)].name;
}

topology leaf_spine(std::size_t leaves, std::size_t spines, std::size_t hosts_per_leaf, double host_rate_bps,
                    double fabric_rate_bps) {
  if (leaves < 1 || spines < 1) throw topology_error("a leaf-spine needs at least one leaf and one spine");
  const std::size_t nodes = leaves * (1 + hosts_per_leaf) + spines;
  if (nodes > topology_limits{}.max_nodes) {
    throw topology_error(fmt::format("this leaf-spine has {} nodes; at most {}", nodes, topology_limits{}.max_nodes));
  }
  topology t;
  std::vector<node_id> leaf(leaves), spine(spines);
  for (std::size_t s = 0; s < spines; ++s) spine[s] = t.add_node(fmt::format("spine{}", s + 1), node_kind::switch_node);
  for (std::size_t l = 0; l < leaves; ++l) leaf[l] = t.add_node(fmt::format("leaf{}", l + 1), node_kind::switch_node);
  std::size_t host = 0;
  for (std::size_t l = 0; l < leaves; ++l) {
    for (std::size_t h = 0; h < hosts_per_leaf; ++h) {
      const auto id = t.add_node(fmt::format("h{}", ++host), node_kind::host);
      t.add_link(id, leaf[l], host_rate_bps);
    }
  }
  for (std::size_t l = 0; l < leaves; ++l) {
    for (std::size_t s = 0; s < spines; ++s) t.add_link(leaf[l], spine[s], fabric_rate_bps);
  }
  t.set_description(
      fmt::format("leaf-spine, {} leaves x {} spines, {} hosts per leaf", leaves, spines, hosts_per_leaf));
  t.finish();
  return t;
}

topology fat_tree(std::size_t k, std::size_t hosts_per_edge, double host_rate_bps, double fabric_rate_bps) {
  if (k < 2 || k % 2) throw topology_error("a fat-tree needs an even k of at least 2");
  const std::size_t half = k / 2;
  const std::size_t nodes = half * half + k * k + k * half * hosts_per_edge;
  if (nodes > topology_limits{}.max_nodes) {
    throw topology_error(fmt::format("fat-tree:{} has {} nodes; at most {}", k, nodes, topology_limits{}.max_nodes));
  }
  topology t;
  std::vector<node_id> core(half * half);
  for (std::size_t c = 0; c < core.size(); ++c)
    core[c] = t.add_node(fmt::format("core{}", c + 1), node_kind::switch_node);
  std::vector<std::vector<node_id>> agg(k, std::vector<node_id>(half)), edge(k, std::vector<node_id>(half));
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t i = 0; i < half; ++i)
      agg[p][i] = t.add_node(fmt::format("agg{}-{}", p + 1, i + 1), node_kind::switch_node);
    for (std::size_t i = 0; i < half; ++i)
      edge[p][i] = t.add_node(fmt::format("edge{}-{}", p + 1, i + 1), node_kind::switch_node);
  }
  std::size_t host = 0;
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t e = 0; e < half; ++e) {
      for (std::size_t h = 0; h < hosts_per_edge; ++h) {
        const auto id = t.add_node(fmt::format("h{}", ++host), node_kind::host);
        t.add_link(id, edge[p][e], host_rate_bps);
      }
    }
  }
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t e = 0; e < half; ++e) {
      for (std::size_t a = 0; a < half; ++a) t.add_link(edge[p][e], agg[p][a], fabric_rate_bps);
    }
  }
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t a = 0; a < half; ++a) {
      for (std::size_t c = 0; c < half; ++c) t.add_link(agg[p][a], core[a * half + c], fabric_rate_bps);
    }
  }
  t.set_description(fmt::format("fat-tree, k = {}: {} pods, {} core switches, {} hosts per edge switch", k, k,
                                half * half, hosts_per_edge));
  t.finish();
  return t;
}

topology parse_topology(std::string_view text, const topology_limits& limits) {
  if (text.size() > limits.max_text) {
    throw topology_error(fmt::format("the topology text is {} bytes; at most {}", text.size(), limits.max_text), 0,
                         fmt::format("the topology text is over the limit of {} bytes", limits.max_text));
  }
  // A topology is text: a control byte (a NUL in a program, an image) means this is some other file,
  // and nothing of it is repeated.
  {
    std::size_t line_no = 1;
    for (const char c : text) {
      const auto b = static_cast<unsigned char>(c);
      if (b == '\n') ++line_no;
      if ((b < 0x20 && b != '\n' && b != '\r' && b != '\t') || b == 0x7f) {
        throw topology_error(fmt::format("binary data (byte 0x{:02x}): not a topology file, which is text lines "
                                         "'switch NAME', 'host NAME', 'link A B RATE'",
                                         b),
                             line_no,
                             "binary data: not a topology file, which is text lines 'switch NAME', 'host NAME', "
                             "'link A B RATE'");
      }
    }
  }
  topology t;
  t.set_limits(limits);
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    if (line.size() > limits.max_line) {
      throw topology_error(fmt::format("the line is longer than {} bytes", limits.max_line), line_no);
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto w = ascii::words(line);
    if (w.empty()) continue;
    const auto node_of = [&](std::string_view name) {
      const auto id = t.find(name);
      if (!id) {
        throw topology_error(
            fmt::format("unknown node '{0}' (declare it first with 'switch {0}' or 'host {0}')", ascii::excerpt(name)),
            line_no, "a link names a node not declared before it (with 'switch NAME' or 'host NAME')");
      }
      return *id;
    };
    if (w[0] == "switch") {
      int tier = -1;
      if (w.size() == 4 && w[2] == "tier") {
        const auto n = number(w[3]);
        if (!n || *n < 1 || *n > 64) {
          throw topology_error(fmt::format("bad tier '{}': 1 to 64", ascii::excerpt(w[3])), line_no,
                               "a bad tier: 1 to 64");
        }
        tier = static_cast<int>(*n);
      } else if (w.size() != 2) {
        throw topology_error("expected 'switch NAME' or 'switch NAME tier N'", line_no);
      }
      t.add_node(std::string(w[1]), node_kind::switch_node, tier, line_no);
    } else if (w[0] == "host") {
      if (w.size() != 2) throw topology_error("expected 'host NAME'", line_no);
      t.add_node(std::string(w[1]), node_kind::host, -1, line_no);
    } else if (w[0] == "link") {
      if (w.size() != 4) throw topology_error("expected 'link A B RATE', e.g. 'link h1 leaf1 10Gbps'", line_no);
      const node_id a = node_of(w[1]);
      const node_id b = node_of(w[2]);
      std::string why;
      const auto rate = parse_rate_word(w[3], why);
      if (!rate)
        throw topology_error("bad rate: " + why, line_no, "a bad rate: write a number and a unit, e.g. 10Gbps");
      t.add_link(a, b, *rate, line_no);
    } else {
      throw topology_error(fmt::format("unknown statement '{}' (expected switch, host or link)", ascii::excerpt(w[0])),
                           line_no, "not a topology statement (expected switch, host or link)");
    }
  }
  t.set_description("from a topology file");
  t.finish();
  return t;
}

std::string to_text(const topology& t) {
  std::string out = "# " + t.description() + "\n";
  for (node_id v = 0; v < t.nodes().size(); ++v) {
    const auto& n = t.nodes()[v];
    if (n.kind == node_kind::host)
      out += "host " + n.name + "\n";
    else if (t.tier_given(v))
      out += fmt::format("switch {} tier {}\n", n.name, n.tier);
    else
      out += "switch " + n.name + "\n";
  }
  for (const auto& l : t.links()) {
    out += fmt::format("link {} {} {}\n", t.nodes()[l.a].name, t.nodes()[l.b].name, rate_text(l.capacity_bps));
  }
  return out;
}

std::optional<topology> parse_shape(std::string_view spec, const shape_rates& rates) {
  const auto colon = spec.find(':');
  const auto kind = spec.substr(0, colon);
  if (kind != "leaf-spine" && kind != "fat-tree") return std::nullopt;
  const auto usage = kind == "leaf-spine" ? "expected leaf-spine:LEAVESxSPINES or leaf-spine:LEAVESxSPINESxHOSTS, "
                                            "e.g. leaf-spine:4x2"
                                          : "expected fat-tree:K or fat-tree:KxHOSTS with an even K, e.g. fat-tree:4";
  if (colon == std::string_view::npos) throw topology_error(usage);
  std::vector<std::size_t> dims;
  std::string_view rest = spec.substr(colon + 1);
  while (true) {
    const auto x = rest.find('x');
    const auto n = number(rest.substr(0, x));
    if (!n) throw topology_error(usage);
    dims.push_back(*n);
    if (x == std::string_view::npos) break;
    rest = rest.substr(x + 1);
  }
  if (kind == "leaf-spine") {
    if (dims.size() < 2 || dims.size() > 3) throw topology_error(usage);
    const std::size_t hosts = dims.size() == 3 ? dims[2] : dims[1];
    if (dims[0] < 1 || dims[0] > 512 || dims[1] < 1 || dims[1] > 256 || hosts > 256) {
      throw topology_error("leaf-spine: 1 to 512 leaves, 1 to 256 spines, 0 to 256 hosts per leaf");
    }
    return leaf_spine(dims[0], dims[1], hosts, rates.host_bps, rates.fabric_bps);
  }
  if (dims.size() > 2) throw topology_error(usage);
  if (dims[0] < 2 || dims[0] % 2)
    throw topology_error(fmt::format("fat-tree:{}: K must be even and at least 2", dims[0]));
  const std::size_t hosts = dims.size() == 2 ? dims[1] : dims[0] / 2;
  if (dims.size() == 2 && hosts > 256) throw topology_error("fat-tree: at most 256 hosts per edge switch");
  // Too many nodes: say how many, and the largest K that fits with the same hosts per edge switch.
  const auto nodes = [&](std::size_t k) {
    const std::size_t h = dims.size() == 2 ? hosts : k / 2;
    return (k / 2) * (k / 2) + k * k + k * (k / 2) * h;
  };
  const std::size_t max_nodes = topology_limits{}.max_nodes;
  if (dims[0] > 65536 || nodes(dims[0]) > max_nodes) {
    std::size_t largest = 0;
    for (std::size_t k = 2; k <= 4096 && nodes(k) <= max_nodes; k += 2) largest = k;
    const auto count = dims[0] > 65536 ? std::string("too many") : fmt::format("{}", nodes(dims[0]));
    throw topology_error(fmt::format(
        "fat-tree:{} has {} nodes; at most {} (the largest with {} per edge switch "
        "is fat-tree:{})",
        dims[0], count, max_nodes,
        dims.size() == 2 ? fmt::format("{} host{}", hosts, hosts == 1 ? "" : "s") : std::string("K/2 hosts"),
        dims.size() == 2 ? fmt::format("{}x{}", largest, hosts) : fmt::format("{}", largest)));
  }
  return fat_tree(dims[0], hosts, rates.host_bps, rates.fabric_bps);
}

}  // namespace netlib::dc

namespace netlib::dc {

topology without_links(const topology& t, std::span<const link_id> failed) {
  topology out;
  for (node_id v = 0; v < t.nodes().size(); ++v) {
    const auto& n = t.nodes()[v];
    out.add_node(n.name, n.kind, n.kind == node_kind::switch_node && t.tier_given(v) ? n.tier : -1);
  }
  std::string gone;
  for (link_id l = 0; l < t.links().size(); ++l) {
    const auto& k = t.links()[l];
    if (std::find(failed.begin(), failed.end(), l) != failed.end()) {
      gone += (gone.empty() ? "" : ", ") + t.nodes()[k.a].name + "-" + t.nodes()[k.b].name;
      continue;
    }
    out.add_link(k.a, k.b, k.capacity_bps);
  }
  out.finish();
  out.set_description(gone.empty() ? t.description() : t.description() + ", with " + gone + " down");
  return out;
}

std::optional<link_id> parse_link_name(const topology& t, std::string_view text) {
  const topology_limits limits;
  if (text.size() > 2 * limits.max_name + 2) return std::nullopt;
  const auto link_between = [&](std::string_view a, std::string_view b) -> std::optional<link_id> {
    const auto x = t.find(a), y = t.find(b);
    if (!x || !y) return std::nullopt;
    for (arc_id arc : t.out_arcs(*x)) {
      if (t.arc_to(arc) == *y) return arc / 2;
    }
    return std::nullopt;
  };
  std::optional<link_id> found;
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    if (text[i] != '-') continue;
    std::optional<link_id> l;
    if (text[i + 1] == '-') {
      l = link_between(text.substr(0, i), text.substr(i + 2));
    }
    if (!l) l = link_between(text.substr(0, i), text.substr(i + 1));
    if (!l) continue;
    if (found && *found != *l) return std::nullopt;  // two readings: ambiguous
    found = l;
  }
  return found;
}

}  // namespace netlib::dc
