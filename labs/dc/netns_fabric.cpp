// Theory of operation: namespaces first (each recorded by the netns_set before it exists), then
// each one's sysctls, written from inside it (netns_scope) before any interface exists so that
// new interfaces inherit them; then the veth pairs, created from their first node's namespace
// with the peer placed straight into the other's; then one `ip -batch` per namespace with its
// addresses, links up, neighbours and routes. A failing step throws; the set removes everything.
#include "netns_fabric.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "netlib/dc/traffic.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

std::string dotted(std::uint32_t v) {
  return fmt::format("{}.{}.{}.{}", v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
}

// The address of an arc's sending end: link l's /31, the link's first node even.
std::string end_address(dc::arc_id a) {
  return dotted(0xAC100000u + a);
}  // arc 2l -> .2l, 2l+1 -> .2l+1
std::string mac(dc::arc_id a) {
  return fmt::format("02:dc:{:02x}:{:02x}:{:02x}:{:02x}", (a >> 24) & 0xff, (a >> 16) & 0xff, (a >> 8) & 0xff,
                     a & 0xff);
}

}  // namespace

std::string netns_fabric::ifname(dc::arc_id a) const {
  return fmt::format("e{}", port_[a]);
}

std::string netns_fabric::route_commands(dc::node_id v, dc::node_id d, std::size_t d_index,
                                         std::span<const dc::arc_id> hops, bool replace) const {
  const char* verb = replace ? "replace" : "add";
  std::string cmds;
  const auto weights = groups_.weighted ? dc::capacity_weights(t_, hops) : std::vector<std::uint32_t>(hops.size(), 1);
  const bool resilient = groups_.grouping == dc::group_hashing::resilient && hops.size() > 1;
  const std::uint32_t group = 100000 + static_cast<std::uint32_t>(d_index);
  if (resilient) {
    cmds += fmt::format("nexthop {} id {} group ", verb, group);
    for (std::size_t i = 0; i < hops.size(); ++i) {
      cmds += fmt::format("{}{}", i ? "/" : "", port_[hops[i]] + 1);
      if (groups_.weighted) cmds += fmt::format(",{}", weights[i]);
    }
    cmds += fmt::format(" type resilient buckets {}\n", groups_.buckets);
  }
  for (dc::node_id h : t_.hosts()) {
    if (t_.attachment(h) != d) continue;
    const auto dest = dc::host_address(t_.host_index(h)).to_string();
    if (resilient) {
      cmds += fmt::format("route {} {}/32 nhid {}\n", verb, dest, group);
    } else if (hops.size() == 1) {
      cmds += fmt::format("route {} {}/32 via {} dev {}\n", verb, dest, end_address(hops[0] ^ 1u), ifname(hops[0]));
    } else {
      cmds += fmt::format("route {} {}/32", verb, dest);
      for (std::size_t i = 0; i < hops.size(); ++i) {
        cmds += fmt::format(" nexthop via {} dev {}", end_address(hops[i] ^ 1u), ifname(hops[i]));
        if (groups_.weighted) cmds += fmt::format(" weight {}", weights[i]);
      }
      cmds += '\n';
    }
  }
  static_cast<void>(v);
  return cmds;
}

std::size_t netns_fabric::fail_links(std::span<const dc::link_id> failed, const dc::routes& before,
                                     const dc::routes& after) {
  for (dc::link_id l : failed) {
    for (dc::arc_id a : {2 * l, 2 * l + 1})
      set_.batch(ns_[t_.arc_from(a)], fmt::format("link set dev {} down\n", ifname(a)));
  }
  std::vector<bool> down(t_.links().size(), false);
  for (dc::link_id l : failed) down[l] = true;
  std::size_t replaced = 0;
  for (dc::node_id v = 0; v < t_.nodes().size(); ++v) {
    if (t_.is_host(v)) continue;
    std::string cmds;
    for (dc::node_id d : t_.edge_switches()) {
      if (d == v) continue;
      std::vector<dc::arc_id> left;
      for (dc::arc_id a : before.next_hops(v, d)) {
        if (!down[a / 2]) left.push_back(a);
      }
      const auto now = after.next_hops(v, d);
      if (std::equal(left.begin(), left.end(), now.begin(), now.end())) continue;  // the kernel did it
      ++replaced;
      if (now.empty()) {
        for (dc::node_id h : t_.hosts()) {
          if (t_.attachment(h) == d)
            cmds += fmt::format("route del {}/32\n", dc::host_address(t_.host_index(h)).to_string());
        }
        continue;
      }
      cmds += route_commands(v, d, after.destination_index(d), now, true);
    }
    if (!cmds.empty()) set_.batch(ns_[v], cmds);
  }
  return replaced;
}

