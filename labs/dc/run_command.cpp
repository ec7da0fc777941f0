// lab-dc run: the fabric built for real in network namespaces (netns_fabric), flows from real
// sockets, per-link bytes read from the interfaces, beside the model's prediction for the same
// flows (netlib::dc with Linux's own hash). Two steps when the kernel has
// net.ipv4.fib_multipath_hash_seed: one seed in every switch namespace, then a seed per switch,
// which shows polarization on the real kernel. Everything it creates is removed on exit and on
// Ctrl-C.
#include <unistd.h>

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "live_traffic.hpp"
#include "netlib/app/netns.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"
#include "netlib/core/units.hpp"
#include "netlib/dc/loads.hpp"
#include "netlib/dc/routes.hpp"
#include "netns_fabric.hpp"
#include "options.hpp"
#include "report.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

using netlib::catch_stop_signals;  // SIGINT/SIGTERM: the step finishes, the namespaces go
using netlib::app::check_interrupted;

struct run_flags {
  fabric_flags fabric;
  flow_flags flows;
  std::string policy = "l4";
  std::uint32_t hash_seed = 1;
  double payload = 1000;
  double tolerance = -1;
  double deadline = 30;
  bool json = false, verbose = false, one_step = false;
};

struct phase_result {
  std::string name;
  dc::seed_mode seeds;
  traffic_result traffic;
  std::vector<double> predicted;  // per arc
  arc_counters counters;          // deltas
  std::vector<double> measured;   // per arc, tx at the sending end
  dc::load_summary model, real;
  std::size_t exact = 0, ends_agree = 0;
  double mlu_error = 0;
  bool within = false;
};

phase_result run_phase(const run_flags& f, const dc::topology& t, const dc::routes& r, netns_fabric& fabric,
                       const std::vector<dc::flow>& flows, dc::seed_mode seeds, double tolerance) {
  phase_result p;
  p.seeds = seeds;
  dc::hash_config cfg;
  cfg.algorithm = dc::hash_algorithm::linux_hash;
  cfg.fields = f.policy == "l3" ? dc::field_set::two : dc::field_set::five;
  cfg.seeds = seeds;
  cfg.seed = f.hash_seed;
  const dc::ecmp_model model(t, r, cfg);
  std::vector<std::uint32_t> kernel_seeds(t.nodes().size());
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) kernel_seeds[v] = model.seed_of(v);
  fabric.set_seeds(kernel_seeds);
  p.name = seeds == dc::seed_mode::same ? fmt::format("the same seed ({}) in every switch", f.hash_seed)
                                        : fmt::format("a seed per switch (drawn from {})", f.hash_seed);
  const auto before = fabric.read_counters();
  check_interrupted();
  p.traffic = f.flows.protocol == "udp"
                  ? send_udp(fabric, flows, static_cast<std::size_t>(f.payload), f.deadline)
                  : send_tcp(fabric, flows, f.deadline);
  check_interrupted();
  const auto after = fabric.read_counters();
  // The model's prediction for the same flows, with the bytes they put on the wire.
  std::vector<dc::flow> sent = flows;
  for (std::size_t i = 0; i < sent.size(); ++i) sent[i].bytes = p.traffic.wire_bytes[i];
  const auto placed = dc::place_flows(model, sent, false);
  p.predicted = placed.arc_bytes;
  p.counters.tx_bytes.resize(t.arc_count());
  p.counters.rx_bytes.resize(t.arc_count());
  p.counters.tx_packets.resize(t.arc_count());
  p.measured.resize(t.arc_count());
  for (dc::arc_id a = 0; a < t.arc_count(); ++a) {
    p.counters.tx_bytes[a] = after.tx_bytes[a] - before.tx_bytes[a];
    p.counters.rx_bytes[a] = after.rx_bytes[a] - before.rx_bytes[a];
    p.counters.tx_packets[a] = after.tx_packets[a] - before.tx_packets[a];
    p.measured[a] = static_cast<double>(p.counters.tx_bytes[a]);
    p.exact += p.measured[a] == p.predicted[a];
    p.ends_agree += p.counters.tx_bytes[a] == p.counters.rx_bytes[a];
  }
  const double window = std::max(p.traffic.duration_s, 1e-6);
  p.model = dc::summarize_loads(t, p.predicted, window);
  p.real = dc::summarize_loads(t, p.measured, window);
  p.mlu_error = p.real.mlu > 0 ? (p.model.mlu - p.real.mlu) / p.real.mlu : (p.model.mlu > 0 ? 1.0 : 0.0);
  p.within = std::abs(p.mlu_error) <= tolerance;
  return p;
}

