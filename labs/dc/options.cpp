// Theory of operation: flags are parsed into plain structs; the make_ functions turn them into
// the core's values, and anything the core rejects (std::invalid_argument, topology_error) is
// re-thrown as a usage error naming the flag, so every mistake is one line and exit 2.
#include "options.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "netlib/app/program.hpp"
#include "netlib/capture/conversations.hpp"
#include "netlib/core/ascii.hpp"
#include "netlib/core/units.hpp"
#include "netlib/dc/routes.hpp"

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

bool privileged() {
  return geteuid() == 0 || geteuid() != getuid() || getegid() != getgid();
}

dc::topology load_topology(const fabric_flags& f) {
  try {
    if (auto shape = dc::parse_shape(f.topology, {.host_bps = f.host_rate, .fabric_bps = f.fabric_rate})) {
      return std::move(*shape);
    }
  } catch (const dc::topology_error& e) {
    throw usage_error(fmt::format("--topology {}: {}", f.topology, e.what()));
  }
  const auto colon = f.topology.find(':');
  const bool spec_like = colon != std::string::npos && f.topology.find('/') == std::string::npos;
  std::string text;
  try {
    text = read_input_file("--topology", f.topology, dc::topology_limits{}.max_text);
  } catch (const usage_error& e) {
    if (spec_like && std::string(e.what()).ends_with("no such file")) {
      throw usage_error(fmt::format("--topology {}: not leaf-spine:LxS, fat-tree:K or a topology file", f.topology));
    }
    throw;
  }
  try {
    return dc::parse_topology(text);
  } catch (const dc::topology_error& e) {
    // With rights its user may not have (sudo), nothing of the file is shown: only the line and
    // the kind of mistake (issue 31: --topology /etc/shadow).
    if (privileged()) {
      throw usage_error(
          fmt::format("{}: {} (lab-dc runs as root, so it shows no word of the file)", f.topology, e.wordless()));
    }
    throw usage_error(fmt::format("{}: {}", f.topology, e.what()));
  }
}

