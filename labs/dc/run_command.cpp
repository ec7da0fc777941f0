// lab-dc run: the fabric built for real in network namespaces (netns_fabric), flows from real
// sockets, per-link bytes read from the interfaces, beside the model's prediction for the same
// flows (netlib::dc with Linux's own hash). Two steps when the kernel has
// net.ipv4.fib_multipath_hash_seed: one seed in every switch namespace, then a seed per switch,
// which shows polarization on the real kernel. Everything it creates is removed on exit and on
// Ctrl-C.
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>

#include "collective_run.hpp"
#include "commands.hpp"
#include "fct_report.hpp"
#include "flow_capture.hpp"
#include "link_shaping.hpp"
#include "live_traffic.hpp"
#include "netlib/app/netns.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"
#include "netlib/core/units.hpp"
#include "netlib/dc/failure.hpp"
#include "netlib/dc/fair_share.hpp"
#include "netlib/dc/loads.hpp"
#include "netlib/dc/routes.hpp"
#include "netns_fabric.hpp"
#include "options.hpp"
#include "rehash.hpp"
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
  // Real capacity (link_shaping.hpp), switches that hash headers (rehash.hpp), collectives.
  std::string scale = "1/100";
  std::string queue;  // empty: fair for TCP, fifo for UDP (its round-robin sender needs no fairness)
  double fct_tolerance = 0.25;
  bool rehash = false, collective = false;
  std::vector<std::string> jobs;
  // Next-hop groups and failures.
  std::string group = "threshold";
  std::size_t buckets = 128;
  bool wcmp = false;
  std::vector<std::string> fail;
  double fail_at = 0.5;  // share of step 2's traffic sent when the link goes down
};

// The model of the switches' choices: Linux's hash with the run's policy and seeds, its groups.
dc::hash_config run_hash(const run_flags& f, dc::seed_mode seeds) {
  dc::hash_config cfg;
  cfg.algorithm = dc::hash_algorithm::linux_hash;
  cfg.fields = f.policy == "l3" ? dc::field_set::two : dc::field_set::five;
  cfg.seeds = seeds;
  cfg.seed = f.hash_seed;
  cfg.grouping = dc::parse_group_hashing(f.group);
  cfg.buckets = f.buckets;
  cfg.weighted = f.wcmp;
  return cfg;
}

// The kernel's paths (ip route get) beside the model's, flow by flow.
struct path_check {
  std::vector<std::vector<dc::arc_id>> kernel, model;
  std::size_t agree = 0;
};

// One flow's directions between switches, as the packets went before and after the failure.
struct measured_move {
  std::size_t flow = 0;
  std::vector<dc::arc_id> before, after;
};

// What a failure mid-run did: the paths before and after (ip route get, and the model), the flows
// whose packets moved while the traffic flowed (captured on the links between switches), and the
// model's count for each hashing of the next-hop groups.
struct failure_check {
  path_check before, after;
  std::size_t replaced = 0;  // routes and groups the "routing protocol" replaced
  std::size_t kernel_moved = 0, model_moved = 0;
  std::size_t same_flows = 0;                // flows that moved in both or in neither
  std::vector<dc::failure_effect> hashings;  // the model's, for the same flows: modulo, threshold, resilient
  // Measured during step 2: the flows that sent before the link went down and after the routes
  // converged, those among them whose packets changed links, and how many of those the kernel's
  // paths (ip route get) also say moved, flow by flow.
  double down_after_s = 0, converged_ms = 0;
  std::size_t measured = 0, traffic_moved = 0, traffic_agrees = 0;
  std::uint64_t datagrams_lost = 0, capture_frames = 0, capture_dropped = 0;
  std::vector<measured_move> moves;
};

nlohmann::json hashings_json(const std::vector<dc::failure_effect>& list) {
  auto out = nlohmann::json::array();
  for (const auto& e : list) {
    out.push_back({{"group", dc::group_hashing_name(e.grouping)},
                   {"moved", e.moved},
                   {"had_to_move", e.had_to_move},
                   {"moved_needlessly", e.moved_needlessly}});
  }
  return out;
}

// "leaf1->spine2 spine2->leaf3": link directions in the order given.
std::string arcs_text(const dc::topology& t, std::span<const dc::arc_id> arcs) {
  std::string out;
  for (auto a : arcs)
    out += (out.empty() ? "" : " ") + t.nodes()[t.arc_from(a)].name + "->" + t.nodes()[t.arc_to(a)].name;
  return out.empty() ? "(no link between switches)" : out;
}