netns_fabric::netns_fabric(const dc::topology& t, const dc::routes& r, int policy, bool verbose,
                           const fabric_groups& groups)
    : t_(t), set_(verbose), groups_(groups) {
  if (t.links().size() > (1u << 19)) throw netlib::app::usage_error("too many links to address in 172.16.0.0/12");
  port_.assign(t.arc_count(), 0);
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    const auto arcs = t.out_arcs(v);
    for (std::uint32_t i = 0; i < arcs.size(); ++i) port_[arcs[i]] = i;
  }
  for (const auto& n : t.nodes()) ns_.push_back(set_.add(n.name));
  {
    netlib::app::netns_scope probe(ns_.front());
    seed_sysctl_ = !netlib::app::read_sysctl("net.ipv4.fib_multipath_hash_seed").empty();
  }
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    netlib::app::netns_scope in(ns_[v]);
    for (const auto& [key, value] : {std::pair{"net.ipv6.conf.all.disable_ipv6", "1"},
                                     {"net.ipv6.conf.default.disable_ipv6", "1"},
                                     {"net.ipv4.conf.all.rp_filter", "0"},
                                     {"net.ipv4.conf.default.rp_filter", "0"},
                                     {"net.ipv4.conf.all.send_redirects", "0"},
                                     {"net.ipv4.conf.default.send_redirects", "0"}}) {
      netlib::app::write_sysctl(key, value);
    }
    if (!t.is_host(v)) {
      netlib::app::write_sysctl("net.ipv4.ip_forward", "1");
      if (!netlib::app::write_sysctl("net.ipv4.fib_multipath_hash_policy", std::to_string(policy))) {
        throw netlib::app::failure("this kernel has no net.ipv4.fib_multipath_hash_policy (multipath routing is off)");
      }
    }
  }
  // The veth pairs.
  std::vector<std::string> links(t.nodes().size());
  for (dc::link_id l = 0; l < t.links().size(); ++l) {
    const dc::arc_id ab = 2 * l, ba = 2 * l + 1;
    const auto& k = t.links()[l];
    links[k.a] += fmt::format("link add {} address {} type veth peer name {} address {} netns {}\n", ifname(ab),
                              mac(ab), ifname(ba), mac(ba), ns_[k.b]);
  }
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    if (!links[v].empty()) set_.batch(ns_[v], links[v]);
  }
  // Addresses, links up, neighbours, routes; the switches' routes to other switches' hosts once
  // every link is up (a nexthop object needs its device's carrier: the peer up).
  std::vector<std::string> later(t.nodes().size());
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    std::string cmds;
    for (dc::arc_id a : t.out_arcs(v)) {
      cmds += fmt::format("addr add {}/31 dev {}\n", end_address(a), ifname(a));
      cmds += fmt::format("link set dev {} up\n", ifname(a));
      cmds +=
          fmt::format("neigh replace {} lladdr {} dev {} nud permanent\n", end_address(a ^ 1u), mac(a ^ 1u), ifname(a));
    }
    if (t.is_host(v)) {
      const dc::arc_id up = t.host_uplink(v);
      const auto self = dc::host_address(t.host_index(v)).to_string();
      cmds += fmt::format("addr add {}/32 dev {}\n", self, ifname(up));
      cmds += fmt::format("route add default via {} dev {} src {}\n", end_address(up ^ 1u), ifname(up), self);
    } else {
      for (dc::node_id h : t.hosts()) {
        if (t.attachment(h) != v) continue;
        const auto dest = dc::host_address(t.host_index(h)).to_string();
        const dc::arc_id down = t.host_uplink(h) ^ 1u;
        cmds += fmt::format("route add {}/32 via {} dev {}\n", dest, end_address(down ^ 1u), ifname(down));
      }
      if (groups_.grouping == dc::group_hashing::resilient) {
        for (dc::arc_id a : t.out_arcs(v)) {
          if (!t.is_host(t.arc_to(a))) {
            later[v] += fmt::format("nexthop add id {} via {} dev {}\n", port_[a] + 1, end_address(a ^ 1u), ifname(a));
          }
        }
      }
      for (dc::node_id d : t.edge_switches()) {
        if (d == v) continue;
        const auto hops = r.next_hops(v, d);
        if (!hops.empty()) later[v] += route_commands(v, d, r.destination_index(d), hops, false);
      }
    }
    set_.batch(ns_[v], cmds);
  }
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    if (!later[v].empty()) set_.batch(ns_[v], later[v]);
  }
}

