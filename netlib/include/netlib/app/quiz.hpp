#pragma once
// The quiz every lab that has one offers (`lab-delay quiz`, `lab-dc quiz`): textbook-style
// questions whose numbers are drawn from a seed, with an answer key. A lab supplies its kinds of
// question, each a generator that draws its numbers with calc::prng, writes the question and
// computes the answer; the rest is here, the same for every lab:
//   - one seeding rule: question k (from 1) draws its kind and its numbers from its own stream,
//     calc::prng(seed * 1000003 + k - 1), so it is the same on every platform and whatever
//     --count is, and a kind that draws one number more moves no other question;
//   - one JSON shape, which `netlab-grade quiz` reads:
//       {"seed": 42, "count": 5, "questions": [{"number": 1, "kind": "nodal", "question": "...",
//        "given": {...}, with --answers also "answer": {...}, "answer_text": "...",
//        "check_command": "..." (when the lab has a command that computes it)}]}
//   - one text form: "Question 1 (nodal): ...", then with --answers "  Answer: ..." and
//     "  Check:  ...".
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "netlib/calc/prng.hpp"

namespace netlib::app {

struct quiz_question {
  int number = 0;  // from 1
  std::string kind;
  std::string question;
  std::string check_command;  // a lab command whose --json output gives the answer, or empty
  nlohmann::json given;       // the numbers, in SI units with the unit in the key
  nlohmann::json answer;      // the answer key, same conventions
  std::string answer_text;
};

struct quiz_kind {
  const char* name;
  void (*make)(calc::prng&, quiz_question&);
};

std::vector<quiz_question> make_quiz(std::span<const quiz_kind> kinds, std::uint64_t seed, int count);
nlohmann::json quiz_json(const std::vector<quiz_question>& questions, std::uint64_t seed, bool answers);
std::string quiz_text(const std::vector<quiz_question>& questions, bool answers);

// The `quiz` subcommand: --seed (required), --count (1 to 1000, default 5), --answers, --json.
// `kinds` must outlive the program's run (a static array).
void add_quiz_command(CLI::App& app, std::span<const quiz_kind> kinds, const std::string& description,
                      const std::string& example);

}  // namespace netlib::app
