#pragma once
// Counters a learning switch keeps: per port, per decision, per table event.
#include <cstdint>
#include <vector>

namespace netlib::l2 {

struct port_counters {
  std::uint64_t rx_frames = 0;
  std::uint64_t rx_bytes = 0;
  std::uint64_t tx_frames = 0;  // copies sent out of this port
  std::uint64_t tx_bytes = 0;
  std::uint64_t rx_dropped = 0;   // received here and dropped (any reason)
  std::uint64_t rx_filtered = 0;  // received here, destination on this port (step 4)
};

struct decision_counters {
  std::uint64_t forward = 0;
  std::uint64_t flood = 0;
  std::uint64_t filter = 0;
  std::uint64_t drop = 0;
  // drops by reason
  std::uint64_t drop_malformed = 0;
  std::uint64_t drop_link_local = 0;
  std::uint64_t drop_port_down = 0;
  std::uint64_t drop_vlan = 0;
  std::uint64_t drop_invalid_source = 0;  // group or all-zero source address
};

struct event_counters {
  std::uint64_t learned = 0;
  std::uint64_t moved = 0;
  std::uint64_t aged = 0;
  std::uint64_t evicted = 0;
  std::uint64_t flushed = 0;
  std::uint64_t learn_refused = 0;
};

struct switch_counters {
  std::vector<port_counters> ports;
  decision_counters decisions;
  event_counters events;
};

}  // namespace netlib::l2
