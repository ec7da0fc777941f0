// More quiz generators (see quiz.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "commands.hpp"
#include "common/report.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/http_timing.hpp"
#include "netlib/calc/prng.hpp"
#include "netlib/calc/switching.hpp"
#include "netlib/calc/web_cache.hpp"
#include "netlib/core/units.hpp"
#include "quiz.hpp"

namespace netlab::lab_delay {

using netlib::calc::prng;
using netlib::units::format_seconds;

void switching_problem(prng& g, quiz_problem& p) {
  const std::array<std::pair<const char*, double>, 2> links{{{"1Mbps", 1e6}, {"10Mbps", 1e7}}};
  const std::array<std::pair<const char*, double>, 3> users{{{"100kbps", 1e5}, {"200kbps", 2e5}, {"500kbps", 5e5}}};
  const std::array<double, 3> activity{0.05, 0.1, 0.2};
  const auto& [lt, l] = links[std::size_t(g.between(0, 1))];
  const auto& [ut, u] = users[std::size_t(g.between(0, 2))];
  const double a = activity[std::size_t(g.between(0, 2))];
  const auto circuit = static_cast<long long>(l / u + 1e-9);
  // Choose N so that on average 30%..70% of the circuit capacity is active: an interesting tail.
  const auto n =
      std::max(circuit + 1, static_cast<long long>(double(circuit) * double(g.between(3, 7)) / 10 / a + 0.5));
  const auto r = netlib::calc::circuit_vs_packet(l, u, a, n);
  p.question = fmt::format(
      "A {} link is shared by users who send at {} when active, and each user is active {:g}% of "
      "the time. How many users can circuit switching support? With packet switching and {} "
      "users, what is the probability that more than that many are active at once?",
      lt, ut, a * 100, n);
  p.check_command =
      fmt::format("lab-throughput switching --link {} --user-rate {} --active {:g} --users {}", lt, ut, a, n);
  p.given = {{"link_bps", l}, {"user_rate_bps", u}, {"active_probability", a}, {"users", n}};
  p.answer = {{"circuit_users", r.circuit_users}, {"probability_more_active", r.probability_more_active}};
  p.answer_text = fmt::format("{} users; P = {:.4g}", r.circuit_users, r.probability_more_active);
}

void http_problem(prng& g, quiz_problem& p) {
  const double rtt_ms = double(g.between(5, 50)) * 2;
  const double dns_ms = double(g.between(0, 20));
  const auto objects = g.between(1, 10);
  const std::array modes{netlib::calc::http_mode::nonpersistent, netlib::calc::http_mode::parallel,
                         netlib::calc::http_mode::persistent, netlib::calc::http_mode::pipelined};
  const auto mode = modes[std::size_t(g.between(0, 3))];
  const auto parallel = g.between(2, 6);
  const auto r = netlib::calc::http_response_time(
      {.rtt_s = rtt_ms / 1e3, .dns_s = dns_ms / 1e3, .objects = objects, .mode = mode, .parallel = parallel});
  const std::string how =
      mode == netlib::calc::http_mode::nonpersistent ? "non-persistent HTTP without parallel connections"
      : mode == netlib::calc::http_mode::parallel
          ? fmt::format("non-persistent HTTP with {} parallel connections", parallel)
      : mode == netlib::calc::http_mode::persistent ? std::string("persistent HTTP without pipelining")
                                                    : std::string("persistent HTTP with pipelining");
  p.question = fmt::format(
      "A page references {} small objects on the same server. DNS resolution takes {:g} ms in all "
      "and the RTT to the server is {:g} ms; transmission times are negligible. With {}, how long "
      "from the click until the last object arrives?",
      objects, dns_ms, rtt_ms, how);
  p.check_command =
      fmt::format("lab-throughput http --rtt {:g}ms --dns-rtt {:g}ms --objects {} --mode {}{}", rtt_ms, dns_ms, objects,
                  netlib::calc::mode_name(mode),
                  mode == netlib::calc::http_mode::parallel ? fmt::format(" --parallel {}", parallel) : "");
  p.given = {
      {"rtt_s", rtt_ms / 1e3}, {"dns_s", dns_ms / 1e3}, {"objects", objects}, {"mode", netlib::calc::mode_name(mode)}};
  if (mode == netlib::calc::http_mode::parallel) p.given["parallel"] = parallel;
  p.answer = {{"total_s", r.total_s}, {"rtts", r.rtts}};
  p.answer_text = fmt::format("DNS + {:g} RTT = {}", r.rtts, format_seconds(r.total_s));
}

void cache_problem(prng& g, quiz_problem& p) {
  const double rate = double(g.between(10, 20));
  const double object = 1e6;
  const double access = double(g.between(3, 5)) * 5e6;  // 15, 20 or 25 Mbps
  const double internet = double(g.between(1, 3));
  const double hit = double(g.between(2, 6)) / 10;
  const auto r = netlib::calc::web_cache(
      {.request_rate = rate, .object_bits = object, .access_bps = access, .internet_s = internet, .hit_rate = hit});
  p.question = fmt::format(
      "An institution's browsers request {:g} objects/s of 1 Mbit each over a {:g} Mbps access "
      "link; the Internet delay is {:g} s and the access delay is Δ/(1 - Δβ). What is the access "
      "link's intensity and the average response time without a cache, and with a cache whose hit "
      "rate is {:g} (hits take no time)?",
      rate, access / 1e6, internet, hit);
  p.check_command = fmt::format(
      "lab-throughput cache --request-rate {:g}/s --object-size 1Mb --access {:g}Mbps "
      "--internet-delay {:g}s --hit-rate {:g}",
      rate, access / 1e6, internet, hit);
  p.given = {{"request_rate_per_s", rate},
             {"object_bits", object},
             {"access_bps", access},
             {"internet_s", internet},
             {"hit_rate", hit}};
  p.answer = {{"access_intensity", r.without_cache.access_intensity},
              {"response_without_cache_s", labs::or_null(r.without_cache.response_s)},
              {"access_intensity_with_cache", r.with_cache.access_intensity},
              {"response_with_cache_s", labs::or_null(r.with_cache.response_s)}};
  auto t = [](const std::optional<double>& s) { return s ? format_seconds(*s) : std::string("unbounded"); };
  p.answer_text = fmt::format("intensity {:.3g}, response {}; with the cache intensity {:.3g}, response {}",
                              r.without_cache.access_intensity, t(r.without_cache.response_s),
                              r.with_cache.access_intensity, t(r.with_cache.response_s));
}

}  // namespace netlab::lab_delay
