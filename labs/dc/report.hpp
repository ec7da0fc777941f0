#pragma once
// How lab-dc shows loads: one row per link with both directions, the tier figures (unused
// uplinks, Jain's index) and the MLU, as text and as JSON.
#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <vector>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/loads.hpp"
#include "netlib/dc/topology.hpp"

namespace netlab::lab_dc {

// The role of a tier's switches from their names ("leaf", "spine", "edge", "agg", "core"), or
// "tier N"; "host" for tier 0.
std::string role_name(const netlib::dc::topology& t, int tier);

// Per link: "a -- b", then flows/bytes/utilisation up (a -> b) and down. `flows` may be empty.
std::string loads_table(const netlib::dc::topology& t, std::span<const double> arc_bytes,
                        std::span<const std::uint32_t> arc_flows, const netlib::dc::load_summary& s);
std::string tiers_text(const netlib::dc::topology& t, const netlib::dc::load_summary& s);

nlohmann::json links_json(const netlib::dc::topology& t, std::span<const double> arc_bytes,
                          std::span<const std::uint32_t> arc_flows, const netlib::dc::load_summary& s);
nlohmann::json tiers_json(const netlib::dc::topology& t, const netlib::dc::load_summary& s);
nlohmann::json topology_json(const netlib::dc::topology& t);

// lab-dc run's verdict on the model against the kernel, judged where routing decides: on the
// links between switches, tier by tier (a host's own link carries its flows whatever the routing,
// and usually holds the MLU). With `exact` (UDP: every frame is counted) every link direction
// between switches must carry exactly the model's bytes; otherwise each tier's busiest direction,
// model against measured, within `tolerance` (relative to the measured one).
struct tier_verdict {
  int tier = 0;  // links from tier `tier` up to tier + 1
  std::size_t directions = 0, exact = 0;
  double model_mlu = 0, measured_mlu = 0, error = 0;
  bool within = false;
};
struct fabric_verdict {
  bool exact_required = false;
  double tolerance = 0;
  std::vector<tier_verdict> tiers;  // tiers 1 .. max_tier - 1 that have links
  std::size_t directions = 0, exact = 0;
  bool within = false;  // every tier agrees (vacuously true for a fabric of one switch)
};
fabric_verdict judge_fabric(const netlib::dc::topology& t, std::span<const double> predicted,
                            std::span<const double> measured, const netlib::dc::load_summary& model,
                            const netlib::dc::load_summary& real, bool exact_required, double tolerance);
std::string verdict_text(const netlib::dc::topology& t, const fabric_verdict& v);
nlohmann::json verdict_json(const netlib::dc::topology& t, const fabric_verdict& v);
nlohmann::json hash_json(const netlib::dc::hash_config& c);
// Where the flows went: "5 cross the fabric (ECMP routes them), 3 stay under their leaf (host links
// only), 0 have both ends on one host (no link)"; and as JSON (count, placed, same_host,
// within_switch, crossing_fabric).
std::string flows_count_text(const netlib::dc::topology& t, const netlib::dc::placement& p);
struct flow_set;
nlohmann::json flows_count_json(const flow_set& flows, const netlib::dc::placement& p);
// Every flow with its key and bytes, numbered from 0 (what a student computes paths for).
nlohmann::json flows_json(const netlib::dc::topology& t, std::span<const netlib::dc::flow> flows);
// Every flow with its key, bytes and path; each switch that chose, with its hash and choice.
nlohmann::json paths_json(const netlib::dc::ecmp_model& m, std::span<const netlib::dc::flow> flows,
                          const netlib::dc::placement& p, const netlib::dc::routes& r);

}  // namespace netlab::lab_dc
