#pragma once
// What a link failure does to the flows' paths (docs/architecture.md, "Data-centre core"): the
// fabric's routes before, the routes it converges to without the failed links (routes with
// `failed`), and each flow's path under both, with the next-hop groups hashed one way
// (nexthop_group.hpp). A resilient group keeps its buckets across the change (ecmp_model's
// constructor from the model before and its flows: a bucket none of them used is idle).
#include <cstdint>
#include <span>
#include <vector>

#include "netlib/dc/ecmp.hpp"

namespace netlib::dc {

struct failure_effect {
  group_hashing grouping = group_hashing::modulo;
  std::size_t crossing = 0;          // flows that use a link between switches, before
  std::size_t through_changed = 0;   // flows that meet, before, a switch whose group toward their
                                     // destination changed
  std::size_t had_to_move = 0;       // flows whose path crossed a failed link
  std::size_t moved = 0;             // flows whose path changed
  std::size_t moved_needlessly = 0;  // moved without having crossed a failed link
  std::vector<bool> flow_moved;      // per flow
};

// Throws topology_error when a flow has no route once the links are down (the failure cuts the
// fabric in two).
failure_effect failure_moves(const topology& t, std::span<const flow> flows, const hash_config& config,
                             std::span<const link_id> failed);

}  // namespace netlib::dc