std::string fmt_bytes(double b) { return fmt::format("{:.0f}", b); }

void print_phase(const dc::topology& t, const phase_result& p, double tolerance, int number, const std::string& protocol) {
  std::cout << fmt::format("step {}: {}\n", number, p.name);
  if (protocol == "udp") {
    std::cout << fmt::format("  {} datagrams sent, {} received, in {}\n", p.traffic.datagrams_sent,
                             p.traffic.datagrams_received, netlib::units::format_seconds(p.traffic.duration_s));
  } else {
    std::uint64_t sent = 0, got = 0;
    for (auto v : p.traffic.payload_sent) sent += v;
    for (auto v : p.traffic.payload_received) got += v;
    std::cout << fmt::format("  {} sent, {} received, in {}\n", netlib::units::format_bytes(static_cast<double>(sent)),
                             netlib::units::format_bytes(static_cast<double>(got)),
                             netlib::units::format_seconds(p.traffic.duration_s));
  }
  std::cout << fmt::format("  {:<24} {:>12} {:>12}   {:>12} {:>12}\n", "link (a -- b)", "a->b model", "measured",
                           "b->a model", "measured");
  for (int tier = 0; tier <= t.max_tier(); ++tier) {
    for (dc::link_id l = 0; l < t.links().size(); ++l) {
      const auto& k = t.links()[l];
      if (std::min(t.nodes()[k.a].tier, t.nodes()[k.b].tier) != tier) continue;
      const auto mark = [&](dc::arc_id a) { return p.predicted[a] == p.measured[a] ? " " : "*"; };
      std::cout << fmt::format("  {:<24} {:>12} {:>12}{}  {:>12} {:>12}{}\n", t.nodes()[k.a].name + " -- " + t.nodes()[k.b].name,
                               fmt_bytes(p.predicted[2 * l]), fmt_bytes(p.measured[2 * l]), mark(2 * l),
                               fmt_bytes(p.predicted[2 * l + 1]), fmt_bytes(p.measured[2 * l + 1]), mark(2 * l + 1));
    }
  }
  std::cout << fmt::format("  bytes: {} of {} link directions exactly as the model predicted (* where not); the sending "
                           "end's tx equals the receiving end's rx on {} of {}\n",
                           p.exact, t.arc_count(), p.ends_agree, t.arc_count());
  std::cout << fmt::format("  MLU over {}: model {:.2f}%, measured {:.2f}% (error {:+.2f}%, tolerance ±{:g}%: {})\n",
                           netlib::units::format_seconds(p.real.window_s), 100 * p.model.mlu, 100 * p.real.mlu,
                           100 * p.mlu_error, 100 * tolerance, p.within ? "within" : "NOT within");
  for (std::size_t i = 1; i < p.real.tiers.size(); ++i) {
    const auto& m = p.real.tiers[i];
    const auto& pm = p.model.tiers[i];
    if (m.uplinks == 0) continue;
    std::cout << fmt::format("  {} -> {} uplinks: {} of {} unused, Jain {:.3f} measured; model {} unused, Jain {:.3f}\n",
                             role_name(t, m.tier), role_name(t, m.tier + 1), m.unused_uplinks, m.uplinks, m.uplink_jain,
                             pm.unused_uplinks, pm.uplink_jain);
  }
  if (!p.traffic.complete) std::cout << "  note: not everything sent arrived before the deadline\n";
  std::cout << '\n';
}

