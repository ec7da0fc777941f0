// Tour steps for instructors: a capture's Wireshark-lab questions answered by the analyzers and a
// student's answers graded against them, and a real client (curl) graded against the reference
// web server.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "tour.hpp"

namespace netlab::tour {
namespace {

void capture_questions(const context& ctx) {
  const std::string capture = context::capture("http/serve-session.pcapng");
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
  auto graded = ctx.run_json(
      {ctx.bin("netlab-grade"), "questions", capture, "--select", "http", "--answers", answers, "--json"}, {}, 1);
  ctx.say(fmt::format("an answers file with one planted mistake: {:g} of {:g} points", graded.at("score").get<double>(),
                      graded.at("max_score").get<double>()));
  context::check(graded.at("score") < graded.at("max_score") && graded.at("score") > 0,
                 "exactly the planted mistake must lose points");
}

void grade_a_client(const context& ctx) {
  // curl when it is installed; otherwise netlab's own client, which gets full marks too.
  std::string client = "curl -s {url}";
  if (!ctx.peer("curl")) {
    client = "lab-http get {url} -o {out}";
    ctx.say("curl is not installed: grading lab-http get as the client instead");
  }
  auto graded = ctx.run_json({ctx.bin("netlab-grade"), "http", "--client", client, "--json"});
  ctx.say(fmt::format("netlab-grade http --client '{}': {:g} of {:g} points", client, graded.at("score").get<double>(),
                      graded.at("max_score").get<double>()));
  context::check(graded.at("score") == graded.at("max_score"), client + " must get full marks as an HTTP client");
}

}  // namespace

std::vector<step> instructor_steps() {
  return {
      {"netlab-grade", "Wireshark-lab questions answered from a capture, and an answers file graded",
       capture_questions},
      {"netlab-grade", "a real client (curl, or lab-http get) graded against the reference web server", grade_a_client},
  };
}

}  // namespace netlab::tour
