// Theory of operation: every scheme first folds a matrix onto the switches (a host's demand
// loads its own link and counts as its switch's), then routes the switch-level demands: ECMP and
// shortest path by pushing each destination's traffic down its shortest-path graph from the
// farthest switch inwards; optimal, predicted and robust by building a linear program (scaled so
// that its coefficients are utilisations, near 1) for the injected solver.
#include "netlib/dc/te.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

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
    if (d.src >= t.nodes().size() || d.dst >= t.nodes().size()) throw te_error("a demand names a node that does not exist");
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

bool fabric_arc(const topology& t, arc_id a) { return !t.is_host(t.arc_from(a)) && !t.is_host(t.arc_to(a)); }

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
    for (std::size_t c = 0; c < commodities.size(); ++c) row.terms.emplace_back(static_cast<std::uint32_t>(first_flow + c * na + i), coef);
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
    case te_scheme::shortest_path: return "shortest-path";
    case te_scheme::ecmp: return "ecmp";
    case te_scheme::optimal: return "optimal";
    case te_scheme::predicted: return "predicted";
    case te_scheme::robust: return "robust";
  }
  return "?";
}

bool parse_scheme(std::string_view text, te_scheme& out) {
  for (auto s : {te_scheme::shortest_path, te_scheme::ecmp, te_scheme::optimal, te_scheme::predicted, te_scheme::robust}) {
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

arc_rates shortest_path_loads(const topology& t, const traffic_matrix& m) { return push_down(t, m, false); }
arc_rates ecmp_loads(const topology& t, const traffic_matrix& m) { return push_down(t, m, true); }

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

double optimise_split(const topology& t, split_routing& r, std::span<const traffic_matrix> design, const lp_solver& solver,
                      std::span<const demand> bursts) {
  std::map<std::pair<node_id, node_id>, std::size_t> index;
  for (std::size_t i = 0; i < r.pairs.size(); ++i) index[r.pairs[i]] = i;
  const auto pair_of = [&](node_id s, node_id e) {
    const auto it = index.find({s, e});
    if (it == index.end()) {
      throw te_error(fmt::format("no candidate paths from {} to {}", t.nodes()[s].name, t.nodes()[e].name));
    }
    return it->second;
  };
  std::vector<std::vector<double>> d(design.size(), std::vector<double>(r.pairs.size(), 0.0));
  std::vector<double> burst(r.pairs.size(), 0.0);
  std::vector<char> used(r.pairs.size(), 0);
  for (std::size_t m = 0; m < design.size(); ++m) {
    for (const auto& dm : fold(t, design[m]).fabric) {
      const auto i = pair_of(dm.src, dm.dst);
      d[m][i] += dm.bps;
      used[i] = 1;
    }
  }
  for (const auto& b : bursts) {
    node_id s = b.src, e = b.dst;
    if (t.is_host(s)) s = t.attachment(s);
    if (t.is_host(e)) e = t.attachment(e);
    if (s == e || !(b.bps > 0)) continue;
    const auto i = pair_of(s, e);
    burst[i] += b.bps;
    used[i] = 1;
  }
  // Even split everywhere first; the LP then sets the used pairs.
  for (std::size_t i = 0; i < r.pairs.size(); ++i) {
    const std::uint32_t b = r.pair_paths[i], e = r.pair_paths[i + 1];
    for (std::uint32_t p = b; p < e; ++p) r.fraction[p] = 1.0 / static_cast<double>(e - b);
  }
  // The burst rows are written in units of the largest capacity, so that their coefficients are
  // near 1 like the rest (the solver's tolerances are absolute).
  double scale = 0;
  for (const auto& l : t.links()) scale = std::max(scale, l.capacity_bps);
  linear_program lp;
  const auto u = lp.add_column(1.0);
  std::vector<std::int64_t> column(r.fraction.size(), -1);
  std::vector<std::vector<std::uint32_t>> arc_paths(t.arc_count());
  std::vector<std::size_t> path_pair(r.fraction.size());
  for (std::size_t i = 0; i < r.pairs.size(); ++i) {
    if (!used[i]) continue;
    lp_row one;
    one.lower = one.upper = 1.0;
    for (std::uint32_t p = r.pair_paths[i]; p < r.pair_paths[i + 1]; ++p) {
      column[p] = lp.add_column(0.0, 0.0, 1.0);
      path_pair[p] = i;
      one.terms.emplace_back(static_cast<std::uint32_t>(column[p]), 1.0);
      for (std::uint32_t k = r.path_begin[p]; k < r.path_begin[p + 1]; ++k) arc_paths[r.path_arcs[k]].push_back(p);
    }
    lp.rows.push_back(std::move(one));
    if (burst[i] > 0) {
      // s_i >= fraction_p · scale / bottleneck_p for each path, with cost burst_i / scale: the
      // utilisation one burst adds to the pair's most exposed path.
      const auto si = lp.add_column(burst[i] / scale);
      for (std::uint32_t p = r.pair_paths[i]; p < r.pair_paths[i + 1]; ++p) {
        double bottleneck = lp_infinity;
        for (std::uint32_t k = r.path_begin[p]; k < r.path_begin[p + 1]; ++k) {
          bottleneck = std::min(bottleneck, t.capacity(r.path_arcs[k]));
        }
        lp_row row;
        row.terms = {{static_cast<std::uint32_t>(column[p]), scale / bottleneck}, {si, -1.0}};
        row.upper = 0;
        lp.rows.push_back(std::move(row));
      }
    }
  }
  if (lp.columns() == 1) return 0;
  for (std::size_t m = 0; m < design.size(); ++m) {
    for (arc_id a = 0; a < t.arc_count(); ++a) {
      if (arc_paths[a].empty()) continue;
      lp_row row;
      for (std::uint32_t p : arc_paths[a]) {
        const double coef = d[m][path_pair[p]] / t.capacity(a);
        if (coef != 0) row.terms.emplace_back(static_cast<std::uint32_t>(column[p]), coef);
      }
      if (row.terms.empty()) continue;
      row.terms.emplace_back(u, -1.0);
      row.upper = 0;
      lp.rows.push_back(std::move(row));
    }
  }
  const auto sol = solver.solve(lp);
  if (sol.status != lp_status::optimal) throw te_error("the split LP was not solved: " + sol.message);
  for (std::size_t p = 0; p < column.size(); ++p) {
    if (column[p] >= 0) r.fraction[p] = std::clamp(sol.x[static_cast<std::size_t>(column[p])], 0.0, 1.0);
  }
  return sol.x[u];
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
      for (std::uint32_t k = r.path_begin[p]; k < r.path_begin[p + 1]; ++k) loads[r.path_arcs[k]] += d.bps * r.fraction[p];
    }
  }
  return loads;
}

