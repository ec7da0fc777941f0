// Theory of operation: flags are parsed into plain structs; the make_ functions turn them into
// the core's values, and anything the core rejects (std::invalid_argument, topology_error) is
// re-thrown as a usage error naming the flag, so every mistake is one line and exit 2.
#include "options.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "netlib/app/program.hpp"
#include "netlib/capture/conversations.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_dc {

using netlib::app::usage_error;
namespace dc = netlib::dc;

void add_fabric_flags(CLI::App& cmd, fabric_flags& f, const std::string& default_topology) {
  f.topology = default_topology;
  cmd.add_option("--topology", f.topology,
                 "leaf-spine:LxS[xH] (L leaves, S spines, H hosts per leaf, default S), fat-tree:K[xH] (even K, H "
                 "hosts per edge switch, default K/2), or a topology file (see lab-dc topology) [default: " +
                     default_topology + "]");
  netlib::app::add_quantity(cmd, "--host-rate", f.host_rate, netlib::units::parse_rate_bps,
                            "Rate of host links in the built-in shapes (default 10Gbps)");
  netlib::app::add_quantity(cmd, "--fabric-rate", f.fabric_rate, netlib::units::parse_rate_bps,
                            "Rate of switch-to-switch links in the built-in shapes (default 10Gbps)");
}

dc::topology load_topology(const fabric_flags& f) {
  try {
    if (auto shape = dc::parse_shape(f.topology, {.host_bps = f.host_rate, .fabric_bps = f.fabric_rate})) {
      return std::move(*shape);
    }
  } catch (const dc::topology_error& e) {
    throw usage_error(fmt::format("--topology {}: {}", f.topology, e.what()));
  }
  std::ifstream in(f.topology, std::ios::binary);
  if (!in) {
    throw usage_error(fmt::format("--topology {}: no such file, and not leaf-spine:LxS or fat-tree:K", f.topology));
  }
  std::string text;
  const std::size_t max = dc::topology_limits{}.max_text;
  text.resize(max + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  try {
    return dc::parse_topology(text);
  } catch (const dc::topology_error& e) {
    throw usage_error(fmt::format("{}: {}", f.topology, e.what()));
  }
}

void add_flow_flags(CLI::App& cmd, flow_flags& f, bool with_capture) {
  cmd.add_option("--pattern", f.pattern, "uniform, permutation, incast, all-to-all or ring (ring all-reduce)")
      ->capture_default_str();
  cmd.add_option("--flows", f.flows, "Number of flows (uniform, permutation, incast)")->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{50'000'000}));
  cmd.add_option("--hosts", f.hosts, "Hosts taking part (the first N; default every host)");
  netlib::app::add_quantity(cmd, "--size", f.size, netlib::units::parse_bytes,
                            "Bytes per flow, or the mean with --pareto; for ring, the buffer reduced (default 10MB)");
  cmd.add_option("--pareto", f.pareto, "Heavy-tailed sizes: Pareto with this shape (above 1, e.g. 1.2)");
  netlib::app::add_quantity(cmd, "--window", f.window, netlib::units::parse_duration_s,
                            "Time over which the flows' bytes are sent, for utilisation (default 1s)");
  cmd.add_option("--traffic-seed", f.seed, "Seed of the generated flows")->capture_default_str();
  cmd.add_option("--protocol", f.protocol, "tcp or udp, for generated flows")->capture_default_str()
      ->check(CLI::IsMember({"tcp", "udp"}));
  if (with_capture) {
    cmd.add_option("--capture", f.capture,
                   "Take the flows from a pcap/pcapng file: every TCP and UDP conversation, one flow per direction "
                   "with its frame bytes; the k-th address goes on host k mod H")
        ->check(netlib::app::input_file());
  }
}

