#pragma once
// The expected facts of a golden capture: the outputs of the project's analyzers on it
// (netlab-ladder --json always; lab-http/lab-ftp/lab-smtp/lab-pop3 analyze --json for each
// protocol they recognise), stored as "checks" that tests/integration/capture/golden_test.cpp
// re-runs and compares. A check is {"argv": [...], "expect": {...}}: argv[0] is a netlab binary
// name, "{capture}" stands for the capture's path, in argv and in the expected output alike.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace netlab::record {

inline constexpr const char* capture_placeholder = "{capture}";

// The protocols netlab-record can recognise, in the order their checks are written.
const std::vector<std::string>& known_protocols();

// Runs one analyzer (a binary next to this program) on `capture`; throws netlib::app::failure
// when it fails or prints no JSON. Strings equal to the capture's path become "{capture}".
nlohmann::json run_check(const std::vector<std::string>& argv_template, const std::string& capture);

// The facts document for `capture` (the file name, relative to the facts file). `protocols`
// empty: every protocol whose analyzer finds something (FTP sessions on a server that SMTP also
// claims do not count: both greet with 220).
nlohmann::json make_facts(const std::string& name, const std::string& capture_path, const std::string& capture_file,
                          const std::vector<std::string>& protocols);

}  // namespace netlab::record
