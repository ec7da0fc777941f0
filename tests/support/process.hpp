#pragma once
// The process harness for integration tests is netlib::app's (shared with netlab-tour and
// netlab-grade): start a program, wait for its readiness line with a deadline (never a sleep),
// talk to it, always kill it. Here: the names tests use, and paths of the build and source trees.
#include <string>

#include "netlib/app/process.hpp"

namespace netlab::test {

using netlib::app::process;
using netlib::app::run;
using netlib::app::run_result;

// Path of a netlab program built with the tests: bin_path("lab-http").
inline std::string bin_path(const std::string& program) {
  return std::string(NETLAB_BIN_DIR) + "/" + program;
}
// Path inside the source tree: source_path("captures/http").
inline std::string source_path(const std::string& relative) {
  return std::string(NETLAB_SOURCE_DIR) + "/" + relative;
}

}  // namespace netlab::test
