#pragma once
// `lab-http serve`: the static web server with the cookie and Basic-auth labs.
#include <CLI/CLI.hpp>

namespace lab_http {

void add_serve_command(CLI::App& app);

}  // namespace lab_http
