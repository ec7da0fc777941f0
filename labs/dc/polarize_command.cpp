// lab-dc polarize: the same flows through a fabric with two tiers of choices (a fat-tree's edge
// and aggregation switches), hashed three ways: one seed everywhere, a seed per switch, and the
// upper tiers hashing other fields; side by side, with the polarization figures.
#include <fmt/format.h>

#include <iostream>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/dc/loads.hpp"
#include "netlib/dc/routes.hpp"
#include "options.hpp"
#include "report.hpp"
#include "svg.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

struct polarize_flags {
  fabric_flags fabric;
  std::vector<std::string> fail;
  flow_flags flows;
  hash_flags hash;
  bool json = false;
  std::string svg;
};

// The field set the upper tiers hash in the third configuration: one field more or less.
dc::field_set other_fields(dc::field_set f) {
  switch (f) {
    case dc::field_set::two:
      return dc::field_set::three;
    case dc::field_set::three:
      return dc::field_set::two;
    case dc::field_set::four:
      return dc::field_set::five;
    case dc::field_set::five:
      return dc::field_set::four;
  }
  return f;
}

struct configuration {
  std::string name;
  std::string detail;
  dc::hash_config hash;
  dc::placement placed;
  dc::load_summary summary;
};

int run_polarize(const polarize_flags& f) {
  const auto t = after_failure(load_topology(f.fabric), f.fail);
  if (t.hosts().size() < 2) throw netlib::app::usage_error("--topology: needs a fabric with at least two hosts");
  const auto flows = make_flows(t, f.flows);
  auto base = make_hash(f.hash);
  const dc::routes r(t);
  std::vector<configuration> configs;
  {
    auto c = base;
    c.seeds = dc::seed_mode::same;
    configs.push_back(
        {"same seed", fmt::format("every switch: {}, seed {}", dc::fields_name(c.fields), c.seed), c, {}, {}});
  }
  {
    auto c = base;
    c.seeds = dc::seed_mode::per_switch;
    configs.push_back(
        {"per-switch seeds", fmt::format("every switch: {}, its own seed", dc::fields_name(c.fields)), c, {}, {}});
  }
  {
    auto c = base;
    c.seeds = dc::seed_mode::same;
    c.tier_fields.assign(static_cast<std::size_t>(t.max_tier()) + 1, other_fields(c.fields));
    c.tier_fields[0] = c.tier_fields[1] = c.fields;
    configs.push_back({"other fields above tier 1",
                       fmt::format("tier 1: {}; higher tiers: {}; seed {}", dc::fields_name(c.fields),
                                   dc::fields_name(other_fields(c.fields)), c.seed),
                       c,
                       {},
                       {}});
  }
  for (auto& c : configs) {
    const dc::ecmp_model m(t, r, c.hash);
    c.placed = dc::place_flows(m, flows.flows, false);
    c.summary = dc::summarize_loads(t, c.placed.arc_bytes, flows.window_s);
  }
  const bool two_tiers = t.max_tier() >= 3;
  if (!f.svg.empty()) {
    std::vector<svg_document> docs;
    for (const auto& c : configs) {
      const auto& s = c.summary;
      const std::string figure =
          two_tiers ? fmt::format("{} of {} {}->{} uplinks unused", s.tiers[2].unused_uplinks, s.tiers[2].uplinks,
                                  role_name(t, 2), role_name(t, 3))
                    : fmt::format("{} of {} uplinks unused", s.tiers[1].unused_uplinks, s.tiers[1].uplinks);
      docs.push_back(fabric_svg(t, c.placed.arc_bytes, s, c.name, c.detail + "; " + figure));
    }
    write_text_file(f.svg, fabrics_svg(docs, fmt::format("Hash polarization: {} on {}", dc::hash_name(base.algorithm),
                                                         t.description())));
  }
  if (f.json) {
    auto list = nlohmann::json::array();
    for (const auto& c : configs) {
      list.push_back({{"name", c.name},
                      {"detail", c.detail},
                      {"hash", hash_json(c.hash)},
                      {"mlu", c.summary.mlu},
                      {"tiers", tiers_json(t, c.summary)},
                      {"links", links_json(t, c.placed.arc_bytes, c.placed.arc_flows, c.summary)}});
    }
    netlib::app::print_json({{"topology", topology_json(t)},
                             {"flows", {{"source", flows.source}, {"count", flows.flows.size()}}},
                             {"two_tiers_of_choices", two_tiers},
                             {"configurations", list}});
    return netlib::app::exit_ok;
  }
  std::cout << fmt::format("fabric: {}\nflows:  {}\nhash:   {}\n\n", t.description(), flows.source,
                           describe(base).substr(0, describe(base).find(',')));
  if (!two_tiers) {
    std::cout
        << "note: this fabric has one tier of ECMP choices; polarization needs two (try --topology fat-tree:4)\n\n";
  }
  std::cout << fmt::format("{:<28}", "");
  for (const auto& c : configs) std::cout << fmt::format("{:>28}", c.name);
  std::cout << '\n';
  const auto row = [&](const std::string& label, auto value) {
    std::cout << fmt::format("{:<28}", label);
    for (const auto& c : configs) std::cout << fmt::format("{:>28}", value(c.summary));
    std::cout << '\n';
  };
  for (int tier = 1; tier + 1 <= t.max_tier(); ++tier) {
    const auto idx = static_cast<std::size_t>(tier);
    const std::string up = role_name(t, tier) + "->" + role_name(t, tier + 1);
    row(up + " unused", [&](const dc::load_summary& s) {
      return fmt::format("{} of {} ({:.0f}%)", s.tiers[idx].unused_uplinks, s.tiers[idx].uplinks,
                         100 * s.tiers[idx].unused_uplink_share());
    });
    row(up + " Jain", [&](const dc::load_summary& s) { return fmt::format("{:.3f}", s.tiers[idx].uplink_jain); });
  }
  row("MLU", [&](const dc::load_summary& s) { return fmt::format("{:.1f}%", 100 * s.mlu); });
  std::cout << '\n';
  for (const auto& c : configs) std::cout << fmt::format("{}: {}\n", c.name, c.detail);
  if (!f.svg.empty()) std::cout << "\nwrote " << f.svg << '\n';
  std::cout.flush();
  return netlib::app::exit_ok;
}

}  // namespace

void add_polarize_command(CLI::App& app) {
  auto f = std::make_shared<polarize_flags>();
  auto* cmd = netlib::app::add_command(
      app, "polarize",
      "The same flows through two tiers of ECMP with one seed everywhere, a seed per switch, and other fields above "
      "tier 1, side by side: unused uplinks and Jain's index per tier",
      "lab-dc polarize --topology fat-tree:4 --flows 2000 --hash crc16 --svg polarization.svg");
  add_fabric_flags(*cmd, f->fabric, "fat-tree:4");
  add_fail_flag(*cmd, f->fail);
  add_flow_flags(*cmd, f->flows, true);
  add_hash_flags(*cmd, f->hash, false);
  cmd->add_option("--svg", f->svg, "Write the three fabrics, links drawn by load, to this SVG file");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] { return run_polarize(*f); });
}

}  // namespace netlab::lab_dc
