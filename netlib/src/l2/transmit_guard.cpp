// Theory of operation: a FIFO of (port, hash, size, time) for every frame the driver injected,
// bounded by a time window and a capacity. A captured frame that matches a record of the same
// port is our own transmission coming back through the capture: the record is consumed so each
// transmission is suppressed once. Invariant: records are in time order (time never goes back).
#include "netlib/l2/transmit_guard.hpp"

#include <algorithm>

namespace netlib::l2 {

std::uint64_t fnv1a64(byte_view bytes) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (auto b : bytes) {
    h ^= std::to_integer<std::uint64_t>(b);
    h *= 0x100000001b3ULL;
  }
  return h;
}

void transmit_guard::forget_before(time_point t) {
  while (!sent_.empty() && sent_.front().at < t) sent_.pop_front();
}

void transmit_guard::sent(port_id port, byte_view frame, time_point now) {
  forget_before(now - window_);
  if (sent_.size() >= capacity_) sent_.pop_front();
  sent_.push_back(record{port, fnv1a64(frame), frame.size(), now});
}

bool transmit_guard::is_own(port_id port, byte_view frame, time_point now) {
  forget_before(now - window_);
  const std::uint64_t h = fnv1a64(frame);
  auto it = std::find_if(sent_.begin(), sent_.end(),
                         [&](const record& r) { return r.port == port && r.hash == h && r.size == frame.size(); });
  if (it == sent_.end()) return false;
  sent_.erase(it);
  return true;
}

}  // namespace netlib::l2
