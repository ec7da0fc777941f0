#pragma once
// `netlab-grade dc`: grade a student's ECMP work for a set of flows against the reference model
// (`lab-dc ecmp --json --paths` with the same flags): the hash each flow gets at its first
// switch with a choice, each flow's path, and the bytes on every link direction, with partial
// credit per flow and per link.
#include <string>
#include <vector>

#include "check.hpp"

namespace netlab::grade {

struct dc_options {
  std::string answers;                     // the student's JSON file
  std::string lab_dc;                      // path of the reference lab-dc binary
  std::vector<std::string> ecmp_args;      // passed to `lab-dc ecmp` (--topology, --flows, --hash, ...)
  std::vector<std::string> grade{"path"};  // what to grade: hash, path, loads
};

// Throws netlib::app::failure when the reference cannot run.
suite_result run_dc_suite(const dc_options& options);

}  // namespace netlab::grade
