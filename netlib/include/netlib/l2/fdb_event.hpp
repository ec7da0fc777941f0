#pragma once
// Changes to the filtering database (IEEE 802.1D-2004 §7.9), reported by the table as they happen.
#include "netlib/l2/frame_header.hpp"
#include "netlib/l2/switch_config.hpp"

#include <string_view>
#include <variant>

namespace netlib::l2 {

struct learned {  // a new dynamic entry
  mac_address mac;
  vlan_id vlan = 0;
  port_id port = 0;
};
struct moved {  // a station seen on another port: its entry now points there
  mac_address mac;
  vlan_id vlan = 0;
  port_id from = 0;
  port_id to = 0;
};
struct aged {  // not seen for the aging time: removed
  mac_address mac;
  vlan_id vlan = 0;
  port_id port = 0;
};
struct evicted {  // removed to make room under the evict-fair policy
  mac_address mac;
  vlan_id vlan = 0;
  port_id port = 0;
};
struct flushed {  // removed because its port went down
  mac_address mac;
  vlan_id vlan = 0;
  port_id port = 0;
};
struct learn_refused {  // not learned: the table is full and the policy is stop-learning
  mac_address mac;
  vlan_id vlan = 0;
  port_id port = 0;
};

using fdb_event = std::variant<learned, moved, aged, evicted, flushed, learn_refused>;

// "learn", "move", "age", "evict", "flush", "refuse".
std::string_view event_name(const fdb_event& e) noexcept;

}  // namespace netlib::l2
