// lab-dc topology and lab-dc ecmp: a fabric as text, and the loads a set of flows puts on it
// when every switch picks its next hop by hashing.
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"
#include "netlib/dc/failure.hpp"
#include "netlib/dc/loads.hpp"
#include "netlib/dc/routes.hpp"
#include "options.hpp"
#include "report.hpp"
#include "svg.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

struct ecmp_flags {
  fabric_flags fabric;
  flow_flags flows;
  hash_flags hash;
  bool json = false, paths = false, list = false;
  std::string svg;
  std::vector<std::string> fail;
};

// Flows moved by the failure under each of the three group hashings (same hash, fields, seeds,
// weights).
std::vector<dc::failure_effect> compare_failure(const dc::topology& t, std::span<const dc::flow> flows,
                                                const dc::hash_config& cfg, std::span<const dc::link_id> failed) {
  std::vector<dc::failure_effect> out;
  for (auto g : {dc::group_hashing::modulo, dc::group_hashing::threshold, dc::group_hashing::resilient}) {
    auto c = cfg;
    c.grouping = g;
    out.push_back(dc::failure_moves(t, flows, c, failed));
  }
  return out;
}

std::string percent_of(std::size_t part, std::size_t whole) {
  return whole == 0 ? "-" : fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string failure_text(const dc::topology& t, std::span<const dc::link_id> failed,
                         const std::vector<dc::failure_effect>& moves, const dc::hash_config& cfg) {
  std::string names;
  for (auto l : failed) {
    names += (names.empty() ? "" : ", ") + t.nodes()[t.links()[l].a].name + "-" + t.nodes()[t.links()[l].b].name;
  }
  std::string out = fmt::format(
      "\nfailure: {} down; every switch routes around it (the routes the fabric's routing converges to), and the loads "
      "above are with it down. Flows moved by the failure, for each way a switch's next-hop group maps a hash to a "
      "next hop (each places the flows its own way before the failure too):\n",
      names);
  out += fmt::format("  {:<10} {:>8} {:>12} {:>13} {:>10} {:>9}   {}\n", "next hops", "crossing", "in changed",
                     "crossed the", "moved", "of those", "moved needlessly");
  out += fmt::format("  {:<10} {:>8} {:>12} {:>13} {:>10} {:>9}   {}\n", "", "fabric", "groups", "failed link", "",
                     "in groups", "(did not cross it)");
  for (const auto& m : moves) {
    out += fmt::format("  {:<10} {:>8} {:>12} {:>13} {:>10} {:>9}   {}\n", dc::group_hashing_name(m.grouping),
                       m.crossing, m.through_changed, m.had_to_move, m.moved, percent_of(m.moved, m.through_changed),
                       m.moved_needlessly);
  }
  out += fmt::format(
      "  (hash {} over the {}; modulo: hash mod n; threshold: hash-threshold, as Linux's multipath "
      "routes; resilient: {} buckets per group, as Linux's type resilient)\n",
      dc::hash_name(cfg.algorithm), dc::fields_name(cfg.fields), cfg.buckets);
  return out;
}

nlohmann::json failure_json(const dc::topology& t, std::span<const dc::link_id> failed,
                            const std::vector<dc::failure_effect>& moves) {
  auto links = nlohmann::json::array();
  for (auto l : failed) links.push_back({{"a", t.nodes()[t.links()[l].a].name}, {"b", t.nodes()[t.links()[l].b].name}});
  auto list = nlohmann::json::array();
  for (const auto& m : moves) {
    list.push_back({{"group", dc::group_hashing_name(m.grouping)},
                    {"crossing", m.crossing},
                    {"through_changed_groups", m.through_changed},
                    {"had_to_move", m.had_to_move},
                    {"moved", m.moved},
                    {"moved_needlessly", m.moved_needlessly}});
  }
  return {{"links", links}, {"moves", list}};
}

int run_ecmp(const ecmp_flags& f) {
  const auto t = load_topology(f.fabric);
  if (t.hosts().size() < 2) throw netlib::app::usage_error("--topology: ECMP needs a fabric with at least two hosts");
  const auto flows = make_flows(t, f.flows);
  const auto cfg = make_hash(f.hash);
  if (f.list) {
    const auto list = flows_json(t, flows.flows);
    if (f.json) {
      netlib::app::print_json({{"topology", topology_json(t)}, {"source", flows.source}, {"flows", list}});
      return netlib::app::exit_ok;
    }
    std::cout << fmt::format("# {}; {}\n# flow src dst protocol src_ip src_port dst_ip dst_port bytes\n",
                             t.description(), flows.source);
    for (const auto& x : list) {
      std::cout << fmt::format(
          "{} {} {} {} {} {} {} {} {:.0f}\n", x["flow"].get<std::size_t>(), x["src"].get<std::string>(),
          x["dst"].get<std::string>(), x["protocol"].get<std::string>(), x["src_ip"].get<std::string>(),
          x["src_port"].get<int>(), x["dst_ip"].get<std::string>(), x["dst_port"].get<int>(), x["bytes"].get<double>());
    }
    std::cout.flush();
    return netlib::app::exit_ok;
  }
  const auto failed = failed_links(t, f.fail);
  const dc::routes intact(t);
  const dc::routes down(t, t.edge_switches(), failed);
  const dc::routes& r = failed.empty() ? intact : down;
  std::unique_ptr<dc::ecmp_model> before, after;
  std::vector<dc::failure_effect> moves;
  dc::placement p;
  try {
    before = std::make_unique<dc::ecmp_model>(t, intact, cfg);
    if (!failed.empty()) {
      after = std::make_unique<dc::ecmp_model>(t, down, cfg, *before, flows.flows);
      moves = compare_failure(t, flows.flows, cfg, failed);
    }
    p = dc::place_flows(failed.empty() ? *before : *after, flows.flows, f.paths || f.json);
  } catch (const dc::topology_error& e) {
    if (failed.empty()) throw;
    throw netlib::app::usage_error(fmt::format("--fail: with it down, {}", e.what()));
  } catch (const std::invalid_argument& e) {
    throw netlib::app::usage_error(fmt::format("--buckets {}: {}", f.hash.buckets, e.what()));
  }
  const dc::ecmp_model& model = failed.empty() ? *before : *after;
  const auto s = dc::summarize_loads(t, p.arc_bytes, flows.window_s);
  if (!f.svg.empty()) {
    const auto doc = fabric_svg(t, p.arc_bytes, s, fmt::format("ECMP, {}", dc::hash_name(cfg.algorithm)),
                                fmt::format("{}; {}; {}", t.description(), describe(cfg), flows.source));
    write_text_file(f.svg, doc.text);
  }
  if (f.json) {
    nlohmann::json doc{{"topology", topology_json(t)},
                       {"hash", hash_json(cfg)},
                       {"flows", flows_count_json(flows, p)},
                       {"window_s", s.window_s},
                       {"mlu", s.mlu},
                       {"busiest", t.arc_name(s.busiest)},
                       {"tiers", tiers_json(t, s)},
                       {"links", links_json(t, p.arc_bytes, p.arc_flows, s)}};
    if (!failed.empty()) doc["failure"] = failure_json(t, failed, moves);
    if (f.paths) doc["paths"] = paths_json(model, flows.flows, p, r);
    if (!flows.conversations.empty()) {
      auto list = nlohmann::json::array();
      for (const auto& c : flows.conversations) {
        list.push_back({{"protocol", c.protocol == 6 ? "tcp" : "udp"},
                        {"a", c.a.to_string()},
                        {"b", c.b.to_string()},
                        {"frames_ab", c.frames_ab},
                        {"bytes_ab", c.bytes_ab},
                        {"frames_ba", c.frames_ba},
                        {"bytes_ba", c.bytes_ba},
                        {"start_s", netlib::to_seconds(c.first_ts - flows.capture_start)}});
      }
      doc["conversations"] = list;
    }
    if (!flows.placed.empty()) {
      auto placed = nlohmann::json::object();
      for (const auto& [addr, host] : flows.placed) placed[addr.to_string()] = t.nodes()[host].name;
      doc["addresses"] = placed;
    }
    netlib::app::print_json(doc);
    return netlib::app::exit_ok;
  }
  std::cout << fmt::format("fabric: {} ({} hosts, {} links)\nhash:   {}\nflows:  {}\n        {}\n\n", t.description(),
                           t.hosts().size(), t.links().size(), describe(cfg), flows.source, flows_count_text(t, p));
  std::cout << loads_table(t, p.arc_bytes, p.arc_flows, s) << '\n' << tiers_text(t, s);
  if (!failed.empty()) std::cout << failure_text(t, failed, moves, cfg);
  if (f.paths) {
    const auto paths = paths_json(model, flows.flows, p, r);
    std::cout << '\n';
    for (const auto& x : paths) {
      std::string route;
      for (const auto& n : x["path"]) route += (route.empty() ? "" : " > ") + n.get<std::string>();
      std::cout << fmt::format("flow {:>4}  {}:{} -> {}:{} {}  {}\n", x["flow"].get<std::size_t>(),
                               x["src_ip"].get<std::string>(), x["src_port"].get<int>(), x["dst_ip"].get<std::string>(),
                               x["dst_port"].get<int>(), x["protocol"].get<std::string>(), route);
    }
  }
  if (!f.svg.empty()) std::cout << "\nwrote " << f.svg << '\n';
  std::cout.flush();
  return netlib::app::exit_ok;
}

}  // namespace

