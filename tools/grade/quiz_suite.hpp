#pragma once
// `netlab-grade quiz delay|dc --seed S --answers FILE`: a student's answers to `lab-delay quiz` or
// `lab-dc quiz` with the same seed, graded against the key the lab prints (`quiz --answers
// --json`, run from beside netlab-grade). One check per problem, worth 1 point, with partial credit
// for each of its values that is right. Numbers are right within a relative tolerance (default
// 1%) and may carry a unit where the value has one (total_s: "156 ms"; *_bps: "1.18 Mbps");
// an unbounded value (null in the key) is answered "unbounded"; words (a bottleneck) compare
// without case.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "check.hpp"

namespace netlab::grade {

struct quiz_options {
  std::string lab;  // "delay" or "dc"
  std::uint64_t seed = 0;
  int count = 5;
  std::string answers;      // the student's file: "N.value: answer" lines or a JSON object
  double tolerance = 0.01;  // relative
  std::string lab_binary;   // default: lab-LAB beside netlab-grade
};

// Grades answers (by "N.value" id) against the key document the lab printed. `error` (from
// read_submitted_answers) is the reason every problem fails when the answers file could not be read.
suite_result grade_quiz(const nlohmann::json& key, const std::map<std::string, std::string>& answers,
                        const quiz_options& options, const std::string& error = {});
// True when `given` answers `expected` (a number, null, bool or word) for value `name`.
bool quiz_value_right(const std::string& name, const nlohmann::json& expected, const std::string& given,
                      double tolerance);

void add_quiz_command(CLI::App& app);

}  // namespace netlab::grade
