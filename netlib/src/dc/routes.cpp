// Theory of operation: one breadth-first search per destination over the switches (links are
// full duplex, so distances to the destination are distances from it), then each switch keeps the
// arcs to neighbours one hop closer, in the order its arcs are numbered.
#include "netlib/dc/routes.hpp"

#include <deque>

namespace netlib::dc {

routes::routes(const topology& t, std::span<const node_id> destinations, std::span<const link_id> failed)
    : n_(t.nodes().size()) {
  std::vector<bool> down(t.links().size(), false);
  for (link_id l : failed) {
    if (l >= down.size()) throw topology_error("a failed link that is not in the fabric");
    down[l] = true;
  }
  index_.assign(n_, -1);
  std::vector<node_id> dests;
  for (node_id d : destinations) {
    if (d >= n_ || t.is_host(d)) throw topology_error("routes lead to switches, not hosts");
    if (index_[d] >= 0) continue;
    index_[d] = static_cast<std::int32_t>(dests.size());
    dests.push_back(d);
  }
  if (dests.size() * n_ > (std::size_t{1} << 26)) throw topology_error("too many destinations for the route table");
  dist_.assign(dests.size() * n_, unreachable());
  begin_.assign(dests.size() * n_ + 1, 0);
  std::deque<node_id> queue;
  for (std::size_t di = 0; di < dests.size(); ++di) {
    std::uint32_t* dist = dist_.data() + di * n_;
    dist[dests[di]] = 0;
    queue.push_back(dests[di]);
    while (!queue.empty()) {
      const node_id v = queue.front();
      queue.pop_front();
      for (arc_id a : t.out_arcs(v)) {
        const node_id u = t.arc_to(a);
        if (down[a / 2] || t.is_host(u) || dist[u] != unreachable()) continue;
        dist[u] = dist[v] + 1;
        if (dist[u] > diameter_) diameter_ = dist[u];
        queue.push_back(u);
      }
    }
  }
  for (std::size_t di = 0; di < dests.size(); ++di) {
    const std::uint32_t* dist = dist_.data() + di * n_;
    for (node_id v = 0; v < n_; ++v) {
      begin_[di * n_ + v] = static_cast<std::uint32_t>(hops_.size());
      if (t.is_host(v) || dist[v] == 0 || dist[v] == unreachable()) continue;
      for (arc_id a : t.out_arcs(v)) {
        const node_id u = t.arc_to(a);
        if (!down[a / 2] && !t.is_host(u) && dist[u] + 1 == dist[v]) hops_.push_back(a);
      }
    }
  }
  dests_ = dests.size();
  begin_[dests.size() * n_] = static_cast<std::uint32_t>(hops_.size());
}

}  // namespace netlib::dc
