// lab-delay simulate: sweeps traffic intensities through netlib::calc::simulate_queue and prints
// each measured delay and loss beside the formula's prediction for the chosen arrival process and
// size distribution; --svg draws the sweep.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "common/report.hpp"
#include "common/svg_plot.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/input_error.hpp"
#include "netlib/calc/queue_simulation.hpp"
#include "netlib/calc/queueing.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_delay {
namespace {

namespace calc = netlib::calc;
using labs::plot_panel;
using labs::plot_series;
using labs::render_svg;
using netlib::units::format_seconds;

struct flags {
  double length = 12000, rate = 10e6;
  std::string arrivals = "poisson", sizes = "exponential", trace_file, svg_file;
  long long capacity = 100, packets = 100000, warmup = -1;  // warmup -1: a tenth of the run, at most 1000
  std::uint64_t seed = 1;
  std::vector<double> intensities;
  bool json = false;
  CLI::Option *length_opt = nullptr, *sizes_opt = nullptr, *trace_opt = nullptr, *seed_opt = nullptr;
};

struct prediction {
  std::string model;                 // empty: no formula for this combination
  std::optional<double> queueing_s;  // absent: unbounded or no formula
  std::optional<double> loss;
};

// `mean_length`: E[L] of the packets served (the trace's own lengths when it has them).
prediction predict(const flags& f, const calc::simulation_config& c, double intensity, double mean_length) {
  const double service = mean_length / f.rate;
  const long long k = f.capacity;
  if (c.arrivals == calc::arrival_process::poisson && c.sizes == calc::size_distribution::exponential) {
    const auto r = calc::finite_buffer_delay(mean_length, f.rate, c.arrival_rate, k);
    return {fmt::format("M/M/1/{}", k), r.queueing_delay_s, r.loss_probability};
  }
  if (c.arrivals == calc::arrival_process::poisson) {
    const auto r = calc::queueing_delay(mean_length, f.rate, c.arrival_rate, calc::queue_model::md1);
    return {"M/D/1 (infinite buffer)", r.queueing_delay_s, std::nullopt};
  }
  if (c.arrivals == calc::arrival_process::deterministic && c.sizes == calc::size_distribution::fixed) {
    if (intensity <= 1) return {"D/D/1", 0.0, 0.0};
    return {"D/D/1", double(k - 1) * service, 1 - 1 / intensity};  // the buffer stays full
  }
  return {};
}

std::vector<calc::trace_arrival> read_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw netlib::app::failure("cannot open trace '" + path + "'");
  std::vector<calc::trace_arrival> out;
  std::string line;
  for (long long n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    if (out.size() >= 10'000'000) throw netlib::app::failure("trace '" + path + "' has more than 10000000 arrivals");
    std::istringstream fields(line);
    calc::trace_arrival a;
    double bytes = 0;
    if (!(fields >> a.time_s) || (!(fields >> bytes) && !fields.eof()) || a.time_s < 0 || bytes < 0 ||
        (!out.empty() && a.time_s < out.back().time_s))
      throw netlib::app::usage_error(
          fmt::format("{}:{}: expected 'TIME_S [LENGTH_BYTES]' with times in order", path, n));
    a.length_bits = bytes * 8;
    out.push_back(a);
  }
  return out;
}

std::string length_text(double bits) {
  return bits == std::floor(bits / 8) * 8 ? fmt::format("{:g} B", bits / 8) : fmt::format("{:g} b", bits);
}

