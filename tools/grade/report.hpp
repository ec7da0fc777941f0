#pragma once
// Renderings of a suite result: a human table, one JSON document, JUnit XML and Gradescope's
// results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/).
#include <nlohmann/json.hpp>

#include <string>

#include "check.hpp"

namespace netlab::grade {

std::string render_table(const suite_result& r, bool color);
nlohmann::json to_json(const suite_result& r);
std::string to_junit(const suite_result& r);
// Gradescope results.json: score, max_score, output, visibility, tests[] with name, number,
// score, max_score, status, output, tags, visibility.
nlohmann::json to_gradescope(const suite_result& r);

// Writes text to a file or throws netlib::app::failure naming the file.
void write_file(const std::string& path, const std::string& text);

}  // namespace netlab::grade
