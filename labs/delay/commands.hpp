#pragma once
// lab-delay's subcommands, one registration function per group.
#include <CLI/CLI.hpp>

namespace netlab::lab_delay {

void add_calculator_commands(CLI::App& app);  // nodal, e2e, queue, little
void add_quiz_command(CLI::App& app);         // quiz
void add_simulate_command(CLI::App& app);     // simulate
void add_live_commands(CLI::App& app);        // echo, ping
void add_analyze_command(CLI::App& app);      // analyze

}  // namespace netlab::lab_delay
