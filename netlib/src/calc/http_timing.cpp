// Theory of operation: count round trips (textbook §2.2.2, problems P7/P8). Every new TCP
// connection costs one RTT for the handshake and one for the request and response; a persistent
// connection costs one RTT per request, or one RTT for all pipelined requests. DNS is given as one
// total. Transmission of all bytes over the bottleneck rate is added once when sizes are given.
#include "netlib/calc/http_timing.hpp"

#include <fmt/format.h>

#include "netlib/calc/input_error.hpp"
#include "netlib/core/units.hpp"

namespace netlib::calc {

std::string_view mode_name(http_mode m) {
  switch (m) {
    case http_mode::nonpersistent:
      return "nonpersistent";
    case http_mode::parallel:
      return "parallel";
    case http_mode::persistent:
      return "persistent";
    case http_mode::pipelined:
      return "pipelined";
  }
  return "?";
}

std::optional<http_mode> parse_http_mode(std::string_view text) {
  for (auto m : {http_mode::nonpersistent, http_mode::parallel, http_mode::persistent, http_mode::pipelined})
    if (text == mode_name(m)) return m;
  return std::nullopt;
}

namespace {

// RTTs after DNS and the formula that gives them.
std::pair<double, std::string> count_rtts(const http_timing_input& in) {
  const auto n = in.objects;
  switch (in.mode) {
    case http_mode::nonpersistent:
      return {2.0 + 2.0 * double(n), fmt::format("2 RTT (base) + N·2 RTT = 2 + {}×2", n)};
    case http_mode::parallel: {
      const long long rounds = (n + in.parallel - 1) / in.parallel;
      return {2.0 + 2.0 * double(rounds),
              fmt::format("2 RTT (base) + ceil(N/P)·2 RTT = 2 + ceil({}/{})×2 = 2 + {}×2", n, in.parallel, rounds)};
    }
    case http_mode::persistent:
      return {2.0 + double(n), fmt::format("2 RTT (base) + N·RTT = 2 + {}", n)};
    case http_mode::pipelined:
      return {2.0 + (n > 0 ? 1.0 : 0.0), fmt::format("2 RTT (base) + 1 RTT for all {} pipelined objects", n)};
  }
  return {0, ""};
}

}  // namespace

http_timing_result http_response_time(const http_timing_input& in) {
  require_non_negative(in.rtt_s, "the RTT");
  require_non_negative(in.dns_s, "the DNS time");
  if (in.objects < 0 || in.objects > 1'000'000) throw input_error("the number of objects must be 0..1000000");
  if (in.mode == http_mode::parallel && in.parallel < 1)
    throw input_error("the number of parallel connections must be at least 1");
  require_non_negative(in.base_bits, "the base page size");
  require_non_negative(in.object_bits, "the object size");
  require_non_negative(in.rate_bps, "the rate");

  http_timing_result r;
  auto [rtts, formula] = count_rtts(in);
  r.rtts = rtts;
  r.dns_s = in.dns_s;
  const double bits = in.base_bits + double(in.objects) * in.object_bits;
  if (in.rate_bps > 0) r.transmission_s = bits / in.rate_bps;
  r.total_s = in.dns_s + rtts * in.rtt_s + r.transmission_s;
  r.explanation = fmt::format("{}: RTTs after DNS = {} = {}\n", mode_name(in.mode), formula, num(rtts));
  if (in.rate_bps > 0)
    r.explanation +=
        fmt::format("transmission = (base + N·object)/rate = ({} + {}×{}) b / {} bps = {} s\n", num(in.base_bits),
                    in.objects, num(in.object_bits), num(in.rate_bps), num(r.transmission_s));
  r.explanation += fmt::format("total = DNS + {}·RTT{} = {} + {} × {}{} = {}", num(rtts),
                               in.rate_bps > 0 ? " + transmission" : "", num(in.dns_s), num(rtts), num(in.rtt_s),
                               in.rate_bps > 0 ? " + " + num(r.transmission_s) : "", num_s(r.total_s));
  return r;
}

}  // namespace netlib::calc
