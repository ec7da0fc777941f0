#pragma once
// `netlab-grade http --target HOST:PORT --throughput SECONDS --reference-root DIR`: how many
// keep-alive GETs of --path a server answers per second, measured against the reference (lab-http
// serve on DIR, started beside netlab-grade) in the same run, on the same machine, with the same
// client: the ratio is the leaderboard figure (a student's 0.8 means 80% of lab-http's rate here,
// whatever the CPU). Rounds alternate reference and target so that a machine slowing down in the
// middle affects both; every round is bounded in time and in requests.
#include <string>

#include "check.hpp"
#include "http_suite.hpp"

namespace netlab::grade {

struct throughput_options {
  double seconds = 1;          // of each round
  int rounds = 3;              // per server, alternating
  int connections = 2;         // concurrent keep-alive connections (each its own thread)
  std::string reference_root;  // the folder lab-http serves for the comparison (holding --path)
  std::string lab_http;        // the reference binary
};

// Adds the measurements to `r`: the target's and the reference's requests per second, and their
// ratio as a leaderboard entry. A target that answers nothing gets 0.
void measure_throughput(const http_options& target, const throughput_options& options, suite_result& r);

}  // namespace netlab::grade
