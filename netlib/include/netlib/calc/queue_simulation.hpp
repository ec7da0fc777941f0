#pragma once
// A discrete-event simulation of one FIFO output queue with a finite buffer (textbook §1.4.2):
// packets arrive (Poisson, deterministic, or from a trace), wait in a buffer of B packets while the
// link sends the one ahead at rate R, and are dropped when the buffer is full. It measures each
// delivered packet's queueing delay (arrival until its first bit is sent) and the loss rate.
// The simulation is deterministic for a given seed (netlib::calc::prng).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace netlib::calc {

enum class arrival_process { poisson, deterministic, trace };
enum class size_distribution { fixed, exponential };

std::string_view arrival_name(arrival_process a);
std::string_view size_name(size_distribution s);

struct trace_arrival {
  double time_s = 0;
  double length_bits = 0;  // 0: drawn from the size distribution
};

struct simulation_config {
  double rate_bps = 0;
  double mean_length_bits = 0;
  double arrival_rate = 0;  // per second; for a trace, the trace is time-scaled to it
  arrival_process arrivals = arrival_process::poisson;
  size_distribution sizes = size_distribution::exponential;
  std::vector<trace_arrival> trace;  // for arrival_process::trace, sorted by time
  long long buffer_packets = 100;    // waiting room B, the packet being sent not counted
  long long packets = 100000;        // arrivals simulated (the trace repeats if shorter)
  long long warmup = 1000;           // first arrivals not measured
  int batches = 20;                  // for the batch-means confidence interval
  std::uint64_t seed = 1;
};

struct simulation_result {
  double traffic_intensity = 0;  // offered: a · E[L] / R, E[L] as served_mean_length_bits
  long long arrived = 0;         // measured arrivals (after warm-up)
  long long dropped = 0;
  double loss_rate = 0;
  double mean_queueing_s = 0;
  double ci95_half_width_s = 0;  // batch means, Student t with batches-1 degrees of freedom
  double p95_queueing_s = 0;
  double p99_queueing_s = 0;
  double utilisation = 0;  // fraction of time the link was sending
};

// Throws input_error on bad configuration.
simulation_result simulate_queue(const simulation_config& config);

// E[L] of the packets the simulation serves: mean_length_bits, or for a trace the mean of its
// lengths (an arrival without a length counting as mean_length_bits). The traffic intensity is
// a · E[L] / R with this E[L].
double served_mean_length_bits(const simulation_config& config);

}  // namespace netlib::calc
