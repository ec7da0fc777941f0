// Queueing formulas worked by hand, plus properties (delay grows with I; loss grows with I).
#include "netlib/calc/queueing.hpp"

#include <gtest/gtest.h>

#include "netlib/calc/input_error.hpp"

namespace {

using namespace netlib::calc;

TEST(Queueing, MM1AtIntensityPointSix) {
  // L = 12000 b, R = 10 Mbps, a = 500/s: I = 0.6; L/R = 1.2 ms; d = 0.6 × 1.2 / 0.4 = 1.8 ms.
  const auto r = queueing_delay(12000, 10e6, 500);
  EXPECT_DOUBLE_EQ(r.traffic_intensity, 0.6);
  ASSERT_TRUE(r.queueing_delay_s);
  EXPECT_NEAR(*r.queueing_delay_s, 0.0018, 1e-15);
  EXPECT_FALSE(r.unbounded);
  EXPECT_NE(r.explanation.find("M/M/1"), std::string::npos);
}

TEST(Queueing, MD1IsHalfOfMM1) {
  const auto r = queueing_delay(12000, 10e6, 500, queue_model::md1);
  EXPECT_NEAR(*r.queueing_delay_s, 0.0009, 1e-15);
  EXPECT_NE(r.explanation.find("M/D/1"), std::string::npos);
}

TEST(Queueing, IntensityOneOrMoreIsUnboundedNeverANumber) {
  for (double a : {1000.0, 1500.0}) {  // L = 1000 b, R = 1 Mbps: I = 1, 1.5
    const auto r = queueing_delay(1000, 1e6, a);
    EXPECT_TRUE(r.unbounded);
    EXPECT_FALSE(r.queueing_delay_s.has_value());
    EXPECT_FALSE(r.total_s.has_value());
    EXPECT_NE(r.explanation.find("unbounded"), std::string::npos);
  }
}

TEST(Queueing, DelayGrowsWithIntensity) {
  double previous = -1;
  for (int a = 0; a < 1000; a += 7) {
    const auto r = queueing_delay(1000, 1e6, a);
    ASSERT_TRUE(r.queueing_delay_s) << a;
    EXPECT_GT(*r.queueing_delay_s, previous) << a;
    previous = *r.queueing_delay_s;
  }
  EXPECT_DOUBLE_EQ(*queueing_delay(1000, 1e6, 0).queueing_delay_s, 0);
}

TEST(Queueing, FiniteBufferLoss) {
  EXPECT_NEAR(finite_buffer_loss(0.5, 2).loss_probability, 0.125 / 0.875, 1e-15);
  EXPECT_DOUBLE_EQ(finite_buffer_loss(1.0, 4).loss_probability, 0.2);
  EXPECT_NEAR(finite_buffer_loss(2.0, 1).loss_probability, 2.0 / 3.0, 1e-15);
  EXPECT_DOUBLE_EQ(finite_buffer_loss(0.0, 3).loss_probability, 0);
  // Large K stays finite on both sides of 1.
  EXPECT_NEAR(finite_buffer_loss(0.9, 5000).loss_probability, 0, 1e-200);
  EXPECT_NEAR(finite_buffer_loss(1.5, 5000).loss_probability, 1.0 / 3.0, 1e-12);
  double previous = -1;
  for (double i = 0.05; i < 3; i += 0.05) {
    const double p = finite_buffer_loss(i, 10).loss_probability;
    EXPECT_GT(p, previous) << i;
    previous = p;
  }
  EXPECT_THROW(finite_buffer_loss(0.5, 0), input_error);
}

TEST(Queueing, LittlesLawSolvesForTheMissingOne) {
  EXPECT_DOUBLE_EQ(littles_law(std::nullopt, 100.0, 0.05).in_system, 5);
  EXPECT_DOUBLE_EQ(littles_law(5.0, std::nullopt, 0.05).arrival_rate, 100);
  EXPECT_DOUBLE_EQ(littles_law(5.0, 100.0, std::nullopt).time_in_system_s, 0.05);
  EXPECT_THROW(littles_law(5.0, 100.0, 0.05), input_error);
  EXPECT_THROW(littles_law(5.0, std::nullopt, std::nullopt), input_error);
}

TEST(Queueing, ModelNames) {
  EXPECT_EQ(parse_model("md1"), queue_model::md1);
  EXPECT_EQ(parse_model("M/M/1"), queue_model::mm1);
  EXPECT_FALSE(parse_model("mg1"));
  EXPECT_EQ(model_name(queue_model::md1), "M/D/1");
}

}  // namespace

namespace {

using namespace netlib::calc;

TEST(Queueing, FiniteBufferDelayApproachesMM1WithALargeBuffer) {
  // L/R = 1 ms, I = 0.5: M/M/1 gives 1 ms; K = 200 is effectively infinite.
  const auto r = finite_buffer_delay(1000, 1e6, 500, 200);
  EXPECT_NEAR(r.queueing_delay_s, 0.001, 1e-12);
  EXPECT_NEAR(r.loss_probability, 0, 1e-50);
}

TEST(Queueing, FiniteBufferDelayByHand) {
  // K = 1: nobody ever waits. K = 2, I = 1: p = 1/3 each; L = 1; λ_eff = 2a/3; W = 1.5/a;
  // with a = 1000/s (L/R = 1 ms): W = 1.5 ms, d_queue = 0.5 ms.
  EXPECT_DOUBLE_EQ(finite_buffer_delay(1000, 1e6, 500, 1).queueing_delay_s, 0);
  const auto r = finite_buffer_delay(1000, 1e6, 1000, 2);
  EXPECT_NEAR(r.loss_probability, 1.0 / 3, 1e-12);
  EXPECT_NEAR(r.queueing_delay_s, 0.0005, 1e-12);
  // Above I = 1 it stays finite and agrees with the loss formula.
  const auto over = finite_buffer_delay(1000, 1e6, 2000, 50);
  EXPECT_NEAR(over.loss_probability, finite_buffer_loss(2.0, 50).loss_probability, 1e-12);
  EXPECT_NEAR(over.queueing_delay_s, 0.048, 0.001);  // nearly full: about 48 packets ahead
}

}  // namespace
