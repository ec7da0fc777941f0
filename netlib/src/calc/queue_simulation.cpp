// Theory of operation: a single FIFO server needs only two kinds of events, arrivals and
// departures, and FIFO order means departures leave in the order packets arrived. So the pending
// departures are a queue of times; before handling an arrival at time t, every departure at or
// before t is processed (departures first at equal times). The arriving packet is dropped when the
// system already holds B + 1 packets (B waiting, one being sent); otherwise it starts when the link
// frees: start = max(t, last departure), queueing delay = start - t, departure = start + L/R.
// Measurement starts after `warmup` arrivals. Confidence: delivered delays are split into
// `batches` consecutive batches; the batch means' spread gives a Student-t 95% interval.
#include "netlib/calc/queue_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <deque>

#include "netlib/calc/input_error.hpp"
#include "netlib/calc/prng.hpp"

namespace netlib::calc {

std::string_view arrival_name(arrival_process a) {
  switch (a) {
    case arrival_process::poisson:
      return "poisson";
    case arrival_process::deterministic:
      return "deterministic";
    case arrival_process::trace:
      return "trace";
  }
  return "?";
}

std::string_view size_name(size_distribution s) {
  return s == size_distribution::fixed ? "fixed" : "exponential";
}

namespace {

constexpr long long max_packets = 20'000'000;

void check(const simulation_config& c) {
  require_positive(c.rate_bps, "the link rate");
  require_positive(c.mean_length_bits, "the packet length");
  require_positive(c.arrival_rate, "the arrival rate");
  if (c.buffer_packets < 0) throw input_error("the buffer must hold zero or more packets");
  if (c.packets < 1 || c.packets > max_packets) throw input_error("simulate 1..20000000 packets");
  if (c.warmup < 0 || c.warmup >= c.packets) throw input_error("the warm-up must be shorter than the run");
  if (c.batches < 2 || c.batches > 1000) throw input_error("use 2..1000 batches");
  if (c.arrivals == arrival_process::trace) {
    if (c.trace.size() < 2) throw input_error("a trace needs at least two arrivals");
    if (!(c.trace.back().time_s > c.trace.front().time_s)) throw input_error("a trace must span some time");
  }
}

// Student t quantile for a two-sided 95% interval.
double t95(int degrees) {
  static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                     2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                     2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (degrees >= 1 && degrees <= 30) return table[degrees - 1];
  return degrees <= 60 ? 2.0 : 1.96;
}

// Produces arrival times and sizes one packet at a time.
class source {
 public:
  explicit source(const simulation_config& c) : c_(c), g_(c.seed) {
    if (c.arrivals == arrival_process::trace) {
      const double span = c.trace.back().time_s - c.trace.front().time_s;
      const double native_rate = double(c.trace.size() - 1) / span;
      scale_ = native_rate / c.arrival_rate;  // stretch time so the trace arrives at arrival_rate
      period_ = span * scale_ + 1 / c.arrival_rate;
    }
  }
  // Next arrival time and length.
  std::pair<double, double> next() {
    double length = 0;
    switch (c_.arrivals) {
      case arrival_process::poisson:
        now_ += g_.exponential(1 / c_.arrival_rate);
        break;
      case arrival_process::deterministic:
        now_ += 1 / c_.arrival_rate;
        break;
      case arrival_process::trace: {
        const auto& a = c_.trace[index_ % c_.trace.size()];
        now_ = double(index_ / c_.trace.size()) * period_ + (a.time_s - c_.trace.front().time_s) * scale_;
        length = a.length_bits;
        ++index_;
        break;
      }
    }
    if (length <= 0)
      length = c_.sizes == size_distribution::fixed ? c_.mean_length_bits : g_.exponential(c_.mean_length_bits);
    return {now_, length};
  }

 private:
  const simulation_config& c_;
  prng g_;
  double now_ = 0;
  double scale_ = 1, period_ = 0;
  std::size_t index_ = 0;
};

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(std::ceil(q * double(v.size()))) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

void summarise(const std::vector<double>& delays, int batches, simulation_result& r) {
  if (delays.empty()) return;
  double sum = 0;
  for (double d : delays) sum += d;
  r.mean_queueing_s = sum / double(delays.size());
  const std::size_t per = delays.size() / std::size_t(batches);
  if (per > 0) {
    std::vector<double> means;
    for (int b = 0; b < batches; ++b) {
      double s = 0;
      for (std::size_t i = 0; i < per; ++i) s += delays[std::size_t(b) * per + i];
      means.push_back(s / double(per));
    }
    double m = 0, var = 0;
    for (double x : means) m += x;
    m /= double(batches);
    for (double x : means) var += (x - m) * (x - m);
    var /= double(batches - 1);
    r.ci95_half_width_s = t95(batches - 1) * std::sqrt(var / double(batches));
  }
  r.p95_queueing_s = percentile(delays, 0.95);
  r.p99_queueing_s = percentile(delays, 0.99);
}

}  // namespace

double served_mean_length_bits(const simulation_config& c) {
  if (c.arrivals != arrival_process::trace || c.trace.empty()) return c.mean_length_bits;
  double sum = 0;
  for (const auto& a : c.trace) sum += a.length_bits > 0 ? a.length_bits : c.mean_length_bits;
  return sum / double(c.trace.size());
}

simulation_result simulate_queue(const simulation_config& c) {
  check(c);
  simulation_result r;
  r.traffic_intensity = c.arrival_rate * served_mean_length_bits(c) / c.rate_bps;
  source src(c);
  std::deque<double> departures;  // of packets in the system, in FIFO order
  double link_free = 0, busy = 0, first_measured = 0, last_time = 0;
  std::vector<double> delays;
  delays.reserve(static_cast<std::size_t>(c.packets - c.warmup));
  const auto capacity = static_cast<std::size_t>(c.buffer_packets) + 1;
  for (long long k = 0; k < c.packets; ++k) {
    const auto [t, length] = src.next();
    while (!departures.empty() && departures.front() <= t) departures.pop_front();
    const bool measured = k >= c.warmup;
    if (k == c.warmup) first_measured = t;
    last_time = t;
    if (measured) ++r.arrived;
    if (departures.size() >= capacity) {
      if (measured) ++r.dropped;
      continue;
    }
    const double start = std::max(t, link_free);
    const double service = length / c.rate_bps;
    link_free = start + service;
    departures.push_back(link_free);
    if (measured) {
      delays.push_back(start - t);
      busy += service;
    }
  }
  r.loss_rate = r.arrived ? double(r.dropped) / double(r.arrived) : 0;
  const double span = std::max(link_free, last_time) - first_measured;
  r.utilisation = span > 0 ? std::min(1.0, busy / span) : 0;
  summarise(delays, c.batches, r);
  return r;
}

}  // namespace netlib::calc
