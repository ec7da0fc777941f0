#pragma once
// Textbook-style practice problems with randomized numbers. The same seed gives the same problems
// (and answers) on every platform: numbers come from netlib::calc::prng, answers from netlib::calc.
// Problem k does not depend on how many problems are asked for.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace netlab::lab_delay {

struct quiz_problem {
  int number = 0;
  std::string kind;          // nodal, e2e, queue, throughput, switching, http, cache
  std::string question;
  std::string check_command; // the lab command that computes the answer
  nlohmann::json given;      // the numbers, in SI units with the unit in the key
  nlohmann::json answer;     // the answer key, same conventions
  std::string answer_text;
};

std::vector<quiz_problem> make_quiz(std::uint64_t seed, int count);

}  // namespace netlab::lab_delay
