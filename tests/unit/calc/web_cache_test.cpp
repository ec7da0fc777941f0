// Web caching (Kurose & Ross §2.2.5 and problem P9) worked by hand.
#include "netlib/calc/web_cache.hpp"

#include <gtest/gtest.h>

namespace {

using namespace netlib::calc;

TEST(WebCache, TextbookInstitutionalNetwork) {
  // 15 requests/s of 1 Mbit objects, 15 Mbps access link, 100 Mbps LAN: LAN intensity 0.15,
  // access intensity 1.0 (unbounded); with a 0.4 hit rate the access intensity drops to 0.6.
  const auto r = web_cache({.request_rate = 15,
                            .object_bits = 1e6,
                            .access_bps = 15e6,
                            .internet_s = 2,
                            .hit_rate = 0.4,
                            .lan_s = 0.01,
                            .lan_bps = 100e6});
  ASSERT_TRUE(r.lan_intensity);
  EXPECT_DOUBLE_EQ(*r.lan_intensity, 0.15);
  EXPECT_DOUBLE_EQ(r.without_cache.access_intensity, 1.0);
  EXPECT_FALSE(r.without_cache.response_s);
  EXPECT_NEAR(r.with_cache.access_intensity, 0.6, 1e-15);
  ASSERT_TRUE(r.with_cache.response_s);
  // 0.4 × 0.01 + 0.6 × (2 + (1/15)/(1 - 0.6)) = 0.004 + 0.6 × 2.1667 = 1.304 s.
  EXPECT_NEAR(*r.with_cache.response_s, 0.004 + 0.6 * (2 + (1.0 / 15) / 0.4), 1e-12);
}

TEST(WebCache, ProblemP9) {
  // 850000-bit objects, 16 requests/s, 15 Mbps, Internet 3 s: Δ = 0.05667 s, Δβ = 0.9067,
  // access 0.6071 s, response 3.607 s; with h = 0.4: Δβ = 0.544, access 0.1243 s, 1.8746 s.
  const auto r =
      web_cache({.request_rate = 16, .object_bits = 850000, .access_bps = 15e6, .internet_s = 3, .hit_rate = 0.4});
  EXPECT_NEAR(r.without_cache.access_intensity, 0.906667, 1e-6);
  EXPECT_NEAR(*r.without_cache.access_delay_s, 0.607143, 1e-6);
  EXPECT_NEAR(*r.without_cache.response_s, 3.607143, 1e-6);
  EXPECT_NEAR(r.with_cache.access_intensity, 0.544, 1e-12);
  EXPECT_NEAR(*r.with_cache.access_delay_s, 0.124269, 1e-6);
  EXPECT_NEAR(*r.with_cache.response_s, 1.874561, 1e-6);
  EXPECT_FALSE(r.lan_intensity);
}

}  // namespace