nlohmann::json phase_json(const dc::topology& t, const netns_fabric& fabric, const phase_result& p, double tolerance) {
  auto links = nlohmann::json::array();
  for (dc::link_id l = 0; l < t.links().size(); ++l) {
    const auto dir = [&](dc::arc_id a) {
      return nlohmann::json{{"predicted_bytes", p.predicted[a]},
                            {"measured_bytes", p.counters.tx_bytes[a]},
                            {"received_bytes", p.counters.rx_bytes[a]},
                            {"packets", p.counters.tx_packets[a]},
                            {"interface", fabric.ns(t.arc_from(a)) + ":" + fabric.ifname(a)}};
    };
    const auto& k = t.links()[l];
    links.push_back({{"a", t.nodes()[k.a].name},
                     {"b", t.nodes()[k.b].name},
                     {"tier", std::min(t.nodes()[k.a].tier, t.nodes()[k.b].tier)},
                     {"capacity_bps", k.capacity_bps},
                     {"a_to_b", dir(2 * l)},
                     {"b_to_a", dir(2 * l + 1)}});
  }
  std::uint64_t sent = 0, got = 0;
  for (auto v : p.traffic.payload_sent) sent += v;
  for (auto v : p.traffic.payload_received) got += v;
  return {{"name", p.name},
          {"seeds", p.seeds == dc::seed_mode::same ? "same" : "per-switch"},
          {"duration_s", p.traffic.duration_s},
          {"complete", p.traffic.complete},
          {"datagrams_sent", p.traffic.datagrams_sent},
          {"datagrams_received", p.traffic.datagrams_received},
          {"payload_sent", sent},
          {"payload_received", got},
          {"exact_link_directions", p.exact},
          {"link_directions", t.arc_count()},
          {"ends_agree", p.ends_agree},
          {"model_mlu", p.model.mlu},
          {"measured_mlu", p.real.mlu},
          {"mlu_error", p.mlu_error},
          {"tolerance", tolerance},
          {"within_tolerance", p.within},
          {"model_tiers", tiers_json(t, p.model)},
          {"measured_tiers", tiers_json(t, p.real)},
          {"links", links}};
}