// `size_source`: where the packet lengths came from ("trace", or the --sizes distribution).
void write_svg(const flags& f, const std::string& model, const std::string& size_source, double mean_length,
               const std::vector<double>& xs, const nlohmann::json& points) {
  plot_series sim{"simulated mean ±95% CI", "#1f77b4", false, xs, {}, {}};
  plot_series p99{"simulated p99", "#ff7f0e", false, xs, {}, {}};
  plot_series formula{model.empty() ? "no formula" : model, "#d62728", true, {}, {}, {}};
  plot_series loss{"simulated loss", "#1f77b4", false, xs, {}, {}};
  plot_series loss_formula{model.empty() ? "no formula" : model, "#d62728", true, {}, {}, {}};
  for (const auto& p : points) {
    sim.y.push_back(p["mean_queueing_s"].get<double>() * 1e3);
    sim.error.push_back(p["ci95_half_width_s"].get<double>() * 1e3);
    p99.y.push_back(p["p99_queueing_s"].get<double>() * 1e3);
    loss.y.push_back(p["loss_rate"].get<double>());
    if (!p["formula_queueing_s"].is_null()) {
      formula.x.push_back(p["traffic_intensity"]);
      formula.y.push_back(p["formula_queueing_s"].get<double>() * 1e3);
    }
    if (!p["formula_loss"].is_null()) {
      loss_formula.x.push_back(p["traffic_intensity"]);
      loss_formula.y.push_back(p["formula_loss"].get<double>());
    }
  }
  // A formula that gives no value here (M/D/1 has no loss formula, no formula above I = 1) is
  // named in a note under the legend instead of a legend entry with no line in the chart.
  std::vector<plot_series> delay_series{sim, p99};
  std::vector<plot_series> loss_series{loss};
  std::vector<std::string> delay_notes, loss_notes;
  if (!formula.x.empty())
    delay_series.insert(delay_series.begin(), formula);
  else
    delay_notes.push_back(model.empty() ? "no formula for this queue" : "no delay formula: " + model);
  if (!loss_formula.x.empty())
    loss_series.insert(loss_series.begin(), loss_formula);
  else
    loss_notes.push_back(model.empty() ? "no formula for this queue" : "no loss formula: " + model);
  // Each "name = value" is kept on one line of the title (no-break spaces); the title wraps between them.
  const auto keep = [](std::string text) {
    std::string out;
    for (char c : text) out += c == ' ' ? std::string("\u00a0") : std::string(1, c);
    return out;
  };
  const std::string title =
      fmt::format("FIFO queue: {}, {}, {}, {}, {}", keep(f.arrivals + " arrivals"), keep(size_source + " sizes"),
                  keep("L = " + length_text(mean_length)), keep("R = " + netlib::units::format_bps(f.rate)),
                  keep(fmt::format("K = {} packets", f.capacity)));
  const std::string svg =
      render_svg(title, {{"Queueing delay", "traffic intensity La/R", "ms", delay_series, 0, delay_notes},
                         {"Loss rate", "traffic intensity La/R", "fraction lost", loss_series, 0, loss_notes}});
  std::ofstream out(f.svg_file);
  if (!(out << svg)) throw netlib::app::failure("cannot write '" + f.svg_file + "'");
}

// A trace whose every line gives its length: --sizes and --length draw nothing.
bool every_length_from_trace(const calc::simulation_config& c) {
  return c.arrivals == calc::arrival_process::trace &&
         std::all_of(c.trace.begin(), c.trace.end(), [](const auto& a) { return a.length_bits > 0; });
}

// Whether the run draws random numbers (and so uses --seed): not with a trace that gives every
// length, nor with deterministic arrivals of fixed sizes.
bool draws_random_numbers(const calc::simulation_config& c) {
  if (every_length_from_trace(c)) return false;
  return !(c.arrivals == calc::arrival_process::deterministic && c.sizes == calc::size_distribution::fixed);
}