te_evaluation evaluate_te(const topology& t, std::span<const traffic_matrix> matrices, std::span<const te_scheme> schemes,
                          std::size_t history, const lp_solver& solver, double robustness) {
  te_evaluation ev;
  ev.schemes.assign(schemes.begin(), schemes.end());
  if (history < 1) throw te_error("the robust scheme needs a history of at least one matrix");
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
  const bool splits = std::any_of(schemes.begin(), schemes.end(),
                                  [](te_scheme s) { return s == te_scheme::predicted || s == te_scheme::robust; });
  split_routing candidates;
  if (splits) candidates = shortest_path_candidates(t, endpoints);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < matrices.size(); ++i) {
    std::vector<double> row;
    for (te_scheme s : schemes) {
      switch (s) {
        case te_scheme::shortest_path: row.push_back(max_utilisation(t, shortest_path_loads(t, matrices[i]))); break;
        case te_scheme::ecmp: row.push_back(max_utilisation(t, ecmp_loads(t, matrices[i]))); break;
        case te_scheme::optimal: row.push_back(optimal_mcf(t, matrices[i], solver).mlu); break;
        case te_scheme::predicted:
        case te_scheme::robust: {
          if (i == 0) {
            row.push_back(nan);
            break;
          }
          traffic_matrix design;
          std::vector<demand> bursts;
          if (s == te_scheme::predicted) {
            design = folded_matrices[i - 1];
          } else {
            // Mean and peak of each pair over the window (a pair absent from a matrix counts 0).
            const std::size_t first = i - std::min(i, history), n = i - first;
            std::map<std::pair<node_id, node_id>, std::pair<double, double>> stats;  // sum, peak
            for (std::size_t j = first; j < i; ++j) {
              for (const auto& d : folded_matrices[j].demands) {
                auto& v = stats[{d.src, d.dst}];
                v.first += d.bps;
                v.second = std::max(v.second, d.bps);
              }
            }
            for (const auto& [k, v] : stats) {
              const double mean = v.first / static_cast<double>(n);
              design.demands.push_back(demand{k.first, k.second, mean});
              bursts.push_back(demand{k.first, k.second, robustness * (v.second - mean)});
            }
          }
          auto split = candidates;
          optimise_split(t, split, std::span<const traffic_matrix>(&design, 1), solver, bursts);
          row.push_back(max_utilisation(t, split_loads(t, split, matrices[i])));
          break;
        }
      }
    }
    ev.mlu.push_back(std::move(row));
  }
  return ev;
}

