#pragma once
// A fabric built for real in network namespaces (docs/labs/datacenter.md, "Run it for real"):
// one namespace per host and switch (netlab-<pid>-<node>), one veth pair per link, static
// neighbour entries (no ARP) and IPv6 off (no neighbour discovery), so that the interfaces count
// exactly the traffic the lab sends. Addresses: link l is 172.16.0.0 + 2l /31 (its first node
// the even address); host i also owns 10.0.0.0 + 4i + 2 (netlib::dc::host_address), which it
// sends from. Every switch has a /32 route to every host: through the host's own link on its
// switch, elsewhere over all equal-cost next hops in the order netlib::dc::routes gives them, as
// one Linux multipath route, so the kernel chooses among the same list as the model.
// Everything is removed when the object is destroyed (netlib::app::netns_set).
#include <cstdint>
#include <string>
#include <vector>

#include "netlib/app/netns.hpp"
#include "netlib/dc/routes.hpp"
#include "netlib/dc/topology.hpp"

namespace netlab::lab_dc {

struct arc_counters {
  std::vector<std::uint64_t> tx_bytes;  // per arc, at its sending end
  std::vector<std::uint64_t> rx_bytes;  // per arc, at its receiving end
  std::vector<std::uint64_t> tx_packets;
};

class netns_fabric {
 public:
  // policy: Linux's net.ipv4.fib_multipath_hash_policy, 0 (L3) or 1 (L4).
  netns_fabric(const netlib::dc::topology& t, const netlib::dc::routes& r, int policy, bool verbose);

  [[nodiscard]] const std::string& ns(netlib::dc::node_id v) const { return ns_[v]; }
  [[nodiscard]] std::string ifname(netlib::dc::arc_id a) const;  // at the arc's sending end
  // Whether this kernel has net.ipv4.fib_multipath_hash_seed (Linux 6.11 and later).
  [[nodiscard]] bool has_seed_sysctl() const noexcept { return seed_sysctl_; }
  // Writes each switch's seed (seeds[node]); false without the sysctl.
  bool set_seeds(const std::vector<std::uint32_t>& seeds);
  [[nodiscard]] arc_counters read_counters() const;
  [[nodiscard]] std::size_t namespaces() const noexcept { return ns_.size(); }

 private:
  const netlib::dc::topology& t_;
  netlib::app::netns_set set_;
  std::vector<std::string> ns_;
  std::vector<std::uint32_t> port_;  // per arc: its index among its sending node's arcs
  bool seed_sysctl_ = false;
};

}  // namespace netlab::lab_dc
