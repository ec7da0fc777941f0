// Theory of operation: JSON carries raw numbers (seconds, bytes per second, fractions); the text
// rounds them for reading. Rings are shown by host name in ring order, racks counted by the
// hosts' switches.
#include "collective_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/svg_plot.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_dc {

namespace dc = netlib::dc;
using netlib::units::format_bps;
using netlib::units::format_bytes;
using netlib::units::format_seconds;

dc::collective_setup jobs_from_flags(const dc::topology& t, const std::vector<std::string>& jobs,
                                     const std::string& fallback) {
  std::vector<dc::job_spec> specs;
  for (const auto& text : jobs) {
    try {
      specs.push_back(dc::parse_job(text));
    } catch (const std::invalid_argument& e) {
      throw netlib::app::usage_error(fmt::format("--job {}: {}", text, e.what()));
    }
  }
  if (specs.empty()) {
    specs.push_back(dc::parse_job(fallback));
    specs.back().ranks = std::min<std::size_t>({specs.back().ranks, 8, t.hosts().size()});
  }
  try {
    return dc::place_jobs(t, specs);
  } catch (const std::invalid_argument& e) {
    throw netlib::app::usage_error(fmt::format("--job: {}", e.what()));
  }
}

double job_link_bps(const dc::topology& t, const dc::placed_job& j) {
  double rate = 0;
  for (dc::node_id h : j.hosts) {
    const double r = std::min(t.capacity(t.host_uplink(h)), t.capacity(t.host_uplink(h) ^ 1u));
    rate = rate == 0 ? r : std::min(rate, r);
  }
  return rate;
}

std::string describe_job(const dc::topology& t, const dc::collective_setup& s, std::size_t job) {
  const auto& j = s.jobs[job];
  std::string ring;
  std::set<dc::node_id> racks;
  for (std::size_t i = 0; i < j.hosts.size(); ++i) {
    if (i < 12 || i + 1 == j.hosts.size())
      ring += (ring.empty() ? "" : " ") + t.nodes()[j.hosts[i]].name;
    else if (i == 12)
      ring += " ...";
    racks.insert(t.attachment(j.hosts[i]));
  }
  const std::size_t n = j.hosts.size(), k = j.spec.channels;
  return fmt::format(
      "{}: {} ranks, {}, ring {} ({} {}); {} in {} steps of {} per ring edge, {} {} per edge ({} flows); "
      "compute {}, {} {}{}",
      j.spec.name, n, dc::placement_name(j.spec.placement), ring, racks.size(), racks.size() == 1 ? "rack" : "racks",
      format_bytes(j.spec.buffer_bytes), j.steps(), format_bytes(j.spec.buffer_bytes / static_cast<double>(n)), k,
      k == 1 ? "channel" : "channels", j.flows.size(), format_seconds(j.spec.compute_s), j.spec.iterations,
      j.spec.iterations == 1 ? "iteration" : "iterations",
      j.spec.start_s > 0 ? fmt::format(", starts at {}", format_seconds(j.spec.start_s)) : "");
}

nlohmann::json jobs_json(const dc::topology& t, const dc::collective_setup& s) {
  auto out = nlohmann::json::array();
  for (const auto& j : s.jobs) {
    auto hosts = nlohmann::json::array();
    for (dc::node_id h : j.hosts) hosts.push_back(t.nodes()[h].name);
    out.push_back({{"name", j.spec.name},
                   {"ranks", j.hosts.size()},
                   {"placement", dc::placement_name(j.spec.placement)},
                   {"seed", j.spec.seed},
                   {"buffer_bytes", j.spec.buffer_bytes},
                   {"channels", j.spec.channels},
                   {"compute_s", j.spec.compute_s},
                   {"iterations", j.spec.iterations},
                   {"start_s", j.spec.start_s},
                   {"steps", j.steps()},
                   {"ring", hosts},
                   {"listen_ports", j.listen_port},
                   {"link_bps", job_link_bps(t, j)}});
  }
  return out;
}

std::string edge_name(const dc::topology& t, const dc::collective_setup& s, std::size_t flow, bool with_channel) {
  const auto& f = s.flows[flow];
  return fmt::format("{} {}->{}{}", s.jobs[f.job].spec.name, t.nodes()[f.f.src].name, t.nodes()[f.f.dst].name,
                     with_channel && s.jobs[f.job].spec.channels > 1 ? fmt::format(" ch {}", f.channel) : "");
}

std::vector<std::string> path_names(const dc::topology& t, std::span<const dc::arc_id> path) {
  std::vector<std::string> out;
  if (path.empty()) return out;
  out.push_back(t.nodes()[t.arc_from(path.front())].name);
  for (dc::arc_id a : path) out.push_back(t.nodes()[t.arc_to(a)].name);
  return out;
}

