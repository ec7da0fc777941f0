#pragma once
// A fabric built for real in network namespaces (docs/labs/datacenter.md, "Run it for real"):
// one namespace per host and switch (netlab-<pid>-<node>), one veth pair per link, static
// neighbour entries (no ARP) and IPv6 off (no neighbour discovery), so that the interfaces count
// exactly the traffic the lab sends. Addresses: link l is 172.16.0.0 + 2l /31 (its first node
// the even address); host i also owns 10.0.0.0 + 4i + 2 (netlib::dc::host_address), which it
// sends from. Every switch has a /32 route to every host: through the host's own link on its
// switch, elsewhere over all equal-cost next hops in the order netlib::dc::routes gives them, as
// one Linux multipath route, so the kernel chooses among the same list as the model. With
// resilient groups (fabric_groups), each switch has instead one nexthop object per link to
// another switch (id: the interface's number + 1) and one resilient nexthop group per destination
// switch with two or more next hops (id 100000 + the destination's number), its hosts' routes
// pointing at it (nhid). WCMP: the next hops carry netlib::dc::capacity_weights.
// Everything is removed when the object is destroyed (netlib::app::netns_set).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "netlib/app/netns.hpp"
#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/nexthop_group.hpp"
#include "netlib/dc/routes.hpp"
#include "netlib/dc/topology.hpp"

namespace netlab::lab_dc {

struct arc_counters {
  std::vector<std::uint64_t> tx_bytes;  // per arc, at its sending end
  std::vector<std::uint64_t> rx_bytes;  // per arc, at its receiving end
  std::vector<std::uint64_t> tx_packets;
};

// How the switches' next-hop groups are built: threshold (multipath routes, hash-threshold) or
// resilient (nexthop objects, type resilient with `buckets` buckets); weighted: WCMP.
struct fabric_groups {
  netlib::dc::group_hashing grouping = netlib::dc::group_hashing::threshold;
  std::size_t buckets = 128;
  bool weighted = false;
};

class netns_fabric {
 public:
  // policy: Linux's net.ipv4.fib_multipath_hash_policy, 0 (L3) or 1 (L4).
  netns_fabric(const netlib::dc::topology& t, const netlib::dc::routes& r, int policy, bool verbose,
               const fabric_groups& groups = {});

  // Every flow's path as the kernel routes it now: from its source host, one `ip route get DST
  // from SRC iif IF ipproto P sport S dport D` per switch on the way (batched per namespace and
  // hop), each answer's `dev` naming the next arc.
  [[nodiscard]] std::vector<std::vector<netlib::dc::arc_id>> kernel_paths(std::span<const netlib::dc::flow> flows,
                                                                          bool verbose) const;
  // Takes links down mid-run: both ends of each set down (the kernel drops the next hops through
  // them: a multipath route's become dead, nexthop objects are removed from their groups), then,
  // as a routing protocol would, every switch whose routes toward a destination differ in
  // `after` otherwise gets them (ip route replace, ip nexthop replace). Returns how many routes
  // and groups were replaced.
  std::size_t fail_links(std::span<const netlib::dc::link_id> failed, const netlib::dc::routes& before,
                         const netlib::dc::routes& after);

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
  fabric_groups groups_;
  // The commands that route v's traffic toward destination switch d's hosts over `hops`.
  std::string route_commands(netlib::dc::node_id v, netlib::dc::node_id d, std::size_t d_index,
                             std::span<const netlib::dc::arc_id> hops, bool replace) const;
  bool seed_sysctl_ = false;
};

}  // namespace netlab::lab_dc
