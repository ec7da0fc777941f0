// HTTP response times: the project's reference cases and Kurose & Ross P7/P8 (in units of RTT0).
#include "netlib/calc/http_timing.hpp"

#include <gtest/gtest.h>

#include "netlib/calc/input_error.hpp"

namespace {

using namespace netlib::calc;

double total(http_mode mode, long long objects, double rtt, double dns, long long parallel = 1) {
  return http_response_time({.rtt_s = rtt, .dns_s = dns, .objects = objects, .mode = mode, .parallel = parallel})
      .total_s;
}

TEST(HttpTiming, ReferenceCasesTwoObjects) {
  // RTT 24 ms, DNS 4 ms, 2 objects.
  EXPECT_NEAR(total(http_mode::nonpersistent, 2, 0.024, 0.004), 0.148, 1e-12);
  EXPECT_NEAR(total(http_mode::persistent, 2, 0.024, 0.004), 0.100, 1e-12);
  EXPECT_NEAR(total(http_mode::pipelined, 2, 0.024, 0.004), 0.076, 1e-12);
  EXPECT_NEAR(total(http_mode::parallel, 2, 0.024, 0.004, 2), 0.100, 1e-12);
  EXPECT_NEAR(total(http_mode::parallel, 2, 0.024, 0.004, 5), 0.100, 1e-12);
}

TEST(HttpTiming, ProblemP8EightObjectsInRtt0) {
  // P8 with RTT0 = 1 and no DNS: 18, 6 (5 parallel), 3 (pipelined), 10 (persistent, no pipelining).
  EXPECT_DOUBLE_EQ(total(http_mode::nonpersistent, 8, 1, 0), 18);
  EXPECT_DOUBLE_EQ(total(http_mode::parallel, 8, 1, 0, 5), 6);
  EXPECT_DOUBLE_EQ(total(http_mode::pipelined, 8, 1, 0), 3);
  EXPECT_DOUBLE_EQ(total(http_mode::persistent, 8, 1, 0), 10);
}

TEST(HttpTiming, ProblemP7BasePageOnly) {
  // P7: DNS (RTT1 + ... + RTTn given as a total) + 2 RTT0.
  EXPECT_DOUBLE_EQ(total(http_mode::nonpersistent, 0, 0.01, 0.05), 0.07);
  EXPECT_DOUBLE_EQ(total(http_mode::pipelined, 0, 0.01, 0.05), 0.07);
}

TEST(HttpTiming, TransmissionTimesAreAddedWhenSizesAndRateAreGiven) {
  // 100 kb page + 2 × 50 kb objects at 1 Mbps: 0.2 s on top of 4 + 2 × 2 RTT.
  const auto r = http_response_time({.rtt_s = 0.01,
                                     .dns_s = 0,
                                     .objects = 2,
                                     .mode = http_mode::nonpersistent,
                                     .base_bits = 1e5,
                                     .object_bits = 5e4,
                                     .rate_bps = 1e6});
  EXPECT_NEAR(r.transmission_s, 0.2, 1e-15);
  EXPECT_NEAR(r.total_s, 0.06 + 0.2, 1e-12);
  EXPECT_DOUBLE_EQ(r.rtts, 6);
}

TEST(HttpTiming, ModesParseAndBadInputIsRejected) {
  EXPECT_EQ(parse_http_mode("pipelined"), http_mode::pipelined);
  EXPECT_FALSE(parse_http_mode("keepalive"));
  EXPECT_THROW(http_response_time({.rtt_s = -1}), input_error);
  EXPECT_THROW(http_response_time({.rtt_s = 1, .objects = 3, .mode = http_mode::parallel, .parallel = 0}), input_error);
}

}  // namespace
