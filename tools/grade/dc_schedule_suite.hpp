#pragma once
// `netlab-grade dc --job ...`: grade a student's schedule of ring all-reduce jobs against the
// reference model (`lab-dc collective --json --paths` with the same flags): every flow's path, the
// colliding links, every step's end, and each job's all-reduce time, algbw and busbw, each check
// with partial credit.
#include <string>
#include <vector>

#include "check.hpp"

namespace netlab::grade {

struct dc_schedule_options {
  std::string answers;                       // the student's JSON file
  std::string lab_dc;                        // path of the reference lab-dc binary
  std::vector<std::string> collective_args;  // passed to `lab-dc collective` (--topology, --job, --hash, ...)
  std::string scheduler = "fair";            // fair or crux: the schedule graded
  std::vector<std::string> grade;            // path, collisions, steps, bandwidth (empty: all)
  double tolerance = 0.01;                   // relative, for times and bandwidths
};

// Throws netlib::app::failure when the reference cannot run.
suite_result run_dc_schedule_suite(const dc_schedule_options& options);

}  // namespace netlab::grade
