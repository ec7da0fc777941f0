#pragma once
// Equal-cost next hops (docs/architecture.md, "Data-centre core"): for every switch and every
// destination switch, the arcs that leave the switch on a shortest path (in hops) to the
// destination, in arc order. Hosts never forward. This is what a fabric routed with ECMP (BGP or
// OSPF with equal costs, or the multipath routes lab-dc run installs) offers each switch. Links
// that have failed carry nothing: the routes are those the fabric's routing converges to without
// them (a switch cut off from a destination has no route to it).
#include <cstdint>
#include <span>
#include <vector>

#include "netlib/dc/topology.hpp"

namespace netlib::dc {

class routes {
 public:
  // Routes toward each of `destinations` (switches), without the links in `failed`.
  routes(const topology& t, std::span<const node_id> destinations, std::span<const link_id> failed = {});
  // Routes toward every switch with hosts.
  explicit routes(const topology& t) : routes(t, t.edge_switches()) {}

  [[nodiscard]] bool has_destination(node_id d) const noexcept { return d < index_.size() && index_[d] >= 0; }
  // The destination's number (0 .. destinations - 1), and the nodes' count: ecmp_model keeps its
  // next-hop groups per (destination, switch).
  [[nodiscard]] std::size_t destination_index(node_id d) const noexcept { return static_cast<std::size_t>(index_[d]); }
  [[nodiscard]] std::size_t destination_count() const noexcept { return dests_; }
  [[nodiscard]] std::size_t node_count() const noexcept { return n_; }
  // Empty when at == to; `to` must be a destination.
  [[nodiscard]] std::span<const arc_id> next_hops(node_id at, node_id to) const noexcept {
    const std::size_t i = static_cast<std::size_t>(index_[to]) * n_ + at;
    return {hops_.data() + begin_[i], begin_[i + 1] - begin_[i]};
  }
  // Hops from a switch to `to`; unreachable() when there is no path through switches.
  [[nodiscard]] std::uint32_t distance(node_id at, node_id to) const noexcept {
    return dist_[static_cast<std::size_t>(index_[to]) * n_ + at];
  }
  static constexpr std::uint32_t unreachable() noexcept { return 0xFFFFFFFFu; }
  // The largest finite distance (for path buffers).
  [[nodiscard]] std::uint32_t diameter() const noexcept { return diameter_; }

 private:
  std::size_t n_ = 0;
  std::size_t dests_ = 0;
  std::vector<std::int32_t> index_;   // node -> destination number, -1 when not a destination
  std::vector<std::uint32_t> dist_;   // destination * n + node
  std::vector<std::uint32_t> begin_;  // destination * n + node -> first hop in hops_ (one past the end: + 1)
  std::vector<arc_id> hops_;
  std::uint32_t diameter_ = 0;
};

}  // namespace netlib::dc
