#pragma once
#include <CLI/CLI.hpp>

namespace lab_ftp {
// lab-ftp get URL [-o FILE], put FILE URL, ls URL, and the interactive `client`.
void add_client_commands(CLI::App& app);
}  // namespace lab_ftp
