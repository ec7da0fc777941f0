// Tour steps for instructors: a capture's Wireshark-lab questions answered by the analyzers and a
// student's answers graded against them, and a real client (curl) graded against the reference
// web server.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "tour.hpp"

namespace netlab::tour {
namespace {

std::string captures(const std::string& relative) { return std::string(NETLAB_CAPTURES_DIR) + "/" + relative; }

void capture_questions(const context& ctx) {
  const std::string capture = captures("http/serve-session.pcapng");
  auto key = ctx.run_json({ctx.bin("netlab-grade"), "questions", capture, "--key", "--select", "http", "--json"});
  const auto& questions = key.at("questions");
  context::check(!questions.empty(), "the HTTP capture must answer HTTP questions");
  const auto& example = questions[std::min<std::size_t>(3, questions.size() - 1)];
  ctx.say(fmt::format("{} HTTP questions answered from the capture, e.g. \"{}\" -> {}", questions.size(),
                      example.at("text").get<std::string>(), example.at("answer").get<std::string>()));
  // A student's answers file: every answer from the key but the first, which is wrong.
  const std::string answers = ctx.scratch("questions") + "/answers.txt";
  std::ofstream out(answers);
  for (std::size_t i = 0; i < questions.size(); ++i)
    out << questions[i].at("id").get<std::string>() << ": "
        << (i == 0 ? std::string("999") : questions[i].at("answer").get<std::string>()) << '\n';
  out.close();
  // Exit 1: not every answer is right.
  auto graded = ctx.run_json({ctx.bin("netlab-grade"), "questions", capture, "--select", "http", "--answers", answers,
                              "--json"},
                             {}, 1);
  ctx.say(fmt::format("an answers file with one planted mistake: {:g} of {:g} points", graded.at("score").get<double>(),
                      graded.at("max_score").get<double>()));
  context::check(graded.at("score") < graded.at("max_score") && graded.at("score") > 0,
                 "exactly the planted mistake must lose points");
}

void grade_a_client(const context& ctx) {
  auto graded = ctx.run_json({ctx.bin("netlab-grade"), "http", "--client", "curl -s {url}", "--json"});
  ctx.say(fmt::format("netlab-grade http --client 'curl -s {{url}}': {:g} of {:g} points", graded.at("score").get<double>(),
                      graded.at("max_score").get<double>()));
  context::check(graded.at("score") == graded.at("max_score"), "curl must get full marks as an HTTP client");
}

}  // namespace

std::vector<step> instructor_steps() {
  return {
      {"netlab-grade", "Wireshark-lab questions answered from a capture, and an answers file graded", capture_questions},
      {"netlab-grade", "a real client (curl) graded against the reference web server", grade_a_client},
  };
}

}  // namespace netlab::tour
