#pragma once
// The live drivers' time input (docs/architecture.md, "The session contract"): one reading of the
// steady clock (deadlines) and the system clock (dates), taken together.
#include <chrono>

#include "netlib/core/clock.hpp"

namespace netlib::io {

inline clock_reading read_clock() {
  return {from_steady(std::chrono::steady_clock::now()),
          std::chrono::time_point_cast<wall_time::duration>(std::chrono::system_clock::now())};
}

// A core's monotonic time as the steady clock's, for timers.
inline std::chrono::steady_clock::time_point to_steady(time_point t) {
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(t.time_since_epoch()));
}

}  // namespace netlib::io
