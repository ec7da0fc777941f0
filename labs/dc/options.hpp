#pragma once
// The flags lab-dc's subcommands share: the fabric (--topology and link rates), the flows
// (generated, or --capture), and the hash (--hash, --fields, --seed same|per-switch, --hash-seed).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "netlib/app/input_file.hpp"
#include "netlib/capture/conversations.hpp"
#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/topology.hpp"
#include "netlib/dc/traffic.hpp"

namespace netlab::lab_dc {

struct fabric_flags {
  std::string topology = "leaf-spine:4x2";
  double host_rate = 10e9;
  double fabric_rate = 10e9;
};
void add_fabric_flags(CLI::App& cmd, fabric_flags& f, const std::string& default_topology);
// The built-in shape or the file; a bad spec or file is a usage error naming it.
netlib::dc::topology load_topology(const fabric_flags& f);

struct flow_flags {
  std::string pattern = "uniform";
  std::size_t flows = 200;
  std::size_t hosts = 0;
  double size = 10e6;
  double pareto = 0;
  double window = 1;
  std::uint64_t seed = 1;
  std::string protocol = "tcp";
  std::string capture;
};
void add_flow_flags(CLI::App& cmd, flow_flags& f, bool with_capture);

// Flows and the time window their bytes are spread over (the capture's duration, or --window).
struct flow_set {
  std::vector<netlib::dc::flow> flows;
  double window_s = 1;
  std::string source;  // "200 uniform flows of 1 MB", "capture x.pcapng: 12 conversations"
  std::vector<std::pair<netlib::packet::ip_address, netlib::dc::node_id>> placed;  // capture addresses
  std::uint64_t capture_decode_errors = 0;
  std::vector<netlib::capture::conversation_counts> conversations;  // from --capture
  netlib::time_point capture_start{};
};
flow_set make_flows(const netlib::dc::topology& t, const flow_flags& f, bool unique_ports = false);

struct hash_flags {
  std::string hash = "crc16";
  std::string fields;  // empty: the hash's default (5-tuple; l3: 2-tuple)
  std::string seed = "same";
  std::uint32_t hash_seed = 0;
  std::string group;  // empty: the hash's own (threshold for linux/l3/l4, modulo for the others)
  std::size_t buckets = 128;
  bool wcmp = false;
};
void add_hash_flags(CLI::App& cmd, hash_flags& h, bool with_seed_mode = true);
// --group modulo|threshold|resilient, --buckets, --wcmp (the next-hop groups' hashing and weights).
void add_group_flags(CLI::App& cmd, hash_flags& h);
netlib::dc::hash_config make_hash(const hash_flags& h);
// "crc16 over the 5-tuple, one seed (0) on every switch, next hop = hash mod n"
std::string describe(const netlib::dc::hash_config& c);
// "hash mod n", "hash-threshold (Linux)", "a resilient group's bucket (...)", with WCMP's weights.
std::string next_hop_text(const netlib::dc::hash_config& c);

// Whether this process runs with rights its user may not have (root, sudo, set-user-ID): then
// errors about a file it reads show no word of it.
bool privileged();
// Input files: netlib/app/input_file.hpp (a folder, a device or a socket is never read).
using netlib::app::check_input_path;
using netlib::app::read_input_file;

// The links named by --fail (netlib::dc::parse_link_name), each a link between two switches; a
// bad name is a usage error naming it.
std::vector<netlib::dc::link_id> failed_links(const netlib::dc::topology& t, const std::vector<std::string>& names);

// --fail for the commands that see the fabric only after the failure (polarize, te, collective).
void add_fail_flag(CLI::App& cmd, std::vector<std::string>& names);
// The fabric without the links named by --fail (the fabric itself when none).
netlib::dc::topology after_failure(netlib::dc::topology t, const std::vector<std::string>& names);

// Writes a whole file (an SVG, matrices); failure names the file.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace netlab::lab_dc
