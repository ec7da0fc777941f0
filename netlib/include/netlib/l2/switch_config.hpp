#pragma once
// Configuration of a learning switch and its ports (IEEE 802.1D-2004 §7, IEEE 802.1Q-2018 §8.6).
#include "netlib/core/clock.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string_view>

namespace netlib::l2 {

using port_id = std::uint16_t;
using vlan_id = std::uint16_t;

// What the table does when a new address arrives and it is full.
enum class full_table_policy {
  evict_fair,     // evict the oldest entry of the port holding the most entries
  stop_learning,  // keep the table as it is; the new address is not learned
};
std::string_view to_string(full_table_policy p) noexcept;
std::optional<full_table_policy> parse_full_table_policy(std::string_view text) noexcept;

enum class port_mode {
  access,  // one VLAN (pvid), frames leave untagged
  trunk,   // a set of VLANs, frames leave tagged (except in the native VLAN, if any)
};

// Per-port settings. VLAN fields matter only when the switch is VLAN-aware.
struct port_config {
  bool hairpin = false;  // a frame may leave by the port it came in on
  port_mode mode = port_mode::access;
  vlan_id pvid = 1;               // access: the port's VLAN
  std::set<vlan_id> allowed;      // trunk: the VLANs carried tagged
  std::optional<vlan_id> native;  // trunk: untagged frames belong to this VLAN
};

struct switch_config {
  std::size_t port_count = 0;
  duration aging = std::chrono::seconds(300);  // 0 = entries never age (IEEE 802.1D §7.9.2 default 300 s)
  std::size_t capacity = 2048;                 // dynamic entries, all VLANs together
  full_table_policy policy = full_table_policy::evict_fair;
  bool vlan_aware = false;
};

}  // namespace netlib::l2
