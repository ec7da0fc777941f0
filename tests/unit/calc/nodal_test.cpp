// Textbook values worked by hand (Kurose & Ross §1.4, problems P6 and P25).
#include "netlib/calc/nodal.hpp"

#include <gtest/gtest.h>

#include "netlib/calc/input_error.hpp"

namespace {

using netlib::calc::nodal_delay;
using netlib::calc::nodal_input;

TEST(Nodal, FifteenHundredBytesOverTenMegabitsAndTwentyFiveHundredKm) {
  // L = 12000 b, R = 10 Mbps -> 1.2 ms; d = 2.5e6 m, s = 2.5e8 m/s -> 10 ms.
  const auto r = nodal_delay({.length_bits = 12000, .rate_bps = 10e6, .distance_m = 2.5e6, .speed_mps = 2.5e8});
  EXPECT_DOUBLE_EQ(r.transmission_s, 0.0012);
  EXPECT_DOUBLE_EQ(r.propagation_s, 0.01);
  EXPECT_DOUBLE_EQ(r.total_s, 0.0112);
  EXPECT_DOUBLE_EQ(r.bandwidth_delay_bits, 1e5);
  EXPECT_DOUBLE_EQ(r.bit_width_m, 25);
  EXPECT_FALSE(r.first_bit_arrived);
  EXPECT_DOUBLE_EQ(r.first_bit_position_m, 300e3);
  EXPECT_NE(r.explanation.find("d_trans = L/R = 12000 b / 1e+07 bps = 0.0012 s"), std::string::npos) << r.explanation;
}

TEST(Nodal, ProcessingAndQueueingAreAdded) {
  const auto r = nodal_delay({.length_bits = 8000,
                              .rate_bps = 1e6,
                              .distance_m = 0,
                              .speed_mps = 2e8,
                              .processing_s = 0.001,
                              .queueing_s = 0.002});
  EXPECT_DOUBLE_EQ(r.total_s, 0.011);
  EXPECT_TRUE(r.first_bit_arrived);
}

TEST(Nodal, ProblemP6FirstBitPosition) {
  // P6: s = 2.5e8 m/s, L = 120 b, R = 56 kbps: d_trans = 2.142857 ms; d_prop = d_trans at 535.7 km.
  const auto r = nodal_delay({.length_bits = 120, .rate_bps = 56e3, .distance_m = 1e6, .speed_mps = 2.5e8});
  EXPECT_NEAR(r.transmission_s, 0.002142857, 1e-9);
  EXPECT_FALSE(r.first_bit_arrived);
  EXPECT_NEAR(r.first_bit_position_m, 535714.29, 0.01);
  const auto shorter = nodal_delay({.length_bits = 120, .rate_bps = 56e3, .distance_m = 500e3, .speed_mps = 2.5e8});
  EXPECT_TRUE(shorter.first_bit_arrived);
  EXPECT_DOUBLE_EQ(shorter.first_bit_position_m, 500e3);
}

TEST(Nodal, ProblemP25BandwidthDelayProductAndBitWidth) {
  // P25: R = 2 Mbps, 20000 km, s = 2.5e8: R·d_prop = 160000 bits; width of a bit 125 m.
  const auto r = nodal_delay({.length_bits = 8e5, .rate_bps = 2e6, .distance_m = 2e7, .speed_mps = 2.5e8});
  EXPECT_DOUBLE_EQ(r.bandwidth_delay_bits, 160000);
  EXPECT_DOUBLE_EQ(r.bit_width_m, 125);
}

TEST(Nodal, RejectsBadInput) {
  EXPECT_THROW(nodal_delay({.length_bits = 1, .rate_bps = 0}), netlib::calc::input_error);
  EXPECT_THROW(nodal_delay({.length_bits = -1, .rate_bps = 1}), netlib::calc::input_error);
  EXPECT_THROW(nodal_delay({.length_bits = 1, .rate_bps = 1, .distance_m = 1, .speed_mps = 0}),
               netlib::calc::input_error);
}

}  // namespace
