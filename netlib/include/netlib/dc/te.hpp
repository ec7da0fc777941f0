#pragma once
// Traffic engineering on traffic matrices (docs/architecture.md, "Data-centre core"): the
// maximum link utilisation (MLU) a matrix causes under five ways of routing it.
//
//   shortest_path  every demand on one shortest path (the first next hop at every switch)
//   ecmp           every switch splits what it forwards evenly over its equal-cost next hops
//                  (ECMP with perfect hashing: the fluid limit of many small flows)
//   optimal        the minimum-MLU multi-commodity flow over any paths, knowing the matrix
//                  (a linear program; the oracle)
//   predicted      the minimum-MLU split over the shortest paths for the previous matrix,
//                  applied to this one (classic TE on the last measurement)
//   robust         a split over the shortest paths tuned on the last `history` matrices the way
//                  FIGRET (SIGCOMM 2024) tunes it: the least MLU for each pair's mean demand plus,
//                  per pair, its burst (peak minus mean) times its largest share of a path
//                  relative to the path's bottleneck (the utilisation one burst of that pair would
//                  add to its most exposed path). Bursty pairs are spread over their paths in
//                  proportion to capacity; steady ones go where the mean fits best. It gives up
//                  some MLU on calm matrices to absorb bursts (the trade-off FIGRET discusses)
//
// Many splits are optimal for one matrix (in a symmetric Clos, any split that balances the
// uplinks), and a simplex solver returns whichever vertex it reaches first, often one that puts a
// pair on a single path, so what predicted and robust do would say more about the solver than
// about the matrix. Their LPs are therefore solved by an interior-point method, whose answer is
// the analytic centre of the optimal splits: among all splits with the least objective, the one
// that maximises Σ log of every path's share and every row's slack, so each pair is spread over
// its paths as evenly as the optimum allows (in a symmetric Clos, ECMP's even split) and departs
// from ECMP only as far as the matrix needs.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/dc/lp.hpp"
#include "netlib/dc/routes.hpp"
#include "netlib/dc/topology.hpp"

namespace netlib::dc {

struct demand {
  node_id src = 0;
  node_id dst = 0;
  double bps = 0;
};

struct traffic_matrix {
  double time_s = 0;
  std::vector<demand> demands;
  std::size_t bursts = 0;  // generated matrices: how many demands burst in this one
};

// The TE problem's errors (a matrix naming an unknown node, a solver that failed): one line.
// wordless() is the same without any word of the matrix text (see topology_error::wordless).
class te_error : public std::runtime_error {
 public:
  explicit te_error(const std::string& what, const std::string& wordless = {})
      : std::runtime_error(what), wordless_(wordless.empty() ? what : wordless) {}
  [[nodiscard]] const std::string& wordless() const noexcept { return wordless_; }

