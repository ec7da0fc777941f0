#pragma once
// Renderings of a suite result: a human table, one JSON document, JUnit XML and Gradescope's
// results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).
#include <nlohmann/json.hpp>

#include <string>

#include "check.hpp"

namespace netlab::grade {

struct gradescope_options;

std::string render_table(const suite_result& r, bool color);
nlohmann::json to_json(const suite_result& r);
std::string to_junit(const suite_result& r);
// Gradescope results.json with only the fields Gradescope documents
// (https://gradescope-autograders.readthedocs.io/en/latest/specs/): score, output, output_format,
// visibility, stdout_visibility, extra_data, tests[] (name, number, score, max_score, status,
// output, output_format, tags, visibility, extra_data) and leaderboard[] (name, value, order).
// `previous` is a results.json written before (--gradescope-append) whose tests are kept: the
// score, the student-facing summary and the leaderboard then cover every part.
nlohmann::json to_gradescope(const suite_result& r, const gradescope_options& options,
                             const nlohmann::json& previous = nullptr);

// Writes text to a file or throws netlib::app::failure naming the file.
void write_file(const std::string& path, const std::string& text);

}  // namespace netlab::grade
