// Theory of operation: two route tables (with and without the failed links) and two models, the
// second built from the first so that resilient groups carry their buckets over; then every flow
// is routed under both and its two paths compared arc by arc.
#include "netlib/dc/failure.hpp"

#include <algorithm>

#include "netlib/dc/routes.hpp"

namespace netlib::dc {

failure_effect failure_moves(const topology& t, std::span<const flow> flows, const hash_config& config,
                             std::span<const link_id> failed) {
  failure_effect out;
  out.grouping = grouping_of(config);
  const routes before_routes(t);
  const routes after_routes(t, t.edge_switches(), failed);
  const ecmp_model before(t, before_routes, config);
  const ecmp_model after(t, after_routes, config, before, flows);
  std::vector<bool> down(t.links().size(), false);
  for (link_id l : failed) down[l] = true;
  std::vector<arc_id> a(before.max_path()), b(std::max(before.max_path(), after.max_path()));
  out.flow_moved.assign(flows.size(), false);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto& f = flows[i];
    const std::size_t na = before.route(f, a);
    if (na <= 2) continue;  // same host, or one switch: host links only
    ++out.crossing;
    bool crossed = false, changed_group = false;
    const node_id to = t.attachment(f.dst);
    for (std::size_t k = 0; k < na; ++k) {
      crossed = crossed || down[a[k] / 2];
      const node_id v = t.arc_from(a[k]);
      if (t.is_host(v) || v == to) continue;
      const auto x = before_routes.next_hops(v, to), y = after_routes.next_hops(v, to);
      if (!std::equal(x.begin(), x.end(), y.begin(), y.end())) changed_group = true;
    }
    const std::size_t nb = after.route(f, b);
    const bool moved = na != nb || !std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(na), b.begin());
    out.had_to_move += crossed;
    out.through_changed += changed_group;
    out.moved += moved;
    out.moved_needlessly += moved && !crossed;
    out.flow_moved[i] = moved;
  }
  return out;
}

}  // namespace netlib::dc
