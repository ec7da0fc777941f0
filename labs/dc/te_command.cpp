// lab-dc te: the MLU of each traffic matrix of a series under each routing scheme, as a table,
// JSON, or a chart of MLU over time.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "common/svg_plot.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/svg.hpp"
#include "netlib/core/units.hpp"
#include "netlib/dc/glpk_solver.hpp"
#include "netlib/dc/te.hpp"
#include "options.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

struct te_flags {
  fabric_flags fabric;
  std::vector<std::string> fail;
  std::string matrix;
  bool generate = false;
  dc::matrix_generation gen;
  std::vector<std::string> schemes{"shortest-path", "ecmp", "optimal", "predicted", "robust"};
  std::size_t history = 4;
  double robustness = 1;
  std::size_t threads = 0;  // 0: one per core
  bool json = false;
  std::string svg, save;
};

// Over no matrix at all (predicted and robust with one matrix) every figure is NaN: printed "-".
struct stats {
  double mean = NAN, min = NAN, max = NAN, p90 = NAN;
  std::size_t over = 0, count = 0;
};

stats summarize(const std::vector<double>& v) {
  stats s;
  std::vector<double> x;
  for (double d : v) {
    if (std::isfinite(d)) x.push_back(d);
  }
  if (x.empty()) return s;
  std::sort(x.begin(), x.end());
  s.count = x.size();
  s.mean = 0;
  for (double d : x) {
    s.mean += d;
    s.over += d > 1.0 + 1e-9;
  }
  s.mean /= static_cast<double>(x.size());
  s.max = x.back();
  s.min = x.front();
  // Nearest rank.
  s.p90 = x[static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(x.size()))) - 1];
  return s;
}

std::string pct(double v) {
  return std::isfinite(v) ? fmt::format("{:.1f}%", 100 * v) : "-";
}
nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

// Progress on stderr for long runs: nothing during the first 2 s (most runs), then a line at most
// every 2 s, and the last one.
std::function<void(std::size_t, std::size_t)> progress_printer() {
  const auto start = std::chrono::steady_clock::now();
  auto last = std::make_shared<double>(0.0);
  return [start, last](std::size_t done, std::size_t total) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (s < 2 || (s - *last < 2 && done < total)) return;
    *last = s;
    std::cerr << fmt::format("{}: te: {} of {} matrices solved ({:.0f} s)\n", netlib::app::program_name(), done, total,
                             s);
  };
}

// The times on the x axis as format_seconds writes them ("0 s", "500 ms", "1.5 s", "2 min") when
// that is exact for every tick, else all in seconds with the step's decimals ("3600 s", "3601 s"):
// format_seconds keeps three significant digits, which would label five matrices a second apart
// an hour in "60 min" five times.
std::vector<std::string> seconds_ticks(const std::vector<double>& values, double step) {
  std::vector<std::string> out;
  for (double v : values) {
    std::string text = netlib::units::format_seconds(v);
    try {
      if (std::abs(netlib::units::parse_duration_s(text) - v) > 1e-9 * std::max(1.0, std::abs(v))) break;
    } catch (const std::exception&) {  // "days", "years" or a negative time: not read back
      break;
    }
    out.push_back(std::move(text));
  }
  if (out.size() == values.size()) return out;
  out.clear();
  for (double v : values) out.push_back(netlib::svg::tick_label(v, step) + " s");
  return out;
}

// MLU over time, one line per scheme, each with its own colour, dash pattern and marker shape.
// The first is drawn widest, with the biggest markers, and each later one narrower on top: where
// schemes have the same values (optimal, predicted and robust often do) every one stays visible.
// A matrix a scheme has no answer for (predicted and robust on the first) breaks its line.
std::string mlu_chart(const std::string& fabric, const std::string& source, const std::vector<double>& times,
                      const std::vector<dc::te_scheme>& schemes, const std::vector<std::vector<double>>& mlu) {
  static const char* const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"};
  static const char* const dashes[] = {"", "9 4", "3 3", "12 3 3 3", "6 2", "2 5", "10 6"};
  static const labs::marker_shape shapes[] = {labs::marker_shape::circle, labs::marker_shape::square,
                                              labs::marker_shape::diamond, labs::marker_shape::triangle,
                                              labs::marker_shape::cross};
  labs::plot_panel panel;
  panel.x_label = "time";
  panel.y_label = "maximum link utilisation";
  panel.x_from_data = true;
  panel.x_ticks = seconds_ticks;
  panel.y_ticks = [](const std::vector<double>& values, double step) {
    std::vector<std::string> out;
    for (double v : values) out.push_back(netlib::svg::tick_label(100 * v, 100 * step) + "%");
    return out;
  };
  panel.references.push_back({1.0, "100%: a link at its capacity"});
  const std::size_t n = schemes.size();
  for (std::size_t s = 0; s < n; ++s) {
    labs::plot_series line;
    line.name = dc::scheme_name(schemes[s]);
    line.color = colours[s % std::size(colours)];
    line.line = true;
    line.points = true;
    line.dash = dashes[s % std::size(dashes)];
    line.marker = shapes[s % std::size(shapes)];
    const double later = static_cast<double>(n - 1 - s);  // how many series are drawn over this one
    line.stroke_width = 1.5 + 1.2 * later;
    line.marker_radius = 2.5 + 1.1 * later;
    line.x = times;
    line.y = mlu[s];
    for (std::size_t k = 0; k < times.size() && k < mlu[s].size(); ++k)
      line.hover.push_back(
          fmt::format("{} at {}: {}", line.name, netlib::units::format_seconds(times[k]), pct(mlu[s][k])));
    panel.series.push_back(std::move(line));
  }
  return labs::render_svg(fmt::format("MLU over time: {}", fabric), {panel}, source);
}

