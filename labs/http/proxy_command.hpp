#pragma once
// `lab-http proxy`: the forward caching proxy.
#include <CLI/CLI.hpp>

namespace lab_http {

void add_proxy_command(CLI::App& app);

}  // namespace lab_http
