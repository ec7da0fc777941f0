#pragma once
// RTT statistics as ping prints them: min/avg/max/mdev (mdev = sqrt(mean(x²) - mean(x)²)) and loss.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace netlab::lab_delay {

struct ping_stats {
  long long sent = 0;
  long long received = 0;
  double min_s = 0, avg_s = 0, max_s = 0, mdev_s = 0;
  [[nodiscard]] double loss_rate() const { return sent ? double(sent - received) / double(sent) : 0; }
};

inline ping_stats summarise_rtts(const std::vector<std::optional<double>>& probes) {
  ping_stats s;
  double sum = 0, squares = 0;
  for (const auto& p : probes) {
    ++s.sent;
    if (!p) continue;
    s.min_s = s.received ? std::min(s.min_s, *p) : *p;
    s.max_s = std::max(s.max_s, *p);
    ++s.received;
    sum += *p;
    squares += *p * *p;
  }
  if (s.received) {
    s.avg_s = sum / double(s.received);
    s.mdev_s = std::sqrt(std::max(0.0, squares / double(s.received) - s.avg_s * s.avg_s));
  }
  return s;
}

}  // namespace netlab::lab_delay
