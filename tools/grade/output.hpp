#pragma once
// The output flags every netlab-grade subcommand shares (--json, --junit FILE, --gradescope FILE)
// and the exit code: 0 when every check passed, 1 otherwise.
#include <CLI/CLI.hpp>

#include <string>

#include "check.hpp"

namespace netlab::grade {

struct output_options {
  bool json = false;
  std::string junit;
  std::string gradescope;
};

void add_output_options(CLI::App& cmd, output_options& out);
int emit(const suite_result& r, const output_options& out);

}  // namespace netlab::grade