int run_te(const te_flags& f) {
  const auto t = after_failure(load_topology(f.fabric), f.fail);
  if (f.generate == !f.matrix.empty()) throw netlib::app::usage_error("give either --matrix FILE or --generate");
  std::vector<dc::te_scheme> schemes;
  for (const auto& name : f.schemes) {
    dc::te_scheme s;
    if (!dc::parse_scheme(name, s)) {
      throw netlib::app::usage_error("--schemes " + name + ": use shortest-path, ecmp, optimal, predicted or robust");
    }
    schemes.push_back(s);
  }
  std::vector<dc::traffic_matrix> matrices;
  std::string source;
  try {
    if (f.generate) {
      matrices = dc::generate_matrices(t, f.gen);
      std::set<dc::node_id> ends;
      for (const auto& d : matrices.front().demands) ends.insert(d.src);
      source = fmt::format(
          "{} generated matrices every {} among {} switches: ECMP load {:.0f}% on the base, noise "
          "±{:.0f}%, {:.0f}% of pairs bursty (x{} with probability {:.0f}%), seed {}",
          matrices.size(), netlib::units::format_seconds(f.gen.interval_s), ends.size(), 100 * f.gen.load,
          100 * f.gen.noise, 100 * f.gen.bursty_share, f.gen.burst_factor, 100 * f.gen.burst_probability, f.gen.seed);
    } else {
      const auto text = read_input_file("--matrix", f.matrix, dc::matrix_limits{}.max_text);
      matrices = dc::parse_matrices(text, t);
      source = fmt::format("{} matrices from {}", matrices.size(), f.matrix);
    }
  } catch (const dc::te_error& e) {
    if (f.generate) throw netlib::app::usage_error(std::string("--generate: ") + e.what());
    if (privileged()) {
      throw netlib::app::usage_error(
          fmt::format("{}: {} (lab-dc runs as root, so it shows no word of the file)", f.matrix, e.wordless()));
    }
    throw netlib::app::usage_error(f.matrix + ": " + e.what());
  }
  if (!f.save.empty()) write_text_file(f.save, dc::matrices_to_text(t, matrices));
  const dc::glpk_solver solver;
  dc::te_evaluation ev;
  try {
    const std::size_t threads = f.threads ? f.threads : std::max(1u, std::thread::hardware_concurrency());
    ev = dc::evaluate_te(t, matrices, schemes, f.history, solver,
                         {.robustness = f.robustness, .workers = threads, .progress = progress_printer()});
  } catch (const dc::te_error& e) {
    throw netlib::app::failure(e.what());
  }
  std::vector<double> times;
  for (const auto& m : matrices) times.push_back(m.time_s);
  std::vector<std::vector<double>> per_scheme(schemes.size());
  for (const auto& row : ev.mlu) {
    for (std::size_t s = 0; s < schemes.size(); ++s) per_scheme[s].push_back(row[s]);
  }
  if (!f.svg.empty()) write_text_file(f.svg, mlu_chart(t.description(), source, times, schemes, per_scheme));
  if (f.json) {
    auto rows = nlohmann::json::array();
    for (std::size_t i = 0; i < matrices.size(); ++i) {
      nlohmann::json mlu = nlohmann::json::object();
      for (std::size_t s = 0; s < schemes.size(); ++s) {
        mlu[dc::scheme_name(schemes[s])] =
            std::isfinite(ev.mlu[i][s]) ? nlohmann::json(ev.mlu[i][s]) : nlohmann::json();
      }
      nlohmann::json row{{"time_s", matrices[i].time_s}, {"demands", matrices[i].demands.size()}, {"mlu", mlu}};
      if (f.generate) row["bursts"] = matrices[i].bursts;
      rows.push_back(std::move(row));
    }
    auto summary = nlohmann::json::object();
    for (std::size_t s = 0; s < schemes.size(); ++s) {
      const auto st = summarize(per_scheme[s]);
      summary[dc::scheme_name(schemes[s])] = {{"min", number_or_null(st.min)}, {"mean", number_or_null(st.mean)},
                                              {"p90", number_or_null(st.p90)}, {"max", number_or_null(st.max)},
                                              {"over_100", st.over},           {"matrices", st.count}};
    }
    netlib::app::print_json({{"topology", {{"description", t.description()}, {"links", t.links().size()}}},
                             {"source", source},
                             {"history", f.history},
                             {"matrices", rows},
                             {"summary", summary}});
    return netlib::app::exit_ok;
  }
  std::cout << fmt::format(
      "fabric:   {}\nmatrices: {}\nschemes:  predicted = the optimal split for the previous matrix; "
      "robust = tuned on the last {} (mean, plus {} x each pair's burst on its most exposed path); "
      "both the centre of their optimal splits (as even as the optimum allows)\n\n",
      t.description(), source, f.history, f.robustness);
  std::cout << fmt::format("{:>10}", "time");
  if (f.generate) std::cout << fmt::format("{:>8}", "bursts");
  for (auto s : schemes) std::cout << fmt::format("{:>15}", dc::scheme_name(s));
  std::cout << '\n';
  for (std::size_t i = 0; i < matrices.size(); ++i) {
    std::cout << fmt::format("{:>10}", netlib::units::format_seconds(matrices[i].time_s));
    if (f.generate) std::cout << fmt::format("{:>8}", matrices[i].bursts);
    for (std::size_t s = 0; s < schemes.size(); ++s) std::cout << fmt::format("{:>15}", pct(ev.mlu[i][s]));
    std::cout << '\n';
  }
  std::cout << '\n';
  const auto line = [&](const char* label, auto value) {
    std::cout << fmt::format("{:>10}", label) << (f.generate ? std::string(8, ' ') : std::string());
    for (std::size_t s = 0; s < schemes.size(); ++s)
      std::cout << fmt::format("{:>15}", value(summarize(per_scheme[s])));
    std::cout << '\n';
  };
  line("min", [](const stats& s) { return pct(s.min); });
  line("mean", [](const stats& s) { return pct(s.mean); });
  line("p90", [](const stats& s) { return pct(s.p90); });
  line("max", [](const stats& s) { return pct(s.max); });
  line("over 100%", [](const stats& s) { return fmt::format("{} of {}", s.over, s.count); });
  if (!f.svg.empty()) std::cout << "\nwrote " << f.svg << '\n';
  if (!f.save.empty()) std::cout << (f.svg.empty() ? "\n" : "") << "wrote " << f.save << '\n';
  std::cout.flush();
  return netlib::app::exit_ok;
}

}  // namespace