nlohmann::json job_result_json(const dc::topology& t, const dc::collective_setup& s, std::size_t job,
                               const dc::job_result& r) {
  double mean = 0;
  for (double a : r.allreduce_s) mean += a;
  mean /= static_cast<double>(std::max<std::size_t>(r.allreduce_s.size(), 1));
  const double link = job_link_bps(t, s.jobs[job]);
  return {{"name", s.jobs[job].spec.name}, {"allreduce_s", r.allreduce_s},
          {"mean_allreduce_s", mean},      {"algbw_Bps", r.algbw_Bps},
          {"busbw_Bps", r.busbw_Bps},      {"busbw_of_link", link > 0 ? r.busbw_Bps * 8 / link : 0.0},
          {"finish_s", r.finish_s},        {"gpu_busy", r.gpu_busy},
          {"step_end_s", r.step_end_s}};
}

nlohmann::json collisions_json(const dc::topology& t, const dc::collective_setup& s, std::span<const dc::collision> c) {
  auto out = nlohmann::json::array();
  for (const auto& x : c) {
    auto flows = nlohmann::json::array();
    for (std::size_t f : x.flows) flows.push_back({{"flow", f}, {"edge", edge_name(t, s, f, true)}});
    out.push_back({{"from", t.nodes()[t.arc_from(x.arc)].name},
                   {"to", t.nodes()[t.arc_to(x.arc)].name},
                   {"ring_edges", x.ring_edges},
                   {"jobs", x.jobs},
                   {"demand_bps", x.demand_bps},
                   {"capacity_bps", t.capacity(x.arc)},
                   {"flows", flows}});
  }
  return out;
}

std::string collisions_text(const dc::topology& t, const dc::collective_setup& s, std::span<const dc::collision> c,
                            const std::string& indent) {
  if (c.empty()) return indent + "none: no fabric link carries more than its ring edges' hosts can send\n";
  std::string out;
  for (const auto& x : c) {
    std::vector<std::string> edges;
    for (std::size_t f : x.flows) {
      const auto e = edge_name(t, s, f, false);
      if (std::find(edges.begin(), edges.end(), e) == edges.end()) edges.push_back(e);
    }
    std::string list;
    for (std::size_t i = 0; i < edges.size(); ++i) list += (i ? ", " : "") + edges[i];
    out += fmt::format("{}{}: {} ring edges ({} flows) want {} of {}: {}\n", indent, t.arc_name(x.arc), x.ring_edges,
                       x.flows.size(), format_bps(x.demand_bps), format_bps(t.capacity(x.arc)), list);
  }
  return out;
}

nlohmann::json ring_flows_json(const dc::topology& t, const dc::collective_setup& s,
                               const std::vector<std::pair<std::string, const dc::path_list*>>& paths) {
  auto out = nlohmann::json::array();
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    const auto& f = s.flows[i];
    nlohmann::json x{{"flow", i},
                     {"job", s.jobs[f.job].spec.name},
                     {"edge", f.edge},
                     {"channel", f.channel},
                     {"src", t.nodes()[f.f.src].name},
                     {"dst", t.nodes()[f.f.dst].name},
                     {"protocol", f.f.key.protocol == 6 ? "tcp" : "udp"},
                     {"src_ip", f.f.key.src.to_string()},
                     {"src_port", f.f.key.src_port},
                     {"dst_ip", f.f.key.dst.to_string()},
                     {"dst_port", f.f.key.dst_port}};
    for (const auto& [name, list] : paths) x[name] = path_names(t, (*list)[i]);
    out.push_back(std::move(x));
  }
  return out;
}

std::string progress_svg(const std::string& title, const dc::collective_setup& s,
                         const std::vector<progress_panel>& panels) {
  static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                  "#9467bd", "#8c564b", "#17becf", "#7f7f7f"};
  double end = 0;
  for (const auto& p : panels) {
    for (const auto& j : p.jobs) {
      if (!j.empty()) end = std::max(end, j.back().first);
    }
  }
  // One time unit for every panel, so that they can be compared by eye.
  const bool ms = end < 2;
  const double unit = ms ? 1e3 : 1;
  std::vector<labs::plot_panel> out;
  for (const auto& p : panels) {
    labs::plot_panel panel;
    panel.title = p.title;
    panel.x_label = ms ? "time (ms)" : "time (s)";
    panel.y_label = "bytes delivered (%)";
    panel.y_max = 100;
    panel.x_max = end * unit;
    panel.notes = p.notes;
    for (std::size_t j = 0; j < p.jobs.size() && j < s.jobs.size(); ++j) {
      labs::plot_series line;
      line.name = fmt::format("job {} ({} ranks)", s.jobs[j].spec.name, s.jobs[j].hosts.size());
      line.color = colours[j % std::size(colours)];
      line.line = true;
      for (const auto& [time, share] : p.jobs[j]) {
        line.x.push_back(time * unit);
        line.y.push_back(100 * share);
      }
      panel.series.push_back(std::move(line));
    }
    out.push_back(std::move(panel));
  }
  return labs::render_svg(title, out);
}

}  // namespace netlab::lab_dc
