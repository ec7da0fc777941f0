#pragma once
// Queueing delay (textbook §1.4.2): traffic intensity I = L·a/R. The average queueing delay is
// given by a named model, and is unbounded (never a number) when I >= 1:
//   M/M/1 (Poisson arrivals, exponential sizes):   d_queue = I · (L/R) / (1 - I)
//   M/D/1 (Poisson arrivals, fixed sizes):         d_queue = I · (L/R) / (2 (1 - I))
// Finite buffer (M/M/1/K, K packets in the system): P_loss = (1 - I) I^K / (1 - I^(K+1)),
// 1/(K+1) at I = 1. Little's law: N = λ · W.
#include <optional>
#include <string>
#include <string_view>

namespace netlib::calc {

enum class queue_model { mm1, md1 };

// "M/M/1" / "M/D/1".
std::string_view model_name(queue_model m);
// "mm1" / "md1" (and the names above) -> the model; nullopt otherwise.
std::optional<queue_model> parse_model(std::string_view text);

struct queue_result {
  queue_model model = queue_model::mm1;
  double traffic_intensity = 0;
  double transmission_s = 0;               // L/R
  bool unbounded = false;                  // I >= 1
  std::optional<double> queueing_delay_s;  // absent when unbounded
  std::optional<double> total_s;           // queueing + transmission, absent when unbounded
  std::string explanation;
};

queue_result queueing_delay(double length_bits, double rate_bps, double arrivals_per_s,
                            queue_model model = queue_model::mm1);

struct loss_result {
  double traffic_intensity = 0;
  long long capacity = 0;  // K: packets the system holds, the one being sent included
  double loss_probability = 0;
  std::string explanation;
};
// M/M/1/K loss probability.
loss_result finite_buffer_loss(double traffic_intensity, long long capacity);

// M/M/1/K average queueing delay of the packets that get in (finite for any I):
// p_n ∝ I^n (n = 0..K), L = Σ n p_n, W = L / (λ (1 - p_K)), d_queue = W - L/R.
struct finite_queue_result {
  double loss_probability = 0;
  double queueing_delay_s = 0;
  std::string explanation;
};
finite_queue_result finite_buffer_delay(double length_bits, double rate_bps, double arrivals_per_s, long long capacity);

struct little_result {
  double in_system = 0;         // N
  double arrival_rate = 0;      // λ (per second)
  double time_in_system_s = 0;  // W
  std::string explanation;
};
// Little's law: exactly one of the three is absent and is computed from the other two.
little_result littles_law(std::optional<double> in_system, std::optional<double> arrival_rate,
                          std::optional<double> time_s);

}  // namespace netlib::calc
