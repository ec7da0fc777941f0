#pragma once
// Time as cores see it (docs/architecture.md, "Protocol cores never do I/O"): cores receive time points, never read a clock.
// Live drivers pass std::chrono::steady_clock readings converted with from_steady(), capture
// drivers pass capture timestamps (nanoseconds since the Unix epoch), tests pass a virtual_clock.
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

inline time_point from_steady(std::chrono::steady_clock::time_point t) noexcept {
  return time_point(std::chrono::duration_cast<duration>(t.time_since_epoch()));
}
inline time_point from_nanoseconds(std::int64_t ns) noexcept { return time_point(duration(ns)); }
inline double to_seconds(duration d) noexcept { return std::chrono::duration<double>(d).count(); }
inline double to_seconds(time_point t) noexcept { return to_seconds(t.time_since_epoch()); }

// A clock that moves only when told to: for tests and simulations.
class virtual_clock {
 public:
  explicit virtual_clock(time_point start = time_point{}) noexcept : now_(start) {}
  [[nodiscard]] time_point now() const noexcept { return now_; }
  time_point advance(duration d) noexcept { return now_ += d; }

 private:
  time_point now_;
};

}  // namespace netlib
