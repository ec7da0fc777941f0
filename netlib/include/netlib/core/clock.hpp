#pragma once
// Time as cores see it (docs/architecture.md, "The session contract"): cores receive time, never
// read a clock. One reading carries both clocks a protocol needs:
//   - `mono`, a monotonic time_point: deadlines, delays, idle timeouts, expiry;
//   - `wall`, calendar time: Date and Last-Modified (RFC 9110), Received: (RFC 5321 §4.4), the
//     age of a file in an FTP listing.
// Live drivers read steady_clock and system_clock together (netlib::io::read_clock), capture
// drivers use the capture timestamp for both (capture_reading), tests use a virtual_clock.
#include <chrono>
#include <cstdint>

namespace netlib {

// A tag clock: it defines the time_point type cores use but has no now(), on purpose.
struct core_clock {
  using rep = std::int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<core_clock, duration>;
  static constexpr bool is_steady = true;
};
using time_point = core_clock::time_point;
using duration = core_clock::duration;
// Calendar time: nanoseconds since the Unix epoch (std::chrono::system_clock's epoch).
using wall_time = std::chrono::sys_time<std::chrono::nanoseconds>;

inline time_point from_steady(std::chrono::steady_clock::time_point t) noexcept {
  return time_point(std::chrono::duration_cast<duration>(t.time_since_epoch()));
}
inline time_point from_nanoseconds(std::int64_t ns) noexcept {
  return time_point(duration(ns));
}
inline double to_seconds(duration d) noexcept {
  return std::chrono::duration<double>(d).count();
}
inline double to_seconds(time_point t) noexcept {
  return to_seconds(t.time_since_epoch());
}

// One reading of the two clocks, taken at the same moment.
struct clock_reading {
  time_point mono{};
  wall_time wall{};

  // The wall time in whole seconds (rounded down), for the protocols' date formats.
  [[nodiscard]] std::chrono::sys_seconds wall_seconds() const noexcept {
    return std::chrono::floor<std::chrono::seconds>(wall);
  }
  // The reading `d` later on both clocks.
  [[nodiscard]] clock_reading after(duration d) const noexcept { return {mono + d, wall + d}; }
  friend bool operator==(const clock_reading&, const clock_reading&) = default;
};

// A capture timestamp (nanoseconds since the Unix epoch) is both a wall time and, within one
// capture, a monotonic one.
inline clock_reading capture_reading(time_point ts) noexcept {
  return {ts, wall_time(ts.time_since_epoch())};
}

// A clock that moves only when told to: for tests and simulations. Both clocks move together.
class virtual_clock {
 public:
  explicit virtual_clock(time_point start = time_point{}, wall_time wall_start = wall_time{}) noexcept
      : now_{start, wall_start} {}
  [[nodiscard]] time_point now() const noexcept { return now_.mono; }
  [[nodiscard]] const clock_reading& reading() const noexcept { return now_; }
  time_point advance(duration d) noexcept {
    now_ = now_.after(d);
    return now_.mono;
  }

 private:
  clock_reading now_;
};

}  // namespace netlib
