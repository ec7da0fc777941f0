// Shared output flags and the exit code of netlab-grade.
#include "output.hpp"

#include <unistd.h>

#include <iostream>

#include "netlib/app/program.hpp"
#include "report.hpp"

namespace netlab::grade {

void add_output_options(CLI::App& cmd, output_options& out) {
  netlib::app::add_json_flag(cmd, out.json);
  cmd.add_option("--junit", out.junit, "Also write the results as JUnit XML to this file");
  cmd.add_option("--gradescope", out.gradescope,
                 "Also write Gradescope's results.json to this file (e.g. /autograder/results/results.json)");
}

int emit(const suite_result& r, const output_options& out) {
  if (!out.junit.empty()) write_file(out.junit, to_junit(r));
  if (!out.gradescope.empty()) write_file(out.gradescope, netlib::app::tidy_numbers(to_gradescope(r)).dump(2) + "\n");
  if (out.json) {
    netlib::app::print_json(to_json(r));
  } else {
    std::cout << render_table(r, isatty(STDOUT_FILENO) != 0) << std::flush;
  }
  return r.all_passed() ? netlib::app::exit_ok : netlib::app::exit_failure;
}

}  // namespace netlab::grade