void add_topology_command(CLI::App& app) {
  struct flags {
    fabric_flags fabric;
    bool json = false;
  };
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(
      app, "topology",
      "Print a fabric in the topology file format (edit it, then pass it to --topology), or check a file",
      "lab-dc topology --topology fat-tree:4 > fabric.txt");
  add_fabric_flags(*cmd, f->fabric, "leaf-spine:4x2");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] {
    const auto t = load_topology(f->fabric);
    if (!f->json) {
      std::cout << dc::to_text(t);
      std::cout.flush();
      return netlib::app::exit_ok;
    }
    auto nodes = nlohmann::json::array();
    for (const auto& n : t.nodes()) {
      nodes.push_back(
          {{"name", n.name}, {"kind", n.kind == dc::node_kind::host ? "host" : "switch"}, {"tier", n.tier}});
    }
    auto links = nlohmann::json::array();
    for (const auto& l : t.links()) {
      links.push_back({{"a", t.nodes()[l.a].name}, {"b", t.nodes()[l.b].name}, {"capacity_bps", l.capacity_bps}});
    }
    netlib::app::print_json({{"topology", topology_json(t)}, {"nodes", nodes}, {"links", links}});
    return netlib::app::exit_ok;
  });
}

void add_ecmp_command(CLI::App& app) {
  auto f = std::make_shared<ecmp_flags>();
  auto* cmd = netlib::app::add_command(
      app, "ecmp",
      "Place flows on a fabric by ECMP hashing and show the bytes and utilisation of every link, the MLU "
      "and how evenly each tier's uplinks are used",
      "lab-dc ecmp --topology leaf-spine:4x2 --flows 200 --hash crc16 --seed per-switch --svg loads.svg");
  add_fabric_flags(*cmd, f->fabric, "leaf-spine:4x2");
  add_flow_flags(*cmd, f->flows, true);
  add_hash_flags(*cmd, f->hash);
  add_group_flags(*cmd, f->hash);
  cmd->add_option("--fail", f->fail,
                  "Take a link between two switches down (named by its ends, e.g. leaf1-spine2; repeatable): the loads "
                  "are with it down, and a table shows how many flows move under modulo, hash-threshold and resilient "
                  "next-hop groups");
  cmd->add_flag("--paths", f->paths, "Also list every flow's 5-tuple and path (and, in --json, each switch's hash)");
  cmd->add_flag("--list-flows", f->list,
                "Only list the flows (number, hosts, 5-tuple, bytes), placed nowhere: the "
                "input of an ECMP exercise");
  cmd->add_option("--svg", f->svg, "Write the fabric, links drawn by load, to this SVG file");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] { return run_ecmp(*f); });
}

}  // namespace netlab::lab_dc
