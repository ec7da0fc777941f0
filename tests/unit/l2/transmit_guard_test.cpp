#include "netlib/l2/transmit_guard.hpp"

#include "switch_scenario.hpp"

#include <gtest/gtest.h>

namespace {

using namespace netlab::test;
using netlib::l2::transmit_guard;

TEST(TransmitGuard, OwnFramesAreRecognisedOncePerPortWithinTheWindow) {
  transmit_guard guard(2s, 8);
  netlib::virtual_clock clock;
  const auto f = frame(mac("02:00:00:00:00:02"), mac("02:00:00:00:00:01"));
  const auto g = frame(mac("02:00:00:00:00:01"), mac("02:00:00:00:00:02"));
  guard.sent(1, f, clock.now());
  EXPECT_FALSE(guard.is_own(0, f, clock.now()));  // the same bytes on another port: a real frame
  EXPECT_FALSE(guard.is_own(1, g, clock.now()));
  EXPECT_TRUE(guard.is_own(1, f, clock.advance(1ms)));
  EXPECT_FALSE(guard.is_own(1, f, clock.now()));  // consumed
  guard.sent(1, f, clock.now());
  clock.advance(3s);
  EXPECT_FALSE(guard.is_own(1, f, clock.now()));  // too old
  EXPECT_EQ(guard.pending(), 0U);
}

TEST(TransmitGuard, CapacityBoundsMemory) {
  transmit_guard guard(10s, 4);
  netlib::virtual_clock clock;
  for (std::uint8_t i = 0; i < 10; ++i)
    guard.sent(0, frame(mac_address::broadcast(), mac_address{{2, 0, 0, 0, 0, i}}), clock.now());
  EXPECT_EQ(guard.pending(), 4U);
  EXPECT_FALSE(guard.is_own(0, frame(mac_address::broadcast(), mac_address{{2, 0, 0, 0, 0, 0}}), clock.now()));
  EXPECT_TRUE(guard.is_own(0, frame(mac_address::broadcast(), mac_address{{2, 0, 0, 0, 0, 9}}), clock.now()));
}

}  // namespace
