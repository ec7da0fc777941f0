#pragma once
// lab-pop3 subcommands, one file each.
#include <CLI/CLI.hpp>

namespace lab_pop3 {
void add_serve(CLI::App& app);
void add_fetch(CLI::App& app);
void add_analyze(CLI::App& app);
}  // namespace lab_pop3
