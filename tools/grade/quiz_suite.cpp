// `netlab-grade quiz`: answers to lab-delay's and lab-dc's seeded quizzes (quiz_suite.hpp).
#include "quiz_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <set>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"
#include "output.hpp"
#include "questions.hpp"

namespace netlab::grade {

namespace {

std::string lower_trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front()) {
    text.remove_prefix(1);
    text.remove_suffix(1);
  }
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A number as written, or with the unit the value's name says (seconds, bits per second).
std::optional<double> parse_value(const std::string& name, const std::string& text) {
  const std::string t = lower_trimmed(text);
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  const double plain = std::strtod(t.c_str(), &end);
  const char* rest = end;
  while (rest != nullptr && *rest != '\0' && std::isspace(static_cast<unsigned char>(*rest))) ++rest;
  if (end != t.c_str() && rest != nullptr && *rest == '\0') return plain;
  try {
    std::string compact;
    for (char c : text) {
      if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    }
    if (name.ends_with("_s")) return netlib::units::parse_duration_s(compact);
    if (name.ends_with("_bps")) return netlib::units::parse_rate_bps(compact);
  } catch (const netlib::units::unit_error&) {
  }
  return std::nullopt;
}

std::string expected_text(const nlohmann::json& v, double tolerance) {
  if (v.is_null()) return "unbounded";
  if (v.is_number()) return fmt::format("{:.6g} (within {:g}%)", v.get<double>(), tolerance * 100);
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

nlohmann::json run_key(const quiz_options& o) {
  const std::string binary = o.lab_binary.empty() ? netlib::app::own_directory() + "/lab-" + o.lab : o.lab_binary;
  const auto r = netlib::app::run(
      {binary, "quiz", "--seed", std::to_string(o.seed), "--count", std::to_string(o.count), "--answers", "--json"}, {},
      std::chrono::seconds(30));
  if (r.exit_code != 0)
    throw netlib::app::failure(fmt::format("{} quiz could not make the key (exit {}): {}", binary, r.exit_code, r.err));
  try {
    return nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::exception& e) {
    throw netlib::app::failure(fmt::format("{} quiz --json printed no JSON: {}", binary, e.what()));
  }
}

}  // namespace

bool quiz_value_right(const std::string& name, const nlohmann::json& expected, const std::string& given,
                      double tolerance) {
  const std::string g = lower_trimmed(given);
  if (expected.is_null()) return g == "unbounded" || g == "null" || g == "none" || g == "infinite" || g == "inf";
  if (expected.is_boolean()) {
    const bool yes = g == "true" || g == "yes", no = g == "false" || g == "no";
    return expected.get<bool>() ? yes : no;
  }
  if (expected.is_string()) return g == lower_trimmed(expected.get<std::string>());
  if (!expected.is_number()) return false;
  const auto value = parse_value(name, given);
  if (!value) return false;
  const double e = expected.get<double>();
  if (e == 0) return std::fabs(*value) <= 1e-12;
  return std::fabs(*value - e) <= tolerance * std::fabs(e);
}

suite_result grade_quiz(const nlohmann::json& key, const std::map<std::string, std::string>& answers,
                        const quiz_options& options, const std::string& error) {
  suite_result r{"quiz", fmt::format("lab-{} quiz --seed {}", options.lab, options.seed), {}};
  const auto& problems = key.at("questions");
  for (const auto& p : problems) {
    const int n = p.at("number").get<int>();
    auto c = make_check(fmt::format("problem_{}_{}", n, p.at("kind").get<std::string>()),
                        fmt::format("lab-{} quiz --seed {}, problem {}", options.lab, options.seed, n),
                        p.at("question").get<std::string>(), 1);
    std::size_t right = 0, total = 0;
    std::string wrong, given_text, expected;
    for (const auto& [value_name, value] : p.at("answer").items()) {
      ++total;
      const std::string id = fmt::format("{}.{}", n, value_name);
      const auto it = answers.find(id);
      const bool ok = it != answers.end() && quiz_value_right(value_name, value, it->second, options.tolerance);
      right += ok ? 1 : 0;
      if (!ok) {
        wrong += (wrong.empty() ? "" : ", ") + value_name;
        given_text += fmt::format("{}{}: {}", given_text.empty() ? "" : "; ", id,
                                  it == answers.end() ? std::string("(no answer)") : it->second);
        expected += fmt::format("{}{}: {}", expected.empty() ? "" : "; ", id, expected_text(value, options.tolerance));
      }
    }
    c.passed = total > 0 && right == total;
    if (!c.passed) {
      c.partial = total == 0 ? 0 : c.weight * static_cast<double>(right) / static_cast<double>(total);
      c.reason =
          !error.empty() ? error : fmt::format("{} of {} values right; wrong or missing: {}", right, total, wrong);
      c.received = given_text;
      c.expected = expected;
    }
    r.checks.push_back(std::move(c));
  }
  return r;
}

void add_quiz_command(CLI::App& app) {
  struct state {
    quiz_options o;
    output_options out;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "quiz",
      "Grade a student's answers to lab-delay quiz or lab-dc quiz with the same seed: one point per problem, "
      "partial credit per value, numbers within a tolerance",
      "netlab-grade quiz delay --seed 42 --count 5 --answers answers.txt --gradescope results.json\n"
      "  (answers: one 'N.value: answer' line per value the key names, e.g. '3.total_s: 156 ms', "
      "'2.response_without_cache_s: unbounded')");
  cmd->add_option("lab", s->o.lab, "The quiz: delay (lab-delay quiz) or dc (lab-dc quiz)")
      ->required()
      ->check(CLI::IsMember({"delay", "dc"}));
  cmd->add_option("--seed", s->o.seed, "The seed the student's quiz was made with")->required();
  cmd->add_option("--count", s->o.count, "Number of problems (as the quiz's --count; default 5)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--answers", s->o.answers,
                  "The student's answers: 'N.value: answer' lines ('#' comments) or a "
                  "JSON object {\"N.value\": answer}")
      ->required();
  cmd->add_option("--tolerance", s->o.tolerance, "Relative tolerance of numbers (default 0.01: 1%)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--lab-binary", s->o.lab_binary, "The lab program that makes the key (default: beside netlab-grade)");
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    // Graded whatever the file holds: missing, unreadable or malformed, every problem scores 0.
    const auto submitted = read_submitted_answers(s->o.answers);
    const auto& answers = submitted.answers;
    const auto key = run_key(s->o);
    const auto r = grade_quiz(key, answers, s->o, submitted.error);
    if (!submitted.error.empty()) {
      std::cerr << netlib::app::program_name() << ": warning: " << submitted.error << " (every problem scores 0)\n";
    }
    std::set<std::string> ids;
    for (const auto& p : key.at("questions"))
      for (const auto& [value_name, value] : p.at("answer").items())
        ids.insert(fmt::format("{}.{}", p.at("number").get<int>(), value_name));
    for (const auto& [id, answer] : answers) {
      if (!ids.contains(id))
        std::cerr << fmt::format("netlab-grade: {}: '{}' is not a value of this quiz (ignored)\n", s->o.answers, id);
    }
    return emit(r, s->out);
  });
}

}  // namespace netlab::grade