 private:
  std::string wordless_;
};

struct matrix_limits {
  std::size_t max_text = 64 << 20;
  std::size_t max_line = 1024;
  std::size_t max_matrices = 100000;
  std::size_t max_demands = 10'000'000;  // over all matrices
};

// Matrices as text, one demand per line, matrices in time order:
//   # time  source  destination  rate
//   0s  leaf1  leaf2  4Gbps
//   1s  leaf1  leaf2  9Gbps
// Lines with the same time form one matrix; times must not decrease; a pair may appear once per
// matrix. Errors (te_error) name the line.
std::vector<traffic_matrix> parse_matrices(std::string_view text, const topology& t, const matrix_limits& limits = {});
std::string matrices_to_text(const topology& t, std::span<const traffic_matrix> matrices);

// A series of switch-to-switch matrices among the switches with hosts (in a fabric without hosts,
// the lowest-tier switches): a gravity-model base
// (each switch a weight uniform in 0.5-1.5, demand ∝ product) scaled so that ECMP's MLU on it is
// `load`, times a noise factor uniform in 1 ± noise per pair and step; a share of the pairs are
// bursty and, at each step, burst with burst_probability to burst_factor times their demand.
struct matrix_generation {
  std::size_t count = 24;
  double interval_s = 1;
  double load = 0.4;
  double noise = 0.1;
  double bursty_share = 0.15;
  double burst_probability = 0.3;
  double burst_factor = 5;
  std::uint64_t seed = 1;
};
std::vector<traffic_matrix> generate_matrices(const topology& t, const matrix_generation& g);

enum class te_scheme : std::uint8_t { shortest_path, ecmp, optimal, predicted, robust };
std::string scheme_name(te_scheme s);  // "shortest-path", "ecmp", "optimal", "predicted", "robust"
bool parse_scheme(std::string_view text, te_scheme& out);

// Load in bits per second on every arc, and the MLU of a load vector.
using arc_rates = std::vector<double>;
double max_utilisation(const topology& t, std::span<const double> arc_bps);

arc_rates shortest_path_loads(const topology& t, const traffic_matrix& m);
arc_rates ecmp_loads(const topology& t, const traffic_matrix& m);

struct mcf_result {
  double mlu = 0;
  arc_rates arc_bps;
};
// A lower bound on any routing's MLU: the fixed host links, and for every cut (each switch alone,
// and the connected groups of switches below each tier, a fat-tree's pods) the demand that must
// cross it over the capacity that crosses it, each way. evaluate_te's optimal scheme takes ECMP's
// MLU without solving the LP when ECMP meets this bound (then no routing can do better).
double cut_lower_bound(const topology& t, const traffic_matrix& m);
mcf_result optimal_mcf(const topology& t, const traffic_matrix& m, const lp_solver& solver);
mcf_result optimal_mcf_per_pair(const topology& t, const traffic_matrix& m, const lp_solver& solver);

// A split of each switch pair's demand over candidate paths (the pair's shortest paths, at most
// max_paths of them, in next-hop order).
struct split_routing {
  std::vector<std::pair<node_id, node_id>> pairs;  // (source switch, destination switch)
  std::vector<std::uint32_t> pair_paths;           // pair i's paths: [pair_paths[i], pair_paths[i + 1])
  std::vector<arc_id> path_arcs;
  std::vector<std::uint32_t> path_begin;  // path j's arcs: [path_begin[j], path_begin[j + 1])
  std::vector<double> fraction;           // per path; a pair's fractions sum to 1
};
// Candidate paths for every ordered pair of `endpoints`, each pair split evenly.
split_routing shortest_path_candidates(const topology& t, std::span<const node_id> endpoints,
                                       std::size_t max_paths = 64);
// Sets the fractions to the split with the least MLU on `design`, plus
// Σ bursts[c].bps · max over c's paths p of (fraction_p / bottleneck_p) when bursts are given
// (robustness weight per pair, 0 for none): the centre of those splits (above). Demands are folded
// onto switches; pairs the design does not use are split evenly. Returns the MLU part of the
// optimum.
double optimise_split(const topology& t, split_routing& r, const traffic_matrix& design, const lp_solver& solver,
                      std::span<const demand> bursts = {});
arc_rates split_loads(const topology& t, const split_routing& r, const traffic_matrix& m);

// MLU per matrix and scheme; NaN where a scheme has no prediction yet (predicted and robust on
// the first matrix).
struct te_evaluation {
  std::vector<te_scheme> schemes;
  std::vector<std::vector<double>> mlu;  // [matrix][scheme]
};
// robustness: the weight of the burst term in the robust scheme (1 in FIGRET's sense: a burst's
// added utilisation counts as much as the MLU).
struct te_options {
  // The weight of the burst term in the robust scheme (1 in FIGRET's sense: a burst's added
  // utilisation counts as much as the MLU).
  double robustness = 1.0;
  // Threads that solve matrices at once (each matrix's row depends on nothing computed for
  // another); the solver must allow concurrent calls.
  std::size_t workers = 1;
  // Called after each matrix with (matrices done, matrices), one call at a time.
  std::function<void(std::size_t, std::size_t)> progress;
};
te_evaluation evaluate_te(const topology& t, std::span<const traffic_matrix> matrices,
                          std::span<const te_scheme> schemes, std::size_t history, const lp_solver& solver,
                          const te_options& options = {});

}  // namespace netlib::dc