nlohmann::json arcs_json(const dc::topology& t, std::span<const dc::arc_id> arcs) {
  auto out = nlohmann::json::array();
  for (auto a : arcs) out.push_back(t.nodes()[t.arc_from(a)].name + "->" + t.nodes()[t.arc_to(a)].name);
  return out;
}

std::string flow_text(const dc::topology& t, std::span<const dc::flow> flows, std::size_t i) {
  const auto& fl = flows[i];
  return fmt::format("flow {} ({}:{} -> {}:{})", i, t.nodes()[fl.src].name, fl.key.src_port, t.nodes()[fl.dst].name,
                     fl.key.dst_port);
}

// Sorts captured directions (in arc order) as they come on `path`, any others after them.
void in_path_order(std::vector<dc::arc_id>& arcs, std::span<const dc::arc_id> path) {
  const auto rank = [&](dc::arc_id a) {
    return static_cast<std::size_t>(std::find(path.begin(), path.end(), a) - path.begin());
  };
  std::stable_sort(arcs.begin(), arcs.end(), [&](dc::arc_id x, dc::arc_id y) { return rank(x) < rank(y); });
}

std::string failed_names(const dc::topology& t, std::span<const dc::link_id> failed) {
  std::string out;
  for (auto l : failed)
    out += (out.empty() ? "" : ", ") + t.nodes()[t.links()[l].a].name + "-" + t.nodes()[t.links()[l].b].name;
  return out;
}

path_check check_paths(const netns_fabric& fabric, const dc::ecmp_model& model, std::span<const dc::flow> flows,
                       bool verbose) {
  path_check c;
  c.kernel = fabric.kernel_paths(flows, verbose);
  std::vector<dc::arc_id> buf(model.max_path());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto n = model.route(flows[i], buf);
    c.model.emplace_back(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
    c.agree += c.model.back() == c.kernel[i];
  }
  return c;
}

nlohmann::json moves_json(const dc::topology& t, std::span<const dc::flow> flows, const failure_check& c) {
  auto out = nlohmann::json::array();
  for (const auto& m : c.moves) {
    const auto& fl = flows[m.flow];
    out.push_back({{"flow", m.flow},
                   {"src", t.nodes()[fl.src].name},
                   {"dst", t.nodes()[fl.dst].name},
                   {"src_port", fl.key.src_port},
                   {"dst_port", fl.key.dst_port},
                   {"before", arcs_json(t, m.before)},
                   {"after", arcs_json(t, m.after)},
                   {"kernel_path_moved", c.before.kernel[m.flow] != c.after.kernel[m.flow]}});
  }
  return out;
}

// The links' rates in the namespaces.
struct capacity_plan {
  double scale = 0.01;  // 0: no qdisc
  queue_kind queues = queue_kind::fair;
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
  bool within = false;  // the verdict's: judged on the links between switches
  fabric_verdict verdict;
  bool has_fct = false;  // TCP on rate-limited links: completion times beside the model's
  fct_comparison fct;
};

