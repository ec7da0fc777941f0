// lab-dc collective: training jobs' ring all-reduce on a fabric, modelled (netlib::dc's
// collective.hpp): every job's completion time, algorithm and bus bandwidth, and the links where
// ring edges collide, under fair sharing, Crux's priorities, MCCS's provider-chosen paths, and the
// LP bound, side by side.
#include <fmt/format.h>

#include <iostream>

#include "collective_report.hpp"
#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"
#include "netlib/dc/collective.hpp"
#include "netlib/dc/glpk_solver.hpp"
#include "netlib/dc/routes.hpp"
#include "options.hpp"
#include "report.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;
using netlib::units::format_bps;
using netlib::units::format_bytes;
using netlib::units::format_seconds;

struct collective_flags {
  fabric_flags fabric;
  std::vector<std::string> fail;
  hash_flags hash;
  std::vector<std::string> jobs;
  std::vector<std::string> schedulers{"fair", "crux", "mccs", "lp"};
  std::string svg;
  bool json = false, paths = false, steps = false, list = false;
};

// Work the simulation may do: flows × steps × iterations over all jobs.
constexpr double max_flow_steps = 20e6;

struct column {
  std::string key;    // "fair", "crux", "mccs", "lp"
  std::string title;  // "fair sharing", ...
  dc::collective_result result;
  std::vector<dc::collision> collisions;
  bool bound = false;
};

std::string share_text(double x) {
  return fmt::format("{:.1f}%", 100 * x);
}
std::string rate_Bps(double x) {
  return format_bytes(x) + "/s";
}

