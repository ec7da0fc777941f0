#pragma once
// `lab-http get URL`: the client with per-object timing and the response-time model.
#include <CLI/CLI.hpp>

namespace lab_http {

void add_get_command(CLI::App& app);

}  // namespace lab_http
