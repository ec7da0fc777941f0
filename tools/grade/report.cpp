// Renderings of a suite result (table, JSON, JUnit XML, Gradescope results.json) and the
// suite_result arithmetic they share.
#include "report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "netlib/app/program.hpp"
#include "netlib/core/svg.hpp"
#include "output.hpp"

namespace netlab::grade {

double suite_result::score() const {
  double s = 0;
  for (const auto& c : checks) s += c.score();
  return s;
}

double suite_result::max_score() const {
  double s = 0;
  for (const auto& c : checks) s += c.weight;
  return s;
}

bool suite_result::all_passed() const {
  return std::all_of(checks.begin(), checks.end(), [](const check_result& c) { return c.passed; });
}

check_result fail(check_result c, std::string reason, std::string_view sent, std::string expected) {
  c.reason = std::move(reason);
  c.sent = printable(sent);
  c.expected = std::move(expected);
  return c;
}

std::string printable(std::string_view bytes, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (out.size() >= limit) return out + fmt::format("... ({} bytes)", bytes.size());
    const auto ch = static_cast<unsigned char>(bytes[i]);
    if (ch == '\r')
      out += "\\r";
    else if (ch == '\n')
      out += "\\n";
    else if (ch == '\\')
      out += "\\\\";
    else if (ch < 0x20 || ch >= 0x7f)
      out += fmt::format("\\x{:02x}", ch);
    else
      out += static_cast<char>(ch);
  }
  return out;
}

namespace {

// Whole points as integers, partial ones with two decimals ("0.81/2", not "0.809524/2").
std::string points(double v) {
  return std::abs(v - std::round(v)) < 5e-7 ? fmt::format("{:.0f}", v) : fmt::format("{:.2f}", v);
}

// The failure explanation shared by every rendering.
std::string failure_text(const check_result& c) {
  std::string t = c.reason.empty() ? std::string("failed") : c.reason;
  if (!c.sent.empty()) t += "\n  sent:     " + c.sent;
  t += "\n  received: " + (c.received.empty() ? std::string("(nothing)") : c.received);
  if (!c.expected.empty()) t += "\n  expected: " + c.expected;
  return t;
}

std::string check_output(const check_result& c) {
  std::string t = c.description + " [" + c.rule + "]";
  if (c.passed) return "passed: " + t;
  return "FAILED: " + t + "\n" + failure_text(c);
}

nlohmann::json measurements_json(const suite_result& r) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& m : r.measurements)
    list.push_back({{"name", m.name}, {"value", m.value}, {"unit", m.unit}, {"about", m.about}});
  return list;
}

using netlib::svg::escape;  // one XML escaper (netlib/core/svg.hpp)

}  // namespace

std::string render_table(const suite_result& r, bool color) {
  const auto mark = [&](bool ok) -> std::string {
    if (!color) return ok ? "PASS" : "FAIL";
    return ok ? "\x1b[32mPASS\x1b[0m" : "\x1b[31mFAIL\x1b[0m";
  };
  std::size_t width = 5;
  for (const auto& c : r.checks) width = std::max(width, c.name.size());
  std::string out = fmt::format("netlab-grade {} against {}\n\n", r.suite, r.target);
  out += fmt::format("{:<4}  {:>6}  {:<{}}  {}\n", "", "points", "check", width, "rule");
  for (const auto& c : r.checks) {
    out += fmt::format("{}  {:>6}  {:<{}}  {}\n", mark(c.passed), points(c.score()) + "/" + points(c.weight), c.name,
                       width, c.rule);
  }
  std::size_t passed = 0;
  for (const auto& c : r.checks) {
    if (c.passed) {
      ++passed;
      continue;
    }
    out += fmt::format("\n{}: {}\n  {}\n", c.name, c.description, failure_text(c));
  }
  for (const auto& m : r.measurements)
    out += fmt::format("\nmeasured: {} = {:.3g} {} ({})", m.name, m.value, m.unit, m.about);
  if (!r.measurements.empty()) out += "\n";
  out += fmt::format("\nscore {}/{} ({} of {} checks passed)\n", points(r.score()), points(r.max_score()), passed,
                     r.checks.size());
  return out;
}