void add_te_command(CLI::App& app) {
  auto f = std::make_shared<te_flags>();
  auto* cmd = netlib::app::add_command(
      app, "te",
      "Traffic engineering: the MLU of each traffic matrix under shortest path, ECMP, the optimal split (an LP), and "
      "splits tuned on past matrices (predicted, robust)",
      "lab-dc te --topology leaf-spine:4x2 --generate --matrices 24 --svg mlu.svg");
  add_fabric_flags(*cmd, f->fabric, "leaf-spine:4x2");
  add_fail_flag(*cmd, f->fail);
  cmd->add_option("--matrix", f->matrix,
                  "Traffic matrices: lines 'TIME SOURCE DESTINATION RATE' (e.g. '0s leaf1 leaf2 "
                  "4Gbps'); one matrix per time")
      ->check(netlib::app::input_file());
  cmd->add_flag("--generate", f->generate, "Generate a series of matrices between the switches with hosts");
  cmd->add_option("--matrices", f->gen.count, "With --generate: how many")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
  netlib::app::add_quantity(*cmd, "--interval", f->gen.interval_s, netlib::units::parse_duration_s,
                            "With --generate: time between matrices (default 1s)");
  netlib::app::add_quantity(*cmd, "--load", f->gen.load, netlib::units::parse_fraction,
                            "With --generate: ECMP's MLU on the base matrix (default 40%)");
  netlib::app::add_quantity(*cmd, "--noise", f->gen.noise, netlib::units::parse_fraction,
                            "With --generate: each demand varies by up to this much (default 10%)");
  netlib::app::add_quantity(*cmd, "--bursty", f->gen.bursty_share, netlib::units::parse_fraction,
                            "With --generate: share of pairs that burst (default 15%)");
  netlib::app::add_quantity(*cmd, "--burst-probability", f->gen.burst_probability, netlib::units::parse_fraction,
                            "With --generate: chance a bursty pair bursts in a matrix (default 30%)");
  cmd->add_option("--burst-factor", f->gen.burst_factor, "With --generate: a burst multiplies the demand (default 5)")
      ->check(CLI::Range(1.0, 1000.0));
  cmd->add_option("--matrix-seed", f->gen.seed, "With --generate: the seed")->capture_default_str();
  cmd->add_option("--schemes", f->schemes, "Schemes to compare (default all five)")->delimiter(',');
  cmd->add_option("--history", f->history, "Matrices the robust scheme looks back over")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  cmd->add_option("--robustness", f->robustness,
                  "Weight of the burst term in the robust scheme (0: tune for the mean only)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  cmd->add_option("--threads", f->threads, "Matrices solved at once (default: one per core)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{64}));
  cmd->add_option("--svg", f->svg, "Write MLU over time, one line per scheme, to this SVG file");
  cmd->add_option("--save-matrices", f->save, "Write the matrices in the --matrix format to this file");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] { return run_te(*f); });
}

}  // namespace netlab::lab_dc
