#pragma once
// `lab-http analyze CAPTURE`: every HTTP transaction in a capture.
#include <CLI/CLI.hpp>

namespace lab_http {

void add_analyze_command(CLI::App& app);

}  // namespace lab_http