int run(const run_flags& f) {
  if (geteuid() != 0) {
    throw netlib::app::failure("lab-dc run needs root to create network namespaces (ip netns): run it with sudo");
  }
  if (f.hash_seed == 0) {
    throw netlib::app::usage_error("--hash-seed 0 tells Linux to use its random boot seed; use 1 to 4294967295");
  }
  const auto t = load_topology(f.fabric);
  if (t.hosts().size() < 2) throw netlib::app::usage_error("--topology: needs at least two hosts");
  if (t.nodes().size() > 400) {
    throw netlib::app::usage_error(fmt::format("--topology: {} nodes; lab-dc run builds at most 400 namespaces", t.nodes().size()));
  }
  if (f.flows.flows > 4000) throw netlib::app::usage_error("--flows: lab-dc run sends at most 4000 flows");
  if (f.flows.size > 100e6) throw netlib::app::usage_error("--size: at most 100MB per flow in lab-dc run");
  const double tolerance = f.tolerance >= 0 ? f.tolerance : (f.flows.protocol == "udp" ? 0.01 : 0.15);
  auto flows = make_flows(t, f.flows, true);
  catch_stop_signals();
  netlib::app::netns_set::remove_stale(f.verbose);
  const dc::routes r(t);
  auto built = std::make_unique<netns_fabric>(t, r, f.policy == "l3" ? 0 : 1, f.verbose);
  auto& fabric = *built;
  check_interrupted();
  const std::string kernel = fabric.has_seed_sysctl()
                                 ? "net.ipv4.fib_multipath_hash_seed is available"
                                 : "this kernel has no net.ipv4.fib_multipath_hash_seed (Linux 6.11 and later have it): "
                                   "every namespace hashes with one random boot seed, which the model cannot know; "
                                   "the per-switch step is skipped";
  const std::string sockets = f.flows.protocol == "udp"
                                  ? fmt::format("UDP datagrams of {} B from unconnected sockets", f.payload)
                                  : "TCP connections (each socket carries its own random flow hash, which the L4 "
                                    "policy uses instead of the 5-tuple)";
  if (!f.json) {
    // The header first, so that it shows while the traffic runs.
    std::cout << fmt::format("fabric:  {}: {} namespaces ({}*), one veth pair per link\n", t.description(),
                             fabric.namespaces(), netlib::app::netns_set::own_prefix());
    std::cout << fmt::format("traffic: {}, {}\n", flows.source, sockets);
    std::cout << fmt::format("kernel:  fib_multipath_hash_policy {} ({}); {}\n", f.policy == "l3" ? 0 : 1,
                             f.policy == "l3" ? "L3: addresses" : "L4: 5-tuple", kernel);
    std::cout << "model:   linux hash (SipHash keyed by each switch's seed), hash-threshold next hop; bytes are frames "
                 "(Ethernet + IP + UDP/TCP headers)\n\n";
    std::cout.flush();
  }
  std::vector<phase_result> phases;
  phases.push_back(run_phase(f, t, r, fabric, flows.flows, dc::seed_mode::same, tolerance));
  if (fabric.has_seed_sysctl() && !f.one_step) {
    phases.push_back(run_phase(f, t, r, fabric, flows.flows, dc::seed_mode::per_switch, tolerance));
  }
  if (f.json) {
    auto list = nlohmann::json::array();
    for (const auto& p : phases) list.push_back(phase_json(t, fabric, p, tolerance));
    netlib::app::print_json({{"topology", topology_json(t)},
                             {"namespaces", fabric.namespaces()},
                             {"flows", {{"source", flows.source}, {"count", flows.flows.size()}}},
                             {"protocol", f.flows.protocol},
                             {"policy", f.policy},
                             {"hash_seed", f.hash_seed},
                             {"seed_sysctl", fabric.has_seed_sysctl()},
                             {"phases", list}});
    return netlib::app::exit_ok;
  }
  for (std::size_t i = 0; i < phases.size(); ++i) print_phase(t, phases[i], tolerance, static_cast<int>(i + 1), f.flows.protocol);
  std::cout.flush();
  built.reset();
  std::cout << "namespaces removed\n";
  std::cout.flush();
  return netlib::app::exit_ok;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto f = std::make_shared<run_flags>();
  auto* cmd = netlib::app::add_command(
      app, "run",
      "As root: build the fabric in network namespaces (veth links, Linux multipath routes), send real flows, and "
      "show the bytes each link counted beside the model's prediction; one seed everywhere, then a seed per switch",
      "sudo lab-dc run --topology fat-tree:4x1 --flows 64 --protocol udp");
  add_fabric_flags(*cmd, f->fabric, "leaf-spine:2x2");
  f->flows.flows = 64;
  f->flows.size = 65536;
  f->flows.protocol = "udp";
  add_flow_flags(*cmd, f->flows, false);
  cmd->add_option("--policy", f->policy, "Linux's multipath hash policy in the switches: l4 (5-tuple) or l3 (addresses)")
      ->capture_default_str()
      ->check(CLI::IsMember({"l3", "l4"}));
  cmd->add_option("--hash-seed", f->hash_seed, "net.ipv4.fib_multipath_hash_seed in step 1; step 2 draws one per switch from it")
      ->capture_default_str();
  netlib::app::add_quantity(*cmd, "--payload", f->payload, netlib::units::parse_bytes, "UDP payload per datagram (default 1000B)");
  netlib::app::add_quantity(*cmd, "--tolerance", f->tolerance, netlib::units::parse_fraction,
                            "Allowed MLU error, model against measured (default 1% for UDP, 15% for TCP)");
  netlib::app::add_quantity(*cmd, "--deadline", f->deadline, netlib::units::parse_duration_s,
                            "Longest time each step may send and wait (default 30s)");
  cmd->add_flag("--one-step", f->one_step, "Only the same-seed step");
  cmd->add_flag("--verbose", f->verbose, "Print each ip command on stderr");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] {
    if (f->payload < 18 || f->payload > 1472) throw netlib::app::usage_error("--payload must be 18B to 1472B (one frame)");
    if (f->deadline <= 0 || f->deadline > 600) throw netlib::app::usage_error("--deadline must be above 0 and at most 10min");
    return run(*f);
  });
}

}  // namespace netlab::lab_dc
