#pragma once
// A conformance check's outcome: named, weighted, tied to an RFC rule or lab requirement, and on
// failure saying what was sent, what came back and what was expected.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace netlab::grade {

struct check_result {
  std::string name;         // snake_case, stable across runs: "conditional_get_304"
  std::string rule;         // "RFC 9110 §13.1.3" or "lab requirement: ..."
  std::string description;  // one line: what the check verifies
  double weight = 1;
  bool passed = false;
  std::string sent;               // what the grader sent (escaped, shortened)
  std::string received;           // what came back (escaped, shortened)
  std::string expected;           // what a conforming peer sends
  std::string reason;             // on failure: why it failed, in one sentence
  std::optional<double> partial;  // points earned by a failed check that gives partial credit

  [[nodiscard]] double score() const { return passed ? weight : partial.value_or(0); }
};

// A check not run yet (passed = false until its run says otherwise).
inline check_result make_check(std::string name, std::string rule, std::string description, double weight) {
  check_result c;
  c.name = std::move(name);
  c.rule = std::move(rule);
  c.description = std::move(description);
  c.weight = weight;
  return c;
}

// A figure a suite measured beside its checks (no points), e.g. requests per second against the
// reference server in the same run. Shown in every output; with `leaderboard`, also a Gradescope
// leaderboard entry (higher ranks first unless `ascending`).
struct measurement {
  std::string name;  // "requests_per_s_vs_lab_http"
  double value = 0;
  std::string unit;   // "ratio", "requests/s"
  std::string about;  // one line: how it was measured
  bool leaderboard = false;
  bool ascending = false;
};

struct suite_result {
  std::string suite;   // "http", "smtp", "switch"
  std::string target;  // "127.0.0.1:8080" or a file name
  std::vector<check_result> checks;
  std::vector<measurement> measurements;

  [[nodiscard]] double score() const;
  [[nodiscard]] double max_score() const;
  [[nodiscard]] bool all_passed() const;
};

// One check of a suite whose checks each run on their own connection (`Session`, built from the
// suite's options and the check's result): what it is and the function that runs it.
template <class Session>
struct session_check {
  const char* name;
  const char* rule;
  const char* description;
  double weight;
  void (*run)(Session&);
};

// Runs every check in order, each on a new Session; a check that did not finish itself is
// finished (its connection closed) after its function returns.
template <class Session, class Options>
suite_result run_session_checks(std::string suite, const Options& options,
                                std::span<const session_check<Session>> checks) {
  suite_result result{std::move(suite), options.host + ":" + std::to_string(options.port), {}};
  for (const auto& spec : checks) {
    auto c = make_check(spec.name, spec.rule, spec.description, spec.weight);
    Session s(options, c);
    spec.run(s);
    if (!s.finished()) s.finish();
    result.checks.push_back(std::move(c));
  }
  return result;
}

// A byte string made readable for a report: CR and LF shown as \r \n, other control bytes as
// \xNN, cut at `limit` characters with "... (N bytes)".
std::string printable(std::string_view bytes, std::size_t limit = 400);

// `c` failed: why (one sentence), what the client sent (made printable) and what was expected.
// For the client suites, whose checks read what a student's client put on the wire.
check_result fail(check_result c, std::string reason, std::string_view sent, std::string expected);

}  // namespace netlab::grade
