// Theory of operation: closed-form single-queue results (textbook §1.4.2 and the classic M/M/1,
// M/D/1 (Pollaczek-Khinchine) and M/M/1/K formulas). A result that does not exist (I >= 1 for an
// infinite queue) is absent and flagged `unbounded`, never a large number.
#include "netlib/calc/queueing.hpp"

#include <fmt/format.h>

#include <cmath>

#include "netlib/calc/input_error.hpp"
#include "netlib/core/units.hpp"

namespace netlib::calc {

std::string_view model_name(queue_model m) {
  return m == queue_model::mm1 ? "M/M/1" : "M/D/1";
}

std::optional<queue_model> parse_model(std::string_view text) {
  if (text == "mm1" || text == "M/M/1") return queue_model::mm1;
  if (text == "md1" || text == "M/D/1") return queue_model::md1;
  return std::nullopt;
}

queue_result queueing_delay(double length_bits, double rate_bps, double arrivals_per_s, queue_model model) {
  require_positive(length_bits, "the packet length L");
  require_positive(rate_bps, "the link rate R");
  require_non_negative(arrivals_per_s, "the arrival rate a");
  queue_result r;
  r.model = model;
  r.transmission_s = length_bits / rate_bps;
  r.traffic_intensity = length_bits * arrivals_per_s / rate_bps;
  const double i = r.traffic_intensity;
  std::string head = fmt::format("I = L·a/R = {} b × {} /s / {} bps = {}\n", num(length_bits), num(arrivals_per_s),
                                 num(rate_bps), num(i));
  if (i >= 1) {
    r.unbounded = true;
    r.explanation =
        head + fmt::format(
                   "{}: I >= 1, bits arrive at least as fast as the link sends them: the queue grows without "
                   "bound, the average queueing delay is unbounded",
                   model_name(model));
    return r;
  }
  const double factor = model == queue_model::mm1 ? 1.0 : 2.0;
  const double d = i * r.transmission_s / (factor * (1 - i));
  r.queueing_delay_s = d;
  r.total_s = d + r.transmission_s;
  const char* formula = model == queue_model::mm1 ? "I·(L/R)/(1 - I)" : "I·(L/R)/(2(1 - I))";
  const std::string denominator =
      model == queue_model::mm1 ? fmt::format("(1 - {})", num(i)) : fmt::format("(2 × (1 - {}))", num(i));
  r.explanation = head + fmt::format(
                             "{}: d_queue = {} = {} × {} s / {} = {}\n"
                             "d_queue + d_trans = {} + {} = {}",
                             model_name(model), formula, num(i), num(r.transmission_s), denominator, num_s(d), num(d),
                             num(r.transmission_s), num_s(*r.total_s));
  return r;
}

loss_result finite_buffer_loss(double traffic_intensity, long long capacity) {
  require_non_negative(traffic_intensity, "the traffic intensity I");
  if (capacity < 1) throw input_error("the system capacity K must be at least 1 packet");
  loss_result r;
  r.traffic_intensity = traffic_intensity;
  r.capacity = capacity;
  const double i = traffic_intensity;
  const auto k = static_cast<double>(capacity);
  if (std::abs(i - 1) < 1e-12) {
    r.loss_probability = 1 / (k + 1);
    r.explanation =
        fmt::format("M/M/1/K at I = 1: P_loss = 1/(K + 1) = 1/({} + 1) = {}", capacity, num(r.loss_probability));
    return r;
  }
  // (1 - I) I^K / (1 - I^(K+1)), written to stay finite for large K on either side of 1.
  if (i < 1) {
    r.loss_probability = (1 - i) * std::pow(i, k) / (1 - std::pow(i, k + 1));
  } else {
    const double inv = 1 / i;  // multiply through by I^-(K+1)
    r.loss_probability = (i - 1) / i / (1 - std::pow(inv, k + 1));
  }
  r.explanation = fmt::format("M/M/1/K: P_loss = (1 - I)·I^K / (1 - I^(K+1)) = (1 - {})·{}^{} / (1 - {}^{}) = {}",
                              num(i), num(i), capacity, num(i), capacity + 1, num(r.loss_probability));
  return r;
}

finite_queue_result finite_buffer_delay(double length_bits, double rate_bps, double arrivals_per_s,
                                        long long capacity) {
  require_positive(length_bits, "the packet length L");
  require_positive(rate_bps, "the link rate R");
  require_positive(arrivals_per_s, "the arrival rate a");
  if (capacity < 1 || capacity > 10'000'000) throw input_error("the system capacity K must be 1..10000000 packets");
  const double service = length_bits / rate_bps;
  const double i = arrivals_per_s * service;
  // Weights I^n scaled by the largest one, in log space so that large K stays finite.
  const double log_i = std::log(i);
  const double log_max = i > 1 ? double(capacity) * log_i : 0;
  double norm = 0, mean_n = 0;
  for (long long n = 0; n <= capacity; ++n) {
    const double w = std::exp(double(n) * log_i - log_max);
    norm += w;
    mean_n += double(n) * w;
  }
  finite_queue_result r;
  r.loss_probability = std::exp(double(capacity) * log_i - log_max) / norm;
  mean_n /= norm;
  const double time_in_system = mean_n / (arrivals_per_s * (1 - r.loss_probability));
  r.queueing_delay_s = std::max(0.0, time_in_system - service);
  r.explanation = fmt::format(
      "M/M/1/K with K = {}, I = {}: p_n = I^n / Σ I^j (n = 0..K), N = Σ n·p_n = {}, P_loss = p_K = {}\n"
      "W = N/(a(1 - p_K)) = {} by Little's law over the packets that get in; d_queue = W - L/R = {}",
      capacity, num(i), num(mean_n), num(r.loss_probability), num_s(time_in_system), num_s(r.queueing_delay_s));
  return r;
}

little_result littles_law(std::optional<double> in_system, std::optional<double> arrival_rate,
                          std::optional<double> time_s) {
  const int given = int(in_system.has_value()) + int(arrival_rate.has_value()) + int(time_s.has_value());
  if (given != 2) throw input_error("Little's law needs exactly two of N, λ and W");
  little_result r;
  if (!in_system) {
    require_non_negative(*arrival_rate, "the arrival rate λ");
    require_non_negative(*time_s, "the time in system W");
    r.arrival_rate = *arrival_rate;
    r.time_in_system_s = *time_s;
    r.in_system = r.arrival_rate * r.time_in_system_s;
    r.explanation = fmt::format("Little's law: N = λ·W = {} /s × {} s = {}", num(r.arrival_rate),
                                num(r.time_in_system_s), num(r.in_system));
  } else if (!arrival_rate) {
    require_non_negative(*in_system, "the number in system N");
    require_positive(*time_s, "the time in system W");
    r.in_system = *in_system;
    r.time_in_system_s = *time_s;
    r.arrival_rate = r.in_system / r.time_in_system_s;
    r.explanation = fmt::format("Little's law: λ = N/W = {} / {} s = {} /s", num(r.in_system), num(r.time_in_system_s),
                                num(r.arrival_rate));
  } else {
    require_non_negative(*in_system, "the number in system N");
    require_positive(*arrival_rate, "the arrival rate λ");
    r.in_system = *in_system;
    r.arrival_rate = *arrival_rate;
    r.time_in_system_s = r.in_system / r.arrival_rate;
    r.explanation = fmt::format("Little's law: W = N/λ = {} / {} /s = {} s", num(r.in_system), num(r.arrival_rate),
                                num(r.time_in_system_s));
  }
  return r;
}

}  // namespace netlib::calc
