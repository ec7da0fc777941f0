#pragma once
// What a placement does to the fabric (docs/architecture.md, "Data-centre core"): bytes and flows
// per arc (link and direction), utilisation over a time window, the maximum link utilisation
// (MLU), unused links per tier, and the polarization figures: the share of a tier's uplinks that
// carry nothing and Jain's fairness index of their loads, (Σx)² / (n·Σx²), which is 1 when every
// uplink carries the same and 1/n when one carries everything.
#include <cstdint>
#include <span>
#include <vector>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/topology.hpp"

namespace netlib::dc {

struct placement {
  std::vector<double> arc_bytes;         // per arc
  std::vector<std::uint32_t> arc_flows;  // per arc: flows whose path uses it
  // With keep_paths: flow i's arcs are path_arcs[path_begin[i] .. path_begin[i + 1]).
  std::vector<arc_id> path_arcs;
  std::vector<std::uint32_t> path_begin;
  std::size_t placed = 0;         // flows that crossed at least one link
  std::size_t same_host = 0;      // flows whose two ends are the same host (no link at all)
  std::size_t within_switch = 0;  // placed flows between two hosts of one switch (host links only)
  std::size_t crossing = 0;       // placed flows between switches: the ones ECMP routes
};

placement place_flows(const ecmp_model& model, std::span<const flow> flows, bool keep_paths);

double jain_index(std::span<const double> loads) noexcept;  // 1 for an empty or all-zero list

// One tier's links between tier t and t + 1.
struct tier_figures {
  int tier = 0;  // t: uplinks go from tier t to t + 1
  std::size_t uplinks = 0;
  std::size_t unused_uplinks = 0;
  std::size_t downlinks = 0;
  std::size_t unused_downlinks = 0;
  double uplink_jain = 1;
  double downlink_jain = 1;
  double max_utilisation = 0;  // over both directions
  [[nodiscard]] double unused_uplink_share() const noexcept {
    return uplinks ? static_cast<double>(unused_uplinks) / static_cast<double>(uplinks) : 0;
  }
};

struct load_summary {
  double window_s = 1;
  std::vector<double> utilisation;  // per arc: bytes·8 / (capacity · window)
  double mlu = 0;
  arc_id busiest = 0;
  std::vector<tier_figures> tiers;  // tier 0 (host links) up to max_tier - 1
  // Links joining two switches of the same tier are counted nowhere above; how many there are.
  std::size_t same_tier_links = 0;
};

load_summary summarize_loads(const topology& t, std::span<const double> arc_bytes, double window_s);

}  // namespace netlib::dc
