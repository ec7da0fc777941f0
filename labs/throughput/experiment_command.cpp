// lab-throughput experiment: builds a two-namespace path with a chosen delay and rate, measures
// its RTT with lab-delay ping (against lab-delay echo) and its throughput with lab-throughput
// measure (against lab-throughput serve), and prints them beside the model's prediction:
//   RTT = 2·d (+ the probe's transmission time both ways),
//   goodput = R · MSS / (MSS + 66) (TCP/IP headers with timestamps, 32 + 20, and Ethernet, 14).
// The shaper's bucket holds one frame, so the path never sends faster than R (netns_path.hpp).
#include <unistd.h>

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"
#include "netlib/core/units.hpp"
#include "netns_path.hpp"

namespace netlab::lab_throughput {
namespace {

using netlib::units::format_bps;
using netlib::units::format_seconds;
constexpr double mss = 1448, overhead = 66;
constexpr double probe_frame_bits = (14 + 20 + 8 + 40) * 8.0;  // Ethernet + IP + UDP + ~40 B of ping text

struct flags {
  double delay = 0.01, rate = 10e6, bytes = 0, rtt_tolerance = 0.2, rate_tolerance = 0.15;
  long long count = 10;
  bool json = false, verbose = false, strict = false;
};

using netlib::catch_stop_signals;  // SIGINT/SIGTERM: the step finishes, the namespaces go
using netlib::app::check_interrupted;

nlohmann::json run_json(std::vector<std::string> argv, const std::string& what) {
  const auto r = netlib::app::run(argv, {}, std::chrono::seconds(120));
  if (r.exit_code != 0) throw netlib::app::failure(what + " failed: " + r.err.substr(0, r.err.find('\n')));
  return nlohmann::json::parse(r.out);
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

struct measurements {
  nlohmann::json ping, transfer;
};

// Runs echo+ping, then serve+measure, across the path; each server is stopped when done.
measurements measure_path(const flags& f, const netns_path& path, double bytes) {
  const std::string bin = netlib::app::own_directory();
  const std::string listen = std::string(netns_path::server_address) + ":0";
  measurements m;
  {  // RTT: without netem the echo server holds each reply for the whole round-trip delay instead.
    std::vector<std::string> echo_args{bin + "/lab-delay", "echo", "--listen", listen};
    if (!path.netem()) echo_args.insert(echo_args.end(), {"--delay", fmt::format("{}us", std::llround(2e6 * f.delay))});
    netlib::app::process echo(concat(path.exec_in(path.server_ns()), echo_args));
    const auto at = echo.wait_listening();
    check_interrupted();
    m.ping = run_json(concat(path.exec_in(path.client_ns()), {bin + "/lab-delay", "ping", "--server", at, "--count",
                                                              std::to_string(f.count), "--timeout", "2s", "--json"}),
                      "ping");
  }
  check_interrupted();
  netlib::app::process serve(
      concat(path.exec_in(path.server_ns()), {bin + "/lab-throughput", "serve", "--listen", listen}));
  const auto at = serve.wait_listening();
  check_interrupted();
  m.transfer = run_json(
      concat(path.exec_in(path.client_ns()), {bin + "/lab-throughput", "measure", "--server", at, "--bytes",
                                              fmt::format("{}B", std::llround(bytes)), "--timeout", "30s", "--json"}),
      "measure");
  return m;
}

struct comparison {
  double rtt_predicted, rtt_measured, rtt_error, goodput_predicted, goodput_measured, rate_error;
  bool rtt_ok, rate_ok;
};

comparison compare(const flags& f, const measurements& m) {
  comparison c{};
  c.rtt_predicted = 2 * f.delay + 2 * probe_frame_bits / f.rate;
  c.rtt_measured = m.ping["rtt_avg_s"];
  c.goodput_predicted = f.rate * mss / (mss + overhead);
  c.goodput_measured = m.transfer["goodput_bps"];
  c.rtt_error = (c.rtt_measured - c.rtt_predicted) / c.rtt_predicted;
  c.rate_error = (c.goodput_measured - c.goodput_predicted) / c.goodput_predicted;
  // The RTT tolerance has a 1 ms floor: scheduling noise matters at tiny delays.
  c.rtt_ok = std::abs(c.rtt_measured - c.rtt_predicted) <= std::max(f.rtt_tolerance * c.rtt_predicted, 0.001);
  c.rate_ok = std::abs(c.rate_error) <= f.rate_tolerance;
  return c;
}

void print_json_report(const flags& f, const netns_path& path, const measurements& m, const comparison& c) {
  netlib::app::print_json({{"delay_s", f.delay},
                           {"rate_bps", f.rate},
                           {"delay_injected_by", path.netem() ? "netem" : "echo_server"},
                           {"rtt",
                            {{"predicted_s", c.rtt_predicted},
                             {"measured_avg_s", c.rtt_measured},
                             {"measured_min_s", m.ping["rtt_min_s"]},
                             {"measured_max_s", m.ping["rtt_max_s"]},
                             {"loss_rate", m.ping["loss_rate"]},
                             {"error", c.rtt_error},
                             {"tolerance", f.rtt_tolerance},
                             {"within_tolerance", c.rtt_ok}}},
                           {"throughput",
                            {{"predicted_bps", c.goodput_predicted},
                             {"measured_bps", c.goodput_measured},
                             {"bytes", m.transfer["bytes_received"]},
                             {"duration_s", m.transfer["duration_s"]},
                             {"error", c.rate_error},
                             {"tolerance", f.rate_tolerance},
                             {"within_tolerance", c.rate_ok}}},
                           {"namespaces", {path.server_ns(), path.client_ns()}},
                           {"within_tolerance", c.rtt_ok && c.rate_ok}});
}

void print_table(const flags& f, const netns_path& path, const measurements& m, const comparison& c) {
  const std::string delay_by = path.netem() ? "netem" : "echo server (this kernel has no sch_netem)";
  std::cout << fmt::format("path: {} <-> {}, one-way delay {} (by {}), rate {} each way\n\n", path.server_ns(),
                           path.client_ns(), format_seconds(f.delay), delay_by, format_bps(f.rate));
  std::cout << fmt::format("{:<22} {:>12} {:>12} {:>8}  {}\n", "", "predicted", "measured", "error", "within");
  std::cout << fmt::format("{:<22} {:>12} {:>12} {:>7.1f}%  {} (±{:g}%)\n", "RTT (2d + 2·frame/R)",
                           format_seconds(c.rtt_predicted), format_seconds(c.rtt_measured), 100 * c.rtt_error,
                           c.rtt_ok ? "yes" : "NO", 100 * f.rtt_tolerance);
  std::cout << fmt::format("{:<22} {:>12} {:>12} {:>7.1f}%  {} (±{:g}%)\n", "goodput (R·MSS/frame)",
                           format_bps(c.goodput_predicted), format_bps(c.goodput_measured), 100 * c.rate_error,
                           c.rate_ok ? "yes" : "NO", 100 * f.rate_tolerance);
  std::cout << fmt::format("\n{}, {:.0f}% lost; {} transferred in {}; namespaces removed\n",
                           netlib::units::format_count(f.count, "ping", "pings"),
                           100 * m.ping["loss_rate"].get<double>(),
                           netlib::units::format_bytes(m.transfer["bytes_received"].get<double>()),
                           format_seconds(m.transfer["duration_s"].get<double>()));
  std::cout.flush();
}

// A measurement outside its tolerance is never silent: one line on stderr per quantity, saying by
// how much and the usual reason; with --strict it also makes the exit code 1.
int report_tolerance(const flags& f, const netns_path& path, const comparison& c) {
  std::vector<std::string> misses;
  if (!c.rtt_ok) {
    misses.push_back(fmt::format("the RTT {} is {:.1f}% {} the prediction {} (tolerance ±{:g}%)",
                                 format_seconds(c.rtt_measured), 100 * std::abs(c.rtt_error),
                                 c.rtt_error < 0 ? "below" : "above", format_seconds(c.rtt_predicted),
                                 100 * f.rtt_tolerance));
  }
  if (!c.rate_ok) {
    const char* why = c.rate_error < 0
                          ? (path.netem() ? "a short transfer spends much of its time in TCP's slow start "
                                            "and the handshake: try more --bytes"
                                          : "the path or the machine is slower than R: try more --bytes or "
                                            "a lower --rate")
                          : "the shaper let more than R through";
    misses.push_back(fmt::format("the goodput {} is {:.1f}% {} the prediction {} (tolerance ±{:g}%): {}",
                                 format_bps(c.goodput_measured), 100 * std::abs(c.rate_error),
                                 c.rate_error < 0 ? "below" : "above", format_bps(c.goodput_predicted),
                                 100 * f.rate_tolerance, why));
  }
  for (const auto& m : misses) std::cerr << "lab-throughput: outside tolerance: " << m << '\n';
  if (!misses.empty() && f.strict)
    throw netlib::app::failure(
        fmt::format("{} outside tolerance (--strict)",
                    netlib::units::format_count(static_cast<long long>(misses.size()), "measurement", "measurements")));
  return netlib::app::exit_ok;
}

int run(const flags& f) {
  if (geteuid() != 0)
    throw netlib::app::failure(
        "the experiment needs root to create network namespaces (ip netns) and shape "
        "traffic (tc): run it with sudo");
  const double bytes = f.bytes > 0 ? f.bytes : std::max(1e5, f.rate / 8 * 3);  // about 3 s of data
  catch_stop_signals();
  netns_path::remove_stale(f.verbose);
  netns_path path({.one_way_delay_s = f.delay, .rate_bps = f.rate}, f.verbose);
  check_interrupted();
  const auto m = measure_path(f, path, bytes);
  check_interrupted();
  const auto c = compare(f, m);
  if (f.json)
    print_json_report(f, path, m, c);
  else
    print_table(f, path, m, c);
  return report_tolerance(f, path, c);
}

}  // namespace

void add_experiment_command(CLI::App& app) {
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(
      app, "experiment", "As root: build a two-namespace path (delay, rate), measure RTT and goodput vs prediction",
      "sudo lab-throughput experiment --delay 10ms --rate 10Mbps\n\n"
      "A measurement outside its tolerance is reported on stderr (\"outside tolerance: ...\") and as\n"
      "within_tolerance: false in --json; --strict also makes the exit code 1.");
  netlib::app::add_quantity(*cmd, "--delay", f->delay, netlib::units::parse_duration_s,
                            "One-way delay d of the path (default 10ms)");
  netlib::app::add_quantity(*cmd, "--rate", f->rate, netlib::units::parse_rate_bps,
                            "Rate R of the path, each way (default 10Mbps)");
  netlib::app::add_quantity(*cmd, "--bytes", f->bytes, netlib::units::parse_bytes,
                            "Bytes to transfer (default: 3 s at the rate)");
  cmd->add_option("--count", f->count, "Pings (default 10)")->check(CLI::Range(1LL, 1000LL));
  netlib::app::add_quantity(*cmd, "--rtt-tolerance", f->rtt_tolerance, netlib::units::parse_fraction,
                            "Allowed RTT error (default 20%)");
  netlib::app::add_quantity(*cmd, "--rate-tolerance", f->rate_tolerance, netlib::units::parse_fraction,
                            "Allowed goodput error (default 15%)");
  cmd->add_flag("--verbose", f->verbose, "Print each ip/tc command on stderr");
  cmd->add_flag("--strict", f->strict,
                "Exit 1 when a measurement is outside its tolerance (without it: exit 0, and one line on stderr "
                "per measurement outside)");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] {
    if (f->rate < 100e3 || f->rate > 10e9) throw netlib::app::usage_error("--rate must be between 100kbps and 10Gbps");
    if (f->delay > 1) throw netlib::app::usage_error("--delay must be at most 1s");
    return run(*f);
  });
}

}  // namespace netlab::lab_throughput
