#include "switch_options.hpp"

#include "netlib/app/input_file.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"
#include "netlib/l2/vlan_config.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace netlab::lab_switch {

using netlib::app::usage_error;
namespace l2 = netlib::l2;

void add_switch_options(CLI::App& cmd, switch_options& opts) {
  cmd.add_option("--aging", opts.aging,
                 "Aging time of learned entries, e.g. 300s, 5min (a bare number is seconds); 0 = never")
      ->capture_default_str();
  cmd.add_option("--capacity", opts.capacity, "Most learned (dynamic) entries, all VLANs together")
      ->capture_default_str();
  cmd.add_option("--policy", opts.policy, "When the table is full: evict-fair or stop-learning")
      ->check(CLI::IsMember({"evict-fair", "stop-learning"}))
      ->capture_default_str();
  cmd.add_option("--static", opts.statics, "Static entry MAC=PORT or MAC=PORT@VLAN (repeatable)");
  cmd.add_option("--vlan-config", opts.vlan_config_file,
                 "VLAN configuration file (makes the switch VLAN-aware), lines like 'port 0 access 10', "
                 "'port 3 trunk 10,20 native 30'")
      ->check(netlib::app::input_file());
  cmd.add_option("--hairpin", opts.hairpin, "Port that may send a frame back out of its ingress (repeatable)");
}

namespace {

// Durations as every netlab flag takes them (netlib::units): 300s, 5min, 0; a bare number is seconds.
netlib::duration parse_aging(const std::string& text) {
  double seconds = 0;
  try {
    seconds = netlib::units::parse_duration_s(text);
  } catch (const netlib::units::unit_error& e) {
    throw usage_error(fmt::format("--aging: {}", e.what()));
  }
  if (seconds > 1e9) throw usage_error("--aging: at most 1e9s (about 31 years); 0 means never");
  return std::chrono::duration_cast<netlib::duration>(std::chrono::duration<double>(seconds));
}

std::map<l2::port_id, l2::port_config> read_vlan_config(const std::string& path) {
  // A VLAN table is a few lines a port; 1 MiB is thousands of ports.
  const auto text = netlib::app::read_input_file("--vlan-config", path, 1 << 20);
  auto parsed = l2::parse_vlan_config(text);
  if (auto* e = std::get_if<l2::vlan_config_error>(&parsed)) throw usage_error(fmt::format("{}: {}", path, e->message));
  return std::get<std::map<l2::port_id, l2::port_config>>(parsed);
}

struct static_entry {
  l2::mac_address mac;
  l2::port_id port = 0;
  std::optional<l2::vlan_id> vlan;
};

static_entry parse_static(const std::string& text) {
  const auto eq = text.find('=');
  const auto bad = [&] { return usage_error(fmt::format("--static '{}': expected MAC=PORT or MAC=PORT@VLAN", text)); };
  if (eq == std::string::npos) throw bad();
  auto mac = l2::mac_address::parse(text.substr(0, eq));
  if (!mac) throw bad();
  std::string rest = text.substr(eq + 1);
  static_entry e{*mac, 0, std::nullopt};
  const auto at = rest.find('@');
  unsigned port = 0;
  unsigned vlan = 0;
  const std::string port_text = rest.substr(0, at);
  auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc{} || p != port_text.data() + port_text.size() || port > 4095) throw bad();
  e.port = static_cast<l2::port_id>(port);
  if (at != std::string::npos) {
    const std::string vlan_text = rest.substr(at + 1);
    auto [q, ec2] = std::from_chars(vlan_text.data(), vlan_text.data() + vlan_text.size(), vlan);
    if (ec2 != std::errc{} || q != vlan_text.data() + vlan_text.size() || vlan < 1 || vlan > 4094) throw bad();
    e.vlan = static_cast<l2::vlan_id>(vlan);
  }
  return e;
}

}  // namespace

std::size_t ports_named(const switch_options& opts) {
  std::size_t n = 0;
  for (const auto& s : opts.statics) n = std::max<std::size_t>(n, parse_static(s).port + 1U);
  for (auto h : opts.hairpin) n = std::max<std::size_t>(n, h + 1U);
  if (!opts.vlan_config_file.empty()) {
    for (const auto& [port, pc] : read_vlan_config(opts.vlan_config_file)) n = std::max<std::size_t>(n, port + 1U);
  }
  return n;
}

l2::learning_switch make_switch(const switch_options& opts, std::size_t port_count) {
  l2::switch_config config;
  config.port_count = std::max(port_count, ports_named(opts));
  config.aging = parse_aging(opts.aging);
  config.capacity = opts.capacity;
  config.policy = *l2::parse_full_table_policy(opts.policy);
  config.vlan_aware = !opts.vlan_config_file.empty();
  std::vector<l2::port_config> ports(config.port_count);
  if (config.vlan_aware) {
    for (const auto& [port, pc] : read_vlan_config(opts.vlan_config_file)) ports[port] = pc;
  }
  for (auto h : opts.hairpin) ports[h].hairpin = true;
  l2::learning_switch sw(config, ports);
  for (const auto& text : opts.statics) {
    const auto e = parse_static(text);
    l2::vlan_id vlan = 0;
    if (config.vlan_aware) {
      const auto& pc = ports[e.port];
      vlan = e.vlan.value_or(pc.mode == l2::port_mode::access ? pc.pvid : pc.native.value_or(1));
    }
    sw.add_static(e.mac, vlan, e.port);
  }
  return sw;
}

}  // namespace netlab::lab_switch
