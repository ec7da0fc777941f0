// The labs' quiz: see quiz.hpp.
#include "netlib/app/quiz.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "netlib/app/program.hpp"

namespace netlib::app {

std::vector<quiz_question> make_quiz(std::span<const quiz_kind> kinds, std::uint64_t seed, int count) {
  std::vector<quiz_question> out;
  for (int i = 0; i < count; ++i) {
    // Each question from its own stream: question k is the same whatever the count.
    calc::prng g(seed * 1000003u + static_cast<std::uint64_t>(i));
    quiz_question q;
    q.number = i + 1;
    const auto& kind = kinds[static_cast<std::size_t>(g.between(0, static_cast<long long>(kinds.size()) - 1))];
    q.kind = kind.name;
    kind.make(g, q);
    out.push_back(std::move(q));
  }
  return out;
}

nlohmann::json quiz_json(const std::vector<quiz_question>& questions, std::uint64_t seed, bool answers) {
  nlohmann::json doc = {{"seed", seed}, {"count", questions.size()}, {"questions", nlohmann::json::array()}};
  for (const auto& q : questions) {
    nlohmann::json item = {{"number", q.number}, {"kind", q.kind}, {"question", q.question}, {"given", q.given}};
    if (answers) {
      item["answer"] = q.answer;
      item["answer_text"] = q.answer_text;
      if (!q.check_command.empty()) item["check_command"] = q.check_command;
    }
    doc["questions"].push_back(std::move(item));
  }
  return doc;
}

std::string quiz_text(const std::vector<quiz_question>& questions, bool answers) {
  std::string out;
  for (const auto& q : questions) {
    out += fmt::format("Question {} ({}): {}\n", q.number, q.kind, q.question);
    if (answers) {
      out += fmt::format("  Answer: {}\n", q.answer_text);
      if (!q.check_command.empty()) out += fmt::format("  Check:  {}\n", q.check_command);
    }
    out += '\n';
  }
  return out;
}

void add_quiz_command(CLI::App& app, std::span<const quiz_kind> kinds, const std::string& description,
                      const std::string& example) {
  struct flags {
    std::uint64_t seed = 0;
    int count = 5;
    bool answers = false, json = false;
  };
  auto f = std::make_shared<flags>();
  auto* cmd = add_command(app, "quiz", description, example);
  cmd->add_option("--seed", f->seed, "Seed: the same seed gives the same questions everywhere")->required();
  cmd->add_option("--count", f->count, "Number of questions (default 5)")->check(CLI::Range(1, 1000));
  cmd->add_flag("--answers", f->answers, "Also print the answer key");
  add_json_flag(*cmd, f->json);
  set_action(*cmd, [f, kinds] {
    const auto questions = make_quiz(kinds, f->seed, f->count);
    if (f->json) {
      print_json(quiz_json(questions, f->seed, f->answers));
    } else {
      std::cout << quiz_text(questions, f->answers);
      std::cout.flush();
    }
    return exit_ok;
  });
}

}  // namespace netlib::app