flow_set make_flows(const dc::topology& t, const flow_flags& f, bool unique_ports) {
  flow_set out;
  if (!f.capture.empty()) {
    std::vector<netlib::capture::conversation_counts> convs;
    netlib::capture::conversation_list_stats st;
    try {
      auto reader = netlib::capture::capture_reader::open(f.capture);
      convs = netlib::capture::list_conversations(reader, &st);
    } catch (const netlib::capture::capture_error& e) {
      throw netlib::app::failure(e.what());
    }
    std::vector<dc::conversation_flow> cf;
    double last = 0;
    for (const auto& c : convs) {
      dc::conversation_flow x;
      x.key = {c.a.address, c.b.address, c.protocol, c.a.port, c.b.port};
      x.bytes_ab = static_cast<double>(c.bytes_ab);
      x.bytes_ba = static_cast<double>(c.bytes_ba);
      x.start_s = netlib::to_seconds(c.first_ts - st.first_ts);
      last = std::max(last, netlib::to_seconds(c.last_ts - st.first_ts));
      cf.push_back(x);
    }
    if (t.hosts().empty()) throw usage_error("--capture: the fabric has no hosts");
    auto placed = dc::flows_from_conversations(t, cf);
    out.flows = std::move(placed.flows);
    out.placed = std::move(placed.placed_addresses);
    out.capture_decode_errors = st.decode_errors;
    out.conversations = std::move(convs);
    out.capture_start = st.first_ts;
    // The capture's own duration, unless it is too short to mean anything.
    out.window_s = last > 1e-3 ? last : f.window;
    out.source = fmt::format("capture {}: {} TCP/UDP conversations, {} flows, {} addresses on {} hosts", f.capture,
                             out.conversations.size(), out.flows.size(), out.placed.size(), t.hosts().size());
    return out;
  }
  dc::traffic_config c;
  if (!dc::parse_pattern(f.pattern, c.pattern)) {
    throw usage_error(fmt::format("--pattern {}: use uniform, permutation, incast, all-to-all or ring", f.pattern));
  }
  c.flows = f.flows;
  c.hosts = f.hosts;
  c.size_bytes = f.size;
  c.pareto_alpha = f.pareto;
  c.window_s = f.window;
  c.seed = f.seed;
  c.protocol = f.protocol == "udp" ? 17 : 6;
  c.unique_ports = unique_ports;
  try {
    out.flows = dc::generate_flows(t, c);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  out.window_s = f.window;
  double total = 0;
  for (const auto& fl : out.flows) total += fl.bytes;
  out.source = fmt::format("{} {} {} flows, {} in all{}", out.flows.size(), f.pattern, f.protocol == "udp" ? "UDP" : "TCP",
                           netlib::units::format_bytes(total),
                           f.pareto > 0 ? fmt::format(" (Pareto sizes, shape {}, mean {})", f.pareto,
                                                      netlib::units::format_bytes(f.size))
                                        : "");
  return out;
}

void add_hash_flags(CLI::App& cmd, hash_flags& h, bool with_seed_mode) {
  cmd.add_option("--hash", h.hash,
                 "crc16 (CCITT), crc32, xor (16-bit fold), toeplitz (RSS), linux (the kernel's SipHash flow hash), or "
                 "Linux's policy presets l3 (addresses) and l4 (5-tuple)")
      ->capture_default_str()
      ->check(CLI::IsMember({"crc16", "crc32", "xor", "toeplitz", "linux", "l3", "l4"}));
  cmd.add_option("--fields", h.fields, "Fields hashed: 2 (addresses), 3 (+protocol), 4 (+ports, RSS order), 5 (all)")
      ->check(CLI::IsMember({"2", "3", "4", "5", "2-tuple", "3-tuple", "4-tuple", "5-tuple"}));
  if (with_seed_mode) {
    cmd.add_option("--seed", h.seed, "same: one seed on every switch; per-switch: each switch its own")
        ->capture_default_str()
        ->check(CLI::IsMember({"same", "per-switch"}));
  }
  cmd.add_option("--hash-seed", h.hash_seed, "The seed (per-switch seeds are drawn from it)")->capture_default_str();
}

dc::hash_config make_hash(const hash_flags& h) {
  auto c = dc::parse_hash(h.hash);
  if (!c) throw usage_error("--hash " + h.hash + ": unknown");
  if (!h.fields.empty()) c->fields = *dc::parse_fields(h.fields);
  c->seeds = h.seed == "per-switch" ? dc::seed_mode::per_switch : dc::seed_mode::same;
  c->seed = h.hash_seed;
  return *c;
}

std::string describe(const dc::hash_config& c) {
  return fmt::format("{} over the {}, {}, next hop = {}", dc::hash_name(c.algorithm), dc::fields_name(c.fields),
                     c.seeds == dc::seed_mode::same ? fmt::format("the same seed ({}) on every switch", c.seed)
                                                    : fmt::format("a seed per switch (drawn from {})", c.seed),
                     c.algorithm == dc::hash_algorithm::linux_hash ? "hash-threshold (Linux)" : "hash mod n");
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) throw netlib::app::failure("cannot write " + path);
}

}  // namespace netlab::lab_dc
