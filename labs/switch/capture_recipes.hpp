#pragma once
// The recipes of the captures in captures/switch/: each builds the frames hosts send into the
// switch's ports (one pcapng interface per port), with fixed timestamps, so the files are
// reproducible byte for byte with `lab-switch make-captures DIR`.
#include "netlib/core/clock.hpp"
#include "netlib/l2/switch_config.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace netlab::lab_switch {

struct recorded_frame {
  netlib::time_point ts;
  netlib::l2::port_id port = 0;
  std::vector<std::byte> bytes;
};

struct capture_recipe {
  std::string name;         // file stem: NAME.pcapng
  std::string description;  // one line
  std::size_t port_count = 0;
  std::vector<recorded_frame> frames;
  std::string vlan_config;  // NAME.vlan.conf when not empty
};

std::vector<capture_recipe> all_recipes();

// Writes NAME.pcapng (and NAME.vlan.conf) into `dir`; returns the paths written.
std::vector<std::string> write_recipe(const capture_recipe& r, const std::string& dir);

}  // namespace netlab::lab_switch
