// Traffic engineering: MLUs worked out by hand on small graphs, the aggregated LP against the
// per-pair LP, both against an exhaustive search over path splits on tiny graphs, the predicted
// and robust schemes on a series built so that their answers are known, and the matrix format.
#include "netlib/dc/te.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "netlib/calc/prng.hpp"
#include "netlib/dc/glpk_solver.hpp"

namespace te_test {

using namespace netlib::dc;

const glpk_solver solver;

traffic_matrix matrix(const topology& t, std::initializer_list<std::tuple<const char*, const char*, double>> ds) {
  traffic_matrix m;
  for (const auto& [s, d, bps] : ds) m.demands.push_back(demand{*t.find(s), *t.find(d), bps});
  return m;
}

topology triangle(double ab, double ac, double cb) {
  return parse_topology(fmt::format("switch a\nswitch b\nswitch c\nlink a b {}\nlink a c {}\nlink c b {}\n",
                                    rate_text(ab), rate_text(ac), rate_text(cb)));
}

TEST(DcTe, triangle_by_hand) {
  // 15 Gbps from a to b over 10 Gbps links: 7.5 direct, 7.5 through c.
  const auto t = triangle(10e9, 10e9, 10e9);
  const auto m = matrix(t, {{"a", "b", 15e9}});
  EXPECT_NEAR(optimal_mcf(t, m, solver).mlu, 0.75, 1e-9);
  EXPECT_NEAR(optimal_mcf_per_pair(t, m, solver).mlu, 0.75, 1e-9);
  EXPECT_DOUBLE_EQ(max_utilisation(t, ecmp_loads(t, m)), 1.5);  // one shortest path
  EXPECT_DOUBLE_EQ(max_utilisation(t, shortest_path_loads(t, m)), 1.5);
  // Unequal links: x/10 = (20 - x)/20 gives x = 20/3 and an MLU of 2/3.
  const auto u = triangle(10e9, 20e9, 20e9);
  EXPECT_NEAR(optimal_mcf(u, matrix(u, {{"a", "b", 20e9}}), solver).mlu, 2.0 / 3.0, 1e-9);
  // a sends 10 to b and 10 to c: a's two links are full whatever the routing.
  EXPECT_NEAR(optimal_mcf(t, matrix(t, {{"a", "b", 10e9}, {"a", "c", 10e9}}), solver).mlu, 1.0, 1e-9);
}

const char* weak_leaf_spine =
    "switch leaf1\nswitch leaf2\nswitch leaf3\nswitch spine1\nswitch spine2\n"
    "link leaf1 spine1 10Gbps\nlink leaf1 spine2 30Gbps\n"
    "link leaf2 spine1 40Gbps\nlink leaf2 spine2 40Gbps\nlink leaf3 spine1 40Gbps\nlink leaf3 spine2 40Gbps\n";

TEST(DcTe, leaf_spine_with_a_weak_uplink_by_hand) {
  const auto t = parse_topology(weak_leaf_spine);
  const auto m = matrix(t, {{"leaf1", "leaf2", 4e9}});
  // ECMP halves: 2 Gbps on the 10 Gbps uplink. Optimal: x/10 = (4 - x)/30, x = 1, MLU 0.1.
  EXPECT_DOUBLE_EQ(max_utilisation(t, ecmp_loads(t, m)), 0.2);
  EXPECT_DOUBLE_EQ(max_utilisation(t, shortest_path_loads(t, m)), 0.4);
  EXPECT_NEAR(optimal_mcf(t, m, solver).mlu, 0.1, 1e-9);
  auto split = shortest_path_candidates(t, std::vector<node_id>{*t.find("leaf1"), *t.find("leaf2")});
  EXPECT_EQ(split.pairs.size(), 2u);
  // The split LPs are solved by an interior-point method: optimal to about 1e-8.
  EXPECT_NEAR(optimise_split(t, split, m, solver), 0.1, 1e-7);
  EXPECT_NEAR(max_utilisation(t, split_loads(t, split, m)), 0.1, 1e-7);
}

TEST(DcTe, hosts_count_as_their_switch_and_load_their_link) {
  const auto t = leaf_spine(2, 2, 2, 10e9, 10e9);
  const auto m = matrix(t, {{"h1", "h3", 6e9}, {"h2", "h1", 1e9}});
  const auto loads = ecmp_loads(t, m);
  EXPECT_DOUBLE_EQ(loads[t.host_uplink(*t.find("h1"))], 6e9);
  EXPECT_DOUBLE_EQ(loads[t.host_uplink(*t.find("h1")) ^ 1u], 1e9);
  EXPECT_DOUBLE_EQ(max_utilisation(t, loads), 0.6);
  EXPECT_NEAR(optimal_mcf(t, m, solver).mlu, 0.6, 1e-9);  // the host link bounds every scheme
}

// The per-source aggregation is exact: same optimum as one commodity per pair.
TEST(DcTe, aggregated_lp_equals_per_pair_lp) {
  netlib::calc::prng g(5);
  const auto ls = leaf_spine(4, 3, 2, 10e9, 10e9);
  const auto ft = fat_tree(4, 1, 10e9, 10e9);
  for (const topology* t : {&ls, &ft}) {
    for (int round = 0; round < 4; ++round) {
      traffic_matrix m;
      const auto& hosts = t->hosts();
      for (int i = 0; i < 12; ++i) {
        const auto a = hosts[static_cast<std::size_t>(g.between(0, static_cast<long long>(hosts.size()) - 1))];
        const auto b = hosts[static_cast<std::size_t>(g.between(0, static_cast<long long>(hosts.size()) - 1))];
        if (a != b) m.demands.push_back(demand{a, b, 1e9 * static_cast<double>(g.between(1, 9))});
      }
      const double agg = optimal_mcf(*t, m, solver).mlu, pair = optimal_mcf_per_pair(*t, m, solver).mlu;
      EXPECT_NEAR(agg, pair, 1e-7);
      EXPECT_LE(agg, max_utilisation(*t, ecmp_loads(*t, m)) + 1e-9);
    }
  }
}

// Every simple path between two switches.
void simple_paths(const topology& t, node_id from, node_id to, std::vector<arc_id>& stack, std::vector<bool>& on,
                  std::vector<std::vector<arc_id>>& out) {
  if (from == to) {
    out.push_back(stack);
    return;
  }
  on[from] = true;
  for (arc_id a : t.out_arcs(from)) {
    const node_id v = t.arc_to(a);
    if (on[v]) continue;
    stack.push_back(a);
    simple_paths(t, v, to, stack, on, out);
    stack.pop_back();
  }
  on[from] = false;
}

// The LP's optimum against the best split on a grid of step 1/N over every simple path of two
// commodities in K4 with random capacities: never above the grid's best, and below it by no
// more than the grid's resolution allows.
TEST(DcTe, lp_against_exhaustive_search_on_tiny_graphs) {
  netlib::calc::prng g(17);
  constexpr int N = 12;
  for (int round = 0; round < 4; ++round) {
    std::string text = "switch a\nswitch b\nswitch c\nswitch d\n";
    const char* names = "abcd";
    for (int i = 0; i < 4; ++i) {
      for (int j = i + 1; j < 4; ++j) {
        text += fmt::format("link {} {} {}Gbps\n", names[i], names[j], g.between(1, 10));
      }
    }
    const auto t = parse_topology(text);
    traffic_matrix m;
    m.demands.push_back(demand{*t.find("a"), *t.find("b"), 1e9 * static_cast<double>(g.between(1, 10))});
    m.demands.push_back(demand{*t.find("c"), *t.find("a"), 1e9 * static_cast<double>(g.between(1, 10))});
    std::vector<std::vector<std::vector<arc_id>>> paths(2);
    for (int c = 0; c < 2; ++c) {
      std::vector<arc_id> stack;
      std::vector<bool> on(4, false);
      simple_paths(t, m.demands[c].src, m.demands[c].dst, stack, on, paths[c]);
      ASSERT_EQ(paths[c].size(), 5u);  // in K4: direct, two of two hops, two of three hops
    }
    // Grid points: compositions of N into 5 parts.
    std::vector<std::vector<int>> grid;
    std::vector<int> part(5);
    std::function<void(int, int)> compose = [&](int i, int left) {
      if (i == 4) {
        part[4] = left;
        grid.push_back(part);
        return;
      }
      for (int v = 0; v <= left; ++v) {
        part[static_cast<std::size_t>(i)] = v;
        compose(i + 1, left - v);
      }
    };
    compose(0, N);
    std::vector<std::vector<double>> contrib(2);  // per commodity and grid point: arc loads
    double best = 1e300;
    std::vector<std::vector<std::vector<double>>> loads(2);
    for (int c = 0; c < 2; ++c) {
      for (const auto& gp : grid) {
        std::vector<double> l(t.arc_count(), 0.0);
        for (std::size_t p = 0; p < 5; ++p) {
          for (arc_id a : paths[c][p]) l[a] += m.demands[c].bps * gp[p] / N;
        }
        loads[c].push_back(std::move(l));
      }
    }
    for (const auto& l0 : loads[0]) {
      for (const auto& l1 : loads[1]) {
        double mlu = 0;
        for (arc_id a = 0; a < t.arc_count(); ++a) mlu = std::max(mlu, (l0[a] + l1[a]) / t.capacity(a));
        best = std::min(best, mlu);
      }
    }
    const double lp = optimal_mcf(t, m, solver).mlu;
    double min_cap = 1e300;
    for (const auto& l : t.links()) min_cap = std::min(min_cap, l.capacity_bps);
    const double resolution = (m.demands[0].bps + m.demands[1].bps) * 5.0 / N / min_cap;
    EXPECT_LE(lp, best + 1e-9) << text;
    EXPECT_GE(lp, best - resolution) << text;
  }
}

TEST(DcTe, predicted_and_robust_on_a_series_with_a_returning_burst) {
  const auto t = parse_topology(weak_leaf_spine);
  const auto series = parse_matrices(
      "0s leaf1 leaf2 4Gbps\n0s leaf1 leaf3 36Gbps\n"   // a burst
      "1s leaf1 leaf2 4Gbps\n1s leaf1 leaf3 0bps\n"     // calm
      "2s leaf1 leaf2 4Gbps\n2s leaf1 leaf3 36Gbps\n",  // the burst again
      t);
  ASSERT_EQ(series.size(), 3u);
  const std::vector<te_scheme> schemes{te_scheme::shortest_path, te_scheme::ecmp, te_scheme::optimal,
                                       te_scheme::predicted, te_scheme::robust};
  const auto ev = evaluate_te(t, series, schemes, 2, solver);
  ASSERT_EQ(ev.mlu.size(), 3u);
  EXPECT_TRUE(std::isnan(ev.mlu[0][3]));
  EXPECT_TRUE(std::isnan(ev.mlu[0][4]));
  const auto& last = ev.mlu[2];
  EXPECT_DOUBLE_EQ(last[0], 4.0);   // all 40 Gbps on leaf1's first (10 Gbps) uplink
  EXPECT_DOUBLE_EQ(last[1], 2.0);   // 20 Gbps on it
  EXPECT_NEAR(last[2], 1.0, 1e-9);  // 10 + 30: both uplinks full
  // Tuned to the calm matrix: leaf1->leaf2 one quarter on the weak uplink, leaf1->leaf3 (unseen
  // at 1 s) split evenly: (1 + 18) / 10.
  EXPECT_NEAR(last[3], 1.9, 1e-7);
  // Tuned on 0 s and 1 s: leaf1->leaf3 has mean 18 and burst 18, so the burst term spreads it 1:3
  // like the two uplinks' capacities, and leaf1->leaf2 follows to balance the mean; at 2 s the
  // burst fills both uplinks exactly, as the oracle does.
  EXPECT_NEAR(last[4], 1.0, 1e-7);
}

// Many splits are optimal here (leaf1's two pairs may use the spines in any way that fills both
// uplinks alike); the split LP returns their centre, not a vertex: both pairs halved.
TEST(DcTe, the_tuned_split_is_the_centre_of_the_optimal_ones) {
  const auto t = leaf_spine(3, 2, 1, 10e9, 10e9);
  const auto m = matrix(t, {{"leaf1", "leaf2", 1e9}, {"leaf1", "leaf3", 1e9}});
  auto split = shortest_path_candidates(t, std::vector<node_id>{*t.find("leaf1"), *t.find("leaf2"), *t.find("leaf3")});
  EXPECT_NEAR(optimise_split(t, split, m, solver), 0.1, 1e-7);
  for (double f : split.fraction) EXPECT_NEAR(f, 0.5, 1e-4);
}

// In a symmetric Clos the even split is optimal for every matrix, so predicted and robust (the
// centre of the optimal splits) are ECMP, matrix by matrix: what they show is the matrix, not
// which vertex a solver reached (a simplex answer gave 80 % where ECMP gave 40 %). Threads do not
// change any figure.
TEST(DcTe, predicted_is_ecmp_in_a_symmetric_clos_and_threads_change_nothing) {
  const auto t = leaf_spine(4, 2, 2, 10e9, 10e9);
  matrix_generation gen;
  gen.count = 10;
  gen.seed = 5;
  const auto series = generate_matrices(t, gen);
  const std::vector<te_scheme> schemes{te_scheme::ecmp, te_scheme::optimal, te_scheme::predicted, te_scheme::robust};
  const auto one = evaluate_te(t, series, schemes, 4, solver);
  std::size_t calls = 0;
  const auto two =
      evaluate_te(t, series, schemes, 4, solver, {.workers = 2, .progress = [&](std::size_t done, std::size_t total) {
                                                    ++calls;
                                                    EXPECT_LE(done, total);
                                                  }});
  EXPECT_EQ(calls, series.size());
  for (std::size_t i = 1; i < series.size(); ++i) {
    EXPECT_NEAR(one.mlu[i][2], one.mlu[i][0], 1e-6) << i;
    EXPECT_NEAR(one.mlu[i][3], one.mlu[i][0], 1e-6) << i;
    for (std::size_t s = 0; s < schemes.size(); ++s) EXPECT_DOUBLE_EQ(one.mlu[i][s], two.mlu[i][s]);
  }
}

TEST(DcTe, schemes_never_beat_the_optimum) {
  const auto t = leaf_spine(4, 2, 2, 10e9, 10e9);
  matrix_generation gen;
  gen.count = 8;
  gen.seed = 3;
  const auto series = generate_matrices(t, gen);
  ASSERT_EQ(series.size(), 8u);
  EXPECT_DOUBLE_EQ(series[1].time_s, 1.0);
  const std::vector<te_scheme> schemes{te_scheme::shortest_path, te_scheme::ecmp, te_scheme::optimal,
                                       te_scheme::predicted, te_scheme::robust};
  const auto ev = evaluate_te(t, series, schemes, 4, solver);
  for (const auto& row : ev.mlu) {
    for (std::size_t s = 0; s < row.size(); ++s) {
      if (!std::isnan(row[s])) {
        EXPECT_GE(row[s], row[2] - 1e-9);
      }
    }
    // In a symmetric Clos, ECMP's even split is already optimal.
    EXPECT_NEAR(row[1], row[2], 1e-7);
  }
  // Without bursts the base is scaled to the requested ECMP load, within the noise.
  gen.bursty_share = 0;
  gen.noise = 0;
  gen.load = 0.5;
  EXPECT_NEAR(evaluate_te(t, generate_matrices(t, gen), std::vector{te_scheme::ecmp}, 1, solver).mlu[0][0], 0.5, 1e-6);
}

std::string matrix_error(const std::string& text) {
  static const auto t = leaf_spine(2, 2, 1, 10e9, 10e9);
  try {
    parse_matrices(text, t);
  } catch (const te_error& e) {
    return e.what();
  }
  return "(no error)";
}

// The cut bound is a bound (never above the LP's optimum) and, in a symmetric Clos, tight: there
// ECMP meets it, which is what lets evaluate_te skip the LP.
TEST(DcTe, cut_bound_is_below_the_optimum_and_tight_in_a_symmetric_clos) {
  const glpk_solver lp;
  for (const auto& t : {leaf_spine(4, 2, 2, 10e9, 10e9), fat_tree(4, 2, 10e9, 10e9), parse_topology(weak_leaf_spine)}) {
    matrix_generation gen;
    gen.count = 6;
    for (const auto& m : generate_matrices(t, gen)) {
      const double bound = cut_lower_bound(t, m), optimum = optimal_mcf(t, m, lp).mlu;
      EXPECT_LE(bound, optimum + 1e-9);
      if (t.description() != "from a topology file") {
        EXPECT_NEAR(max_utilisation(t, ecmp_loads(t, m)), bound, 1e-12);
      }
    }
  }
  // With one weak uplink ECMP is above the bound, and the LP decides.
  const auto weak = parse_topology(weak_leaf_spine);
  const auto m = matrix(weak, {{"leaf1", "leaf2", 4e9}});
  EXPECT_NEAR(cut_lower_bound(weak, m), 0.1, 1e-12);  // 4 Gbps over leaf1's 10 + 30 Gbps
  EXPECT_GT(max_utilisation(weak, ecmp_loads(weak, m)), 0.1);
}

TEST(DcTe, matrix_format_errors_name_the_line) {
  EXPECT_EQ(matrix_error("0s leaf1 leaf2 1Gbps\n1s leaf1 leaf9 1Gbps\n"), "line 2: unknown node 'leaf9'");
  EXPECT_EQ(matrix_error("# t s d r\n1s leaf1 leaf2 1Gbps\n0s leaf2 leaf1 1Gbps\n"),
            "line 3: time 0 s is before the previous line's 1 s: matrices must be in time order");
  EXPECT_EQ(matrix_error("0s leaf1 leaf2 1Gbps\n0s leaf1 leaf2 2Gbps\n"),
            "line 2: leaf1 -> leaf2 appears twice at 0 s (first on line 1)");
  EXPECT_EQ(matrix_error("0s leaf1 leaf2\n"),
            "line 1: expected 'TIME SOURCE DESTINATION RATE', e.g. '0s leaf1 leaf2 4Gbps'");
  EXPECT_EQ(matrix_error("5x leaf1 leaf2 1Gbps\n").rfind("line 1: bad time: '5x': unknown unit 'x'", 0), 0u);
  EXPECT_EQ(matrix_error("0s leaf1 leaf2 lots\n").rfind("line 1: bad rate: 'lots' ", 0), 0u);
  // A long or unprintable word is shown cut and cleaned, once (found by fuzz_dc_parsers); a control
  // byte means some other file, and nothing of it is shown.
  EXPECT_EQ(matrix_error("0s leaf1 leaf2 1" + std::string(300, 'y') + "Gbps\n"),
            "line 1: bad rate: '1yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...' is not a rate: write a number and a unit, "
            "e.g. 10Gbps");
  EXPECT_EQ(matrix_error("0s leaf1 leaf2 1\xc3\xa9Gbps\n").rfind("line 1: bad rate: '1??Gbps'", 0), 0u);
  EXPECT_EQ(matrix_error("0s leaf1 leaf2 1" + std::string(300, '\x03') + "Gbps\n"),
            "line 1: binary data (byte 0x03): not a matrix file, which is text lines 'TIME SOURCE DESTINATION RATE'");
  EXPECT_EQ(matrix_error("0s leaf1 leaf1 1Gbps\n"), "line 1: a demand from 'leaf1' to itself");
  EXPECT_EQ(matrix_error("\n# nothing\n"), "no demands: each line is 'TIME SOURCE DESTINATION RATE'");
  EXPECT_EQ(matrix_error(std::string(2000, 'x')), "line 1: the line is longer than 1024 bytes");
}

// wordless(): what a privileged lab-dc shows, with no word of the file.
TEST(DcTe, wordless_matrix_errors_quote_nothing_of_the_text) {
  const auto t = leaf_spine(2, 2, 1, 10e9, 10e9);
  for (const auto& [text, wordless] : std::vector<std::pair<std::string, std::string>>{
           {"root:SECRET:1:2:3\n", "line 1: expected 'TIME SOURCE DESTINATION RATE', e.g. '0s leaf1 leaf2 4Gbps'"},
           {"0s leaf1 SECRETx 1Gbps\n", "line 1: the destination is not a node of the topology"},
           {"0s SECRETx leaf1 1Gbps\n", "line 1: the source is not a node of the topology"},
           {"SECRET leaf1 leaf2 1Gbps\n", "line 1: a bad time: write a number and a unit, e.g. 1.5s"},
           {"0s leaf1 leaf2 SECRET\n", "line 1: a bad rate: write a number and a unit, e.g. 4Gbps"},
           {"0s leaf1 leaf1 1Gbps\n", "line 1: a demand from a node to itself"},
           {"0s leaf1 leaf2 1Gbps\n0s leaf1 leaf2 1Gbps\n",
            "line 2: a pair appears twice in one matrix (first on line 1)"},
           {"1s leaf1 leaf2 1Gbps\n0s leaf1 leaf2 1Gbps\n",
            "line 2: a time before the previous line's: matrices must be in time order"},
           {"SECRET\x01\n",
            "line 1: binary data: not a matrix file, which is text lines 'TIME SOURCE DESTINATION RATE'"}}) {
    try {
      parse_matrices(text, t);
      ADD_FAILURE() << text;
    } catch (const te_error& e) {
      EXPECT_EQ(e.wordless(), wordless);
      EXPECT_EQ(e.wordless().find("SECRET"), std::string::npos);
    }
  }
}

TEST(DcTe, matrices_round_trip_as_text) {
  const auto t = leaf_spine(3, 2, 1, 10e9, 10e9);
  matrix_generation gen;
  gen.count = 3;
  const auto series = generate_matrices(t, gen);
  const auto back = parse_matrices(matrices_to_text(t, series), t);
  ASSERT_EQ(back.size(), series.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    ASSERT_EQ(back[i].demands.size(), series[i].demands.size());
    for (std::size_t j = 0; j < back[i].demands.size(); ++j)
      EXPECT_EQ(back[i].demands[j].bps, series[i].demands[j].bps);
  }
}

}  // namespace te_test
