#pragma once
// How lab-dc shows loads: one row per link with both directions, the tier figures (unused
// uplinks, Jain's index) and the MLU, as text and as JSON.
#include <nlohmann/json.hpp>

#include <span>
#include <string>

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
nlohmann::json hash_json(const netlib::dc::hash_config& c);
// Every flow with its key and bytes, numbered from 0 (what a student computes paths for).
nlohmann::json flows_json(const netlib::dc::topology& t, std::span<const netlib::dc::flow> flows);
// Every flow with its key, bytes and path; each switch that chose, with its hash and choice.
nlohmann::json paths_json(const netlib::dc::ecmp_model& m, std::span<const netlib::dc::flow> flows,
                          const netlib::dc::placement& p, const netlib::dc::routes& r);

}  // namespace netlab::lab_dc
