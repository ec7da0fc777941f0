// Property tests of the queue simulation: it converges to the M/M/1 and M/D/1 formulas at low and
// mid intensity within its batch-means confidence interval, matches M/M/1/K loss with a small
// buffer, and loses more as the intensity grows.
#include "netlib/calc/queue_simulation.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "netlib/calc/input_error.hpp"
#include "netlib/calc/queueing.hpp"

namespace {

using namespace netlib::calc;

// L = 1000 b at R = 1 Mbps: L/R = 1 ms; a = I × 1000/s.
simulation_config config(double intensity, size_distribution sizes, std::uint64_t seed, long long buffer = 100000) {
  return {.rate_bps = 1e6,
          .mean_length_bits = 1000,
          .arrival_rate = intensity * 1000,
          .arrivals = arrival_process::poisson,
          .sizes = sizes,
          .trace = {},
          .buffer_packets = buffer,
          .packets = 100000,
          .warmup = 2000,
          .batches = 20,
          .seed = seed};
}

void expect_converges(queue_model model, size_distribution sizes) {
  for (double intensity : {0.3, 0.6}) {
    const double expected = *queueing_delay(1000, 1e6, intensity * 1000, model).queueing_delay_s;
    int inside = 0;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      const auto r = simulate_queue(config(intensity, sizes, seed));
      ASSERT_GT(r.ci95_half_width_s, 0);
      const double error = std::abs(r.mean_queueing_s - expected);
      if (error <= r.ci95_half_width_s) ++inside;
      EXPECT_LE(error, 3 * r.ci95_half_width_s) << "I = " << intensity << " seed " << seed;
      EXPECT_LT(r.ci95_half_width_s, 0.1 * expected) << "the interval must be tight enough to mean something";
      EXPECT_EQ(r.dropped, 0);
    }
    // A 95% interval should cover the truth about 9.5 times in 10.
    EXPECT_GE(inside, 8) << model_name(model) << " at I = " << intensity;
  }
}

TEST(QueueSimulation, ConvergesToMM1) {
  expect_converges(queue_model::mm1, size_distribution::exponential);
}

TEST(QueueSimulation, ConvergesToMD1) {
  expect_converges(queue_model::md1, size_distribution::fixed);
}

TEST(QueueSimulation, SmallBufferLossMatchesMM1K) {
  for (double intensity : {0.8, 1.0, 1.5}) {
    auto c = config(intensity, size_distribution::exponential, 3, 4);  // K = 5 in the system
    c.packets = 200000;
    const auto r = simulate_queue(c);
    const double expected = finite_buffer_loss(intensity, 5).loss_probability;
    EXPECT_NEAR(r.loss_rate, expected, 0.05 * expected + 0.002) << intensity;
    EXPECT_NEAR(r.mean_queueing_s, finite_buffer_delay(1000, 1e6, intensity * 1000, 5).queueing_delay_s,
                3 * r.ci95_half_width_s + 1e-5)
        << intensity;
  }
}

TEST(QueueSimulation, LossAndDelayGrowWithIntensity) {
  double loss = -1, delay = -1;
  for (double intensity = 0.5; intensity <= 1.5; intensity += 0.1) {
    auto c = config(intensity, size_distribution::exponential, 11, 10);
    c.packets = 50000;
    const auto r = simulate_queue(c);
    EXPECT_GT(r.loss_rate, loss) << intensity;
    EXPECT_GT(r.mean_queueing_s, delay) << intensity;
    EXPECT_LE(r.p95_queueing_s, r.p99_queueing_s);
    loss = r.loss_rate;
    delay = r.mean_queueing_s;
  }
}

TEST(QueueSimulation, DeterministicArrivalsAndSizesNeverQueueBelowOne) {
  auto c = config(0.9, size_distribution::fixed, 1);
  c.arrivals = arrival_process::deterministic;
  const auto r = simulate_queue(c);
  EXPECT_DOUBLE_EQ(r.mean_queueing_s, 0);
  EXPECT_DOUBLE_EQ(r.p99_queueing_s, 0);
  EXPECT_NEAR(r.utilisation, 0.9, 1e-3);
}

TEST(QueueSimulation, TraceOfABurstQueuesBehindEachOther) {
  // A burst of 3 packets at t = 0 and one at 3 ms; the trace repeats after one mean gap (period
  // 4 ms at its own rate of 1000/s). Delays 0, 1, 2, 0 ms: mean 0.75 ms, p99 2 ms.
  simulation_config c{.rate_bps = 1e6,
                      .mean_length_bits = 1000,
                      .arrival_rate = 1000,
                      .arrivals = arrival_process::trace,
                      .sizes = size_distribution::fixed,
                      .trace = {{0, 0}, {0, 0}, {0, 0}, {0.003, 0}},
                      .buffer_packets = 10,
                      .packets = 4000,
                      .warmup = 0,
                      .batches = 10,
                      .seed = 1};
  auto r = simulate_queue(c);
  EXPECT_NEAR(r.mean_queueing_s, 0.00075, 1e-9);
  EXPECT_NEAR(r.p99_queueing_s, 0.002, 1e-9);
  EXPECT_NEAR(r.utilisation, 1.0, 1e-3);
  EXPECT_EQ(r.dropped, 0);
  c.arrival_rate = 500;  // time-scaled by 2: the burst still queues, the link is half busy
  r = simulate_queue(c);
  EXPECT_NEAR(r.mean_queueing_s, 0.00075, 1e-9);
  EXPECT_NEAR(r.utilisation, 0.5, 1e-3);
  c.buffer_packets = 1;  // the third of each burst finds the buffer full
  EXPECT_NEAR(simulate_queue(c).loss_rate, 0.25, 1e-9);
}

TEST(QueueSimulation, SameSeedSameResult) {
  const auto a = simulate_queue(config(0.7, size_distribution::exponential, 5));
  const auto b = simulate_queue(config(0.7, size_distribution::exponential, 5));
  const auto c = simulate_queue(config(0.7, size_distribution::exponential, 6));
  EXPECT_EQ(a.mean_queueing_s, b.mean_queueing_s);
  EXPECT_EQ(a.p99_queueing_s, b.p99_queueing_s);
  EXPECT_NE(a.mean_queueing_s, c.mean_queueing_s);
}

TEST(QueueSimulation, RejectsBadConfiguration) {
  auto c = config(0.5, size_distribution::fixed, 1);
  c.warmup = c.packets;
  EXPECT_THROW(simulate_queue(c), input_error);
  c = config(0.5, size_distribution::fixed, 1);
  c.arrivals = arrival_process::trace;
  EXPECT_THROW(simulate_queue(c), input_error);
}

}  // namespace
