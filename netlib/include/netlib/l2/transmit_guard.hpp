#pragma once
// Remembers the frames a live switch has just sent out of each port, so that when its capture on
// that port hands the same bytes back (a capture sees outgoing frames too), the driver neither
// relearns nor re-forwards them. Sans-I/O: bytes and time in, a yes/no out.
#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/l2/switch_config.hpp"

#include <chrono>
#include <cstdint>
#include <deque>

namespace netlib::l2 {

class transmit_guard {
 public:
  explicit transmit_guard(duration window = std::chrono::seconds(2), std::size_t capacity = 4096)
      : window_(window), capacity_(capacity) {}

  // Records a frame sent out of `port` at `now`.
  void sent(port_id port, byte_view frame, time_point now);
  // True (and forgotten) when `frame`, captured on `port` at `now`, is one we sent there within
  // the window: our own transmission.
  bool is_own(port_id port, byte_view frame, time_point now);
  [[nodiscard]] std::size_t pending() const noexcept { return sent_.size(); }

 private:
  struct record {
    port_id port;
    std::uint64_t hash;
    std::size_t size;
    time_point at;
  };
  void forget_before(time_point t);

  duration window_;
  std::size_t capacity_;
  std::deque<record> sent_;  // oldest first
};

// 64-bit FNV-1a of the bytes (not cryptographic: telling our own frames apart only).
std::uint64_t fnv1a64(byte_view bytes) noexcept;

}  // namespace netlib::l2
