// Theory of operation: each problem kind is one generator that draws its numbers from short lists
// of textbook-like values (so the printed text is exactly the value used), builds the question,
// and computes the answer with netlib::calc. netlib::app::add_quiz_command draws the kind of each
// problem and seeds it (netlib/app/quiz.hpp).
#include "quiz.hpp"

#include <fmt/format.h>

#include <array>
#include <functional>

#include "commands.hpp"
#include "common/report.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/end_to_end.hpp"
#include "netlib/calc/http_timing.hpp"
#include "netlib/calc/nodal.hpp"
#include "netlib/calc/prng.hpp"
#include "netlib/calc/queueing.hpp"
#include "netlib/calc/switching.hpp"
#include "netlib/calc/throughput.hpp"
#include "netlib/calc/web_cache.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_delay {
namespace {

using netlib::calc::prng;
using netlib::units::format_bps;
using netlib::units::format_seconds;

struct value {
  const char* text;
  double si;
};

template <std::size_t N>
value pick(prng& g, const std::array<value, N>& list) {
  return list[static_cast<std::size_t>(g.between(0, static_cast<long long>(N) - 1))];
}

constexpr std::array sizes{value{"500B", 4000}, value{"1000B", 8000}, value{"1500B", 12000}, value{"1250B", 10000}};
constexpr std::array rates{value{"1Mbps", 1e6}, value{"2Mbps", 2e6}, value{"10Mbps", 1e7}, value{"100Mbps", 1e8}};
constexpr std::array distances{value{"100km", 1e5}, value{"500km", 5e5}, value{"1000km", 1e6}, value{"2500km", 2.5e6},
                               value{"5000km", 5e6}};
constexpr std::array speeds{value{"2e8m/s", 2e8}, value{"2.5e8m/s", 2.5e8}};

void nodal(prng& g, quiz_problem& p) {
  const auto l = pick(g, sizes), r = pick(g, rates), d = pick(g, distances), s = pick(g, speeds);
  const auto a =
      netlib::calc::nodal_delay({.length_bits = l.si, .rate_bps = r.si, .distance_m = d.si, .speed_mps = s.si});
  p.question = fmt::format(
      "A {} packet is sent over a {} link {} long; signals travel at {}. What are the "
      "transmission delay, the propagation delay, and their sum?",
      l.text, r.text, d.text, s.text);
  p.check_command =
      fmt::format("lab-delay nodal --length {} --rate {} --distance {} --speed {}", l.text, r.text, d.text, s.text);
  p.given = {{"length_bits", l.si}, {"rate_bps", r.si}, {"distance_m", d.si}, {"speed_mps", s.si}};
  p.answer = {{"transmission_s", a.transmission_s}, {"propagation_s", a.propagation_s}, {"total_s", a.total_s}};
  p.answer_text = fmt::format("transmission {}, propagation {}, total {}", format_seconds(a.transmission_s),
                              format_seconds(a.propagation_s), format_seconds(a.total_s));
}

void e2e(prng& g, quiz_problem& p) {
  const auto l = pick(g, sizes), r = pick(g, std::array{rates[0], rates[1], rates[2]});
  const auto n = g.between(2, 5), packets = g.between(1, 10);
  const auto a = netlib::calc::end_to_end_delay(
      std::vector<netlib::calc::link_spec>(std::size_t(n), {.rate_bps = r.si}), l.si, packets);
  p.question = fmt::format(
      "{} packets of {} each are sent back to back over {} store-and-forward links of {} each "
      "(no propagation, processing or queueing delay). When does the last bit of the last "
      "packet arrive?",
      packets, l.text, n, r.text);
  p.check_command =
      fmt::format("lab-delay e2e --links {} --length {} --rate {} --packets {}", n, l.text, r.text, packets);
  p.given = {{"links", n}, {"length_bits", l.si}, {"rate_bps", r.si}, {"packets", packets}};
  p.answer = {{"total_s", a.total_s}};
  p.answer_text = fmt::format("(N + P - 1)·L/R = {}", format_seconds(a.total_s));
}

void queue(prng& g, quiz_problem& p) {
  const auto l = pick(g, std::array{value{"1000b", 1000}, value{"10000b", 10000}});
  const auto r = pick(g, std::array{rates[0], rates[2]});
  const double per_step = 0.05 * r.si / l.si;  // a exact in decimal: I = k/20
  const auto k = g.between(1, 22);
  const double a = per_step * double(k);
  const auto model = g.chance(0.5) ? netlib::calc::queue_model::mm1 : netlib::calc::queue_model::md1;
  const auto q = netlib::calc::queueing_delay(l.si, r.si, a, model);
  const auto name = netlib::calc::model_name(model);
  p.question = fmt::format(
      "Packets of {} arrive at a {} link at {:g} packets/s ({} model: Poisson arrivals, {} sizes). "
      "What is the traffic intensity and the average queueing delay?",
      l.text, r.text, a, name, model == netlib::calc::queue_model::mm1 ? "exponential" : "fixed");
  p.check_command = fmt::format("lab-delay queue --length {} --rate {} --arrival-rate {:g}/s --model {}", l.text,
                                r.text, a, model == netlib::calc::queue_model::mm1 ? "mm1" : "md1");
  p.given = {{"length_bits", l.si}, {"rate_bps", r.si}, {"arrival_rate_per_s", a}, {"model", name}};
  p.answer = {{"traffic_intensity", q.traffic_intensity},
              {"unbounded", q.unbounded},
              {"queueing_delay_s", labs::or_null(q.queueing_delay_s)}};
  p.answer_text = fmt::format("I = {:.3g}; {}", q.traffic_intensity,
                              q.unbounded ? std::string("the queueing delay is unbounded (I >= 1)")
                                          : "queueing delay " + format_seconds(*q.queueing_delay_s));
}

void throughput(prng& g, quiz_problem& p) {
  constexpr std::array link_rates{value{"1Mbps", 1e6}, value{"2Mbps", 2e6}, value{"5Mbps", 5e6}, value{"10Mbps", 1e7}};
  const auto rs = pick(g, link_rates), rc = pick(g, link_rates);
  const auto shared = pick(g, std::array{value{"10Mbps", 1e7}, value{"20Mbps", 2e7}, value{"50Mbps", 5e7}});
  const auto flows = g.between(2, 20);
  const auto file = pick(g, std::array{value{"8Mb", 8e6}, value{"32Mb", 32e6}, value{"100MB", 8e8}});
  const auto a = netlib::calc::path_throughput({rs.si, rc.si}, netlib::calc::shared_link{shared.si, flows}, file.si);
  p.question = fmt::format(
      "{} servers each send a {} file to their own client; each server's link is {}, each "
      "client's link is {}, and all {} flows share a {} core link fairly. What is each flow's "
      "throughput, which link limits it, and how long does the transfer take?",
      flows, file.text, rs.text, rc.text, flows, shared.text);
  p.check_command = fmt::format("lab-throughput path --link {} --link {} --shared {} --flows {} --file {}", rs.text,
                                rc.text, shared.text, flows, file.text);
  p.given = {{"server_rate_bps", rs.si},
             {"client_rate_bps", rc.si},
             {"shared_rate_bps", shared.si},
             {"flows", flows},
             {"file_bits", file.si}};
  p.answer = {{"throughput_bps", a.throughput_bps},
              {"bottleneck", a.bottleneck < 0 ? nlohmann::json("shared") : nlohmann::json(a.bottleneck)},
              {"transfer_s", *a.transfer_s}};
  p.answer_text =
      fmt::format("{} limited by {}; transfer {}", format_bps(a.throughput_bps),
                  a.bottleneck < 0 ? "the shared link" : (a.bottleneck == 0 ? "the server link" : "the client link"),
                  format_seconds(*a.transfer_s));
}

}  // namespace

void add_quiz_command(CLI::App& app) {
  static constexpr std::array<netlib::app::quiz_kind, 7> kinds{{{"nodal", nodal},
                                                                {"e2e", e2e},
                                                                {"queue", queue},
                                                                {"throughput", throughput},
                                                                {"switching", switching_problem},
                                                                {"http", http_problem},
                                                                {"cache", cache_problem}}};
  netlib::app::add_quiz_command(app, kinds, "Textbook-style problems with randomized numbers (same seed, same quiz)",
                                "lab-delay quiz --seed 42 --count 5 --answers");
}

}  // namespace netlab::lab_delay
