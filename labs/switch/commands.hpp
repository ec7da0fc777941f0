#pragma once
#include <CLI/CLI.hpp>

namespace netlab::lab_switch {

void add_replay_command(CLI::App& app);
void add_make_captures_command(CLI::App& app);
void add_live_commands(CLI::App& app);

}  // namespace netlab::lab_switch