calc::simulation_config make_config(const flags& f) {
  calc::simulation_config c{
      .rate_bps = f.rate,
      .mean_length_bits = f.length,
      .arrivals = f.arrivals == "poisson"         ? calc::arrival_process::poisson
                  : f.arrivals == "deterministic" ? calc::arrival_process::deterministic
                                                  : calc::arrival_process::trace,
      .sizes = f.sizes == "fixed" ? calc::size_distribution::fixed : calc::size_distribution::exponential,
      .trace = {},
      .buffer_packets = f.capacity - 1,
      .packets = f.packets,
      .warmup = f.warmup >= 0 ? f.warmup : std::min(1000LL, f.packets / 10),
      .seed = f.seed};
  if (c.warmup >= c.packets) throw netlib::app::usage_error("--warmup must be smaller than --packets");
  if (c.arrivals != calc::arrival_process::trace && f.trace_opt->count() > 0)
    throw netlib::app::usage_error("--trace is only read with --arrivals trace");
  if (c.arrivals == calc::arrival_process::trace) {
    if (f.trace_file.empty()) throw netlib::app::usage_error("--arrivals trace needs --trace FILE");
    c.trace = read_trace(f.trace_file);
    const bool every_length = every_length_from_trace(c);
    if (every_length && f.length_opt->count() > 0)
      throw netlib::app::usage_error("--length is not used: the trace gives every packet's length");
    if (every_length && f.sizes_opt->count() > 0)
      throw netlib::app::usage_error("--sizes is not used: the trace gives every packet's length");
  }
  if (!draws_random_numbers(c) && f.seed_opt->count() > 0)
    throw netlib::app::usage_error("--seed is not used: nothing in this run is random (" +
                                   std::string(c.arrivals == calc::arrival_process::trace
                                                   ? "the trace gives every arrival and length"
                                                   : "deterministic arrivals of fixed sizes") +
                                   ")");
  return c;
}

nlohmann::json point_json(double x, const calc::simulation_config& c, const calc::simulation_result& r,
                          const prediction& p) {
  return {{"traffic_intensity", x},
          {"arrival_rate_per_s", c.arrival_rate},
          {"mean_queueing_s", r.mean_queueing_s},
          {"ci95_half_width_s", r.ci95_half_width_s},
          {"p95_queueing_s", r.p95_queueing_s},
          {"p99_queueing_s", r.p99_queueing_s},
          {"loss_rate", r.loss_rate},
          {"utilisation", r.utilisation},
          {"arrived", r.arrived},
          {"dropped", r.dropped},
          {"formula_queueing_s", labs::or_null(p.queueing_s)},
          {"formula_loss", labs::or_null(p.loss)}};
}

// The sweep as a table; every time column in one unit so that the decimal points line up.
std::string render_table(const nlohmann::json& points) {
  double largest = 0;
  for (const auto& p : points) {
    for (const char* key : {"mean_queueing_s", "p95_queueing_s", "p99_queueing_s"})
      largest = std::max(largest, p[key].get<double>());
    if (!p["formula_queueing_s"].is_null()) largest = std::max(largest, p["formula_queueing_s"].get<double>());
  }
  const labs::time_column t(largest);
  const std::string u = " (" + t.unit + ")";
  labs::table out{
      {"I", "sim mean" + u, "±95% CI" + u, "formula" + u, "sim p95" + u, "sim p99" + u, "sim loss", "formula loss"},
      {}};
  for (const auto& p : points) {
    const auto& f = p["formula_queueing_s"];
    out.rows.push_back({fmt::format("{:.2f}", p["traffic_intensity"].get<double>()), t(p["mean_queueing_s"]),
                        t(p["ci95_half_width_s"]), f.is_null() ? "-" : t(f.get<double>()), t(p["p95_queueing_s"]),
                        t(p["p99_queueing_s"]), fmt::format("{:.4f}", p["loss_rate"].get<double>()),
                        p["formula_loss"].is_null() ? "-" : fmt::format("{:.4f}", p["formula_loss"].get<double>())});
  }
  return out.render();
}

