// netlib::clock_reading and virtual_clock (docs/architecture.md, "The session contract").
#include <gtest/gtest.h>

#include "netlib/core/clock.hpp"

namespace clock_test {

using namespace std::chrono_literals;

TEST(ClockReading, carries_both_clocks_and_moves_them_together) {
  const netlib::clock_reading r{netlib::time_point(5s), netlib::wall_time(1'796'028'904s + 250ms)};
  EXPECT_EQ(r.wall_seconds().time_since_epoch(), 1'796'028'904s);  // rounded down
  const auto later = r.after(90s);
  EXPECT_EQ(later.mono, netlib::time_point(95s));
  EXPECT_EQ(later.wall_seconds().time_since_epoch(), 1'796'028'994s);
  EXPECT_NE(later, r);
  EXPECT_EQ(r.after(0s), r);
}

TEST(ClockReading, before_the_epoch_rounds_down) {
  const netlib::clock_reading r{{}, netlib::wall_time(-1500ms)};
  EXPECT_EQ(r.wall_seconds().time_since_epoch(), -2s);
}

TEST(ClockReading, capture_timestamp_is_both_clocks) {
  const auto ts = netlib::from_nanoseconds(1'700'000'000'123'456'789);
  const auto r = netlib::capture_reading(ts);
  EXPECT_EQ(r.mono, ts);
  EXPECT_EQ(r.wall_seconds().time_since_epoch(), 1'700'000'000s);
  EXPECT_EQ(r.wall.time_since_epoch().count(), 1'700'000'000'123'456'789);
}

TEST(VirtualClock, moves_only_when_told) {
  netlib::virtual_clock clock(netlib::time_point(1h), netlib::wall_time(1000s));
  EXPECT_EQ(clock.now(), netlib::time_point(1h));
  EXPECT_EQ(clock.reading().wall_seconds().time_since_epoch(), 1000s);
  EXPECT_EQ(clock.advance(1500ms), netlib::time_point(1h + 1500ms));
  EXPECT_EQ(clock.reading().mono, clock.now());
  EXPECT_EQ(clock.reading().wall_seconds().time_since_epoch(), 1001s);
  netlib::virtual_clock zero;
  EXPECT_EQ(zero.reading(), netlib::clock_reading{});
}

}  // namespace clock_test
