// Theory of operation: namespaces first (each recorded by the netns_set before it exists), then
// each one's sysctls, written from inside it (netns_scope) before any interface exists so that
// new interfaces inherit them; then the veth pairs, created from their first node's namespace
// with the peer placed straight into the other's; then one `ip -batch` per namespace with its
// addresses, links up, neighbours and routes. A failing step throws; the set removes everything.
#include "netns_fabric.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

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
std::string end_address(dc::arc_id a) { return dotted(0xAC100000u + a); }  // arc 2l -> .2l, 2l+1 -> .2l+1
std::string mac(dc::arc_id a) {
  return fmt::format("02:dc:{:02x}:{:02x}:{:02x}:{:02x}", (a >> 24) & 0xff, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff);
}

}  // namespace

std::string netns_fabric::ifname(dc::arc_id a) const { return fmt::format("e{}", port_[a]); }

netns_fabric::netns_fabric(const dc::topology& t, const dc::routes& r, int policy, bool verbose) : t_(t), set_(verbose) {
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
    for (const auto& [key, value] :
         {std::pair{"net.ipv6.conf.all.disable_ipv6", "1"}, {"net.ipv6.conf.default.disable_ipv6", "1"},
          {"net.ipv4.conf.all.rp_filter", "0"}, {"net.ipv4.conf.default.rp_filter", "0"},
          {"net.ipv4.conf.all.send_redirects", "0"}, {"net.ipv4.conf.default.send_redirects", "0"}}) {
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
    links[k.a] += fmt::format("link add {} address {} type veth peer name {} address {} netns {}\n", ifname(ab), mac(ab),
                              ifname(ba), mac(ba), ns_[k.b]);
  }
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    if (!links[v].empty()) set_.batch(ns_[v], links[v]);
  }
  // Addresses, links up, neighbours, routes.
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    std::string cmds;
    for (dc::arc_id a : t.out_arcs(v)) {
      cmds += fmt::format("addr add {}/31 dev {}\n", end_address(a), ifname(a));
      cmds += fmt::format("link set dev {} up\n", ifname(a));
      cmds += fmt::format("neigh replace {} lladdr {} dev {} nud permanent\n", end_address(a ^ 1u), mac(a ^ 1u), ifname(a));
    }
    if (t.is_host(v)) {
      const dc::arc_id up = t.host_uplink(v);
      const auto self = dc::host_address(t.host_index(v)).to_string();
      cmds += fmt::format("addr add {}/32 dev {}\n", self, ifname(up));
      cmds += fmt::format("route add default via {} dev {} src {}\n", end_address(up ^ 1u), ifname(up), self);
    } else {
      for (dc::node_id h : t.hosts()) {
        const auto dest = dc::host_address(t.host_index(h)).to_string();
        const dc::node_id sw = t.attachment(h);
        if (sw == v) {
          const dc::arc_id down = t.host_uplink(h) ^ 1u;
          cmds += fmt::format("route add {}/32 via {} dev {}\n", dest, end_address(down ^ 1u), ifname(down));
          continue;
        }
        const auto hops = r.next_hops(v, sw);
        if (hops.empty()) continue;
        if (hops.size() == 1) {
          cmds += fmt::format("route add {}/32 via {} dev {}\n", dest, end_address(hops[0] ^ 1u), ifname(hops[0]));
          continue;
        }
        cmds += fmt::format("route add {}/32", dest);
        for (dc::arc_id a : hops) cmds += fmt::format(" nexthop via {} dev {}", end_address(a ^ 1u), ifname(a));
        cmds += '\n';
      }
    }
    set_.batch(ns_[v], cmds);
  }
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
    const auto r = netlib::app::run({set_.ip(), "-n", ns_[v], "-s", "-j", "link", "show"}, {}, std::chrono::seconds(20));
    if (r.exit_code != 0) throw netlib::app::failure(fmt::format("cannot read the counters of {}: {}", ns_[v], r.err));
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(r.out);
    } catch (const nlohmann::json::exception& e) {
      throw netlib::app::failure(fmt::format("ip -j link show in {}: {}", ns_[v], e.what()));
    }
    for (dc::arc_id a : t_.out_arcs(v)) {
      const auto name = ifname(a);
      const auto it = std::find_if(doc.begin(), doc.end(), [&](const auto& l) { return l.value("ifname", "") == name; });
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