int run_collective(const collective_flags& f) {
  const auto t = after_failure(load_topology(f.fabric), f.fail);
  if (t.hosts().size() < 2) throw netlib::app::usage_error("--topology: a collective needs at least two hosts");
  const auto setup = jobs_from_flags(t, f.jobs, "ranks=8");
  double work = 0;
  for (const auto& j : setup.jobs) work += static_cast<double>(j.flows.size() * j.steps() * j.spec.iterations);
  if (work > max_flow_steps) {
    throw netlib::app::usage_error(
        fmt::format("--job: {:.0f} million flow-steps (flows × steps × iterations) to simulate; "
                    "at most {:.0f} million",
                    work / 1e6, max_flow_steps / 1e6));
  }
  const auto cfg = make_hash(f.hash);
  const dc::routes r(t);
  const dc::ecmp_model model(t, r, cfg);
  const auto ecmp = dc::ecmp_paths(model, setup);
  if (f.list) {
    const auto flows = ring_flows_json(t, setup, {});
    if (f.json) {
      netlib::app::print_json({{"topology", topology_json(t)}, {"jobs", jobs_json(t, setup)}, {"flows", flows}});
      return netlib::app::exit_ok;
    }
    std::cout << fmt::format("# {}\n# flow job edge channel src dst protocol src_ip src_port dst_ip dst_port\n",
                             t.description());
    for (const auto& x : flows) {
      std::cout << fmt::format(
          "{} {} {} {} {} {} {} {} {} {} {}\n", x["flow"].get<std::size_t>(), x["job"].get<std::string>(),
          x["edge"].get<std::size_t>(), x["channel"].get<std::size_t>(), x["src"].get<std::string>(),
          x["dst"].get<std::string>(), x["protocol"].get<std::string>(), x["src_ip"].get<std::string>(),
          x["src_port"].get<int>(), x["dst_ip"].get<std::string>(), x["dst_port"].get<int>());
    }
    std::cout.flush();
    return netlib::app::exit_ok;
  }
  const auto wants = [&](const char* k) {
    return std::find(f.schedulers.begin(), f.schedulers.end(), k) != f.schedulers.end();
  };
  std::vector<column> cols;
  std::vector<double> intensity;
  std::vector<std::uint32_t> levels;
  dc::provider_placement provider;
  std::vector<dc::collision> provider_collisions;
  const auto ecmp_collisions = dc::find_collisions(t, setup, ecmp);
  if (wants("fair"))
    cols.push_back({"fair", "fair sharing", dc::simulate_collective(t, setup, ecmp, {}), ecmp_collisions});
  if (wants("crux")) {
    intensity = dc::gpu_intensity(t, setup, ecmp);
    levels = dc::intensity_levels(intensity);
    cols.push_back({"crux", "Crux priority", dc::simulate_collective(t, setup, ecmp, levels), ecmp_collisions});
  }
  if (wants("mccs")) {
    provider = dc::provider_paths(t, r, setup);
    provider_collisions = dc::find_collisions(t, setup, provider.paths);
    cols.push_back({"mccs", "MCCS paths", dc::simulate_collective(t, setup, provider.paths, {}), provider_collisions});
  }
  dc::collective_bound bound;
  if (wants("lp")) {
    try {
      bound = dc::collective_lp_bound(t, setup, dc::glpk_solver(120));
    } catch (const std::runtime_error& e) {
      throw netlib::app::failure(fmt::format("the LP bound: {}", e.what()));
    }
    column c{"lp", "LP bound", {}, {}, true};
    for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
      const auto& job = setup.jobs[j];
      dc::job_result x;
      const double n = static_cast<double>(job.hosts.size());
      x.allreduce_s.assign(job.spec.iterations, bound.allreduce_s[j]);
      x.finish_s = bound.finish_s[j];
      x.algbw_Bps = bound.allreduce_s[j] > 0 ? job.spec.buffer_bytes / bound.allreduce_s[j] : 0;
      x.busbw_Bps = x.algbw_Bps * 2 * (n - 1) / n;
      x.compute_s = job.spec.compute_s * static_cast<double>(job.spec.iterations);
      x.gpu_busy = x.finish_s > job.spec.start_s ? x.compute_s / (x.finish_s - job.spec.start_s) : 0;
      c.result.jobs.push_back(std::move(x));
    }
    c.result.makespan_s = bound.makespan_s;
    cols.push_back(std::move(c));
  }
  if (!f.svg.empty()) {
    std::vector<progress_panel> panels;
    for (const auto& c : cols) {
      if (c.bound) continue;
      progress_panel p;
      p.title = c.title;
      for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
        p.jobs.push_back(c.result.jobs[j].progress);
        const auto& x = c.result.jobs[j];
        p.notes.push_back(fmt::format(
            "{}: busbw {} ({} of its links), done at {}", setup.jobs[j].spec.name, format_bps(x.busbw_Bps * 8),
            share_text(x.busbw_Bps * 8 / job_link_bps(t, setup.jobs[j])), format_seconds(x.finish_s)));
      }
      if (wants("lp")) p.notes.push_back(fmt::format("LP bound on the makespan: {}", format_seconds(bound.makespan_s)));
      panels.push_back(std::move(p));
    }
    if (panels.empty())
      throw netlib::app::usage_error("--svg: the LP bound alone has no progress to draw; add a scheduler");
    write_text_file(
        f.svg, progress_svg(fmt::format("Ring all-reduce on {}: each job's bytes delivered over time", t.description()),
                            setup, panels));
  }
  if (f.json) {
    auto schedulers = nlohmann::json::array();
    for (const auto& c : cols) {
      auto jobs = nlohmann::json::array();
      for (std::size_t j = 0; j < setup.jobs.size(); ++j)
        jobs.push_back(job_result_json(t, setup, j, c.result.jobs[j]));
      nlohmann::json x{{"name", c.key}, {"title", c.title}, {"jobs", jobs}, {"makespan_s", c.result.makespan_s}};
      if (!c.bound) {
        x["gpu_busy"] = c.result.gpu_busy;
        x["collisions"] = collisions_json(t, setup, c.collisions);
      }
      if (c.key == "crux") {
        auto pri = nlohmann::json::array();
        for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
          pri.push_back({{"name", setup.jobs[j].spec.name}, {"gpu_intensity", intensity[j]}, {"level", levels[j]}});
        }
        x["priorities"] = pri;
      }
      if (c.key == "mccs") x["same_job_shared_arcs"] = provider.same_job_shared_arcs;
      schedulers.push_back(std::move(x));
    }
    nlohmann::json doc{{"topology", topology_json(t)},
                       {"hash", hash_json(cfg)},
                       {"jobs", jobs_json(t, setup)},
                       {"schedulers", schedulers}};
    if (f.paths) {
      std::vector<std::pair<std::string, const dc::path_list*>> sets{{"path", &ecmp}};
      if (wants("mccs")) sets.emplace_back("provider_path", &provider.paths);
      doc["flows"] = ring_flows_json(t, setup, sets);
    }
    netlib::app::print_json(doc);
    return netlib::app::exit_ok;
  }
  std::cout << fmt::format("fabric:    {} ({} hosts, {} links)\nhash:      {}\n", t.description(), t.hosts().size(),
                           t.links().size(), describe(cfg));
  std::cout
      << "algorithm: ring all-reduce, reduce-scatter then all-gather: 2(N-1) steps of B/N bytes on every ring edge; "
         "a step ends with its slowest flow; links shared max-min fair\n";
  std::cout << "jobs:\n";
  for (std::size_t j = 0; j < setup.jobs.size(); ++j) std::cout << "  " << describe_job(t, setup, j) << '\n';
  std::cout << '\n';
  std::string head = fmt::format("{:<22}", "");
  for (const auto& c : cols) head += fmt::format(" {:>16}", c.title);
  std::cout << head << '\n';
  const auto row = [&](const std::string& label, auto&& cell) {
    std::string line = fmt::format("{:<22}", label);
    for (const auto& c : cols) line += fmt::format(" {:>16}", cell(c));
    std::cout << line << '\n';
  };
  for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
    const auto& job = setup.jobs[j];
    const double link = job_link_bps(t, job);
    const auto mean = [&](const column& c) {
      double m = 0;
      for (double a : c.result.jobs[j].allreduce_s) m += a;
      return m / static_cast<double>(std::max<std::size_t>(c.result.jobs[j].allreduce_s.size(), 1));
    };
    const std::string bound_mark = "\u2265 ";
    row(fmt::format("{} all-reduce", job.spec.name),
        [&](const column& c) { return (c.bound ? bound_mark : "") + format_seconds(mean(c)); });
    row("  algbw", [&](const column& c) { return (c.bound ? "\u2264 " : "") + rate_Bps(c.result.jobs[j].algbw_Bps); });
    row("  busbw", [&](const column& c) { return (c.bound ? "\u2264 " : "") + rate_Bps(c.result.jobs[j].busbw_Bps); });
    row(fmt::format("  busbw / {}", format_bps(link)),
        [&](const column& c) { return share_text(c.result.jobs[j].busbw_Bps * 8 / link); });
    row("  finished at",
        [&](const column& c) { return (c.bound ? bound_mark : "") + format_seconds(c.result.jobs[j].finish_s); });
    if (job.spec.compute_s > 0) {
      row("  GPU busy",
          [&](const column& c) { return (c.bound ? "\u2264 " : "") + share_text(c.result.jobs[j].gpu_busy); });
    }
  }
  row("all jobs: makespan",
      [&](const column& c) { return (c.bound ? "\u2265 " : "") + format_seconds(c.result.makespan_s); });
  bool computing = false;
  for (const auto& j : setup.jobs) computing = computing || j.spec.compute_s > 0;
  if (computing)
    row("  GPU busy", [&](const column& c) { return c.bound ? std::string("-") : share_text(c.result.gpu_busy); });
  row("  colliding links",
      [&](const column& c) { return c.bound ? std::string("-") : std::to_string(c.collisions.size()); });
  std::cout << '\n';
  if (wants("crux")) {
    std::string line =
        "Crux's GPU intensity (GPU-seconds computed per second of the busiest link's transfer; the higher "
        "goes first):";
    for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
      line += fmt::format(" {} {:.3g} (level {}){}", setup.jobs[j].spec.name, intensity[j], levels[j],
                          j + 1 < setup.jobs.size() ? "," : "");
    }
    std::cout << line << '\n';
  }
  if (wants("fair") || wants("crux")) {
    std::cout << "colliding links with ECMP's paths (fair sharing, Crux):\n"
              << collisions_text(t, setup, ecmp_collisions, "  ");
  }
  if (wants("mccs")) {
    std::cout << fmt::format(
                     "colliding links with the provider's paths (MCCS; {} fabric link directions carry two flows "
                     "of one job):\n",
                     provider.same_job_shared_arcs)
              << collisions_text(t, setup, provider_collisions, "  ");
  }
  if (wants("lp")) {
    std::cout
        << "LP bound: each job alone with its bytes split over any paths (a multi-commodity flow per step, GLPK); the "
           "makespan also no shorter than all jobs' bytes at once\n";
  }
  if (f.steps) {
    for (const auto& c : cols) {
      if (c.bound) continue;
      std::cout << fmt::format("\nsteps under {} (end of each step; d = its duration):\n", c.title);
      for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
        const auto& ends = c.result.jobs[j].step_end_s;
        std::cout << fmt::format("  {}:", setup.jobs[j].spec.name);
        double prev = setup.jobs[j].spec.start_s + setup.jobs[j].spec.compute_s;
        for (std::size_t i = 0; i < ends.size(); ++i) {
          if (i > 0 && i % setup.jobs[j].steps() == 0) prev = ends[i - 1] + setup.jobs[j].spec.compute_s;
          if (i > 0 && i % 6 == 0) std::cout << "\n     ";
          std::cout << fmt::format(" {} (d {})", format_seconds(ends[i]), format_seconds(ends[i] - prev));
          prev = ends[i];
        }
        std::cout << '\n';
      }
    }
  }
  if (f.paths) {
    std::cout << "\nflows (ECMP path" << (wants("mccs") ? "; provider's path" : "") << "):\n";
    for (std::size_t i = 0; i < setup.flows.size(); ++i) {
      const auto& x = setup.flows[i];
      std::string p;
      for (const auto& n : path_names(t, ecmp[i])) p += (p.empty() ? "" : " > ") + n;
      if (wants("mccs")) {
        p += "  ;  ";
        std::string q;
        for (const auto& n : path_names(t, provider.paths[i])) q += (q.empty() ? "" : " > ") + n;
        p += q;
      }
      std::cout << fmt::format("flow {:>4}  {:<14} {}:{} -> {}:{}  {}\n", i, edge_name(t, setup, i, true),
                               x.f.key.src.to_string(), x.f.key.src_port, x.f.key.dst.to_string(), x.f.key.dst_port, p);
    }
  }
  if (!f.svg.empty()) std::cout << "\nwrote " << f.svg << '\n';
  std::cout.flush();
  return netlib::app::exit_ok;
}

}  // namespace

