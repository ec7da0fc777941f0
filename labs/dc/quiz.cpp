// lab-dc quiz: numeric questions with an answer key. Theory of operation: each kind of question
// draws its numbers from short lists (so the text shows exactly the values used) with
// netlib::calc::prng, and computes the answer from the formula; the same seed gives the same
// questions everywhere, and question k does not depend on how many are asked for.
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <iostream>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/prng.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_dc {
namespace {

using netlib::calc::prng;

struct question {
  int number = 0;
  std::string kind;
  std::string text;
  nlohmann::json given;
  nlohmann::json answer;
  std::string answer_text;
  std::string check;  // a lab-dc command that shows it, or empty
};

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
  q.text = fmt::format("A leaf sends {} flows of {} MB each to other leaves within one second, hashed evenly over its "
                       "{} uplinks of {} Gbps. How many bytes does each uplink carry on average, and at what "
                       "utilisation?", n, size_mb, k, rate_g);
  q.given = {{"flows", n}, {"flow_bytes", size_mb * 1e6}, {"uplinks", k}, {"uplink_bps", rate_g * 1e9}, {"window_s", 1}};
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
  q.text = fmt::format("{} elephant flows are hashed independently and uniformly onto {} equal-cost uplinks. What is "
                       "the probability that at least two of them share an uplink, and how many uplinks do you expect "
                       "to stay idle?", m, k);
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
  q.text = fmt::format("Switches a, b and c form a triangle: a-b is {0} Gbps, a-c and c-b are {1} Gbps each. a sends "
                       "{2} Gbps to b, {3}% directly and the rest through c. What is the maximum link utilisation? "
                       "Which split minimises it, and to what?", direct, detour, demand, share);
  q.given = {{"ab_bps", direct * 1e9}, {"ac_bps", detour * 1e9}, {"cb_bps", detour * 1e9}, {"demand_bps", d * 1e9},
             {"direct_share", x}};
  q.answer = {{"mlu", given_mlu}, {"best_direct_share", best_share}, {"best_mlu", best}};
  q.answer_text = fmt::format("MLU = max(x·D/Cab, (1-x)·D/Cac) = {:.1f}%; best x = Cab/(Cab + Cac) = {:.1f}%, MLU = "
                              "D/(Cab + Cac) = {:.1f}%", 100 * given_mlu, 100 * best_share, 100 * best);
  q.check = fmt::format("printf 'switch a\\nswitch b\\nswitch c\\nlink a b {0}Gbps\\nlink a c {1}Gbps\\nlink c b {1}Gbps\\n' "
                        "> tri.txt; echo '0s a b {2}Gbps' > m.txt; lab-dc te --topology tri.txt --matrix m.txt "
                        "--schemes optimal", direct, detour, demand);
}

// Polarization arithmetic in a fat-tree.
void polarization(prng& g, question& q) {
  const auto k = pick(g, std::array{4, 6, 8});
  const int half = k / 2;
  const double used = 1.0 / half;
  q.text = fmt::format("In a k = {} fat-tree every edge and aggregation switch picks among its {} uplinks with "
                       "hash mod {} of the same hash function, fields and seed. What share of the aggregation "
                       "switches' uplinks to the core carry traffic?", k, half, half);
  q.given = {{"k", k}, {"uplinks", half}};
  q.answer = {{"used_share", used}, {"unused_share", 1 - used}};
  q.answer_text = fmt::format("a flow reaches aggregation switch i only if hash mod {0} = i, and it then leaves by uplink "
                              "i again: 1/{0} = {1:.1f}% used, {2:.1f}% unused",
                              half, 100 * used, 100 * (1 - used));
  q.check = fmt::format("lab-dc polarize --topology fat-tree:{} --flows 5000 --hash crc32", k);
}

std::vector<question> make_quiz(std::uint64_t seed, int count) {
  using generator = void (*)(prng&, question&);
  static constexpr std::array<std::pair<const char*, generator>, 4> kinds{
      {{"ecmp-load", ecmp_load}, {"collision", collision}, {"split-mlu", split_mlu}, {"polarization", polarization}}};
  std::vector<question> out;
  for (int i = 0; i < count; ++i) {
    // Each question from its own stream: question k is the same whatever the count.
    prng g(seed * 1000003u + static_cast<std::uint64_t>(i));
    question q;
    q.number = i + 1;
    const auto& [kind, make] = kinds[static_cast<std::size_t>(g.between(0, kinds.size() - 1))];
    q.kind = kind;
    make(g, q);
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace

void add_quiz_command(CLI::App& app) {
  struct flags {
    std::uint64_t seed = 0;
    int count = 5;
    bool answers = false, json = false;
  };
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(app, "quiz",
                                       "Numeric questions with an answer key: ECMP loads, elephant collisions on "
                                       "uplinks, the MLU of a split, polarization (same seed, same quiz)",
                                       "lab-dc quiz --seed 7 --count 4 --answers");
  cmd->add_option("--seed", f->seed, "Seed: the same seed gives the same questions everywhere")->required();
  cmd->add_option("--count", f->count, "Number of questions (default 5)")->check(CLI::Range(1, 1000));
  cmd->add_flag("--answers", f->answers, "Also print the answer key");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] {
    const auto questions = make_quiz(f->seed, f->count);
    if (f->json) {
      nlohmann::json doc = {{"seed", f->seed}, {"count", f->count}, {"questions", nlohmann::json::array()}};
      for (const auto& q : questions) {
        nlohmann::json item = {{"number", q.number}, {"kind", q.kind}, {"question", q.text}, {"given", q.given}};
        if (f->answers) {
          item["answer"] = q.answer;
          item["answer_text"] = q.answer_text;
          if (!q.check.empty()) item["check_command"] = q.check;
        }
        doc["questions"].push_back(std::move(item));
      }
      netlib::app::print_json(doc);
      return netlib::app::exit_ok;
    }
    for (const auto& q : questions) {
      std::cout << fmt::format("Question {} ({}): {}\n", q.number, q.kind, q.text);
      if (f->answers) {
        std::cout << fmt::format("  Answer: {}\n", q.answer_text);
        if (!q.check.empty()) std::cout << fmt::format("  Check:  {}\n", q.check);
      }
      std::cout << '\n';
    }
    std::cout.flush();
    return netlib::app::exit_ok;
  });
}

}  // namespace netlab::lab_dc
