// Shared output flags and the exit code of netlab-grade.
#include "output.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "netlib/app/program.hpp"
#include "report.hpp"

namespace netlab::grade {

namespace {

const std::vector<std::string> visibilities{"visible", "hidden", "after_due_date", "after_published"};

// "NAME=VALUE" into its two halves; a usage error naming the flag otherwise.
std::pair<std::string, std::string> split_pair(const std::string& flag, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw netlib::app::usage_error(flag + " takes NAME=VALUE, not '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace

void add_output_options(CLI::App& cmd, output_options& out) {
  netlib::app::add_json_flag(cmd, out.json);
  cmd.add_option("--junit", out.junit, "Also write the results as JUnit XML to this file");
  cmd.add_option("--gradescope", out.gradescope,
                 "Also write Gradescope's results.json to this file (e.g. /autograder/results/results.json)");
  auto* g = cmd.add_option_group("Gradescope", "How --gradescope FILE presents the results");
  g->add_option("--visibility", out.gs.visibility,
                "When students see the tests: visible, hidden, after_due_date or after_published (default visible)")
      ->check(CLI::IsMember(visibilities));
  g->add_option("--stdout-visibility", out.gs.stdout_visibility,
                "When students see run_autograder's output, the staff's log (default hidden)")
      ->check(CLI::IsMember(visibilities));
  g->add_option_function<std::vector<std::string>>(
       "--check-visibility",
       [&out](const std::vector<std::string>& items) {
         for (const auto& item : items) {
           auto [name, visibility] = split_pair("--check-visibility", item);
           if (std::find(visibilities.begin(), visibilities.end(), visibility) == visibilities.end())
             throw CLI::ValidationError(
                 "--check-visibility",
                 "'" + visibility + "' is not one of visible, hidden, after_due_date, after_published");
           out.gs.check_visibility.emplace_back(name, visibility);
         }
       },
       "One check's visibility, e.g. pipelining_in_order=after_due_date ('*': every check; repeat)")
      ->type_name("NAME=VISIBILITY");
  g->add_option("--note", out.gs.messages, "A line shown first in the student's summary (repeat)");
  g->add_option("--label", out.gs.label, "Name this part of a combined results.json (tests read 'LABEL: check')");
  g->add_flag("--gradescope-append", out.gs.append,
              "Add these tests to the results already in the --gradescope file (one results.json for several "
              "suites; scores add up)");
  g->add_option("--output-format", out.gs.output_format, "Format of the student-facing summary: text or md")
      ->check(CLI::IsMember({"text", "md"}));
  g->add_option_function<std::vector<std::string>>(
       "--extra",
       [&out](const std::vector<std::string>& items) {
         for (const auto& item : items) out.gs.extra.push_back(split_pair("--extra", item));
       },
       "A KEY=VALUE kept in extra_data for the staff (repeat), e.g. seed=123")
      ->type_name("KEY=VALUE");
}

int emit(const suite_result& r, const output_options& out) {
  if (!out.junit.empty()) write_file(out.junit, to_junit(r));
  if (!out.gradescope.empty()) {
    // A name no check of this suite has is said on stderr (the staff's log): with several suites in
    // one results.json, each gets the autograder's whole list.
    for (const auto& [name, visibility] : out.gs.check_visibility) {
      const bool known = name == "*" || std::any_of(r.checks.begin(), r.checks.end(),
                                                    [&](const check_result& c) { return c.name == name; });
      if (!known)
        std::cerr << "netlab-grade: --check-visibility: this " << r.suite << " suite has no check named '" << name
                  << "'\n";
    }
    nlohmann::json previous;
    if (out.gs.append) {
      std::ifstream in(out.gradescope, std::ios::binary);
      if (in) {
        std::stringstream text;
        text << in.rdbuf();
        try {
          previous = nlohmann::json::parse(text.str());
        } catch (const nlohmann::json::exception& e) {
          throw netlib::app::failure(out.gradescope + ": cannot add to it, it is not JSON (" + e.what() + ")");
        }
      }
    }
    write_file(out.gradescope, netlib::app::tidy_numbers(to_gradescope(r, out.gs, previous)).dump(2) + "\n");
  }
  if (out.json) {
    netlib::app::print_json(to_json(r));
  } else {
    std::cout << render_table(r, isatty(STDOUT_FILENO) != 0) << std::flush;
  }
  return r.all_passed() ? netlib::app::exit_ok : netlib::app::exit_failure;
}

}  // namespace netlab::grade