void add_collective_command(CLI::App& app) {
  auto f = std::make_shared<collective_flags>();
  auto* cmd = netlib::app::add_command(
      app, "collective",
      "Training jobs' ring all-reduce on a fabric: per job the all-reduce time, algbw and busbw (as nccl-tests), and "
      "the links where ring edges collide, under fair sharing, Crux's GPU-intensity priority, MCCS's provider paths "
      "and the LP bound",
      "lab-dc collective --topology leaf-spine:4x2 --job ranks=4,placement=random,seed=2,buffer=256MB --job "
      "ranks=4,compute=50ms,iterations=3 --svg progress.svg");
  add_fabric_flags(*cmd, f->fabric, "leaf-spine:4x2");
  add_fail_flag(*cmd, f->fail);
  add_hash_flags(*cmd, f->hash);
  cmd->add_option("--job", f->jobs,
                  "A job, repeatable: KEY=VALUE,... with ranks (default 8), placement (packed, rack-aware, random), "
                  "seed (hosts and ports), buffer (default 256MB), channels (flows per ring edge, default 1), compute "
                  "(GPU time per iteration before its all-reduce), iterations, start, name; default: one job of 8 "
                  "packed ranks (or every host if fewer)");
  cmd->add_option("--schedulers", f->schedulers, "Which to compare: fair, crux, mccs, lp (default all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"fair", "crux", "mccs", "lp"}));
  cmd->add_flag("--steps", f->steps, "Also print when every step ended, per job and scheduler");
  cmd->add_flag("--paths", f->paths, "Also list every flow's 5-tuple and path (ECMP's and the provider's)");
  cmd->add_flag("--list-flows", f->list,
                "Only list the jobs' flows (number, job, ring edge, channel, 5-tuple): the "
                "input of a schedule exercise");
  cmd->add_option("--svg", f->svg, "Write each job's progress over time, one panel per scheduler, to this SVG file");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] { return run_collective(*f); });
}

}  // namespace netlab::lab_dc
