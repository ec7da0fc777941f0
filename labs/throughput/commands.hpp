#pragma once
// lab-throughput's subcommands, one registration function per group.
#include <CLI/CLI.hpp>

namespace netlab::lab_throughput {

void add_calculator_commands(CLI::App& app);  // path, switching, http, cache
void add_live_commands(CLI::App& app);        // serve, measure
void add_experiment_command(CLI::App& app);   // experiment

}  // namespace netlab::lab_throughput