std::vector<traffic_matrix> parse_matrices(std::string_view text, const topology& t, const matrix_limits& limits) {
  if (text.size() > limits.max_text) {
    throw te_error(fmt::format("the matrix text is {} bytes; at most {}", text.size(), limits.max_text));
  }
  std::vector<traffic_matrix> out;
  std::map<std::pair<node_id, node_id>, std::size_t> in_matrix;  // pair -> line, for the current matrix
  std::size_t line_no = 0, pos = 0, total = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    const auto fail = [&](const std::string& what) { return te_error(fmt::format("line {}: {}", line_no, what)); };
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
      const bool plain = w[0].size() <= 40 && shown(w[0]) == w[0];
      throw fail(plain ? fmt::format("bad time: {}", e.what())
                       : fmt::format("bad time '{}': write a number and a unit, e.g. 1.5s", shown(w[0])));
    }
    std::string why;
    const auto parsed_rate = parse_rate_word(w[3], why);
    if (!parsed_rate) throw fail("bad rate: " + why);
    const double rate = *parsed_rate;
    if (!(rate >= 0) || rate > 1e15) throw fail("a rate is 0 to 1000Tbps");
    if (!(time >= 0) || time > 1e9) throw fail("a time is 0 s to 1e9 s");
    const auto src = t.find(w[1]), dst = t.find(w[2]);
    if (!src) throw fail(fmt::format("unknown node '{}'", shown(w[1])));
    if (!dst) throw fail(fmt::format("unknown node '{}'", shown(w[2])));
    if (*src == *dst) throw fail(fmt::format("a demand from '{}' to itself", shown(w[1])));
    if (out.empty() || time > out.back().time_s) {
      if (out.size() >= limits.max_matrices) throw fail(fmt::format("more than {} matrices", limits.max_matrices));
      out.push_back(traffic_matrix{time, {}});
      in_matrix.clear();
    } else if (time < out.back().time_s) {
      throw fail(fmt::format("time {} s is before the previous line's {} s: matrices must be in time order", time,
                             out.back().time_s));
    }
    const auto [it, fresh] = in_matrix.emplace(std::pair{*src, *dst}, line_no);
    if (!fresh) throw fail(fmt::format("{} -> {} appears twice at {} s (first on line {})", shown(w[1]), shown(w[2]), time, it->second));
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
      if (p.bursty && rng.chance(g.burst_probability)) v *= g.burst_factor;
      m.demands.push_back(demand{p.src, p.dst, std::round(v)});
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace netlib::dc