int run(const flags& f) {
  auto c = make_config(f);
  const double mean_length = calc::served_mean_length_bits(c);
  auto xs = f.intensities;
  if (xs.empty())
    for (int i = 1; i <= 12; ++i) xs.push_back(i / 10.0);
  nlohmann::json points = nlohmann::json::array();
  std::string model;
  for (double x : xs) {
    c.arrival_rate = x * f.rate / mean_length;  // I = a · E[L] / R with the lengths actually served
    const auto r = calc::simulate_queue(c);
    const auto p = predict(f, c, x, mean_length);
    model = p.model;
    points.push_back(point_json(r.traffic_intensity, c, r, p));
  }
  // Only what the run used: a trace that gives every packet's length draws no size from --sizes
  // and --length ("sizes": "trace", no "length_bits").
  const bool trace_sizes = every_length_from_trace(c);
  const std::string size_source = trace_sizes ? "trace" : f.sizes;
  if (!f.svg_file.empty()) write_svg(f, model, size_source, mean_length, xs, points);
  if (f.json) {
    nlohmann::json doc{{"model", model.empty() ? nlohmann::json(nullptr) : nlohmann::json(model)},
                       {"arrivals", f.arrivals},
                       {"sizes", size_source}};
    if (!trace_sizes) doc["length_bits"] = f.length;
    doc.update({{"mean_length_bits", mean_length},
                {"rate_bps", f.rate},
                {"capacity_packets", f.capacity},
                {"packets", f.packets},
                {"warmup", c.warmup}});
    if (draws_random_numbers(c)) doc["seed"] = f.seed;
    doc["points"] = points;
    netlib::app::print_json(doc);
    return netlib::app::exit_ok;
  }
  std::cout << render_table(points);
  std::cout << fmt::format(
      "\nformula: {}; K = {} packets in the system (the one being sent and {} waiting); "
      "E[L] = {}{}; {} per point{}\n",
      model.empty() ? "none for this combination" : model, f.capacity, f.capacity - 1, length_text(mean_length),
      trace_sizes ? " (the trace's lengths)" : "", calc::count_of(f.packets, "packet", "packets"),
      draws_random_numbers(c) ? fmt::format(", seed {}", f.seed) : std::string());
  if (!f.svg_file.empty()) std::cout << "plot written to " << f.svg_file << '\n';
  return netlib::app::exit_ok;
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(
      app, "simulate", "Discrete-event simulation of one FIFO queue with a finite buffer, beside the formula",
      "lab-delay simulate --length 1500B --rate 10Mbps --arrivals poisson --sizes exponential --buffer 50 --svg "
      "sweep.svg");
  f->length_opt =
      netlib::app::add_quantity(*cmd, "--length", f->length, netlib::units::parse_bits,
                                "(Mean) packet length L (default 1500B; a trace's own lengths take its place)");
  netlib::app::add_quantity(*cmd, "--rate", f->rate, netlib::units::parse_rate_bps, "Link rate R (default 10Mbps)");
  cmd->add_option("--arrivals", f->arrivals, "poisson (default), deterministic, or trace")
      ->check(CLI::IsMember({"poisson", "deterministic", "trace"}));
  f->trace_opt = cmd->add_option("--trace", f->trace_file,
                                 "Arrival trace: one 'TIME_S [LENGTH_BYTES]' per line, time-scaled to each intensity")
                     ->check(netlib::app::input_file());
  f->sizes_opt = cmd->add_option("--sizes", f->sizes, "exponential (default) or fixed packet sizes")
                     ->check(CLI::IsMember({"fixed", "exponential"}));
  cmd->add_option("--buffer", f->capacity,
                  "K: packets the system holds, the one being sent included (M/M/1/K; default 100)")
      ->check(CLI::Range(1LL, 10'000'000LL));
  cmd->add_option("--packets", f->packets, "Arrivals simulated per intensity (default 100000)")
      ->check(CLI::Range(100LL, 20'000'000LL));
  cmd->add_option("--warmup", f->warmup,
                  "Arrivals not measured at the start (default: a tenth of --packets, at most 1000)")
      ->check(CLI::Range(0LL, 10'000'000LL));
  f->seed_opt = cmd->add_option("--seed", f->seed, "Random seed (default 1)");
  cmd->add_option("--intensity", f->intensities,
                  "Traffic intensity La/R to simulate; repeat (default 0.1 to 1.2 by 0.1)")
      ->delimiter(',')
      ->check(CLI::Range(0.001, 100.0));
  cmd->add_option("--svg", f->svg_file, "Also draw the sweep as an SVG plot in FILE");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, labs::calc_action([f] { return run(*f); }));
}

}  // namespace netlab::lab_delay
