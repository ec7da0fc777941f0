// Theory of operation: place_flows routes each flow once and adds its bytes to every arc of its
// path; summarize_loads groups arcs by the lower tier of their two ends.
#include "netlib/dc/loads.hpp"

#include <algorithm>
#include <stdexcept>

namespace netlib::dc {

placement place_flows(const ecmp_model& model, std::span<const flow> flows, bool keep_paths) {
  const auto& t = model.fabric();
  placement p;
  p.arc_bytes.assign(t.arc_count(), 0);
  p.arc_flows.assign(t.arc_count(), 0);
  if (keep_paths) {
    p.path_begin.reserve(flows.size() + 1);
    p.path_arcs.reserve(flows.size() * 4);
  }
  std::vector<arc_id> path(model.max_path());
  for (const auto& f : flows) {
    if (keep_paths) p.path_begin.push_back(static_cast<std::uint32_t>(p.path_arcs.size()));
    const std::size_t n = model.route(f, path);
    if (n == 0) {
      ++p.same_host;
      continue;
    }
    ++p.placed;
    if (n == 2)
      ++p.within_switch;  // up to the switch and straight down
    else
      ++p.crossing;
    for (std::size_t i = 0; i < n; ++i) {
      p.arc_bytes[path[i]] += f.bytes;
      ++p.arc_flows[path[i]];
    }
    if (keep_paths) p.path_arcs.insert(p.path_arcs.end(), path.begin(), path.begin() + static_cast<std::ptrdiff_t>(n));
  }
  if (keep_paths) p.path_begin.push_back(static_cast<std::uint32_t>(p.path_arcs.size()));
  return p;
}

double jain_index(std::span<const double> loads) noexcept {
  double sum = 0, squares = 0;
  for (double x : loads) {
    sum += x;
    squares += x * x;
  }
  if (loads.empty() || squares == 0) return 1;
  return sum * sum / (static_cast<double>(loads.size()) * squares);
}

load_summary summarize_loads(const topology& t, std::span<const double> arc_bytes, double window_s) {
  if (arc_bytes.size() != t.arc_count()) throw std::invalid_argument("one byte count per arc is needed");
  if (!(window_s > 0)) throw std::invalid_argument("the time window must be positive");
  load_summary s;
  s.window_s = window_s;
  s.utilisation.resize(t.arc_count());
  for (arc_id a = 0; a < t.arc_count(); ++a) {
    s.utilisation[a] = arc_bytes[a] * 8 / (t.capacity(a) * window_s);
    if (s.utilisation[a] > s.mlu) {
      s.mlu = s.utilisation[a];
      s.busiest = a;
    }
  }
  const int tiers = std::max(t.max_tier(), 1);
  s.tiers.resize(static_cast<std::size_t>(tiers));
  std::vector<std::vector<double>> up(s.tiers.size()), down(s.tiers.size());
  for (std::size_t i = 0; i < s.tiers.size(); ++i) s.tiers[i].tier = static_cast<int>(i);
  for (arc_id a = 0; a < t.arc_count(); ++a) {
    const int from = t.nodes()[t.arc_from(a)].tier, to = t.nodes()[t.arc_to(a)].tier;
    if (from == to) {
      if (a % 2 == 0) ++s.same_tier_links;
      continue;
    }
    const auto lower = static_cast<std::size_t>(std::min(from, to));
    if (lower >= s.tiers.size()) continue;
    auto& f = s.tiers[lower];
    f.max_utilisation = std::max(f.max_utilisation, s.utilisation[a]);
    if (to > from) {
      ++f.uplinks;
      if (arc_bytes[a] == 0) ++f.unused_uplinks;
      up[lower].push_back(arc_bytes[a]);
    } else {
      ++f.downlinks;
      if (arc_bytes[a] == 0) ++f.unused_downlinks;
      down[lower].push_back(arc_bytes[a]);
    }
  }
  for (std::size_t i = 0; i < s.tiers.size(); ++i) {
    s.tiers[i].uplink_jain = jain_index(up[i]);
    s.tiers[i].downlink_jain = jain_index(down[i]);
  }
  return s;
}

}  // namespace netlib::dc
