#pragma once
// lab-dc's subcommands, one registration function each.
#include <CLI/CLI.hpp>

namespace netlab::lab_dc {

void add_topology_command(CLI::App& app);    // topology: print or check a fabric
void add_ecmp_command(CLI::App& app);        // ecmp: per-link loads of flows under a hash
void add_polarize_command(CLI::App& app);    // polarize: one seed everywhere vs per switch vs other fields
void add_te_command(CLI::App& app);          // te: MLU per scheme per traffic matrix
void add_run_command(CLI::App& app);         // run: the fabric in network namespaces, measured
void add_quiz_command(CLI::App& app);        // quiz: numeric questions with an answer key
void add_collective_command(CLI::App& app);  // collective: ring all-reduce jobs under four schedulers
void add_collective_command(CLI::App& app);  // collective: ring all-reduce jobs under four schedulers

}  // namespace netlab::lab_dc
