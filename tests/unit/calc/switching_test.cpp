// The textbook's circuit versus packet switching example (§1.3.2), worked exactly.
#include "netlib/calc/switching.hpp"

#include <gtest/gtest.h>

#include "netlib/calc/input_error.hpp"

namespace {

using namespace netlib::calc;

TEST(Switching, TextbookThirtyFiveUsers) {
  // 1 Mbps link, 100 kbps users active 10% of the time: 10 circuit users; with 35 users,
  // P(more than 10 active) = 0.000424298 (exact binomial; the textbook rounds to 0.0004).
  const auto r = circuit_vs_packet(1e6, 1e5, 0.1, 35);
  EXPECT_EQ(r.circuit_users, 10);
  EXPECT_NEAR(r.probability_more_active, 0.0004242975954, 1e-12);
  EXPECT_DOUBLE_EQ(r.expected_active, 3.5);
}

TEST(Switching, BinomialTailEdges) {
  EXPECT_DOUBLE_EQ(binomial_tail_above(10, 0.5, 10), 0);
  EXPECT_DOUBLE_EQ(binomial_tail_above(10, 0.5, -1), 1);
  EXPECT_NEAR(binomial_tail_above(2, 0.5, 0), 0.75, 1e-15);  // 1 - 0.25
  EXPECT_NEAR(binomial_tail_above(3, 0.5, 1), 0.5, 1e-15);   // (3 + 1)/8
  EXPECT_DOUBLE_EQ(binomial_tail_above(5, 0, 0), 0);
  EXPECT_DOUBLE_EQ(binomial_tail_above(5, 1, 4), 1);
}

TEST(Switching, CircuitUsersDoNotLoseOneToRounding) {
  EXPECT_EQ(circuit_vs_packet(3e5, 1e5, 0.1, 5).circuit_users, 3);  // 0.3/0.1 in floating point
  EXPECT_EQ(circuit_vs_packet(1e6, 3e5, 0.1, 5).circuit_users, 3);
}

TEST(Switching, RejectsBadInput) {
  EXPECT_THROW(circuit_vs_packet(1e6, 0, 0.1, 35), input_error);
  EXPECT_THROW(circuit_vs_packet(1e6, 1e5, 1.5, 35), input_error);
}

}  // namespace
