// lab-dc quiz: numeric questions with an answer key. Theory of operation: each kind of question
// draws its numbers from short lists (so the text shows exactly the values used) with
// netlib::calc::prng, and computes the answer from the formula. netlib/app/quiz.hpp seeds, draws
// and prints them as it does lab-delay's problems: the same seed gives the same questions
// everywhere, and question k does not depend on how many are asked for.
#include <fmt/format.h>

#include <array>
#include <cmath>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/app/quiz.hpp"
#include "netlib/calc/prng.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_dc {
namespace {

using netlib::calc::prng;

using question = netlib::app::quiz_question;

template <class T, std::size_t N>
T pick(prng& g, const std::array<T, N>& list) {
  return list[static_cast<std::size_t>(g.between(0, static_cast<long long>(N) - 1))];
}

// The expected load of one uplink when flows are hashed evenly.
void ecmp_load(prng& g, question& q) {
  const auto k = pick(g, std::array{2, 4, 8});
  const auto n = pick(g, std::array{40, 100, 200});
  const auto size_mb = pick(g, std::array{1, 2, 5});
  const auto rate_g = pick(g, std::array{10, 25, 40, 100});
  const double bytes = n * size_mb * 1e6 / k;
  const double util = bytes * 8 / (rate_g * 1e9 * 1.0);
  q.question = fmt::format(
      "A leaf sends {} flows of {} MB each to other leaves within one second, hashed evenly over its "
      "{} uplinks of {} Gbps. How many bytes does each uplink carry on average, and at what "
      "utilisation?",
      n, size_mb, k, rate_g);
  q.given = {
      {"flows", n}, {"flow_bytes", size_mb * 1e6}, {"uplinks", k}, {"uplink_bps", rate_g * 1e9}, {"window_s", 1}};
  q.answer = {{"bytes_per_uplink", bytes}, {"utilisation", util}};
  q.answer_text = fmt::format("N·S/k = {} per uplink, {:.1f}% of {} Gbps over 1 s", netlib::units::format_bytes(bytes),
                              100 * util, rate_g);
}

// Birthday problem: m elephants on k uplinks.
void collision(prng& g, question& q) {
  const auto k = pick(g, std::array{4, 8, 16, 32});
  const auto m = static_cast<int>(g.between(2, std::min(k, 8)));
  double none = 1;
  for (int i = 0; i < m; ++i) none *= static_cast<double>(k - i) / k;
  const double idle = k * std::pow(1.0 - 1.0 / k, m);
  q.question = fmt::format(
      "{} elephant flows are hashed independently and uniformly onto {} equal-cost uplinks. What is "
      "the probability that at least two of them share an uplink, and how many uplinks do you expect "
      "to stay idle?",
      m, k);
  q.given = {{"elephants", m}, {"uplinks", k}};
  q.answer = {{"collision_probability", 1 - none}, {"expected_idle_uplinks", idle}};
  q.answer_text = fmt::format("1 - k!/((k-m)!·k^m) = {:.4f}; k·(1 - 1/k)^m = {:.3f} idle", 1 - none, idle);
}

// The MLU of a split on a triangle, and the best split.
void split_mlu(prng& g, question& q) {
  const auto direct = pick(g, std::array{10, 20, 40});
  const auto detour = pick(g, std::array{10, 20, 40});
  const auto demand = pick(g, std::array{12, 18, 24, 30});
  const auto share = pick(g, std::array{50, 60, 75, 80});
  const double d = demand, x = share / 100.0;
  const double given_mlu = std::max(x * d / direct, (1 - x) * d / detour);
  const double best_share = static_cast<double>(direct) / (direct + detour);
  const double best = d / (direct + detour);
  q.question = fmt::format(
      "Switches a, b and c form a triangle: a-b is {0} Gbps, a-c and c-b are {1} Gbps each. a sends "
      "{2} Gbps to b, {3}% directly and the rest through c. What is the maximum link utilisation? "
      "Which split minimises it, and to what?",
      direct, detour, demand, share);
  q.given = {{"ab_bps", direct * 1e9},
             {"ac_bps", detour * 1e9},
             {"cb_bps", detour * 1e9},
             {"demand_bps", d * 1e9},
             {"direct_share", x}};
  q.answer = {{"mlu", given_mlu}, {"best_direct_share", best_share}, {"best_mlu", best}};
  q.answer_text = fmt::format(
      "MLU = max(x·D/Cab, (1-x)·D/Cac) = {:.1f}%; best x = Cab/(Cab + Cac) = {:.1f}%, MLU = "
      "D/(Cab + Cac) = {:.1f}%",
      100 * given_mlu, 100 * best_share, 100 * best);
  q.check_command = fmt::format(
      "printf 'switch a\\nswitch b\\nswitch c\\nlink a b {0}Gbps\\nlink a c {1}Gbps\\nlink c b {1}Gbps\\n' "
      "> tri.txt; echo '0s a b {2}Gbps' > m.txt; lab-dc te --topology tri.txt --matrix m.txt "
      "--schemes optimal",
      direct, detour, demand);
}

// Polarization arithmetic in a fat-tree.
void polarization(prng& g, question& q) {
  const auto k = pick(g, std::array{4, 6, 8});
  const int half = k / 2;
  const double used = 1.0 / half;
  q.question = fmt::format(
      "In a k = {} fat-tree every edge and aggregation switch picks among its {} uplinks with "
      "hash mod {} of the same hash function, fields and seed. What share of the aggregation "
      "switches' uplinks to the core carry traffic?",
      k, half, half);
  q.given = {{"k", k}, {"uplinks", half}};
  q.answer = {{"used_share", used}, {"unused_share", 1 - used}};
  q.answer_text = fmt::format(
      "a flow reaches aggregation switch i only if hash mod {0} = i, and it then leaves by uplink "
      "i again: 1/{0} = {1:.1f}% used, {2:.1f}% unused",
      half, 100 * used, 100 * (1 - used));
  q.check_command = fmt::format("lab-dc polarize --topology fat-tree:{} --flows 5000 --hash crc32", k);
}

// Ring all-reduce: its steps, bytes and time on a fabric where nothing else runs.
void ring_steps(prng& g, question& q) {
  const auto n = pick(g, std::array{4, 8, 16});
  const auto buffer_mb = pick(g, std::array{256, 512, 1000});
  const auto rate_g = pick(g, std::array{10, 25, 100});
  const double b = buffer_mb * 1e6;
  const int steps = 2 * (n - 1);
  const double per_step = b / n, total = 2.0 * (n - 1) / n * b, time = total * 8 / (rate_g * 1e9);
  q.question = fmt::format(
      "{} ranks, one per host, all-reduce a {} MB buffer with ring all-reduce (reduce-scatter, then "
      "all-gather). How many steps does it take, how many bytes does each rank send per step and in "
      "all, and how long does it take if every rank's link runs at {} Gbps and nothing else shares them?",
      n, buffer_mb, rate_g);
  q.given = {{"ranks", n}, {"buffer_bytes", b}, {"link_bps", rate_g * 1e9}};
  q.answer = {{"steps", steps}, {"bytes_per_step", per_step}, {"bytes_per_rank", total}, {"time_s", time}};
  q.answer_text = fmt::format("2(N-1) = {} steps of B/N = {}; 2(N-1)/N·B = {} per rank; {} at {} Gbps", steps,
                              netlib::units::format_bytes(per_step), netlib::units::format_bytes(total),
                              netlib::units::format_seconds(time), rate_g);
  q.check_command = fmt::format(
      "lab-dc collective --topology leaf-spine:{}x2 --host-rate {}Gbps --fabric-rate {}Gbps --job "
      "ranks={},buffer={}MB --schedulers fair --steps",
      n / 2, rate_g, rate_g, n, buffer_mb);
}

// nccl-tests' two bandwidths from one measurement.
void bus_bandwidth(prng& g, question& q) {
  const auto n = pick(g, std::array{2, 4, 8, 16, 64});
  const auto buffer_mb = pick(g, std::array{128, 512, 1000});
  const auto time_ms = pick(g, std::array{20, 50, 120, 400});
  const auto rate_g = pick(g, std::array{25, 100, 400});
  const double b = buffer_mb * 1e6, t = time_ms / 1e3;
  const double algbw = b / t, busbw = algbw * 2 * (n - 1) / n;
  q.question = fmt::format(
      "nccl-tests reports that an all-reduce of {} MB among {} ranks took {} ms. What are its algorithm "
      "bandwidth and bus bandwidth, and what share of a {} Gbps link is the bus bandwidth?",
      buffer_mb, n, time_ms, rate_g);
  q.given = {{"ranks", n}, {"buffer_bytes", b}, {"time_s", t}, {"link_bps", rate_g * 1e9}};
  q.answer = {{"algbw_Bps", algbw}, {"busbw_Bps", busbw}, {"busbw_share_of_link", busbw * 8 / (rate_g * 1e9)}};
  q.answer_text = fmt::format("algbw = B/t = {}/s; busbw = algbw·2(N-1)/N = {}/s = {:.1f}% of {} Gbps",
                              netlib::units::format_bytes(algbw), netlib::units::format_bytes(busbw),
                              100 * busbw * 8 / (rate_g * 1e9), rate_g);
}

// Ring edges hashed onto a leaf's uplinks.
void ring_collision(prng& g, question& q) {
  const auto spines = pick(g, std::array{2, 4, 8});
  const auto edges = static_cast<int>(g.between(2, std::min(spines, 4)));
  double apart = 1;
  for (int i = 0; i < edges; ++i) apart *= static_cast<double>(spines - i) / spines;
  q.question = fmt::format(
      "A ring all-reduce leaves one leaf on {} ring edges (one channel each), from {} different hosts, "
      "and ECMP hashes each onto one of the leaf's {} uplinks, uniformly and independently. Host links "
      "and uplinks have the same rate. What is the probability that no two edges share an uplink? If "
      "exactly two do, what happens to the job's bus bandwidth?",
      edges, edges, spines);
  q.given = {{"ring_edges", edges}, {"uplinks", spines}};
  q.answer = {{"no_collision_probability", apart}, {"busbw_with_two_sharing", 0.5}};
  q.answer_text = fmt::format(
      "k!/((k-m)!·k^m) = {:.4f}; two edges sharing get half the uplink each, for every step (a "
      "flow keeps its path), and each step waits for its slowest flow: busbw halves",
      apart);
  q.check_command = "lab-dc collective --topology leaf-spine:4x2 --job ranks=8,placement=random,seed=2";
}

}  // namespace

void add_quiz_command(CLI::App& app) {
  static constexpr std::array<netlib::app::quiz_kind, 7> kinds{{{"ecmp-load", ecmp_load},
                                                                {"collision", collision},
                                                                {"split-mlu", split_mlu},
                                                                {"polarization", polarization},
                                                                {"ring-steps", ring_steps},
                                                                {"busbw", bus_bandwidth},
                                                                {"ring-collision", ring_collision}}};
  netlib::app::add_quiz_command(app, kinds,
                                "Numeric questions with an answer key: ECMP loads, elephant collisions on "
                                "uplinks, the MLU of a split, polarization, ring all-reduce steps, bus bandwidth, "
                                "ring edges colliding (same seed, same quiz)",
                                "lab-dc quiz --seed 7 --count 4 --answers");
}

}  // namespace netlab::lab_dc
