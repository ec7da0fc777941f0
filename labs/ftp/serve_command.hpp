#pragma once
#include <CLI/CLI.hpp>

namespace lab_ftp {
void add_serve_command(CLI::App& app);
}
