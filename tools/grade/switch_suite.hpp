#pragma once
// `netlab-grade switch`: grade a student's forwarding decisions for a capture against the
// reference learning switch (`lab-switch replay --json`), one check per decision kind (the
// learning switch's steps 2..5), with partial credit per frame.
#include <string>
#include <vector>

#include "check.hpp"

namespace netlab::grade {

struct switch_options {
  std::string capture;                   // pcapng whose interface ids are the ports
  std::string decisions;                 // the student's JSON file
  std::string lab_switch;                // path of the reference lab-switch binary
  std::vector<std::string> switch_args;  // passed to `lab-switch replay` (--aging 10s, --vlan-config F)
  // The instructor fixed the policy choices (--policy, --static, --hairpin). Otherwise a student's
  // file may declare the documented policy its switch implements, {"switch": {"policy":
  // "stop-learning", "static": ["MAC=PORT"], "hairpin": [2]}}, and is graded against the
  // reference switch run with it.
  bool policy_fixed = false;
};

// Throws netlib::app::failure when the reference switch cannot replay the capture.
suite_result run_switch_suite(const switch_options& options);

}  // namespace netlab::grade