void add_flow_flags(CLI::App& cmd, flow_flags& f, bool with_capture) {
  cmd.add_option("--pattern", f.pattern, "uniform, permutation, incast, all-to-all or ring (ring all-reduce)")
      ->capture_default_str();
  cmd.add_option("--flows", f.flows, "Number of flows (uniform, permutation, incast)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{50'000'000}));
  cmd.add_option("--hosts", f.hosts, "Hosts taking part: the first N, at least 2 (leave it out for every host)")
      ->check(CLI::Range(std::size_t{2}, std::size_t{1'000'000}));
  netlib::app::add_quantity(cmd, "--size", f.size, netlib::units::parse_bytes,
                            "Bytes per flow, or the mean with --pareto; for ring, the buffer reduced (default 10MB)");
  cmd.add_option("--pareto", f.pareto, "Heavy-tailed sizes: Pareto with this shape (above 1, e.g. 1.2)");
  netlib::app::add_quantity(cmd, "--window", f.window, netlib::units::parse_duration_s,
                            "Time over which the flows' bytes are sent, for utilisation (default 1s)");
  cmd.add_option("--traffic-seed", f.seed, "Seed of the generated flows")->capture_default_str();
  cmd.add_option("--protocol", f.protocol, "tcp or udp, for generated flows")
      ->capture_default_str()
      ->check(CLI::IsMember({"tcp", "udp"}));
  if (with_capture) {
    cmd.add_option(
           "--capture", f.capture,
           "Take the flows from a pcap/pcapng file: every TCP and UDP conversation, one flow per direction "
           "with its frame bytes; addresses are dealt out rack by rack (the first on the first leaf's first host, "
           "the second on the second leaf's, ...), so two addresses land on two leaves")
        ->check(netlib::app::input_file());
  }
}

flow_set make_flows(const dc::topology& t, const flow_flags& f, bool unique_ports) {
  flow_set out;
  if (!f.capture.empty()) {
    std::vector<netlib::capture::conversation_counts> convs;
    netlib::capture::conversation_list_stats st;
    check_input_path("--capture", f.capture);
    try {
      auto reader = netlib::capture::capture_reader::open(f.capture);
      convs = netlib::capture::list_conversations(reader, &st);
    } catch (const netlib::capture::capture_error& e) {
      // The reader's message may quote the file's first bytes (its magic number).
      if (privileged()) {
        throw netlib::app::failure(
            fmt::format("--capture {}: not a pcap or pcapng file lab-dc can read (lab-dc runs "
                        "as root, so it shows nothing of the file)",
                        f.capture));
      }
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
  out.source = fmt::format(
      "{} {} {} flows, {} in all{}", out.flows.size(), f.pattern, f.protocol == "udp" ? "UDP" : "TCP",
      netlib::units::format_bytes(total),
      f.pareto > 0 ? fmt::format(" (Pareto sizes, shape {}, mean {})", f.pareto, netlib::units::format_bytes(f.size))
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

void add_group_flags(CLI::App& cmd, hash_flags& h) {
  cmd.add_option("--group", h.group,
                 "How each switch's next-hop group maps a hash to a next hop: modulo (hash mod n), threshold "
                 "(hash-threshold, RFC 2992, Linux's multipath routes) or resilient (a table of --buckets buckets, "
                 "Linux's ip nexthop ... type resilient); default: threshold for linux, l3 and l4, modulo otherwise")
      ->check(CLI::IsMember({"modulo", "threshold", "resilient"}));
  cmd.add_option("--buckets", h.buckets, "Buckets of each resilient group (Linux's default 128)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{65535}));
  cmd.add_flag("--wcmp", h.wcmp,
               "Weighted ECMP: weigh each next hop by its link's capacity (in whole Mbit/s, divided by their common "
               "divisor, at most 256 as Linux's weights); links of equal rates weigh the same");
}

std::vector<dc::link_id> failed_links(const dc::topology& t, const std::vector<std::string>& names) {
  std::vector<dc::link_id> out;
  for (const auto& name : names) {
    const auto l = dc::parse_link_name(t, name);
    if (!l) {
      throw usage_error(
          fmt::format("--fail {}: no such link in {} (name it by its two ends as lab-dc topology lists "
                      "them, e.g. {}-{})",
                      netlib::ascii::excerpt(name), t.description(), t.nodes()[t.links().back().a].name,
                      t.nodes()[t.links().back().b].name));
    }
    const auto& k = t.links()[*l];
    if (t.is_host(k.a) || t.is_host(k.b)) {
      throw usage_error(
          fmt::format("--fail {}: a host's only link (its flows would have nowhere to go); fail a link "
                      "between two switches",
                      netlib::ascii::excerpt(name)));
    }
    if (std::find(out.begin(), out.end(), *l) != out.end()) {
      throw usage_error(fmt::format("--fail {}: named twice", netlib::ascii::excerpt(name)));
    }
    out.push_back(*l);
  }
  return out;
}

void add_fail_flag(CLI::App& cmd, std::vector<std::string>& names) {
  cmd.add_option("--fail", names,
                 "Take a link between two switches down (named by its ends, e.g. leaf1-spine2; repeatable): the fabric "
                 "without it, routed around it");
}

dc::topology after_failure(dc::topology t, const std::vector<std::string>& names) {
  if (names.empty()) return t;
  const auto failed = failed_links(t, names);
  try {
    auto out = dc::without_links(t, failed);
    // Every pair of edge switches still connected.
    const dc::routes r(out);
    for (dc::node_id a : out.edge_switches()) {
      for (dc::node_id b : out.edge_switches()) {
        if (r.distance(a, b) == dc::routes::unreachable()) {
          throw usage_error(
              fmt::format("--fail: with it down, no route from {} to {}", out.nodes()[a].name, out.nodes()[b].name));
        }
      }
    }
    return out;
  } catch (const dc::topology_error& e) {
    throw usage_error(fmt::format("--fail: with it down, {}", e.what()));
  }
}

dc::hash_config make_hash(const hash_flags& h) {
  auto c = dc::parse_hash(h.hash);
  if (!c) throw usage_error("--hash " + h.hash + ": unknown");
  if (!h.fields.empty()) {
    const auto fields = *dc::parse_fields(h.fields);
    // The presets are Linux's policies, fields included: another field set is some other hash.
    if ((h.hash == "l3" || h.hash == "l4") && fields != c->fields) {
      throw usage_error(
          fmt::format("--hash {} is Linux's {} policy, which hashes the {}; for the {} use --hash linux "
                      "--fields {}",
                      h.hash, h.hash == "l3" ? "L3" : "L4", dc::fields_name(c->fields), dc::fields_name(fields),
                      static_cast<int>(fields)));
    }
    c->fields = fields;
  }
  c->seeds = h.seed == "per-switch" ? dc::seed_mode::per_switch : dc::seed_mode::same;
  c->seed = h.hash_seed;
  if (!h.group.empty()) c->grouping = dc::parse_group_hashing(h.group);
  c->buckets = h.buckets;
  c->weighted = h.wcmp;
  return *c;
}

std::string next_hop_text(const dc::hash_config& c) {
  std::string out;
  switch (dc::grouping_of(c)) {
    case dc::group_hashing::threshold:
      out = c.algorithm == dc::hash_algorithm::linux_hash
                ? "hash-threshold (Linux)"
                : fmt::format("hash-threshold over {} bits", dc::hash_bits(c.algorithm));
      break;
    case dc::group_hashing::modulo:
      out = "hash mod n";
      break;
    case dc::group_hashing::resilient:
      out = fmt::format("a resilient group's bucket (hash mod {} buckets, Linux's type resilient)", c.buckets);
      break;
  }
  if (c.weighted) out += ", next hops weighted by link capacity (WCMP)";
  return out;
}

std::string describe(const dc::hash_config& c) {
  return fmt::format("{} over the {}, {}, next hop = {}", dc::hash_name(c.algorithm), dc::fields_name(c.fields),
                     c.seeds == dc::seed_mode::same ? fmt::format("the same seed ({}) on every switch", c.seed)
                                                    : fmt::format("a seed per switch (drawn from {})", c.seed),
                     next_hop_text(c));
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) throw netlib::app::failure("cannot write " + path);
}

}  // namespace netlab::lab_dc
