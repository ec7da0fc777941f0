#pragma once
// `netlab-record --golden NAME -- CMD...`: record an interface while a reference session command
// runs, stop when it exits, and write the golden test in one go:
//   DIR/NAME.pcapng      the capture (complete: flushed after every packet)
//   DIR/NAME.facts.json  the expected facts (golden_facts.hpp); this file IS the test entry:
//                        tests/integration/capture/golden_test.cpp checks every DIR/*.facts.json
//   DIR/NAME.recipe      the command line that made them (re-run it to re-record)
#include <string>
#include <vector>

#include "netlib/capture/live_capture.hpp"

namespace netlab::record {

struct golden_options {
  std::string name;
  std::string dir = "captures/golden";
  std::vector<std::string> command;    // the reference session
  std::vector<std::string> protocols;  // empty: the ones recognised
  double seconds = 120;                // longest the session may run
  bool json = false;
  bool refresh = false;  // rewrite NAME.facts.json from the existing NAME.pcapng
};

// Records, runs the session, writes the three files; returns the exit code. `invocation` is
// this program's own command line (written to the recipe). With `refresh`, only the facts are
// rewritten from the committed capture (after an analyzer's output changed on purpose).
int record_golden(const netlib::capture::live_options& live, const golden_options& options,
                  const std::vector<std::string>& invocation);

}  // namespace netlab::record
