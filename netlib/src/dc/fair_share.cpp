// Theory of operation: max_min_rates fills one priority level at a time. Within a level, the
// flows still growing ("free") all have the same rate, the fill; each round raises the fill by the
// least headroom per free flow over the arcs they cross, marks the arcs that this fills (within a
// relative 1e-12 of their capacity) as full, and fixes the free flows crossing a full arc at the
// fill. Each round fills at least one arc, so a level takes at most as many rounds as there are
// arcs. fluid_network keeps the rates until a flow starts or ends, and moves every active flow's
// remaining bytes forward by rate × elapsed time; a flow is complete when the clock reaches the
// end next_completion() computed for it, or when what remains is below a relative 1e-9 of its size
// (the rounding of the time arithmetic).
#include "netlib/dc/fair_share.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace netlib::dc {

std::size_t path_list::add(std::span<const arc_id> arcs) {
  arcs_.insert(arcs_.end(), arcs.begin(), arcs.end());
  begin_.push_back(static_cast<std::uint32_t>(arcs_.size()));
  return size() - 1;
}

std::vector<double> arc_capacities(const topology& t, double scale) {
  std::vector<double> c(t.arc_count());
  for (arc_id a = 0; a < t.arc_count(); ++a) c[a] = t.capacity(a) * scale;
  return c;
}

std::vector<double> max_min_rates(std::span<const double> capacity, const path_list& paths,
                                  std::span<const std::uint32_t> level, std::span<const char> active) {
  const std::size_t n = paths.size();
  if (!level.empty() && level.size() != n) throw std::invalid_argument("one priority level per flow is needed");
  if (!active.empty() && active.size() != n) throw std::invalid_argument("one active flag per flow is needed");
  for (double c : capacity) {
    if (!(c > 0) || !std::isfinite(c)) throw std::invalid_argument("every arc's capacity must be positive and finite");
  }
  std::vector<double> rate(n, 0.0);
  std::vector<std::uint32_t> levels;
  for (std::size_t f = 0; f < n; ++f) {
    if (!active.empty() && !active[f]) continue;
    for (arc_id a : paths[f]) {
      if (a >= capacity.size()) throw std::invalid_argument("a path names an arc the fabric does not have");
    }
    if (paths[f].empty()) {
      rate[f] = unlimited_rate;
      continue;
    }
    levels.push_back(level.empty() ? 0 : level[f]);
  }
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());

  std::vector<double> headroom(capacity.begin(), capacity.end());  // what higher levels left
  std::vector<std::uint32_t> crossing(capacity.size(), 0);         // free flows of this level per arc
  std::vector<char> full(capacity.size(), 0);
  // Arc -> free flows crossing it, rebuilt per level (CSR).
  std::vector<std::uint32_t> by_arc_begin(capacity.size() + 1), by_arc;
  std::vector<std::size_t> members;
  std::vector<char> fixed(n, 0);
  for (const std::uint32_t lv : levels) {
    members.clear();
    std::fill(crossing.begin(), crossing.end(), 0);
    for (std::size_t f = 0; f < n; ++f) {
      if ((!active.empty() && !active[f]) || paths[f].empty() || (level.empty() ? 0 : level[f]) != lv) continue;
      members.push_back(f);
      for (arc_id a : paths[f]) ++crossing[a];
    }
    by_arc_begin[0] = 0;
    for (std::size_t a = 0; a < capacity.size(); ++a) by_arc_begin[a + 1] = by_arc_begin[a] + crossing[a];
    by_arc.assign(by_arc_begin.back(), 0);
    {
      std::vector<std::uint32_t> at(by_arc_begin.begin(), by_arc_begin.end() - 1);
      for (std::size_t f : members) {
        for (arc_id a : paths[f]) by_arc[at[a]++] = static_cast<std::uint32_t>(f);
      }
    }
    std::fill(full.begin(), full.end(), 0);
    // An arc a higher level filled leaves its flows of this level nothing.
    for (std::size_t a = 0; a < capacity.size(); ++a) {
      if (crossing[a] > 0 && headroom[a] <= 1e-12 * capacity[a]) {
        headroom[a] = 0;
        full[a] = 1;
      }
    }
    std::size_t left = members.size();
    double fill = 0;
    const auto fix_flows_of_full_arcs = [&] {
      for (std::size_t a = 0; a < capacity.size(); ++a) {
        if (!full[a] || crossing[a] == 0) continue;
        for (std::uint32_t k = by_arc_begin[a]; k < by_arc_begin[a + 1]; ++k) {
          const std::size_t f = by_arc[k];
          if (fixed[f]) continue;
          fixed[f] = 1;
          rate[f] = fill;
          --left;
          for (arc_id b : paths[f]) --crossing[b];
        }
      }
    };
    fix_flows_of_full_arcs();
    while (left > 0) {
      double step = unlimited_rate;
      for (std::size_t a = 0; a < capacity.size(); ++a) {
        if (crossing[a] > 0) step = std::min(step, headroom[a] / crossing[a]);
      }
      fill += step;
      for (std::size_t a = 0; a < capacity.size(); ++a) {
        if (crossing[a] == 0) continue;
        headroom[a] -= step * crossing[a];
        // Full: no headroom left for another step of its own size (rounding aside).
        if (headroom[a] <= 1e-12 * capacity[a]) {
          headroom[a] = 0;
          full[a] = 1;
        }
      }
      fix_flows_of_full_arcs();
    }
    // What this level uses is gone for the levels below it.
    for (std::size_t f : members) fixed[f] = 0;
  }
  return rate;
}