// Every flow's path as the kernel routes it (ip route get at each switch on the way).
std::vector<std::vector<dc::arc_id>> netns_fabric::kernel_paths(std::span<const dc::flow> flows, bool verbose) const {
  const auto& t = t_;
  const auto& fabric = *this;
  const auto ip = netlib::app::netns_set::find_tool("ip");
  std::vector<std::vector<dc::arc_id>> paths(flows.size());
  struct walk {
    std::size_t flow;
    dc::node_id at;
    dc::arc_id in;  // the arc that reached `at`
  };
  std::vector<walk> pending;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const auto up = t.host_uplink(flows[f].src);
    paths[f].push_back(up);
    pending.push_back({f, t.arc_to(up), up});
  }
  static const std::regex dev(R"( dev (\S+))");
  for (std::size_t hop = 0; !pending.empty(); ++hop) {
    if (hop > 64) throw netlib::app::failure("ip route get: a path longer than 64 hops (a routing loop?)");
    std::map<dc::node_id, std::vector<std::size_t>> by_switch;
    for (std::size_t i = 0; i < pending.size(); ++i) by_switch[pending[i].at].push_back(i);
    std::vector<walk> next;
    for (const auto& [v, list] : by_switch) {
      std::string cmds;
      for (std::size_t i : list) {
        const auto& k = flows[pending[i].flow].key;
        cmds += fmt::format("route get {} from {} iif {} ipproto {} sport {} dport {}\n", k.dst.to_string(),
                            k.src.to_string(), fabric.ifname(pending[i].in ^ 1u), k.protocol == 17 ? "udp" : "tcp",
                            k.src_port, k.dst_port);
      }
      if (verbose) {
        std::istringstream in(cmds);
        for (std::string line; std::getline(in, line);) std::cerr << "+ ip -n " << fabric.ns(v) << " " << line << '\n';
      }
      const auto r = netlib::app::run({ip, "-n", fabric.ns(v), "-batch", "-"}, cmds, std::chrono::seconds(60));
      if (r.exit_code != 0) {
        throw netlib::app::failure(
            fmt::format("ip -n {} route get failed: {}", fabric.ns(v), r.err.substr(0, r.err.find('\n'))));
      }
      // One answer per query, each starting on a line that does not start with white space.
      std::vector<std::string> answers;
      std::istringstream lines(r.out);
      for (std::string line; std::getline(lines, line);) {
        if (line.empty()) continue;
        if (line[0] != ' ' && line[0] != '\t')
          answers.push_back(line);
        else if (!answers.empty())
          answers.back() += line;
      }
      if (answers.size() != list.size()) {
        throw netlib::app::failure(
            fmt::format("ip -n {} route get: {} answers to {} questions", fabric.ns(v), answers.size(), list.size()));
      }
      for (std::size_t q = 0; q < list.size(); ++q) {
        std::smatch m;
        if (!std::regex_search(answers[q], m, dev))
          throw netlib::app::failure("ip route get: no device in '" + answers[q] + "'");
        dc::arc_id chosen = 0;
        bool found = false;
        for (dc::arc_id a : t.out_arcs(v)) {
          if (fabric.ifname(a) == m[1].str()) {
            chosen = a;
            found = true;
          }
        }
        if (!found)
          throw netlib::app::failure(fmt::format("ip route get in {}: unknown device {}", fabric.ns(v), m[1].str()));
        const auto& w = pending[list[q]];
        paths[w.flow].push_back(chosen);
        if (!t.is_host(t.arc_to(chosen))) next.push_back({w.flow, t.arc_to(chosen), chosen});
      }
    }
    pending = std::move(next);
  }
  return paths;
}

bool netns_fabric::set_seeds(const std::vector<std::uint32_t>& seeds) {
  if (!seed_sysctl_) return false;
  for (dc::node_id v = 0; v < t_.nodes().size(); ++v) {
    if (t_.is_host(v)) continue;
    netlib::app::netns_scope in(ns_[v]);
    netlib::app::write_sysctl("net.ipv4.fib_multipath_hash_seed", std::to_string(seeds[v]));
  }
  return true;
}

arc_counters netns_fabric::read_counters() const {
  arc_counters c;
  c.tx_bytes.assign(t_.arc_count(), 0);
  c.rx_bytes.assign(t_.arc_count(), 0);
  c.tx_packets.assign(t_.arc_count(), 0);
  for (dc::node_id v = 0; v < t_.nodes().size(); ++v) {
    const auto r =
        netlib::app::run({set_.ip(), "-n", ns_[v], "-s", "-j", "link", "show"}, {}, std::chrono::seconds(20));
    if (r.exit_code != 0) throw netlib::app::failure(fmt::format("cannot read the counters of {}: {}", ns_[v], r.err));
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(r.out);
    } catch (const nlohmann::json::exception& e) {
      throw netlib::app::failure(fmt::format("ip -j link show in {}: {}", ns_[v], e.what()));
    }
    for (dc::arc_id a : t_.out_arcs(v)) {
      const auto name = ifname(a);
      const auto it =
          std::find_if(doc.begin(), doc.end(), [&](const auto& l) { return l.value("ifname", "") == name; });
      if (it == doc.end()) throw netlib::app::failure(fmt::format("{} has no interface {}", ns_[v], name));
      const auto& st = (*it).at("stats64");
      c.tx_bytes[a] = st.at("tx").at("bytes").template get<std::uint64_t>();
      c.tx_packets[a] = st.at("tx").at("packets").template get<std::uint64_t>();
      // What this end received came over the opposite arc.
      c.rx_bytes[a ^ 1u] = st.at("rx").at("bytes").template get<std::uint64_t>();
    }
  }
  return c;
}

}  // namespace netlab::lab_dc
