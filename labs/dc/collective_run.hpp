#pragma once
// lab-dc run --collective: the jobs' ranks in network namespaces run a real TCP ring all-reduce
// (ring_allreduce.hpp) over the rate-limited fabric (link_shaping.hpp), with the switches hashing
// the 5-tuple (rehash.hpp); the kernel's path for every flow is read hop by hop with `ip route
// get`, and the measured step and completion times are shown beside the model's (netlib::dc's
// simulate_collective with the same paths, frame bytes and scaled rates).
#include <cstdint>
#include <string>
#include <vector>

#include "link_shaping.hpp"
#include "options.hpp"

namespace netlab::lab_dc {

struct live_collective_options {
  fabric_flags fabric;
  std::vector<std::string> jobs;
  std::string policy = "l4";
  std::uint32_t hash_seed = 1;
  double scale = 0.01;
  queue_kind queues = queue_kind::fair;
  double deadline_s = 30;
  double tolerance = 0.25;  // of each job's all-reduce time, measured against the model
  bool json = false, verbose = false;
};

// Needs root (the caller checks). Returns the exit code; throws usage_error or failure.
int run_collective_live(const live_collective_options& o);

}  // namespace netlab::lab_dc