fluid_network::fluid_network(std::vector<double> capacity_bps) : capacity_(std::move(capacity_bps)) {
  for (double c : capacity_) {
    if (!(c > 0) || !std::isfinite(c)) throw std::invalid_argument("every arc's capacity must be positive and finite");
  }
}

std::size_t fluid_network::start(std::span<const arc_id> path, double bytes, std::uint32_t level) {
  if (!(bytes >= 0) || !std::isfinite(bytes))
    throw std::invalid_argument("a flow's size must be finite and not negative");
  for (arc_id a : path) {
    if (a >= capacity_.size()) throw std::invalid_argument("a path names an arc the fabric does not have");
  }
  const std::size_t f = paths_.add(path);
  bytes_.push_back(bytes);
  start_.push_back(now_);
  level_.push_back(level);
  rates_.push_back(0);
  if (bytes == 0 || path.empty()) {
    remaining_.push_back(0);
    finish_.push_back(now_);
    done_now_.push_back(f);
  } else {
    remaining_.push_back(bytes);
    finish_.push_back(std::numeric_limits<double>::quiet_NaN());
    live_.push_back(f);
    stale_ = true;
  }
  return f;
}

void fluid_network::refresh() {
  if (!stale_) return;
  path_list live_paths;
  std::vector<std::uint32_t> levels;
  levels.reserve(live_.size());
  for (std::size_t f : live_) {
    live_paths.add(paths_[f]);
    levels.push_back(level_[f]);
  }
  const auto r = max_min_rates(capacity_, live_paths, levels);
  for (std::size_t i = 0; i < live_.size(); ++i) rates_[live_[i]] = r[i];
  stale_ = false;
}

double fluid_network::rate_bps(std::size_t f) {
  refresh();
  return std::isnan(finish_[f]) ? rates_[f] : 0.0;
}

double fluid_network::next_completion() {
  if (!done_now_.empty()) return now_;
  refresh();
  double next = std::numeric_limits<double>::infinity();
  for (std::size_t f : live_) {
    if (rates_[f] > 0) next = std::min(next, now_ + remaining_[f] * 8 / rates_[f]);
  }
  return next;
}

std::vector<std::size_t> fluid_network::advance_to(double t) {
  if (!(t >= now_)) throw std::invalid_argument("the clock only moves forward");
  refresh();
  const double dt = t - now_;
  std::vector<std::size_t> done = std::move(done_now_);
  done_now_.clear();
  std::size_t kept = 0;
  for (std::size_t f : live_) {
    // A flow ends when t reaches the end next_completion() computed for it, by the same
    // expression: a few bytes left at a clock whose ulp exceeds their sending time (0.1 s + 2e-9 s
    // rounds to 0.1 s) would otherwise give dt = 0 for ever, and the caller would never move on.
    const bool reached = rates_[f] > 0 && now_ + remaining_[f] * 8 / rates_[f] <= t;
    if (rates_[f] > 0) remaining_[f] -= rates_[f] * dt / 8;
    if (reached || remaining_[f] <= 1e-9 * bytes_[f]) {
      remaining_[f] = 0;
      finish_[f] = t;
      rates_[f] = 0;
      stale_ = true;
      done.push_back(f);
    } else {
      live_[kept++] = f;
    }
  }
  live_.resize(kept);
  now_ = t;
  std::sort(done.begin(), done.end());
  return done;
}

std::vector<double> completion_times(std::span<const double> capacity_bps, const path_list& paths,
                                     std::span<const sized_flow> flows) {
  if (paths.size() != flows.size()) throw std::invalid_argument("one path per flow is needed");
  std::vector<std::size_t> order(flows.size());
  std::iota(order.begin(), order.end(), 0);
  for (const auto& f : flows) {
    if (!(f.start_s >= 0) || !std::isfinite(f.start_s))
      throw std::invalid_argument("a flow's start must be finite and not negative");
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return flows[a].start_s < flows[b].start_s; });
  fluid_network net(std::vector<double>(capacity_bps.begin(), capacity_bps.end()));
  std::vector<double> finish(flows.size(), std::numeric_limits<double>::quiet_NaN());
  std::vector<std::size_t> flow_of;
  std::size_t next = 0, completed = 0;
  while (completed < flows.size()) {
    const double starts = next < order.size() ? flows[order[next]].start_s : std::numeric_limits<double>::infinity();
    const double ends = net.next_completion();
    const double t = std::min(starts, ends);
    if (!std::isfinite(t)) throw std::logic_error("flows are left with no rate");  // capacities are positive
    for (std::size_t f : net.advance_to(t)) {
      finish[flow_of[f]] = net.finish_time(f);
      ++completed;
    }
    while (next < order.size() && flows[order[next]].start_s <= t) {
      const std::size_t i = order[next++];
      net.start(paths[i], flows[i].bytes, flows[i].level);
      flow_of.push_back(i);
    }
  }
  return finish;
}

}  // namespace netlib::dc
