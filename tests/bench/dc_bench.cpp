// netlib::dc's two speed goals (issue 20), in CPU time so that a loaded machine does not flatter
// or punish them:
//   ECMP placement: flows routed per second of CPU on a k=8 fat-tree (1 million uniform flows,
//     placed `passes` times), per hash; goal: 10 million per second or better;
//   the optimal-routing LP (GLPK) on a k=8 fat-tree with all-to-all traffic between its 128 hosts;
//     goal: under 10 s.
// Every figure is checked: every flow placed and its bytes on the host links; the LP's MLU equal
// to fluid ECMP's, which is optimal on a symmetric fat-tree. Prints one JSON document.
//   bench_dc [--flows N] [--passes P] [--k K] [--lp 0] [--only HASH]
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/glpk_solver.hpp"
#include "netlib/dc/loads.hpp"
#include "netlib/dc/routes.hpp"
#include "netlib/dc/te.hpp"
#include "netlib/dc/traffic.hpp"

namespace {

namespace dc = netlib::dc;

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double wall_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "bench_dc: %s\n", what);
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t flows_n = 1'000'000, passes = 5, k = 8, lp = 1;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--only") {
      only = argv[i + 1];
      continue;
    }
    const auto v = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--flows")
      flows_n = v;
    else if (flag == "--passes")
      passes = v;
    else if (flag == "--k")
      k = v;
    else if (flag == "--lp")
      lp = v;
  }
  const auto t = dc::fat_tree(k, k / 2, 10e9, 10e9);
  const dc::routes r(t);
  dc::traffic_config c;
  c.flows = flows_n;
  c.size_bytes = 1000;
  const auto flows = dc::generate_flows(t, c);
  nlohmann::json doc{{"fabric", t.description()}, {"flows", flows_n}, {"passes", passes}};
  auto placement = nlohmann::json::array();
  struct config {
    const char* hash;
    dc::seed_mode seeds;
  };
  for (const auto& [hash, seeds] :
       {config{"crc16", dc::seed_mode::same}, config{"crc16", dc::seed_mode::per_switch},
        config{"crc32", dc::seed_mode::per_switch}, config{"xor", dc::seed_mode::per_switch},
        config{"toeplitz", dc::seed_mode::per_switch}, config{"linux", dc::seed_mode::per_switch}}) {
    if (!only.empty() && only != std::string(hash) + (seeds == dc::seed_mode::same ? "-same" : "-per-switch")) continue;
    auto cfg = *dc::parse_hash(hash);
    cfg.seeds = seeds;
    cfg.seed = 7;
    const dc::ecmp_model m(t, r, cfg);
    dc::place_flows(m, std::span(flows).first(std::min<std::size_t>(flows.size(), 10000)), false);  // warm up
    const double t0 = cpu_seconds();
    std::size_t placed = 0;
    double host_bytes = 0;
    for (std::size_t p = 0; p < passes; ++p) {
      const auto out = dc::place_flows(m, flows, false);
      placed += out.placed + out.same_host;
      for (auto h : t.hosts()) host_bytes += out.arc_bytes[t.host_uplink(h)];
    }
    const double cpu = cpu_seconds() - t0;
    require(placed == flows.size() * passes, "not every flow was placed");
    require(host_bytes == 1000.0 * static_cast<double>(flows.size() * passes), "host links do not carry every byte");
    placement.push_back({{"hash", hash},
                         {"seeds", seeds == dc::seed_mode::same ? "same" : "per-switch"},
                         {"cpu_s", cpu},
                         {"flows_per_cpu_s", static_cast<double>(placed) / cpu}});
  }
  doc["placement"] = placement;
  if (lp == 0) {
    std::puts(doc.dump(2).c_str());
    return 0;
  }

  // All-to-all among the hosts: 1 Gbps per ordered pair.
  dc::traffic_matrix m;
  for (auto a : t.hosts()) {
    for (auto b : t.hosts()) {
      if (a != b) m.demands.push_back(dc::demand{a, b, 1e9 / static_cast<double>(t.hosts().size())});
    }
  }
  const dc::glpk_solver solver;
  const double c0 = cpu_seconds(), w0 = wall_seconds();
  const auto opt = dc::optimal_mcf(t, m, solver);
  const double cpu = cpu_seconds() - c0, wall = wall_seconds() - w0;
  const double ecmp = dc::max_utilisation(t, dc::ecmp_loads(t, m));
  require(std::abs(opt.mlu - ecmp) <= 1e-6 * ecmp, "the LP's MLU differs from ECMP's on a symmetric fat-tree");
  doc["lp"] = {{"demands", m.demands.size()}, {"cpu_s", cpu}, {"wall_s", wall}, {"mlu", opt.mlu}, {"ecmp_mlu", ecmp}};
  std::puts(doc.dump(2).c_str());
  return 0;
}