// With `event` (a failure during the step), the model's bytes are each flow's bytes sent before
// the event on `model`'s path and the rest on `after`'s; the datagrams lost with the link make
// that only approximate, so the step is judged with the tolerance, not byte for byte.
phase_result run_phase(const run_flags& f, const dc::topology& t, const dc::ecmp_model& model, netns_fabric& fabric,
                       const std::vector<dc::flow>& flows, dc::seed_mode seeds, double tolerance,
                       const capacity_plan& capacity, bool reshape, const midway_event* event = nullptr,
                       const dc::ecmp_model* after = nullptr) {
  phase_result p;
  p.seeds = seeds;
  std::vector<std::uint32_t> kernel_seeds(t.nodes().size());
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) kernel_seeds[v] = model.seed_of(v);
  fabric.set_seeds(kernel_seeds);
  p.name = seeds == dc::seed_mode::same ? fmt::format("the same seed ({}) in every switch", f.hash_seed)
                                        : fmt::format("a seed per switch (drawn from {})", f.hash_seed);
  // The model's path of every flow: the fair queues' classes, and the completion times' model.
  dc::path_list paths;
  {
    const auto routed = dc::place_flows(model, flows, true);
    for (std::size_t i = 0; i < flows.size(); ++i) {
      paths.add(std::span<const dc::arc_id>(routed.path_arcs.data() + routed.path_begin[i],
                                            routed.path_begin[i + 1] - routed.path_begin[i]));
    }
  }
  if (capacity.scale > 0) {
    std::vector<dc::flow_key> keys;
    for (const auto& fl : flows) keys.push_back(fl.key);
    shape_links(fabric, t, capacity.scale, capacity.queues, keys, paths, reshape, f.verbose);
  }
  const auto before = fabric.read_counters();
  check_interrupted();
  p.traffic = f.flows.protocol == "udp"
                  ? send_udp(fabric, flows, static_cast<std::size_t>(f.payload), f.deadline, event)
                  : send_tcp(fabric, flows, f.deadline, event);
  check_interrupted();
  const auto counted = fabric.read_counters();
  // The model's prediction for the same flows, with the bytes they put on the wire.
  std::vector<dc::flow> sent = flows;
  const bool split = event && after && p.traffic.event_ran;
  for (std::size_t i = 0; i < sent.size(); ++i)
    sent[i].bytes = split ? p.traffic.wire_bytes_before[i] : p.traffic.wire_bytes[i];
  p.predicted = dc::place_flows(model, sent, false).arc_bytes;
  if (split) {
    for (std::size_t i = 0; i < sent.size(); ++i)
      sent[i].bytes = p.traffic.wire_bytes[i] - p.traffic.wire_bytes_before[i];
    const auto rest = dc::place_flows(*after, sent, false).arc_bytes;
    for (std::size_t a = 0; a < p.predicted.size() && a < rest.size(); ++a) p.predicted[a] += rest[a];
  }
  p.counters.tx_bytes.resize(t.arc_count());
  p.counters.rx_bytes.resize(t.arc_count());
  p.counters.tx_packets.resize(t.arc_count());
  p.measured.resize(t.arc_count());
  for (dc::arc_id a = 0; a < t.arc_count(); ++a) {
    p.counters.tx_bytes[a] = counted.tx_bytes[a] - before.tx_bytes[a];
    p.counters.rx_bytes[a] = counted.rx_bytes[a] - before.rx_bytes[a];
    p.counters.tx_packets[a] = counted.tx_packets[a] - before.tx_packets[a];
    p.measured[a] = static_cast<double>(p.counters.tx_bytes[a]);
    p.exact += p.measured[a] == p.predicted[a];
    p.ends_agree += p.counters.tx_bytes[a] == p.counters.rx_bytes[a];
  }
  const double window = std::max(p.traffic.duration_s, 1e-6);
  p.model = dc::summarize_loads(t, p.predicted, window);
  p.real = dc::summarize_loads(t, p.measured, window);
  p.mlu_error = p.real.mlu > 0 ? (p.model.mlu - p.real.mlu) / p.real.mlu : (p.model.mlu > 0 ? 1.0 : 0.0);
  // Judged where routing decides, byte for byte with UDP unless a tolerance is given.
  p.verdict = judge_fabric(t, p.predicted, p.measured, p.model, p.real,
                           f.flows.protocol == "udp" && f.tolerance < 0 && !split, tolerance);
  p.within = p.verdict.within;
  if (capacity.scale > 0 && f.flows.protocol == "tcp") {
    p.fct = compare_fct(t, capacity.scale, paths, p.traffic.wire_bytes, p.traffic.finish_s, f.fct_tolerance);
    p.has_fct = true;
  }
  return p;
}

std::string fmt_bytes(double b) {
  return fmt::format("{:.0f}", b);
}

