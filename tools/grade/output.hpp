#pragma once
// The output flags every netlab-grade subcommand shares (--json, --junit FILE, --gradescope FILE
// with its Gradescope options) and the exit code: 0 when every check passed, 1 otherwise.
#include <CLI/CLI.hpp>

#include <string>
#include <utility>
#include <vector>

#include "check.hpp"

namespace netlab::grade {

// What an autograder chooses about Gradescope's results.json (its documented fields:
// docs/instructor.md, "Gradescope").
struct gradescope_options {
  std::string visibility = "visible";                                 // top level: every test without its own setting
  std::string stdout_visibility = "hidden";                           // run_autograder's stdout is the staff's full log
  std::vector<std::pair<std::string, std::string>> check_visibility;  // check name (or *) -> visibility
  std::vector<std::string> messages;                                  // shown first in the student-facing output
  std::string label;                                       // this suite's part: test names become "LABEL: name"
  bool append = false;                                     // add this suite's tests to those already in the file
  std::string output_format = "text";                      // of the top-level output: text or md
  std::vector<std::pair<std::string, std::string>> extra;  // extra_data entries (staff only)
};

struct output_options {
  bool json = false;
  std::string junit;
  std::string gradescope;
  gradescope_options gs;
};

void add_output_options(CLI::App& cmd, output_options& out);
int emit(const suite_result& r, const output_options& out);

}  // namespace netlab::grade
