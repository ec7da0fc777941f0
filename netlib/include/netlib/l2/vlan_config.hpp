#pragma once
// The text format of a VLAN configuration, one port per line ('#' starts a comment):
//
//   port 0 access 10            # untagged port in VLAN 10
//   port 3 trunk 10,20          # tagged VLANs 10 and 20, untagged frames dropped
//   port 4 trunk 20 native 30   # tagged VLAN 20; untagged frames belong to VLAN 30
//   port 1 access 10 hairpin    # 'hairpin' may end any line
//
// VIDs are 1..4094 (IEEE 802.1Q-2018 §9.6: 0 and 4095 are reserved). Ports not listed are access
// ports in VLAN 1.
#include "netlib/l2/switch_config.hpp"

#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace netlib::l2 {

struct vlan_config_error {
  std::size_t line = 0;
  std::string message;  // "line 3: unknown mode 'trunc' (access or trunk)"
};

// Port number -> its configuration, or the first error.
std::variant<std::map<port_id, port_config>, vlan_config_error> parse_vlan_config(std::string_view text);

}  // namespace netlib::l2
