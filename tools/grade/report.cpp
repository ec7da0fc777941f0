// Renderings of a suite result (table, JSON, JUnit XML, Gradescope results.json) and the
// suite_result arithmetic they share.
#include "report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "netlib/app/program.hpp"

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

std::string printable(std::string_view bytes, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (out.size() >= limit) return out + fmt::format("... ({} bytes)", bytes.size());
    const auto ch = static_cast<unsigned char>(bytes[i]);
    if (ch == '\r') out += "\\r";
    else if (ch == '\n') out += "\\n";
    else if (ch == '\\') out += "\\\\";
    else if (ch < 0x20 || ch >= 0x7f) out += fmt::format("\\x{:02x}", ch);
    else out += static_cast<char>(ch);
  }
  return out;
}

namespace {

std::string points(double v) { return fmt::format("{:g}", v); }

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

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

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
    out += fmt::format("{}  {:>6}  {:<{}}  {}\n", mark(c.passed), points(c.score()) + "/" + points(c.weight),
                       c.name, width, c.rule);
  }
  std::size_t passed = 0;
  for (const auto& c : r.checks) {
    if (c.passed) {
      ++passed;
      continue;
    }
    out += fmt::format("\n{}: {}\n  {}\n", c.name, c.description, failure_text(c));
  }
  out += fmt::format("\nscore {}/{} ({} of {} checks passed)\n", points(r.score()), points(r.max_score()), passed,
                     r.checks.size());
  return out;
}

nlohmann::json to_json(const suite_result& r) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : r.checks) {
    nlohmann::json j{{"name", c.name},         {"rule", c.rule},   {"description", c.description},
                     {"weight", c.weight},     {"score", c.score()}, {"passed", c.passed}};
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
  return {{"suite", r.suite},         {"target", r.target}, {"score", r.score()},
          {"max_score", r.max_score()}, {"passed", r.all_passed()}, {"failed_count", failed},
          {"checks", checks}};
}

std::string to_junit(const suite_result& r) {
  std::size_t failures = 0;
  for (const auto& c : r.checks) failures += c.passed ? 0 : 1;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites>\n  <testsuite name=\"netlab-grade.{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
                     xml_escape(r.suite), r.checks.size(), failures);
  for (const auto& c : r.checks) {
    out += fmt::format("    <testcase classname=\"netlab-grade.{}\" name=\"{}\">\n", xml_escape(r.suite),
                       xml_escape(c.name));
    out += fmt::format("      <properties><property name=\"rule\" value=\"{}\"/><property name=\"weight\" "
                       "value=\"{}\"/></properties>\n",
                       xml_escape(c.rule), points(c.weight));
    if (!c.passed) {
      out += fmt::format("      <failure message=\"{}\">{}</failure>\n", xml_escape(c.reason),
                         xml_escape(failure_text(c)));
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

nlohmann::json to_gradescope(const suite_result& r) {
  nlohmann::json tests = nlohmann::json::array();
  int number = 1;
  for (const auto& c : r.checks) {
    tests.push_back({{"name", c.name},
                     {"number", fmt::format("{}.{}", r.suite, number++)},
                     {"score", c.score()},
                     {"max_score", c.weight},
                     {"status", c.passed ? "passed" : "failed"},
                     {"output", check_output(c)},
                     {"tags", nlohmann::json::array({r.suite})},
                     {"visibility", "visible"}});
  }
  return {{"score", r.score()},
          {"max_score", r.max_score()},
          {"output", fmt::format("netlab-grade {} against {}: {}/{}", r.suite, r.target, points(r.score()),
                                 points(r.max_score()))},
          {"visibility", "visible"},
          {"stdout_visibility", "visible"},
          {"tests", tests}};
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw netlib::app::failure(fmt::format("{}: cannot write the file", path));
}

}  // namespace netlab::grade
