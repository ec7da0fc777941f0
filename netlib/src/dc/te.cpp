// Theory of operation: every scheme first folds a matrix onto the switches (a host's demand
// loads its own link and counts as its switch's), then routes the switch-level demands: ECMP and
// shortest path by pushing each destination's traffic down its shortest-path graph from the
// farthest switch inwards; optimal, predicted and robust by building a linear program (scaled so
// that its coefficients are utilisations, near 1) for the injected solver.
#include "netlib/dc/te.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

#include "netlib/calc/prng.hpp"
#include "netlib/core/ascii.hpp"
#include "netlib/core/units.hpp"

namespace netlib::dc {
namespace {

struct folded {
  std::vector<demand> fabric;  // switch to switch, one per pair, in (src, dst) order
  arc_rates fixed;             // host links
};

folded fold(const topology& t, const traffic_matrix& m) {
  folded f;
  f.fixed.assign(t.arc_count(), 0);
  std::map<std::pair<node_id, node_id>, double> pairs;
  for (const auto& d : m.demands) {
    if (d.src >= t.nodes().size() || d.dst >= t.nodes().size())
      throw te_error("a demand names a node that does not exist");
    node_id s = d.src, e = d.dst;
    if (t.is_host(s)) {
      f.fixed[t.host_uplink(s)] += d.bps;
      s = t.attachment(s);
    }
    if (t.is_host(e)) {
      f.fixed[t.host_uplink(e) ^ 1u] += d.bps;
      e = t.attachment(e);
    }
    if (s != e && d.bps > 0) pairs[{s, e}] += d.bps;
  }
  for (const auto& [k, v] : pairs) f.fabric.push_back(demand{k.first, k.second, v});
  return f;
}

std::vector<node_id> destinations_of(const std::vector<demand>& ds) {
  std::vector<node_id> out;
  for (const auto& d : ds) out.push_back(d.dst);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ECMP (even split over every next hop) or shortest path (the first next hop only).
arc_rates push_down(const topology& t, const traffic_matrix& m, bool split) {
  auto f = fold(t, m);
  arc_rates loads = f.fixed;
  if (f.fabric.empty()) return loads;
  const auto dests = destinations_of(f.fabric);
  const routes r(t, dests);
  const std::size_t n = t.nodes().size();
  std::vector<double> inflow(n);
  std::vector<node_id> order;
  for (node_id dest : dests) {
    std::fill(inflow.begin(), inflow.end(), 0.0);
    order.clear();
    for (const auto& d : f.fabric) {
      if (d.dst != dest) continue;
      if (r.distance(d.src, dest) == routes::unreachable()) {
        throw te_error(fmt::format("no path from {} to {}", t.nodes()[d.src].name, t.nodes()[dest].name));
      }
      inflow[d.src] += d.bps;
    }
    for (node_id v = 0; v < n; ++v) {
      if (!t.is_host(v) && r.distance(v, dest) != routes::unreachable() && v != dest) order.push_back(v);
    }
    std::sort(order.begin(), order.end(), [&](node_id a, node_id b) {
      const auto da = r.distance(a, dest), db = r.distance(b, dest);
      return da != db ? da > db : a < b;
    });
    for (node_id v : order) {
      const double flow = inflow[v];
      if (flow == 0) continue;
      const auto hops = r.next_hops(v, dest);
      const std::size_t used = split ? hops.size() : 1;
      const double share = flow / static_cast<double>(used);
      for (std::size_t i = 0; i < used; ++i) {
        loads[hops[i]] += share;
        inflow[t.arc_to(hops[i])] += share;
      }
    }
  }
  return loads;
}

bool fabric_arc(const topology& t, arc_id a) {
  return !t.is_host(t.arc_from(a)) && !t.is_host(t.arc_to(a));
}

// Minimum-MLU multi-commodity flow in arc-flow form. Commodity c has one source and a set of
// sinks (its demands); per_pair gives every demand its own commodity.
mcf_result solve_mcf(const topology& t, const traffic_matrix& m, const lp_solver& solver, bool per_pair) {
  const auto f = fold(t, m);
  mcf_result out;
  out.arc_bps = f.fixed;
  if (f.fabric.empty()) {
    out.mlu = max_utilisation(t, out.arc_bps);
    return out;
  }
  std::vector<arc_id> arcs;
  double scale = 0;
  for (arc_id a = 0; a < t.arc_count(); ++a) {
    if (!fabric_arc(t, a)) continue;
    arcs.push_back(a);
    scale = std::max(scale, t.capacity(a));
  }
  if (arcs.empty()) throw te_error("the fabric has no links between switches");
  // Commodities: (source, [demand indices]).
  std::vector<std::pair<node_id, std::vector<std::size_t>>> commodities;
  for (std::size_t i = 0; i < f.fabric.size(); ++i) {
    if (per_pair || commodities.empty() || commodities.back().first != f.fabric[i].src) {
      commodities.push_back({f.fabric[i].src, {}});
    }
    commodities.back().second.push_back(i);
  }
  std::vector<node_id> switches;
  std::vector<std::int64_t> switch_index(t.nodes().size(), -1);
  for (node_id v = 0; v < t.nodes().size(); ++v) {
    if (t.is_host(v)) continue;
    switch_index[v] = static_cast<std::int64_t>(switches.size());
    switches.push_back(v);
  }
  linear_program lp;
  const auto u = lp.add_column(1.0);
  const std::size_t na = arcs.size();
  const auto first_flow = static_cast<std::uint32_t>(lp.columns());
  for (std::size_t c = 0; c < commodities.size(); ++c) {
    for (std::size_t i = 0; i < na; ++i) lp.add_column(0.0);
  }
  // Conservation: out - in = supply, per commodity and switch.
  for (std::size_t c = 0; c < commodities.size(); ++c) {
    std::vector<double> supply(switches.size(), 0.0);
    for (std::size_t di : commodities[c].second) {
      const auto& d = f.fabric[di];
      supply[static_cast<std::size_t>(switch_index[d.src])] += d.bps / scale;
      supply[static_cast<std::size_t>(switch_index[d.dst])] -= d.bps / scale;
    }
    const std::size_t base = lp.rows.size();
    lp.rows.resize(base + switches.size());
    for (std::size_t v = 0; v < switches.size(); ++v) lp.rows[base + v].lower = lp.rows[base + v].upper = supply[v];
    for (std::size_t i = 0; i < na; ++i) {
      const auto col = static_cast<std::uint32_t>(first_flow + c * na + i);
      lp.rows[base + static_cast<std::size_t>(switch_index[t.arc_from(arcs[i])])].terms.emplace_back(col, 1.0);
      lp.rows[base + static_cast<std::size_t>(switch_index[t.arc_to(arcs[i])])].terms.emplace_back(col, -1.0);
    }
  }
  // Capacity: Σ flow · scale / capacity - U <= 0.
  for (std::size_t i = 0; i < na; ++i) {
    lp_row row;
    const double coef = scale / t.capacity(arcs[i]);
    for (std::size_t c = 0; c < commodities.size(); ++c)
      row.terms.emplace_back(static_cast<std::uint32_t>(first_flow + c * na + i), coef);
    row.terms.emplace_back(u, -1.0);
    row.upper = 0;
    lp.rows.push_back(std::move(row));
  }
  const auto sol = solver.solve(lp);
  if (sol.status != lp_status::optimal) throw te_error("the optimal-routing LP was not solved: " + sol.message);
  for (std::size_t i = 0; i < na; ++i) {
    double sum = 0;
    for (std::size_t c = 0; c < commodities.size(); ++c) sum += std::max(0.0, sol.x[first_flow + c * na + i]);
    out.arc_bps[arcs[i]] += sum * scale;
  }
  out.mlu = std::max(sol.x[u], max_utilisation(t, f.fixed));
  return out;
}

traffic_matrix switch_level(const topology& t, const traffic_matrix& m) {
  traffic_matrix out;
  out.time_s = m.time_s;
  out.demands = fold(t, m).fabric;
  return out;
}

}  // namespace

std::string scheme_name(te_scheme s) {
  switch (s) {
    case te_scheme::shortest_path:
      return "shortest-path";
    case te_scheme::ecmp:
      return "ecmp";
    case te_scheme::optimal:
      return "optimal";
    case te_scheme::predicted:
      return "predicted";
    case te_scheme::robust:
      return "robust";
  }
  return "?";
}

bool parse_scheme(std::string_view text, te_scheme& out) {
  for (auto s :
       {te_scheme::shortest_path, te_scheme::ecmp, te_scheme::optimal, te_scheme::predicted, te_scheme::robust}) {
    if (text == scheme_name(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

double max_utilisation(const topology& t, std::span<const double> arc_bps) {
  double m = 0;
  for (arc_id a = 0; a < arc_bps.size() && a < t.arc_count(); ++a) m = std::max(m, arc_bps[a] / t.capacity(a));
  return m;
}

arc_rates shortest_path_loads(const topology& t, const traffic_matrix& m) {
  return push_down(t, m, false);
}
arc_rates ecmp_loads(const topology& t, const traffic_matrix& m) {
  return push_down(t, m, true);
}

double cut_lower_bound(const topology& t, const traffic_matrix& m) {
  const auto f = fold(t, m);
  double bound = max_utilisation(t, f.fixed);
  const std::size_t n = t.nodes().size();
  // The cuts: every switch alone, and the connected groups of switches below each tier (a
  // fat-tree's pods below the core).
  std::vector<std::vector<int>> groups;  // per cut: node -> 1 inside
  for (node_id v = 0; v < n; ++v) {
    if (t.is_host(v)) continue;
    std::vector<int> in(n, 0);
    in[v] = 1;
    groups.push_back(std::move(in));
  }
  for (int level = 2; level <= t.max_tier(); ++level) {
    std::vector<int> component(n, -1);
    int next = 0;
    for (node_id v = 0; v < n; ++v) {
      if (t.is_host(v) || t.nodes()[v].tier >= level || component[v] >= 0) continue;
      std::vector<node_id> stack{v};
      component[v] = next;
      while (!stack.empty()) {
        const node_id x = stack.back();
        stack.pop_back();
        for (arc_id a : t.out_arcs(x)) {
          const node_id y = t.arc_to(a);
          if (t.is_host(y) || t.nodes()[y].tier >= level || component[y] >= 0) continue;
          component[y] = next;
          stack.push_back(y);
        }
      }
      ++next;
    }
    if (next < 2) continue;
    for (int c = 0; c < next; ++c) {
      std::vector<int> in(n, 0);
      for (node_id v = 0; v < n; ++v) in[v] = component[v] == c;
      groups.push_back(std::move(in));
    }
  }
  for (const auto& in : groups) {
    double out_demand = 0, in_demand = 0, out_capacity = 0, in_capacity = 0;
    for (const auto& d : f.fabric) {
      if (in[d.src] && !in[d.dst]) out_demand += d.bps;
      if (!in[d.src] && in[d.dst]) in_demand += d.bps;
    }
    for (arc_id a = 0; a < t.arc_count(); ++a) {
      const node_id x = t.arc_from(a), y = t.arc_to(a);
      if (t.is_host(x) || t.is_host(y)) continue;
      if (in[x] && !in[y]) out_capacity += t.capacity(a);
      if (!in[x] && in[y]) in_capacity += t.capacity(a);
    }
    if (out_demand > 0) bound = std::max(bound, out_capacity > 0 ? out_demand / out_capacity : lp_infinity);
    if (in_demand > 0) bound = std::max(bound, in_capacity > 0 ? in_demand / in_capacity : lp_infinity);
  }
  return bound;
}

mcf_result optimal_mcf(const topology& t, const traffic_matrix& m, const lp_solver& solver) {
  return solve_mcf(t, m, solver, false);
}
mcf_result optimal_mcf_per_pair(const topology& t, const traffic_matrix& m, const lp_solver& solver) {
  return solve_mcf(t, m, solver, true);
}

split_routing shortest_path_candidates(const topology& t, std::span<const node_id> endpoints, std::size_t max_paths) {
  split_routing r;
  std::vector<node_id> ends(endpoints.begin(), endpoints.end());
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  if (ends.empty()) {
    r.pair_paths.push_back(0);
    r.path_begin.push_back(0);
    return r;
  }
  const routes rt(t, ends);
  std::vector<arc_id> stack;
  r.pair_paths.push_back(0);
  r.path_begin.push_back(0);
  for (node_id s : ends) {
    for (node_id e : ends) {
      if (s == e) continue;
      if (rt.distance(s, e) == routes::unreachable()) {
        throw te_error(fmt::format("no path from {} to {}", t.nodes()[s].name, t.nodes()[e].name));
      }
      r.pairs.emplace_back(s, e);
      std::size_t found = 0;
      // Depth-first along next hops, in next-hop order.
      const auto walk = [&](auto&& self, node_id v) -> void {
        if (found >= max_paths) return;
        if (v == e) {
          r.path_arcs.insert(r.path_arcs.end(), stack.begin(), stack.end());
          r.path_begin.push_back(static_cast<std::uint32_t>(r.path_arcs.size()));
          ++found;
          return;
        }
        for (arc_id a : rt.next_hops(v, e)) {
          stack.push_back(a);
          self(self, t.arc_to(a));
          stack.pop_back();
          if (found >= max_paths) return;
        }
      };
      walk(walk, s);
      for (std::size_t i = 0; i < found; ++i) r.fraction.push_back(1.0 / static_cast<double>(found));
      r.pair_paths.push_back(static_cast<std::uint32_t>(r.fraction.size()));
    }
  }
  return r;
}

namespace {

// The split LP of one design matrix, in flow form (a path's variable is its pair's demand on it,
// so a series of matrices changes only right-hand sides, costs and bounds):
//   columns  U; y_p in [0, D_i] per candidate path p of pair i (in units of `scale`); t_i per pair
//            that may burst, in [0, D_i · scale / its narrowest bottleneck]
//   rows     per pair        Σ_p y_p = D_i
//            per arc         Σ_{p ∋ a} y_p · scale / capacity_a - U <= 0
//            per path of a bursting pair   y_p · scale / bottleneck_p - t_i <= 0
//   minimise U + Σ c_i t_i, c_i = burst_i / demand_i (so that c_i t_i is the utilisation one burst
//   adds to the pair's most exposed path, as optimise_split's header says)
// Solved by an interior-point method, which returns the centre of the optimal splits (see te.hpp).
class split_lp {
 public:
  split_lp(const topology& t, const split_routing& r, std::span<const char> may_burst, const lp_solver& solver)
      : r_(r), solver_(solver) {
    for (const auto& l : t.links()) scale_ = std::max(scale_, l.capacity_bps);
    lp_.interior = true;
    u_ = lp_.add_column(1.0);
    const std::size_t paths = r.fraction.size();
    y_.resize(paths);
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      for (std::uint32_t p = r.pair_paths[i]; p < r.pair_paths[i + 1]; ++p) y_[p] = lp_.add_column(0.0, 0.0, 0.0);
    }
    t_col_.assign(r.pairs.size(), -1);
    narrowest_.assign(r.pairs.size(), lp_infinity);
    std::vector<double> bottleneck(paths, lp_infinity);
    for (std::size_t p = 0; p < paths; ++p) {
      for (std::uint32_t k = r.path_begin[p]; k < r.path_begin[p + 1]; ++k) {
        bottleneck[p] = std::min(bottleneck[p], t.capacity(r.path_arcs[k]));
      }
    }
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      for (std::uint32_t p = r.pair_paths[i]; p < r.pair_paths[i + 1]; ++p)
        narrowest_[i] = std::min(narrowest_[i], bottleneck[p]);
      if (i < may_burst.size() && may_burst[i]) t_col_[i] = lp_.add_column(0.0, 0.0, 0.0);
    }
    first_pair_row_ = lp_.rows.size();
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      lp_row row;
      row.lower = row.upper = 0;
      for (std::uint32_t p = r.pair_paths[i]; p < r.pair_paths[i + 1]; ++p) row.terms.emplace_back(y_[p], 1.0);
      lp_.rows.push_back(std::move(row));
    }
    std::vector<std::vector<std::uint32_t>> arc_paths(t.arc_count());
    for (std::size_t p = 0; p < paths; ++p) {
      for (std::uint32_t k = r.path_begin[p]; k < r.path_begin[p + 1]; ++k)
        arc_paths[r.path_arcs[k]].push_back(static_cast<std::uint32_t>(p));
    }
    for (arc_id a = 0; a < t.arc_count(); ++a) {
      if (arc_paths[a].empty()) continue;
      lp_row row;
      for (auto p : arc_paths[a]) row.terms.emplace_back(y_[p], scale_ / t.capacity(a));
      row.terms.emplace_back(u_, -1.0);
      row.upper = 0;
      lp_.rows.push_back(std::move(row));
    }
    for (std::size_t i = 0; i < r.pairs.size(); ++i) {
      if (t_col_[i] < 0) continue;
      for (std::uint32_t p = r.pair_paths[i]; p < r.pair_paths[i + 1]; ++p) {
        lp_row row;
        row.terms = {{y_[p], scale_ / bottleneck[p]}, {static_cast<std::uint32_t>(t_col_[i]), -1.0}};
        row.upper = 0;
        lp_.rows.push_back(std::move(row));
      }
    }
  }

  // demand and burst per pair (bps, switch level); sets out.fraction (pairs without demand: an
  // even split). Returns the MLU part of the optimum on the design.
  double solve(std::span<const double> demand, std::span<const double> burst, split_routing& out) {
    const std::size_t pairs = r_.pairs.size();
    for (std::size_t i = 0; i < pairs; ++i) {
      const double d = demand[i] / scale_;
      lp_.rows[first_pair_row_ + i].lower = lp_.rows[first_pair_row_ + i].upper = d;
      for (std::uint32_t p = r_.pair_paths[i]; p < r_.pair_paths[i + 1]; ++p) lp_.upper[y_[p]] = d;
      if (t_col_[i] >= 0) {
        const auto c = static_cast<std::size_t>(t_col_[i]);
        lp_.objective[c] = demand[i] > 0 && i < burst.size() && burst[i] > 0 ? burst[i] / demand[i] : 0.0;
        lp_.upper[c] = d * scale_ / narrowest_[i];
      }
    }
    out = r_;
    const auto sol = solver_.solve(lp_);
    if (sol.status != lp_status::optimal) throw te_error("the split LP was not solved: " + sol.message);
    for (std::size_t i = 0; i < pairs; ++i) {
      const std::uint32_t b = r_.pair_paths[i], e = r_.pair_paths[i + 1];
      double sum = 0;
      for (std::uint32_t p = b; p < e; ++p) sum += std::max(0.0, sol.x[y_[p]]);
      for (std::uint32_t p = b; p < e; ++p) {
        out.fraction[p] = sum > 0 ? std::max(0.0, sol.x[y_[p]]) / sum : 1.0 / static_cast<double>(e - b);
      }
    }
    return sol.x[u_];
  }

 private:
  const split_routing& r_;
  const lp_solver& solver_;
  linear_program lp_;
  double scale_ = 0;
  std::uint32_t u_ = 0;
  std::vector<std::uint32_t> y_;
  std::vector<std::int64_t> t_col_;
  std::vector<double> narrowest_;
  std::size_t first_pair_row_ = 0;
};

std::map<std::pair<node_id, node_id>, std::size_t> pair_index(const split_routing& r) {
  std::map<std::pair<node_id, node_id>, std::size_t> index;
  for (std::size_t i = 0; i < r.pairs.size(); ++i) index[r.pairs[i]] = i;
  return index;
}

// Per pair of `r`: the switch-level demand of `m` (already folded), or of `bursts`.
std::vector<double> per_pair(const topology& t, const split_routing& r,
                             const std::map<std::pair<node_id, node_id>, std::size_t>& index,
                             std::span<const demand> ds) {
  std::vector<double> out(r.pairs.size(), 0.0);
  for (const auto& d : ds) {
    node_id s = d.src, e = d.dst;
    if (t.is_host(s)) s = t.attachment(s);
    if (t.is_host(e)) e = t.attachment(e);
    if (s == e || !(d.bps > 0)) continue;
    const auto it = index.find({s, e});
    if (it == index.end()) {
      throw te_error(fmt::format("no candidate paths from {} to {}", t.nodes()[s].name, t.nodes()[e].name));
    }
    out[it->second] += d.bps;
  }
  return out;
}

}  // namespace

double optimise_split(const topology& t, split_routing& r, const traffic_matrix& design, const lp_solver& solver,
                      std::span<const demand> bursts) {
  const auto index = pair_index(r);
  const auto d = per_pair(t, r, index, fold(t, design).fabric);
  const auto b = per_pair(t, r, index, bursts);
  std::vector<char> may_burst(r.pairs.size(), 0);
  for (std::size_t i = 0; i < b.size(); ++i) may_burst[i] = b[i] > 0 && d[i] > 0;
  const split_routing candidates = r;
  split_lp lp(t, candidates, may_burst, solver);
  return lp.solve(d, b, r);
}

arc_rates split_loads(const topology& t, const split_routing& r, const traffic_matrix& m) {
  auto f = fold(t, m);
  arc_rates loads = f.fixed;
  std::map<std::pair<node_id, node_id>, std::size_t> index;
  for (std::size_t i = 0; i < r.pairs.size(); ++i) index[r.pairs[i]] = i;
  for (const auto& d : f.fabric) {
    const auto it = index.find({d.src, d.dst});
    if (it == index.end()) {
      throw te_error(fmt::format("no candidate paths from {} to {}", t.nodes()[d.src].name, t.nodes()[d.dst].name));
    }
    for (std::uint32_t p = r.pair_paths[it->second]; p < r.pair_paths[it->second + 1]; ++p) {
      for (std::uint32_t k = r.path_begin[p]; k < r.path_begin[p + 1]; ++k)
        loads[r.path_arcs[k]] += d.bps * r.fraction[p];
    }
  }
  return loads;
}

te_evaluation evaluate_te(const topology& t, std::span<const traffic_matrix> matrices,
                          std::span<const te_scheme> schemes, std::size_t history, const lp_solver& solver,
                          const te_options& options) {
  te_evaluation ev;
  ev.schemes.assign(schemes.begin(), schemes.end());
  if (history < 1) throw te_error("the robust scheme needs a history of at least one matrix");
  const double robustness = options.robustness;
  if (!(robustness >= 0) || robustness > 1000) throw te_error("the robustness weight is 0 to 1000");
  std::vector<traffic_matrix> folded_matrices;
  std::vector<node_id> endpoints;
  for (const auto& m : matrices) {
    folded_matrices.push_back(switch_level(t, m));
    for (const auto& d : folded_matrices.back().demands) {
      endpoints.push_back(d.src);
      endpoints.push_back(d.dst);
    }
  }
  const auto wants = [&](te_scheme s) { return std::find(schemes.begin(), schemes.end(), s) != schemes.end(); };
  split_routing candidates;
  // Per matrix i >= 1 and candidate pair: what predicted designs for (the previous matrix), and
  // what robust designs for (the window's means and bursts).
  std::vector<std::vector<double>> previous(matrices.size()), mean(matrices.size()), burst(matrices.size());
  std::vector<char> may_burst;
  if (wants(te_scheme::predicted) || wants(te_scheme::robust)) {
    candidates = shortest_path_candidates(t, endpoints);
    const auto index = pair_index(candidates);
    std::vector<std::vector<double>> per_matrix(matrices.size());
    for (std::size_t i = 0; i < matrices.size(); ++i)
      per_matrix[i] = per_pair(t, candidates, index, folded_matrices[i].demands);
    may_burst.assign(candidates.pairs.size(), 0);
    for (std::size_t i = 1; i < matrices.size(); ++i) {
      previous[i] = per_matrix[i - 1];
      if (!wants(te_scheme::robust)) continue;
      // Mean and peak of each pair over the window (a pair absent from a matrix counts 0).
      const std::size_t first = i - std::min(i, history), n = i - first;
      std::vector<double> sum(candidates.pairs.size(), 0.0), peak(candidates.pairs.size(), 0.0);
      for (std::size_t j = first; j < i; ++j) {
        for (std::size_t k = 0; k < sum.size(); ++k) {
          sum[k] += per_matrix[j][k];
          peak[k] = std::max(peak[k], per_matrix[j][k]);
        }
      }
      mean[i].resize(sum.size());
      burst[i].resize(sum.size());
      for (std::size_t k = 0; k < sum.size(); ++k) {
        mean[i][k] = sum[k] / static_cast<double>(n);
        burst[i][k] = robustness * (peak[k] - mean[i][k]);
        if (burst[i][k] > 0 && mean[i][k] > 0) may_burst[k] = 1;
      }
    }
  }
  // Every matrix's row depends only on the precomputed designs: rows are computed by `workers`
  // threads, each with its own LPs (the solver may be called from several threads at once).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ev.mlu.assign(matrices.size(), std::vector<double>(schemes.size(), nan));
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex report;
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  const auto work = [&] {
    try {
      std::optional<split_lp> predicted_lp, robust_lp;
      if (wants(te_scheme::predicted)) predicted_lp.emplace(t, candidates, std::vector<char>{}, solver);
      if (wants(te_scheme::robust)) robust_lp.emplace(t, candidates, may_burst, solver);
      split_routing split;
      for (std::size_t i = next++; i < matrices.size() && !failed; i = next++) {
        auto& row = ev.mlu[i];
        for (std::size_t k = 0; k < schemes.size(); ++k) {
          switch (schemes[k]) {
            case te_scheme::shortest_path:
              row[k] = max_utilisation(t, shortest_path_loads(t, matrices[i]));
              break;
            case te_scheme::ecmp:
              row[k] = max_utilisation(t, ecmp_loads(t, matrices[i]));
              break;
            case te_scheme::optimal: {
              // When ECMP meets a cut's bound no routing beats it, and the LP is not needed.
              const double ecmp = max_utilisation(t, ecmp_loads(t, matrices[i]));
              row[k] = ecmp <= cut_lower_bound(t, matrices[i]) * (1 + 1e-12)
                           ? ecmp
                           : solve_mcf(t, matrices[i], solver, false).mlu;
              break;
            }
            case te_scheme::predicted:
            case te_scheme::robust:
              if (i == 0) break;  // no prediction yet
              if (schemes[k] == te_scheme::predicted)
                predicted_lp->solve(previous[i], {}, split);
              else
                robust_lp->solve(mean[i], burst[i], split);
              row[k] = max_utilisation(t, split_loads(t, split, matrices[i]));
              break;
          }
        }
        const std::size_t finished = ++done;
        if (options.progress) {
          const std::lock_guard lock(report);
          options.progress(finished, matrices.size());
        }
      }
    } catch (...) {
      const std::lock_guard lock(report);
      if (!failed.exchange(true)) error = std::current_exception();
    }
  };
  const std::size_t workers = std::clamp<std::size_t>(options.workers, 1, std::max<std::size_t>(matrices.size(), 1));
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (auto& th : threads) th.join();
  if (error) std::rethrow_exception(error);
  return ev;
}

std::vector<traffic_matrix> parse_matrices(std::string_view text, const topology& t, const matrix_limits& limits) {
  if (text.size() > limits.max_text) {
    throw te_error(fmt::format("the matrix text is {} bytes; at most {}", text.size(), limits.max_text),
                   fmt::format("the matrix text is over the limit of {} bytes", limits.max_text));
  }
  std::vector<traffic_matrix> out;
  std::map<std::pair<node_id, node_id>, std::size_t> in_matrix;  // pair -> line, for the current matrix
  std::size_t line_no = 0, pos = 0, total = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    const auto fail = [&](const std::string& what, const std::string& wordless = {}) {
      return te_error(fmt::format("line {}: {}", line_no, what),
                      wordless.empty() ? std::string() : fmt::format("line {}: {}", line_no, wordless));
    };
    for (const char c : line) {
      const auto b = static_cast<unsigned char>(c);
      if ((b < 0x20 && b != '\t' && b != '\r') || b == 0x7f) {
        throw fail(fmt::format("binary data (byte 0x{:02x}): not a matrix file, which is text lines 'TIME SOURCE "
                               "DESTINATION RATE'",
                               b),
                   "binary data: not a matrix file, which is text lines 'TIME SOURCE DESTINATION RATE'");
      }
    }
    if (line.size() > limits.max_line) throw fail(fmt::format("the line is longer than {} bytes", limits.max_line));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto w = ascii::words(line);
    if (w.empty()) continue;
    if (w.size() != 4) throw fail("expected 'TIME SOURCE DESTINATION RATE', e.g. '0s leaf1 leaf2 4Gbps'");
    double time = 0;
    try {
      time = units::parse_duration_s(w[0]);
    } catch (const units::unit_error& e) {
      const bool plain = w[0].size() <= 40 && ascii::excerpt(w[0]) == w[0];
      throw fail(plain ? fmt::format("bad time: {}", e.what())
                       : fmt::format("bad time '{}': write a number and a unit, e.g. 1.5s", ascii::excerpt(w[0])),
                 "a bad time: write a number and a unit, e.g. 1.5s");
    }
    std::string why;
    const auto parsed_rate = parse_rate_word(w[3], why);
    if (!parsed_rate) throw fail("bad rate: " + why, "a bad rate: write a number and a unit, e.g. 4Gbps");
    const double rate = *parsed_rate;
    if (!(rate >= 0) || rate > 1e15) throw fail("a rate is 0 to 1000Tbps");
    if (!(time >= 0) || time > 1e9) throw fail("a time is 0 s to 1e9 s");
    const auto src = t.find(w[1]), dst = t.find(w[2]);
    if (!src)
      throw fail(fmt::format("unknown node '{}'", ascii::excerpt(w[1])), "the source is not a node of the topology");
    if (!dst)
      throw fail(fmt::format("unknown node '{}'", ascii::excerpt(w[2])),
                 "the destination is not a node of the topology");
    if (*src == *dst)
      throw fail(fmt::format("a demand from '{}' to itself", ascii::excerpt(w[1])), "a demand from a node to itself");
    if (out.empty() || time > out.back().time_s) {
      if (out.size() >= limits.max_matrices) throw fail(fmt::format("more than {} matrices", limits.max_matrices));
      out.push_back(traffic_matrix{time, {}});
      in_matrix.clear();
    } else if (time < out.back().time_s) {
      throw fail(fmt::format("time {} s is before the previous line's {} s: matrices must be in time order", time,
                             out.back().time_s),
                 "a time before the previous line's: matrices must be in time order");
    }
    const auto [it, fresh] = in_matrix.emplace(std::pair{*src, *dst}, line_no);
    if (!fresh) {
      throw fail(fmt::format("{} -> {} appears twice at {} s (first on line {})", ascii::excerpt(w[1]),
                             ascii::excerpt(w[2]), time, it->second),
                 fmt::format("a pair appears twice in one matrix (first on line {})", it->second));
    }
    if (++total > limits.max_demands) throw fail(fmt::format("more than {} demands", limits.max_demands));
    out.back().demands.push_back(demand{*src, *dst, rate});
  }
  if (out.empty()) throw te_error("no demands: each line is 'TIME SOURCE DESTINATION RATE'");
  return out;
}

std::string matrices_to_text(const topology& t, std::span<const traffic_matrix> matrices) {
  std::string out = "# time source destination rate\n";
  for (const auto& m : matrices) {
    for (const auto& d : m.demands) {
      out += fmt::format("{}s {} {} {}\n", m.time_s, t.nodes()[d.src].name, t.nodes()[d.dst].name, rate_text(d.bps));
    }
  }
  return out;
}

std::vector<traffic_matrix> generate_matrices(const topology& t, const matrix_generation& g) {
  // Between the switches with hosts; in a fabric without hosts, between the lowest-tier switches.
  std::vector<node_id> ends = t.edge_switches();
  if (ends.empty()) {
    int lowest = std::numeric_limits<int>::max();
    for (const auto& n : t.nodes()) lowest = std::min(lowest, n.tier);
    for (node_id v = 0; v < t.nodes().size(); ++v) {
      if (t.nodes()[v].tier == lowest) ends.push_back(v);
    }
  }
  if (ends.size() < 2) throw te_error("generated matrices need at least two endpoint switches");
  if (g.count < 1 || g.count > 100000) throw te_error("the number of matrices is 1 to 100000");
  if (!(g.load > 0) || g.load > 100) throw te_error("the load is above 0 and at most 100");
  if (!(g.noise >= 0 && g.noise < 1)) throw te_error("the noise is 0 to below 1");
  if (!(g.bursty_share >= 0 && g.bursty_share <= 1) || !(g.burst_probability >= 0 && g.burst_probability <= 1)) {
    throw te_error("shares and probabilities are 0 to 1");
  }
  if (!(g.burst_factor >= 1) || g.burst_factor > 1000) throw te_error("the burst factor is 1 to 1000");
  if (!(g.interval_s > 0)) throw te_error("the interval must be positive");
  calc::prng rng(g.seed);
  std::vector<double> weight(ends.size());
  for (auto& w : weight) w = 0.5 + rng.uniform();
  struct pair_state {
    node_id src, dst;
    double base;
    bool bursty;
  };
  std::vector<pair_state> pairs;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    for (std::size_t j = 0; j < ends.size(); ++j) {
      if (i != j) pairs.push_back({ends[i], ends[j], weight[i] * weight[j], rng.chance(g.bursty_share)});
    }
  }
  traffic_matrix base;
  for (const auto& p : pairs) base.demands.push_back(demand{p.src, p.dst, p.base});
  const double mlu = max_utilisation(t, ecmp_loads(t, base));
  const double scale = g.load / mlu;
  std::vector<traffic_matrix> out;
  for (std::size_t k = 0; k < g.count; ++k) {
    traffic_matrix m;
    m.time_s = static_cast<double>(k) * g.interval_s;
    for (const auto& p : pairs) {
      double v = p.base * scale * (1 + g.noise * (2 * rng.uniform() - 1));
      if (p.bursty && rng.chance(g.burst_probability)) {
        v *= g.burst_factor;
        ++m.bursts;
      }
      m.demands.push_back(demand{p.src, p.dst, std::round(v)});
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace netlib::dc
