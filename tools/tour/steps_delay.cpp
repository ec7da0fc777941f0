// Tour steps for lab-delay and lab-throughput: the calculators on the textbook's examples.
#include <fmt/format.h>

#include <cmath>

#include "netlib/core/units.hpp"
#include "tour.hpp"

namespace netlab::tour {
namespace {

bool near(double a, double b, double rel = 1e-6) {
  return std::fabs(a - b) <= rel * std::fabs(b);
}

void nodal(const context& ctx) {
  auto j = ctx.run_json({ctx.bin("lab-delay"), "nodal", "--length", "1500B", "--rate", "10Mbps", "--distance", "2500km",
                         "--speed", "2.5e8m/s", "--json"});
  const double trans = j.at("transmission_s"), prop = j.at("propagation_s"), total = j.at("total_s");
  ctx.say(fmt::format("transmission L/R = {:.1f} ms, propagation d/s = {:.1f} ms, total = {:.1f} ms", trans * 1e3,
                      prop * 1e3, total * 1e3));
  context::check(near(trans, 1.2e-3) && near(prop, 10e-3) && near(total, 11.2e-3),
                 "expected 1.2 ms + 10 ms = 11.2 ms for 1500 B at 10 Mbps over 2500 km");
}

void queueing(const context& ctx) {
  auto j = ctx.run_json(
      {ctx.bin("lab-delay"), "queue", "--length", "1500B", "--rate", "10Mbps", "--arrival-rate", "500/s", "--json"});
  const double intensity = j.at("traffic_intensity"), delay = j.at("queueing_delay_s");
  ctx.say(fmt::format("traffic intensity La/R = {:.2f}, M/M/1 queueing delay = {:.2f} ms", intensity, delay * 1e3));
  context::check(near(intensity, 0.6) && near(delay, 1.8e-3), "expected I = 0.6 and I(L/R)/(1-I) = 1.8 ms");
  auto full = ctx.run_json(
      {ctx.bin("lab-delay"), "queue", "--length", "1500B", "--rate", "10Mbps", "--arrival-rate", "900/s", "--json"});
  ctx.say(fmt::format("at 900 packets/s: intensity {:.2f}, unbounded = {}", full.at("traffic_intensity").get<double>(),
                      full.value("unbounded", false)));
  context::check(full.value("unbounded", false), "I >= 1 must be reported as unbounded");
}

void switching(const context& ctx) {
  auto j = ctx.run_json({ctx.bin("lab-throughput"), "switching", "--link", "1Mbps", "--user-rate", "100kbps",
                         "--active", "0.1", "--users", "35", "--json"});
  const int users = j.at("circuit_users");
  const double p = j.at("probability_more_active");
  ctx.say(fmt::format("circuit switching supports {} users; P(more than {} of 35 active) = {:.6f}", users, users, p));
  context::check(users == 10 && p > 0.0003 && p < 0.0005, "expected 10 users and about 0.0004 (textbook 1.3)");
}

void http_model(const context& ctx) {
  for (const auto& [mode, expected_ms] :
       std::vector<std::pair<std::string, double>>{{"nonpersistent", 148}, {"persistent", 100}, {"pipelined", 76}}) {
    auto j = ctx.run_json({ctx.bin("lab-throughput"), "http", "--rtt", "24ms", "--dns-rtt", "4ms", "--objects", "2",
                           "--mode", mode, "--json"});
    const double total = j.at("total_s");
    ctx.say(fmt::format("{:>13}: {:.0f} ms from click to last object", mode, total * 1e3));
    context::check(near(total, expected_ms / 1e3), fmt::format("expected {} ms for {}", expected_ms, mode));
  }
}

void bottleneck(const context& ctx) {
  auto j = ctx.run_json({ctx.bin("lab-throughput"), "path", "--link", "2Mbps", "--link", "1Mbps", "--json"});
  const double bps = j.at("throughput_bps");
  // Worded as lab-throughput path words it: the rate in its units, the link counted from 1 with
  // the JSON's index beside it.
  const auto& index = j.at("bottleneck");
  ctx.say(fmt::format(
      "path 2 Mbps -> 1 Mbps: throughput {}, bottleneck {}", netlib::units::format_bps(bps),
      index.is_number() ? fmt::format("link {} (index {})", index.get<int>() + 1, index.get<int>()) : index.dump()));
  context::check(near(bps, 1e6) && j.at("bottleneck") == 1, "expected the 1 Mbps link (index 1) to limit");
}

}  // namespace

std::vector<step> delay_steps() {
  return {
      {"lab-delay", "nodal delay of 1500 B over 2500 km at 10 Mbps (textbook)", nodal},
      {"lab-delay", "queueing delay under M/M/1, and an overloaded link", queueing},
      {"lab-throughput", "bottleneck of a two-link path", bottleneck},
      {"lab-throughput", "circuit versus packet switching: the 35-user example", switching},
      {"lab-throughput", "HTTP response time: non-persistent, persistent, pipelined", http_model},
  };
}

}  // namespace netlab::tour
