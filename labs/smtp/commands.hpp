#pragma once
// lab-smtp subcommands, one file each.
#include <CLI/CLI.hpp>

namespace lab_smtp {
void add_serve(CLI::App& app);
void add_send(CLI::App& app);
void add_analyze(CLI::App& app);
}  // namespace lab_smtp
