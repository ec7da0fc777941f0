// Throughput examples from Kurose & Ross §1.4.4 worked by hand.
#include "netlib/calc/throughput.hpp"

#include <gtest/gtest.h>

#include "netlib/calc/input_error.hpp"

namespace {

using namespace netlib::calc;

TEST(Throughput, ServerTwoMegabitsClientOneMegabit) {
  // Rs = 2 Mbps, Rc = 1 Mbps: 1 Mbps; a 32-million-bit file takes 32 s.
  const auto r = path_throughput({2e6, 1e6}, std::nullopt, 32e6);
  EXPECT_DOUBLE_EQ(r.throughput_bps, 1e6);
  EXPECT_EQ(r.bottleneck, 1);
  ASSERT_TRUE(r.transfer_s);
  EXPECT_DOUBLE_EQ(*r.transfer_s, 32);
  EXPECT_DOUBLE_EQ(r.link_utilisation[0], 0.5);
  EXPECT_DOUBLE_EQ(r.link_utilisation[1], 1.0);
}

TEST(Throughput, TenFlowsShareAFiveMegabitLink) {
  // min(Rs, Rc, R/N) = min(2, 1, 5/10) Mbps = 500 kbps, limited by the shared link.
  const auto r = path_throughput({2e6, 1e6}, shared_link{.rate_bps = 5e6, .flows = 10});
  EXPECT_DOUBLE_EQ(r.throughput_bps, 5e5);
  EXPECT_EQ(r.bottleneck, -1);
  ASSERT_TRUE(r.shared_utilisation);
  EXPECT_DOUBLE_EQ(*r.shared_utilisation, 1.0);
  EXPECT_DOUBLE_EQ(r.link_utilisation[0], 0.25);
  EXPECT_NE(r.explanation.find("shared link"), std::string::npos);
}

TEST(Throughput, FastSharedLinkIsNotTheBottleneck) {
  const auto r = path_throughput({2e6, 1e6}, shared_link{.rate_bps = 100e6, .flows = 10});
  EXPECT_DOUBLE_EQ(r.throughput_bps, 1e6);
  EXPECT_EQ(r.bottleneck, 1);
}

TEST(Throughput, RejectsBadInput) {
  EXPECT_THROW(path_throughput({}), input_error);
  EXPECT_THROW(path_throughput({1e6, 0}), input_error);
  EXPECT_THROW(path_throughput({1e6}, shared_link{.rate_bps = 1e6, .flows = 0}), input_error);
}

}  // namespace