nlohmann::json to_json(const suite_result& r) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : r.checks) {
    nlohmann::json j{{"name", c.name},     {"rule", c.rule},     {"description", c.description},
                     {"weight", c.weight}, {"score", c.score()}, {"passed", c.passed}};
    if (!c.passed) {
      j["reason"] = c.reason;
      j["sent"] = c.sent;
      j["received"] = c.received;
      j["expected"] = c.expected;
    }
    checks.push_back(std::move(j));
  }
  std::size_t failed = 0;
  for (const auto& c : r.checks) failed += c.passed ? 0 : 1;
  nlohmann::json doc{
      {"suite", r.suite},         {"target", r.target},     {"score", r.score()}, {"max_score", r.max_score()},
      {"passed", r.all_passed()}, {"failed_count", failed}, {"checks", checks}};
  if (!r.measurements.empty()) doc["measurements"] = measurements_json(r);
  return doc;
}

std::string to_junit(const suite_result& r) {
  std::size_t failures = 0;
  for (const auto& c : r.checks) failures += c.passed ? 0 : 1;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites>\n  <testsuite name=\"netlab-grade.{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                     escape(r.suite), r.checks.size(), failures);
  for (const auto& c : r.checks) {
    out += fmt::format("    <testcase classname=\"netlab-grade.{}\" name=\"{}\">\n", escape(r.suite), escape(c.name));
    out += fmt::format(
        "      <properties><property name=\"rule\" value=\"{}\"/><property name=\"weight\" "
        "value=\"{}\"/></properties>\n",
        escape(c.rule), points(c.weight));
    if (!c.passed) {
      out += fmt::format("      <failure message=\"{}\">{}</failure>\n", escape(c.reason), escape(failure_text(c)));
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

namespace {

std::string visibility_of(const check_result& c, const gradescope_options& o) {
  std::string v = o.visibility;
  for (const auto& [name, visibility] : o.check_visibility)
    if (name == "*" || name == c.name) v = visibility;  // the last that names it wins
  return v;
}

// One line of a failure for the student-facing summary.
std::string short_reason(const nlohmann::json& test) {
  std::string reason = test.value("extra_data", nlohmann::json::object()).value("reason", std::string("failed"));
  if (const auto nl = reason.find('\n'); nl != std::string::npos) reason.resize(nl);
  if (reason.size() > 120) reason = reason.substr(0, 117) + "...";
  return reason;
}

// The student-facing summary, rebuilt from every part in the document: messages, one line per
// part, the failed checks students may see now (with their reason) and how many are not shown yet.
std::string summary(const nlohmann::json& doc, bool md) {
  const auto& netlab = doc.at("extra_data").at("netlab");
  std::string out;
  for (const auto& m : netlab.at("messages")) out += m.get<std::string>() + "\n";
  if (!out.empty()) out += "\n";
  for (const auto& part : netlab.at("parts")) {
    std::size_t shown = 0, total = 0, passed = 0;
    for (const auto& t : doc.at("tests")) {
      if (t.at("extra_data").at("part") != part.at("index")) continue;
      ++total;
      shown += t.at("visibility") == "visible" ? 1 : 0;
      passed += t.at("status") == "passed" ? 1 : 0;
    }
    const std::string what = fmt::format(
        "netlab-grade {} against {}{}", part.at("suite").get<std::string>(), part.at("target").get<std::string>(),
        part.at("label").get<std::string>().empty() ? std::string() : " (" + part.at("label").get<std::string>() + ")");
    if (shown == total) {
      out += fmt::format(fmt::runtime(md ? "- {}: **{}/{} points** ({} of {} checks passed)\n"
                                         : "{}: {}/{} points ({} of {} checks passed)\n"),
                         what, points(part.at("score").get<double>()), points(part.at("max_score").get<double>()),
                         passed, total);
    } else {
      out += fmt::format("{}{}: {} checks, {} shown now (the score is shown when all of them are)\n", md ? "- " : "",
                         what, total, shown);
    }
  }
  std::string failed;
  std::size_t hidden = 0;
  for (const auto& t : doc.at("tests")) {
    if (t.at("visibility") != "visible") {
      ++hidden;
      continue;
    }
    if (t.at("status") == "passed") continue;
    failed +=
        fmt::format(fmt::runtime(md ? "- `{}`: {}\n" : "  {}: {}\n"), t.at("name").get<std::string>(), short_reason(t));
  }
  if (!failed.empty()) out += (md ? "\n**Failed:**\n" : "\nFailed:\n") + failed;
  if (hidden > 0)
    out += fmt::format("\n{} check{} not shown yet (after the due date or when grades are published).\n", hidden,
                       hidden == 1 ? " is" : "s are");
  std::string measured;
  for (const auto& part : netlab.at("parts"))
    for (const auto& m : part.at("measurements"))
      measured += fmt::format("{}  {}: {:.3g} {}\n", md ? "-" : "", m.at("name").get<std::string>(),
                              m.at("value").get<double>(), m.at("unit").get<std::string>());
  if (!measured.empty()) out += "\nMeasured (no points; the ratio is the leaderboard's figure):\n" + measured;
  if (!failed.empty()) out += "\nEach test below shows what was sent, what came back and what was expected.\n";
  return out;
}

}  // namespace

nlohmann::json to_gradescope(const suite_result& r, const gradescope_options& options, const nlohmann::json& previous) {
  nlohmann::json doc = previous.is_object() ? previous : nlohmann::json::object();
  if (!doc.contains("tests") || !doc["tests"].is_array()) doc["tests"] = nlohmann::json::array();
  auto& extra = doc["extra_data"];
  if (!extra.is_object()) extra = nlohmann::json::object();
  auto& netlab = extra["netlab"];
  if (!netlab.is_object()) netlab = {{"parts", nlohmann::json::array()}, {"messages", nlohmann::json::array()}};
  netlab["version"] = NETLAB_VERSION;
  const int part = static_cast<int>(netlab["parts"].size()) + 1;
  for (const auto& m : options.messages) netlab["messages"].push_back(m);
  for (const auto& [key, value] : options.extra) extra[key] = value;

  int number = 1;
  for (const auto& c : r.checks) {
    nlohmann::json test_extra{{"part", part}, {"check", c.name}, {"rule", c.rule}};
    if (!c.passed) test_extra["reason"] = c.reason.empty() ? std::string("failed") : c.reason;
    doc["tests"].push_back({{"name", options.label.empty() ? c.name : options.label + ": " + c.name},
                            {"number", fmt::format("{}.{}", part, number++)},
                            {"score", c.score()},
                            {"max_score", c.weight},
                            {"status", c.passed ? "passed" : "failed"},
                            {"output", check_output(c)},
                            {"output_format", "text"},
                            {"tags", options.label.empty() ? nlohmann::json::array({r.suite})
                                                           : nlohmann::json::array({r.suite, options.label})},
                            {"visibility", visibility_of(c, options)},
                            {"extra_data", std::move(test_extra)}});
  }
  netlab["parts"].push_back({{"index", part},
                             {"suite", r.suite},
                             {"target", r.target},
                             {"label", options.label},
                             {"score", r.score()},
                             {"max_score", r.max_score()},
                             {"measurements", measurements_json(r)}});
  for (const auto& m : r.measurements) {
    if (!m.leaderboard) continue;
    nlohmann::json entry{{"name", m.name}, {"value", m.value}};
    if (m.ascending) entry["order"] = "asc";
    doc["leaderboard"].push_back(std::move(entry));
  }

  double score = 0;
  for (const auto& t : doc["tests"]) score += t.at("score").get<double>();
  doc["score"] = score;
  doc["visibility"] = options.visibility;
  doc["stdout_visibility"] = options.stdout_visibility;
  doc["output_format"] = options.output_format;
  doc["output"] = summary(doc, options.output_format == "md");
  return doc;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw netlib::app::failure(fmt::format("{}: cannot write the file", path));
}

}  // namespace netlab::grade
