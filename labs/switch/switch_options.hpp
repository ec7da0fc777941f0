#pragma once
// Switch options shared by `lab-switch replay` and `lab-switch run`: aging, capacity, policy,
// static entries, VLAN configuration, hairpin ports.
#include "netlib/l2/learning_switch.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace netlab::lab_switch {

struct switch_options {
  std::string aging = "300s";
  std::size_t capacity = 2048;
  std::string policy = "evict-fair";
  std::vector<std::string> statics;  // MAC=PORT[@VLAN]
  std::string vlan_config_file;
  std::vector<unsigned> hairpin;
};

void add_switch_options(CLI::App& cmd, switch_options& opts);

// The switch described by the options, with `port_count` ports (at least as many as the VLAN
// configuration, static entries and hairpin flags name). Throws netlib::app::usage_error.
netlib::l2::learning_switch make_switch(const switch_options& opts, std::size_t port_count);

// The number of ports the options themselves refer to (highest port named + 1, or 0).
std::size_t ports_named(const switch_options& opts);

}  // namespace netlab::lab_switch
