// Store-and-forward delays worked by hand (Kurose & Ross §1.3.1, P10, P31).
#include "netlib/calc/end_to_end.hpp"

#include <gtest/gtest.h>

#include "netlib/calc/input_error.hpp"

namespace {

using netlib::calc::end_to_end_delay;
using netlib::calc::link_spec;

std::vector<link_spec> equal_links(int n, double rate) {
  return std::vector<link_spec>(n, link_spec{.rate_bps = rate});
}

TEST(EndToEnd, ThreePacketsOneRouterTakeFourTransmissionTimes) {
  // N = 2 links, P = 3 packets: (N + P - 1) L/R = 4 L/R.
  const auto r = end_to_end_delay(equal_links(2, 1e6), 1000, 3);
  EXPECT_DOUBLE_EQ(r.total_s, 0.004);
  ASSERT_EQ(r.per_packet_s.size(), 3u);
  EXPECT_DOUBLE_EQ(r.per_packet_s[0], 0.002);
  EXPECT_DOUBLE_EQ(r.per_packet_s[1], 0.003);
  EXPECT_DOUBLE_EQ(r.per_packet_s[2], 0.004);
  EXPECT_NE(r.explanation.find("(N + P - 1)"), std::string::npos);
}

TEST(EndToEnd, UnequalLinksWaitForTheSlowestLink) {
  // L = 1000 b over 1 Mbps then 500 kbps: 1 + 2 ms for the first packet, +2 ms for each next one.
  const std::vector<link_spec> links{{.rate_bps = 1e6}, {.rate_bps = 5e5}};
  const auto r = end_to_end_delay(links, 1000, 3);
  EXPECT_DOUBLE_EQ(r.total_s, 0.007);
  EXPECT_DOUBLE_EQ(r.per_packet_s.back(), 0.007);
  // Slow link first: packets queue only at the source, 2 + 1 ms then +2 ms each.
  const std::vector<link_spec> reversed{{.rate_bps = 5e5}, {.rate_bps = 1e6}};
  EXPECT_DOUBLE_EQ(end_to_end_delay(reversed, 1000, 3).total_s, 0.007);
}

TEST(EndToEnd, ProblemP10ThreeLinksWithPropagationAndProcessing) {
  // P10: L = 1500 B, d1 = 5000 km, d2 = 4000 km, d3 = 1000 km, s = 2.5e8, R = 2 Mbps, d_proc = 3 ms
  // at each switch: d = 3 × 6 ms + (20 + 16 + 4) ms + 2 × 3 ms = 64 ms.
  const std::vector<link_spec> links{{.rate_bps = 2e6, .distance_m = 5e6, .speed_mps = 2.5e8},
                                     {.rate_bps = 2e6, .distance_m = 4e6, .speed_mps = 2.5e8, .processing_s = 0.003},
                                     {.rate_bps = 2e6, .distance_m = 1e6, .speed_mps = 2.5e8, .processing_s = 0.003}};
  const auto r = end_to_end_delay(links, 12000, 1);
  EXPECT_NEAR(r.total_s, 0.064, 1e-12);
}

TEST(EndToEnd, RecurrenceMatchesClosedFormOnAnyChain) {
  const std::vector<link_spec> links{{.rate_bps = 3e6, .distance_m = 1e5, .speed_mps = 2e8, .processing_s = 1e-4},
                                     {.rate_bps = 1e6, .distance_m = 3e5, .speed_mps = 2e8, .processing_s = 2e-3},
                                     {.rate_bps = 7e6, .distance_m = 0, .speed_mps = 2e8, .processing_s = 5e-5}};
  for (long long p : {1, 2, 5, 50}) {
    const auto r = end_to_end_delay(links, 12000, p);
    EXPECT_NEAR(r.per_packet_s.back(), r.total_s, 1e-12) << p;
  }
}

TEST(EndToEnd, ManyPacketsUseTheClosedForm) {
  const auto r = end_to_end_delay(equal_links(3, 1e6), 1000, 1'000'000);
  EXPECT_DOUBLE_EQ(r.total_s, (3 + 1'000'000 - 1) * 0.001);
  EXPECT_EQ(r.per_packet_s.size(), 1000u);
}

TEST(EndToEnd, ProblemP31SegmentationPipelinesTheLinks) {
  // P31: 8e6-bit message, two switches (three 2 Mbps links): 12 s whole; 800 packets of 10000 b:
  // (3 + 800 - 1) × 5 ms = 4.01 s.
  const auto r = netlib::calc::segmentation(equal_links(3, 2e6), 8e6, 1e4);
  EXPECT_DOUBLE_EQ(r.whole_message_s, 12);
  EXPECT_EQ(r.packets, 800);
  EXPECT_NEAR(r.segmented_s, 4.01, 1e-9);
}

TEST(EndToEnd, SegmentationWithHeadersAndAShortLastPacket) {
  // 2500 b in 1000 b payloads with 100 b headers over 2 links at 1 Mbps: packets 1100, 1100, 600 b.
  // Link 1 ends at 1.1, 2.2, 2.8 ms; link 2 ends at 2.2, 3.3, 3.9 ms.
  const auto r = netlib::calc::segmentation(equal_links(2, 1e6), 2500, 1000, 100);
  EXPECT_EQ(r.packets, 3);
  EXPECT_NEAR(r.segmented_s, 0.0039, 1e-12);
  EXPECT_NEAR(r.whole_message_s, 2 * 0.0026, 1e-12);
}

TEST(EndToEnd, RejectsBadInput) {
  EXPECT_THROW(end_to_end_delay({}, 1000, 1), netlib::calc::input_error);
  EXPECT_THROW(end_to_end_delay(equal_links(1, 1e6), 1000, 0), netlib::calc::input_error);
  EXPECT_THROW(end_to_end_delay(equal_links(1, 0), 1000, 1), netlib::calc::input_error);
  EXPECT_THROW(netlib::calc::segmentation(equal_links(1, 1e6), 1e12, 1), netlib::calc::input_error);
}

}  // namespace
