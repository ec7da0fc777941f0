// Theory of operation: the fabric is built as for lab-dc run (netns_fabric), with one seed in
// every switch; the model's ECMP paths come from netlib::dc with Linux's hash and that seed.
// The kernel's paths are read before any traffic (netns_fabric::kernel_paths). Then the links get their rates and
// fair queues (classes on the model's paths), the ring all-reduce runs, and the counters are read
// around it.
#include "collective_run.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

#include "collective_report.hpp"
#include "netlib/app/netns.hpp"
#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"
#include "netlib/core/units.hpp"
#include "netlib/dc/collective.hpp"
#include "netlib/dc/routes.hpp"
#include "netns_fabric.hpp"
#include "rehash.hpp"
#include "report.hpp"
#include "ring_allreduce.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;
using netlib::units::format_bps;
using netlib::units::format_bytes;
using netlib::units::format_seconds;

constexpr double max_buffer = 64e6;         // bytes per rank
constexpr double max_total_buffer = 512e6;  // Σ ranks × buffer
constexpr double tcp_header = 66, tcp_mss = 1448;
constexpr std::size_t warmups = 1;  // untimed all-reduces before the jobs' own

}  // namespace

int run_collective_live(const live_collective_options& o) {
  const auto t = load_topology(o.fabric);
  if (t.hosts().size() < 2) throw netlib::app::usage_error("--topology: needs at least two hosts");
  if (t.nodes().size() > 400) {
    throw netlib::app::usage_error(
        fmt::format("--topology: {} nodes; lab-dc run builds at most 400 namespaces", t.nodes().size()));
  }
  if (o.scale <= 0) throw netlib::app::usage_error("--collective needs rate-limited links: --scale off is not allowed");
  const auto setup = jobs_from_flags(t, o.jobs, "ranks=8,buffer=8MB");
  double total = 0;
  for (const auto& j : setup.jobs) {
    if (j.spec.buffer_bytes > max_buffer) {
      throw netlib::app::usage_error(fmt::format("--job: job {} has {}; at most 64MB per rank in lab-dc run",
                                                 j.spec.name, format_bytes(j.spec.buffer_bytes)));
    }
    if (j.spec.buffer_bytes < 4) throw netlib::app::usage_error("--job: a buffer holds at least one float (4B)");
    total += j.spec.buffer_bytes * static_cast<double>(j.hosts.size());
  }
  if (total > max_total_buffer)
    throw netlib::app::usage_error("--job: at most 512MB of buffers (ranks × buffer) in all");
  netlib::catch_stop_signals();
  netlib::app::netns_set::remove_stale(o.verbose);
  const dc::routes r(t);
  auto built = std::make_unique<netns_fabric>(t, r, o.policy == "l3" ? 0 : 1, o.verbose);
  auto& fabric = *built;
  netlib::app::check_interrupted();
  dc::hash_config cfg;
  cfg.algorithm = dc::hash_algorithm::linux_hash;
  cfg.fields = o.policy == "l3" ? dc::field_set::two : dc::field_set::five;
  cfg.seeds = dc::seed_mode::same;
  cfg.seed = o.hash_seed;
  const dc::ecmp_model model(t, r, cfg);
  fabric.set_seeds(std::vector<std::uint32_t>(t.nodes().size(), o.hash_seed));
  const header_hashing headers(fabric, t);
  const auto paths = dc::ecmp_paths(model, setup);
  const auto model_collisions = dc::find_collisions(t, setup, paths);
  if (!o.json) {
    std::cout << fmt::format("fabric:  {}: {} namespaces ({}*), one veth pair per link\n", t.description(),
                             fabric.namespaces(), netlib::app::netns_set::own_prefix());
    std::cout << "links:   " << describe_capacity(t, o.scale, o.queues) << '\n';
    std::cout << fmt::format(
        "kernel:  fib_multipath_hash_policy {}, one seed ({}) in every switch{}; {}\n", o.policy == "l3" ? 0 : 1,
        o.hash_seed,
        fabric.has_seed_sysctl() ? "" : " (this kernel has no fib_multipath_hash_seed: its own random seed)",
        headers.attached() ? "every host's uplink forgets TCP's socket hash (eBPF at its egress), so "
                             "the switches hash the 5-tuple"
                           : "the switches use TCP's socket hashes: " + headers.why());
    std::cout << "jobs:\n";
    for (std::size_t j = 0; j < setup.jobs.size(); ++j) std::cout << "  " << describe_job(t, setup, j) << '\n';
    std::cout.flush();
  }
  // The kernel's paths, before any traffic.
  std::vector<dc::flow> ring_flows;
  for (const auto& f : setup.flows) ring_flows.push_back(f.f);
  const auto kernel = fabric.kernel_paths(ring_flows, o.verbose);
  dc::path_list kernel_list;
  std::size_t same_path = 0;
  for (std::size_t f = 0; f < kernel.size(); ++f) {
    kernel_list.add(kernel[f]);
    const auto m = paths[f];
    same_path += std::equal(m.begin(), m.end(), kernel[f].begin(), kernel[f].end());
  }
  const auto kernel_collisions = dc::find_collisions(t, setup, kernel_list);
  const auto arcs_of = [](const std::vector<dc::collision>& c) {
    std::vector<dc::arc_id> a;
    for (const auto& x : c) a.push_back(x.arc);
    return a;
  };
  const bool collisions_agree = arcs_of(model_collisions) == arcs_of(kernel_collisions);
  // Rates and queues, then the traffic.
  std::vector<dc::flow_key> keys;
  for (const auto& f : setup.flows) keys.push_back(f.f.key);
  shape_links(fabric, t, o.scale, o.queues, keys, paths, false, o.verbose);
  netlib::app::check_interrupted();
  if (!o.json) {
    std::cout << fmt::format(
        "paths:   {} of {} flows on the model's path (ip route get, switch by switch); colliding links: "
        "model {}, kernel {}: {}\n",
        same_path, setup.flows.size(), model_collisions.size(), kernel_collisions.size(),
        collisions_agree ? "the same links" : "NOT the same");
    std::cout << collisions_text(t, setup, kernel_collisions, "  ");
    std::cout << "\nrunning the all-reduce (TCP, float32)...\n";
    std::cout.flush();
  }
  const auto before = fabric.read_counters();
  const auto live = run_ring_allreduce(fabric, setup, warmups, o.deadline_s);
  const auto after = fabric.read_counters();
  netlib::app::check_interrupted();
  const auto sim = dc::simulate_collective(
      t, setup, paths, {},
      {.element_bytes = 4, .header_bytes_per_segment = tcp_header, .mss = tcp_mss, .capacity_scale = o.scale});
  // Per arc: the model's bytes (frames of the data) and the counters (data, ACKs, retransmissions).
  std::vector<double> model_bytes(t.arc_count(), 0), measured(t.arc_count(), 0);
  for (std::size_t f = 0; f < setup.flows.size(); ++f) {
    const auto& job = setup.jobs[setup.flows[f].job];
    double bytes = 0;
    for (std::size_t step = 0; step < job.steps(); ++step) {
      const double payload = dc::ring_step_bytes(setup, f, step, 4);
      bytes += payload + tcp_header * std::ceil(payload / tcp_mss);
    }
    bytes *= static_cast<double>(job.spec.iterations + warmups);  // the counters see the warm-up too
    for (dc::arc_id a : paths[f]) model_bytes[a] += bytes;
  }
  for (dc::arc_id a = 0; a < t.arc_count(); ++a)
    measured[a] = static_cast<double>(after.tx_bytes[a] - before.tx_bytes[a]);
  std::vector<bool> within(setup.jobs.size(), false);
  std::size_t wrong = 0;
  for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
    wrong += live.wrong[j];
    double measured_mean = 0, model_mean = 0;
    for (double x : live.allreduce_s[j]) measured_mean += x;
    for (double x : sim.jobs[j].allreduce_s) model_mean += x;
    measured_mean /= static_cast<double>(std::max<std::size_t>(live.allreduce_s[j].size(), 1));
    model_mean /= static_cast<double>(std::max<std::size_t>(sim.jobs[j].allreduce_s.size(), 1));
    within[j] = live.complete && model_mean > 0 && std::abs(measured_mean / model_mean - 1) <= o.tolerance;
  }
  if (o.json) {
    auto jobs = nlohmann::json::array();
    for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
      const auto& job = setup.jobs[j];
      const double n = static_cast<double>(job.hosts.size());
      double mean = 0;
      for (double x : live.allreduce_s[j]) mean += x;
      mean /= static_cast<double>(std::max<std::size_t>(live.allreduce_s[j].size(), 1));
      const double algbw = mean > 0 ? job.spec.buffer_bytes / mean : 0;
      jobs.push_back(
          {{"name", job.spec.name},
           {"model", job_result_json(t, setup, j, sim.jobs[j])},
           {"measured",
            {{"step_end_s", live.step_end_s[j]},
             {"allreduce_s", live.allreduce_s[j]},
             {"mean_allreduce_s", mean},
             {"algbw_Bps", algbw},
             {"busbw_Bps", algbw * 2 * (n - 1) / n},
             {"finish_s", std::isfinite(live.finish_s[j]) ? nlohmann::json(live.finish_s[j]) : nlohmann::json()}}},
           {"elements", live.elements[j]},
           {"checked_elements", live.checked[j]},
           {"wrong_elements", live.wrong[j]},
           {"within_tolerance", within[j]}});
    }
    auto links = nlohmann::json::array();
    for (dc::arc_id a = 0; a < t.arc_count(); ++a) {
      if (model_bytes[a] == 0 && measured[a] == 0) continue;
      links.push_back({{"from", t.nodes()[t.arc_from(a)].name},
                       {"to", t.nodes()[t.arc_to(a)].name},
                       {"model_bytes", model_bytes[a]},
                       {"measured_bytes", measured[a]}});
    }
    std::vector<std::pair<std::string, const dc::path_list*>> sets{{"path", &paths}, {"kernel_path", &kernel_list}};
    netlib::app::print_json({{"topology", topology_json(t)},
                             {"namespaces", fabric.namespaces()},
                             {"scale", o.scale},
                             {"queues", o.queues == queue_kind::fair ? "fair" : "fifo"},
                             {"policy", o.policy},
                             {"hash_seed", o.hash_seed},
                             {"seed_sysctl", fabric.has_seed_sysctl()},
                             {"rehash", headers.attached()},
                             {"jobs", jobs_json(t, setup)},
                             {"flows", ring_flows_json(t, setup, sets)},
                             {"paths_agree", same_path},
                             {"model_collisions", collisions_json(t, setup, model_collisions)},
                             {"kernel_collisions", collisions_json(t, setup, kernel_collisions)},
                             {"collisions_agree", collisions_agree},
                             {"connect_s", live.connect_s},
                             {"warmup_s", live.warmup_s},
                             {"duration_s", live.duration_s},
                             {"complete", live.complete},
                             {"tolerance", o.tolerance},
                             {"results", jobs},
                             {"links", links}});
  } else {
    std::cout << fmt::format(
        "connections up in {}; one untimed warm-up all-reduce per job ({}, as nccl-tests warms up: new "
        "connections start with small windows); then the jobs ran {}{}\n\n",
        format_seconds(live.connect_s), format_seconds(live.warmup_s), format_seconds(live.duration_s),
        live.complete ? "" : " (stopped: the deadline or Ctrl-C)");
    for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
      const auto& job = setup.jobs[j];
      std::cout << fmt::format(
          "job {}: {} floats on each of {} ranks, {} iteration(s) and the warm-up: {} of {} elements equal "
          "to the sum{}\n",
          job.spec.name, live.elements[j], job.hosts.size(), job.spec.iterations, live.checked[j] - live.wrong[j],
          live.checked[j], live.wrong[j] ? "  <- WRONG" : "");
      std::cout << fmt::format("  {:<14} {:>10} {:>10} {:>7}\n", "step ends at", "model", "measured", "ratio");
      const auto& ms = sim.jobs[j].step_end_s;
      const auto& ls = live.step_end_s[j];
      const std::size_t rows = std::max(ms.size(), ls.size());
      for (std::size_t i = 0; i < rows; ++i) {
        if (rows > 16 && i >= 6 && i + 6 < rows) {
          if (i == 6) std::cout << fmt::format("  ... ({} steps; --json lists them all)\n", rows);
          continue;
        }
        const std::size_t step = i % job.steps();
        const auto label = fmt::format("{} {}", step + 1 < job.hosts.size() ? "RS" : "AG", step + 1);
        std::cout << fmt::format(
            "  {:<14} {:>10} {:>10} {:>7}\n", label, i < ms.size() ? format_seconds(ms[i]) : "-",
            i < ls.size() ? format_seconds(ls[i]) : "-",
            i < ms.size() && i < ls.size() && ms[i] > 0 ? fmt::format("{:.2f}", ls[i] / ms[i]) : "-");
      }
      double mm = 0, lm = 0;
      for (double x : sim.jobs[j].allreduce_s) mm += x;
      for (double x : live.allreduce_s[j]) lm += x;
      mm /= static_cast<double>(std::max<std::size_t>(sim.jobs[j].allreduce_s.size(), 1));
      lm /= static_cast<double>(std::max<std::size_t>(live.allreduce_s[j].size(), 1));
      const double n = static_cast<double>(job.hosts.size());
      const auto bus = [&](double t_s) { return t_s > 0 ? job.spec.buffer_bytes / t_s * 2 * (n - 1) / n * 8 : 0.0; };
      std::cout << fmt::format("  all-reduce {} (model) vs {} (measured): error {:+.1f}%, tolerance ±{:g}%: {}\n",
                               format_seconds(mm), format_seconds(lm), mm > 0 ? 100 * (lm / mm - 1) : 0.0,
                               100 * o.tolerance, within[j] ? "within" : "NOT within");
      std::cout << fmt::format("  busbw {} (model) vs {} (measured), of {} host links in the namespaces\n\n",
                               format_bps(bus(mm)), format_bps(bus(lm)), format_bps(job_link_bps(t, job) * o.scale));
    }
    std::cout << "fabric links, the warm-up included (model: the data's frames; measured: every frame, ACKs and "
                 "retransmissions too):\n";
    std::cout << fmt::format("  {:<22} {:>12} {:>12}\n", "link", "model", "measured");
    for (dc::arc_id a = 0; a < t.arc_count(); ++a) {
      if (t.is_host(t.arc_from(a)) || t.is_host(t.arc_to(a))) continue;
      if (model_bytes[a] == 0 && measured[a] == 0) continue;
      std::cout << fmt::format("  {:<22} {:>12} {:>12}\n", t.arc_name(a), format_bytes(model_bytes[a]),
                               format_bytes(measured[a]));
    }
    std::cout.flush();
    built.reset();
    std::cout << "namespaces removed\n";
    std::cout.flush();
  }
  if (wrong > 0) {
    throw netlib::app::failure(fmt::format("the all-reduce's results differ from the sum on {} elements", wrong));
  }
  return netlib::app::exit_ok;
}

}  // namespace netlab::lab_dc