void print_phase(const dc::topology& t, const phase_result& p, double tolerance, int number,
                 const std::string& protocol, std::span<const dc::flow> flows) {
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
      std::cout << fmt::format("  {:<24} {:>12} {:>12}{}  {:>12} {:>12}{}\n",
                               t.nodes()[k.a].name + " -- " + t.nodes()[k.b].name, fmt_bytes(p.predicted[2 * l]),
                               fmt_bytes(p.measured[2 * l]), mark(2 * l), fmt_bytes(p.predicted[2 * l + 1]),
                               fmt_bytes(p.measured[2 * l + 1]), mark(2 * l + 1));
    }
  }
  std::cout << fmt::format(
      "  bytes: {} of {} link directions exactly as the model predicted (* where not); the sending "
      "end's tx equals the receiving end's rx on {} of {}\n",
      p.exact, t.arc_count(), p.ends_agree, t.arc_count());
  const auto busiest = p.real.busiest;
  const bool host_link = t.is_host(t.arc_from(busiest)) || t.is_host(t.arc_to(busiest));
  std::cout << fmt::format("  MLU over {}: model {:.2f}%, measured {:.2f}% on {}->{}{} (error {:+.2f}%)\n",
                           netlib::units::format_seconds(p.real.window_s), 100 * p.model.mlu, 100 * p.real.mlu,
                           t.nodes()[t.arc_from(busiest)].name, t.nodes()[t.arc_to(busiest)].name,
                           host_link ? ", a host's link: it carries its flows whatever the routing" : "",
                           100 * p.mlu_error);
  std::cout << verdict_text(t, p.verdict);  // with its tolerance (p.verdict.tolerance == tolerance)
  static_cast<void>(tolerance);
  for (std::size_t i = 1; i < p.real.tiers.size(); ++i) {
    const auto& m = p.real.tiers[i];
    const auto& pm = p.model.tiers[i];
    if (m.uplinks == 0) continue;
    std::cout << fmt::format(
        "  {} -> {} uplinks: {} of {} unused, Jain {:.3f} measured; model {} unused, Jain {:.3f}\n",
        role_name(t, m.tier), role_name(t, m.tier + 1), m.unused_uplinks, m.uplinks, m.uplink_jain, pm.unused_uplinks,
        pm.uplink_jain);
  }
  if (p.has_fct) {
    std::cout
        << "  flow completion times (all flows start together; model: max-min fair shares of the scaled link rates, "
           "recomputed whenever a flow ends):\n";
    std::cout << fct_text(t, flows, p.fct, 12, "  ");
  }
  if (!p.traffic.complete && p.traffic.event_ran && protocol == "udp") {
    std::cout << fmt::format("  note: {} datagrams in flight when the link went down never arrived\n",
                             p.traffic.datagrams_lost);
  } else if (!p.traffic.complete) {
    std::cout << "  note: not everything sent arrived before the deadline\n";
  }
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
  nlohmann::json out{{"name", p.name},
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
                     {"verdict", verdict_json(t, p.verdict)},
                     {"model_tiers", tiers_json(t, p.model)},
                     {"measured_tiers", tiers_json(t, p.real)},
                     {"links", links}};
  if (p.has_fct) out["fct"] = fct_json(p.fct);
  return out;
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
    throw netlib::app::usage_error(
        fmt::format("--topology: {} nodes; lab-dc run builds at most 400 namespaces", t.nodes().size()));
  }
  if (f.flows.flows > 4000) throw netlib::app::usage_error("--flows: lab-dc run sends at most 4000 flows");
  if (f.flows.size > 100e6) throw netlib::app::usage_error("--size: at most 100MB per flow in lab-dc run");
  capacity_plan capacity;
  try {
    capacity.scale = parse_scale(f.scale);
  } catch (const std::invalid_argument& e) {
    throw netlib::app::usage_error(fmt::format("--scale {}", e.what()));
  }
  const bool tcp = f.collective || f.flows.protocol == "tcp";
  capacity.queues = f.queue == "fifo" || (f.queue.empty() && !tcp) ? queue_kind::fifo : queue_kind::fair;
  if (f.collective && (!f.fail.empty() || f.group != "threshold" || f.wcmp)) {
    throw netlib::app::usage_error("--fail, --group and --wcmp: not with --collective");
  }
  if (f.collective) {
    return run_collective_live({.fabric = f.fabric,
                                .jobs = f.jobs,
                                .policy = f.policy,
                                .hash_seed = f.hash_seed,
                                .scale = capacity.scale,
                                .queues = capacity.queues,
                                .deadline_s = f.deadline,
                                .tolerance = f.fct_tolerance,
                                .json = f.json,
                                .verbose = f.verbose});
  }
  if (!f.jobs.empty()) throw netlib::app::usage_error("--job: only with --collective");

  const double tolerance = f.tolerance >= 0 ? f.tolerance : (f.flows.protocol == "udp" ? 0.01 : 0.15);
  auto flows = make_flows(t, f.flows, true);
  const auto failed = failed_links(t, f.fail);
  const dc::routes r(t);
  std::unique_ptr<dc::routes> after_routes;
  if (!failed.empty()) after_routes = std::make_unique<dc::routes>(t, t.edge_switches(), failed);
  // The groups and the failure checked on the model before any namespace exists.
  try {
    const dc::ecmp_model before(t, r, run_hash(f, dc::seed_mode::same));
    if (after_routes) {
      const dc::ecmp_model after(t, *after_routes, run_hash(f, dc::seed_mode::same), before, flows.flows);
      std::vector<dc::arc_id> buf(after.max_path());
      for (const auto& fl : flows.flows) static_cast<void>(after.route(fl, buf));
    }
  } catch (const dc::topology_error& e) {
    if (!after_routes) throw;
    throw netlib::app::usage_error(fmt::format("--fail: with it down, {}", e.what()));
  } catch (const std::invalid_argument& e) {
    throw netlib::app::usage_error(fmt::format("--buckets {}: {}", f.buckets, e.what()));
  }
  catch_stop_signals();
  netlib::app::netns_set::remove_stale(f.verbose);
  auto built = std::make_unique<netns_fabric>(
      t, r, f.policy == "l3" ? 0 : 1, f.verbose,
      fabric_groups{.grouping = *dc::parse_group_hashing(f.group), .buckets = f.buckets, .weighted = f.wcmp});
  auto& fabric = *built;
  check_interrupted();
  if (!failed.empty() && !fabric.has_seed_sysctl()) {
    throw netlib::app::failure(
        "--fail needs net.ipv4.fib_multipath_hash_seed (Linux 6.11 and later) so that the "
        "model knows the kernel's hash");
  }
  std::unique_ptr<header_hashing> headers;
  if (f.rehash) {
    headers = std::make_unique<header_hashing>(fabric, t);
    if (!headers->attached()) throw netlib::app::failure("--rehash: " + headers->why());
  }
  const std::string kernel =
      fabric.has_seed_sysctl() ? "net.ipv4.fib_multipath_hash_seed is available"
                               : "this kernel has no net.ipv4.fib_multipath_hash_seed (Linux 6.11 and later have it): "
                                 "every namespace hashes with one random boot seed, which the model cannot know; "
                                 "the per-switch step is skipped";
  const std::string sockets =
      f.flows.protocol == "udp" ? fmt::format("UDP datagrams of {} B from unconnected sockets", f.payload)
      : f.rehash                ? "TCP connections; every host's uplink forgets the sockets' own flow hashes "
                                  "(--rehash: an eBPF program at its egress), so the switches hash the 5-tuple"
                                : "TCP connections (each socket carries its own random flow hash, which the L4 "
                                  "policy uses instead of the 5-tuple)";
  if (!f.json) {
    // The header first, so that it shows while the traffic runs.
    std::cout << fmt::format("fabric:  {}: {} namespaces ({}*), one veth pair per link\n", t.description(),
                             fabric.namespaces(), netlib::app::netns_set::own_prefix());
    std::cout << fmt::format("traffic: {}, {}\n", flows.source, sockets);
    std::cout << fmt::format("kernel:  fib_multipath_hash_policy {} ({}); {}\n", f.policy == "l3" ? 0 : 1,
                             f.policy == "l3" ? "L3: addresses" : "L4: 5-tuple", kernel);
    std::cout << "links:   " << describe_capacity(t, capacity.scale, capacity.queues) << '\n';
    if (capacity.scale > 0 && f.flows.protocol == "tcp" && f.policy == "l4" && !f.rehash) {
      std::cout
          << "         (the kernel routes these TCP flows by their sockets' own hashes, which the model cannot know: "
             "its paths, the fair queues' classes and its completion times are the 5-tuple's; add --rehash or "
             "--policy l3 to compare completion times)\n";
    }
    std::cout << "groups:  "
              << (f.group == "resilient"
                      ? fmt::format("nexthop objects in resilient groups of {} buckets (ip nexthop ... type resilient)",
                                    f.buckets)
                      : std::string("multipath routes (hash-threshold)"))
              << (f.wcmp ? ", next hops weighted by link capacity (WCMP)" : "") << '\n';
    std::cout << "model:   linux hash (SipHash keyed by each switch's seed), "
              << (f.group == "resilient" ? "the resilient group's bucket" : "hash-threshold next hop")
              << "; bytes are frames "
                 "(Ethernet + IP + UDP/TCP headers)\n\n";
    std::cout.flush();
  }
  std::vector<phase_result> phases;
  const dc::ecmp_model same(t, r, run_hash(f, dc::seed_mode::same));
  phases.push_back(run_phase(f, t, same, fabric, flows.flows, dc::seed_mode::same, tolerance, capacity, false));
  std::optional<failure_check> failure;
  if (!failed.empty()) {
    // Step 2 sends the same flows again, and the link goes down while they flow, once fail_at of
    // the traffic has been sent; the kernel's paths are read before and after, and the packets of
    // every flow are captured on the links between switches. Step 3 sends them once more over
    // what is left.
    check_interrupted();
    failure.emplace();
    failure->before = check_paths(fabric, same, flows.flows, f.verbose);
    const dc::ecmp_model after(t, *after_routes, run_hash(f, dc::seed_mode::same), same, flows.flows);
    flow_capture capture(fabric, t, flows.flows);
    std::int64_t down_ns = 0, converged_ns = 0;
    midway_event event;
    event.fraction = f.fail_at;
    event.tick = [&] { capture.drain(); };
    event.action = [&] {
      capture.drain();
      down_ns = flow_capture::now_ns();
      failure->replaced = fabric.fail_links(failed, r, *after_routes);
      converged_ns = flow_capture::now_ns();
    };
    phases.push_back(
        run_phase(f, t, same, fabric, flows.flows, dc::seed_mode::same, tolerance, capacity, true, &event, &after));
    capture.drain();
    const auto& during = phases.back().traffic;
    if (!during.event_ran) throw netlib::app::failure("step 2 ended before the link went down (--deadline too short?)");
    phases.back().name = fmt::format("{} set down after {:.0f}% of the traffic (the same seed, {})",
                                     failed_names(t, failed), 100 * f.fail_at, f.group);
    failure->down_after_s = during.event_at_s;
    failure->converged_ms = static_cast<double>(converged_ns - down_ns) / 1e6;
    failure->datagrams_lost = during.datagrams_lost;
    failure->capture_frames = capture.frames();
    failure->capture_dropped = capture.dropped();
    failure->after = check_paths(fabric, after, flows.flows, f.verbose);
    for (std::size_t i = 0; i < flows.flows.size(); ++i) {
      const bool kernel_moved = failure->before.kernel[i] != failure->after.kernel[i];
      failure->kernel_moved += kernel_moved;
      failure->model_moved += failure->before.model[i] != failure->after.model[i];
      failure->same_flows += kernel_moved == (failure->before.model[i] != failure->after.model[i]);
      // Measured: a flow that sent both before the link went down and after the routes converged.
      // UDP's sender knows; a TCP socket takes a flow's bytes long before they leave, so there
      // the capture tells (a flow within one leaf crosses no link between switches: not measured).
      measured_move m{i, capture.used_before(i, down_ns), capture.used_after(i, converged_ns)};
      const double before = during.wire_bytes_before[i];
      const bool both = f.flows.protocol == "udp" ? before > 0 && during.wire_bytes[i] > before
                                                  : !m.before.empty() && !m.after.empty();
      if (!both) continue;
      ++failure->measured;
      const bool moved = m.before != m.after;
      in_path_order(m.before, failure->before.kernel[i]);
      in_path_order(m.after, failure->after.kernel[i]);
      failure->traffic_agrees += moved == kernel_moved;
      if (moved) {
        ++failure->traffic_moved;
        failure->moves.push_back(std::move(m));
      }
    }
    for (auto g : {dc::group_hashing::modulo, dc::group_hashing::threshold, dc::group_hashing::resilient}) {
      auto c = run_hash(f, dc::seed_mode::same);
      c.grouping = g;
      failure->hashings.push_back(dc::failure_moves(t, flows.flows, c, failed));
    }
    phases.push_back(run_phase(f, t, after, fabric, flows.flows, dc::seed_mode::same, tolerance, capacity, true));
    phases.back().name = fmt::format("with {} down (the same seed, {})", failed_names(t, failed), f.group);
    phases.front().name += fmt::format(", before {} went down", failed_names(t, failed));
  } else if (fabric.has_seed_sysctl() && !f.one_step) {
    const dc::ecmp_model per_switch(t, r, run_hash(f, dc::seed_mode::per_switch));
    phases.push_back(
        run_phase(f, t, per_switch, fabric, flows.flows, dc::seed_mode::per_switch, tolerance, capacity, true));
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
                             {"scale", capacity.scale},
                             {"queues", capacity.queues == queue_kind::fair ? "fair" : "fifo"},
                             {"rehash", f.rehash},
                             {"group", f.group},
                             {"buckets", f.buckets},
                             {"wcmp", f.wcmp},
                             {"failure", failure ? nlohmann::json{{"links", failed_names(t, failed)},
                                                                  {"fail_at", f.fail_at},
                                                                  {"down_after_s", failure->down_after_s},
                                                                  {"converged_ms", failure->converged_ms},
                                                                  {"datagrams_lost", failure->datagrams_lost},
                                                                  {"measured_flows", failure->measured},
                                                                  {"traffic_moved", failure->traffic_moved},
                                                                  {"traffic_agrees", failure->traffic_agrees},
                                                                  {"capture",
                                                                   {{"frames", failure->capture_frames},
                                                                    {"dropped", failure->capture_dropped}}},
                                                                  {"moves", moves_json(t, flows.flows, *failure)},
                                                                  {"replaced", failure->replaced},
                                                                  {"paths_agree_before", failure->before.agree},
                                                                  {"paths_agree_after", failure->after.agree},
                                                                  {"kernel_moved", failure->kernel_moved},
                                                                  {"model_moved", failure->model_moved},
                                                                  {"same_flows", failure->same_flows},
                                                                  {"model_hashings", hashings_json(failure->hashings)},
                                                                  {"flows", flows.flows.size()}}
                                                 : nlohmann::json()},
                             {"phases", list}});
    return netlib::app::exit_ok;
  }
  for (std::size_t i = 0; i < phases.size(); ++i) {
    print_phase(t, phases[i], tolerance, static_cast<int>(i + 1), f.flows.protocol, flows.flows);
  }
  if (failure) {
    const auto n = flows.flows.size();
    std::cout << fmt::format(
        "failure: {} set down in step 2 while the flows ran, after {:.0f}% of the traffic ({} in; both ends of the "
        "veth pair); the kernel dropped its next hops, and {} routes or groups elsewhere were replaced, {:.0f} ms "
        "later, "
        "by the ones the fabric converges to without it{}\n"
        "  paths (ip route get, switch by switch): {} of {} flows on the model's path before, {} of {} after\n"
        "  flows moved: kernel {}, model {}; the same flows in both: {} of {}\n"
        "  packets (captured on the links between switches; {} flows sent both before the link went down and after the "
        "routes converged): {} moved, as ip route get says for {} of {}{}\n",
        failed_names(t, failed), 100 * f.fail_at, netlib::units::format_seconds(failure->down_after_s),
        failure->replaced, failure->converged_ms,
        f.flows.protocol == "udp" ? fmt::format("; {} datagrams in flight were lost", failure->datagrams_lost)
                                  : std::string("; TCP sent again what was lost"),
        failure->before.agree, n, failure->after.agree, n, failure->kernel_moved, failure->model_moved,
        failure->same_flows, n, failure->measured, failure->traffic_moved, failure->traffic_agrees, failure->measured,
        failure->capture_dropped ? fmt::format(" ({} frames the capture could not keep)", failure->capture_dropped)
                                 : "");
    constexpr std::size_t shown = 8;
    for (std::size_t k = 0; k < failure->moves.size() && k < shown; ++k) {
      const auto& m = failure->moves[k];
      std::cout << fmt::format("    {}: {}  =>  {}\n", flow_text(t, flows.flows, m.flow), arcs_text(t, m.before),
                               arcs_text(t, m.after));
    }
    if (failure->moves.size() > shown) {
      std::cout << fmt::format("    ... and {} more (--json lists them all under failure.moves)\n",
                               failure->moves.size() - shown);
    }
    std::cout
        << "  the model, same flows, each hashing of the next-hop groups (flows moved / crossed the failed link):";
    for (const auto& e : failure->hashings) {
      std::cout << fmt::format(" {} {}/{}", dc::group_hashing_name(e.grouping), e.moved, e.had_to_move);
    }
    std::cout << "\n\n";
  }
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
  cmd->add_option("--policy", f->policy,
                  "Linux's multipath hash policy in the switches: l4 (5-tuple) or l3 (addresses)")
      ->capture_default_str()
      ->check(CLI::IsMember({"l3", "l4"}));
  cmd->add_option("--hash-seed", f->hash_seed,
                  "net.ipv4.fib_multipath_hash_seed in step 1; step 2 draws one per switch from it")
      ->capture_default_str();
  netlib::app::add_quantity(*cmd, "--payload", f->payload, netlib::units::parse_bytes,
                            "UDP payload per datagram (default 1000B)");
  netlib::app::add_quantity(
      *cmd, "--tolerance", f->tolerance, netlib::units::parse_fraction,
      "Allowed error of each fabric tier's busiest link, model against measured (default: UDP byte "
      "for byte, TCP 15%)");
  netlib::app::add_quantity(*cmd, "--deadline", f->deadline, netlib::units::parse_duration_s,
                            "Longest time each step may send and wait (default 30s)");
  cmd->add_flag("--one-step", f->one_step, "Only the same-seed step");
  cmd->add_option("--scale", f->scale,
                  "Link rates in the namespaces: the fabric's times this (1/100: 10 Gbps links run at 100 Mbit/s, with "
                  "an HTB qdisc on every veth end), or off")
      ->capture_default_str();
  cmd->add_option(
         "--queue", f->queue,
         "How a link's queue shares it: fair (one HTB class per flow, served round robin: max-min fair with TCP) "
         "or fifo (one queue, left to TCP); default fair with TCP, fifo with UDP (whose sender takes turns)")
      ->check(CLI::IsMember({"fair", "fifo"}));
  cmd->add_flag("--rehash", f->rehash,
                "Make the switches hash TCP's 5-tuple as hardware does: every host's uplink forgets the sockets' own "
                "flow hashes (an eBPF program at its egress; Linux 6.6 and later)");
  netlib::app::add_quantity(*cmd, "--fct-tolerance", f->fct_tolerance, netlib::units::parse_fraction,
                            "Allowed error of the last TCP flow's completion time (with --collective: of each job's "
                            "all-reduce time), measured against the model (default 25%)");
  cmd->add_flag("--collective", f->collective,
                "Instead of flows: the --job ranks run a real TCP ring all-reduce of float arrays, checked element by "
                "element, with step and completion times beside the model's (implies --rehash)");
  cmd->add_option("--job", f->jobs, "With --collective: a job as lab-dc collective --job takes it (repeatable)");
  cmd->add_option("--group", f->group,
                  "The switches' next-hop groups: threshold (Linux multipath routes, hash-threshold) or resilient "
                  "(nexthop objects, ip nexthop ... type resilient, Linux 5.13 and later)")
      ->capture_default_str()
      ->check(CLI::IsMember({"threshold", "resilient"}));
  cmd->add_option("--buckets", f->buckets, "Buckets of each resilient group")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{2}, std::size_t{4096}));
  cmd->add_flag("--wcmp", f->wcmp, "Weigh each next hop by its link's capacity (WCMP), in the kernel and the model");
  cmd->add_option("--fail", f->fail,
                  "Set this link between two switches down in step 2, while the flows run (e.g. leaf1-spine2; "
                  "repeatable): the other switches get the routes the fabric converges to, the flows that moved are "
                  "shown as their packets went and as ip route get says, and step 3 sends the flows again over what "
                  "is left");
  netlib::app::add_quantity(*cmd, "--fail-at", f->fail_at, netlib::units::parse_fraction,
                            "With --fail: the share of step 2's traffic sent when the link goes down (default 50%)");
  cmd->add_flag("--verbose", f->verbose, "Print each ip command on stderr");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] {
    if (f->payload < 18 || f->payload > 1472)
      throw netlib::app::usage_error("--payload must be 18B to 1472B (one frame)");
    if (f->deadline <= 0 || f->deadline > 600)
      throw netlib::app::usage_error("--deadline must be above 0 and at most 10min");
    if (!(f->fail_at >= 0) || f->fail_at > 1) throw netlib::app::usage_error("--fail-at must be 0% to 100%");
    return run(*f);
  });
}

}  // namespace netlab::lab_dc
