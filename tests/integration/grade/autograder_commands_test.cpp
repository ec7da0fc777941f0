// netlab-grade's pieces for Gradescope autograders: the Gradescope options every suite has
// (--gradescope-append with --label, --check-visibility, --note, --extra), `variant` (the
// per-student seed), `notice` (a submission nothing can be graded in) and `quiz` (answers to
// lab-delay quiz and lab-dc quiz, with partial credit and units).
#include <fstream>
#include <iomanip>
#include <sstream>

#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

std::string number_text(double v) {
  std::ostringstream o;
  o << std::setprecision(17) << v;
  return o.str();
}

std::string points_text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

std::string metadata(const std::string& dir, const std::string& name, const std::string& users,
                     const std::string& assignment = "31415") {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << R"({"id": 7, "assignment": {"id": )" << assignment << R"(}, "users": [)" << users << "]}";
  return path;
}

std::string seed_of(const std::string& metadata_file, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{bin_path("netlab-grade"), "variant", "--metadata", metadata_file};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(AutograderCommands, VariantIsOnePerStudentOrGroupAndAssignment) {
  grade_site dir;
  const auto alice = metadata(dir.dir, "a.json", R"({"id": 1001, "email": "a@x.edu"})");
  const auto bob = metadata(dir.dir, "b.json", R"({"id": 1002, "email": "b@x.edu"})");
  const auto alice_again = metadata(dir.dir, "a2.json", R"({"id": "1001"})");
  const auto group = metadata(dir.dir, "g.json", R"({"id": 1002}, {"id": 1001})");
  const auto group_swapped = metadata(dir.dir, "g2.json", R"({"id": 1001}, {"id": 1002})");
  const auto other_assignment = metadata(dir.dir, "o.json", R"({"id": 1001})", "27182");
  EXPECT_NE(seed_of(alice), seed_of(bob));
  EXPECT_EQ(seed_of(alice), seed_of(alice_again)) << "an id written as a string is the same student";
  EXPECT_EQ(seed_of(group), seed_of(group_swapped)) << "a group shares one seed whatever the order";
  EXPECT_NE(seed_of(group), seed_of(alice));
  EXPECT_NE(seed_of(alice), seed_of(other_assignment));
  EXPECT_NE(seed_of(alice), seed_of(alice, {"--salt", "course secret"}));
  const auto n = std::stoull(seed_of(alice));
  EXPECT_LT(n, 1ull << 31);
  // No user id: a runtime failure, not a seed of nothing.
  const auto none = metadata(dir.dir, "n.json", "");
  const auto r = run({bin_path("netlab-grade"), "variant", "--metadata", none});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no user id"), std::string::npos) << r.err;
}

TEST(AutograderCommands, NoticeIsAVisibleFailedCheckWithTheReason) {
  grade_site dir;
  const auto gs = dir.dir + "/results.json";
  const auto r = run({bin_path("netlab-grade"), "notice", "--reason", "the submission has no answers.txt", "--points",
                      "5", "--visibility", "after_due_date", "--gradescope", gs});
  EXPECT_EQ(r.exit_code, 1);
  const auto j = read_json(gs);
  ASSERT_EQ(j["tests"].size(), 1u);
  EXPECT_EQ(j["tests"][0]["name"], "submission_usable");
  EXPECT_EQ(j["tests"][0]["max_score"], 5);
  EXPECT_EQ(j["tests"][0]["visibility"], "visible") << "what to fix is shown even when the tests wait";
  EXPECT_EQ(j["score"], 0);
  EXPECT_NE(j["output"].get<std::string>().find("the submission has no answers.txt"), std::string::npos) << j["output"];
}

TEST(AutograderCommands, AppendedPartsAddUpAndHiddenChecksHideTheScore) {
  grade_site dir;
  const auto gs = dir.dir + "/results.json";
  const auto capture = source_path("captures/switch/four_hosts.pcapng");
  const auto decisions = dir.dir + "/four_hosts.json";
  std::ofstream(decisions) << run({bin_path("lab-switch"), "replay", capture, "--json"}).out;
  auto r = run({bin_path("netlab-grade"), "switch", "--capture", capture, "--decisions", decisions, "--label",
                "four_hosts", "--note", "Seed 12", "--extra", "seed=12", "--gradescope", gs});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const double first = read_json(gs)["score"];
  r = run({bin_path("netlab-grade"), "notice", "--reason", "no moving_host.json", "--points", "3", "--label",
           "moving_host", "--gradescope-append", "--check-visibility", "forward_step5=after_due_date", "--gradescope",
           gs});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no check named 'forward_step5'"), std::string::npos)
      << "a name this suite lacks is said: " << r.err;
  const auto j = read_json(gs);
  EXPECT_EQ(j["score"], first);
  EXPECT_EQ(gradescope_max_score(j), first + 3);
  EXPECT_EQ(j["tests"].back()["name"], "moving_host: submission_usable");
  EXPECT_EQ(j["tests"].front()["name"], "four_hosts: decisions_complete");
  EXPECT_EQ(j["tests"].back()["number"], "2.1");
  EXPECT_EQ(j["extra_data"]["seed"], "12");
  const std::string out = j["output"];
  EXPECT_EQ(out.rfind("Seed 12\n", 0), 0u) << out;
  EXPECT_NE(out.find("(four_hosts): " + points_text(first) + "/" + points_text(first) + " points"), std::string::npos)
      << out;
  EXPECT_NE(out.find("moving_host: submission_usable: no moving_host.json"), std::string::npos) << out;

  // The same first part with one check hidden until the due date: no score for that part.
  r = run({bin_path("netlab-grade"), "switch", "--capture", capture, "--decisions", decisions, "--check-visibility",
           "forward_step5=after_due_date", "--gradescope", gs});
  const auto hidden = read_json(gs);
  EXPECT_EQ(hidden["tests"].back()["visibility"], "after_due_date");
  EXPECT_NE(hidden["output"].get<std::string>().find("shown now"), std::string::npos) << hidden["output"];
  EXPECT_EQ(hidden["output"].get<std::string>().find("points"), std::string::npos) << hidden["output"];
}

TEST(AutograderCommands, QuizGivesPartialCreditPerValueAndTakesUnits) {
  grade_site dir;
  const auto key = nlohmann::json::parse(
      run({bin_path("lab-delay"), "quiz", "--seed", "42", "--count", "8", "--answers", "--json"}).out);
  // Every value right, seconds written in milliseconds where the key has seconds, an unbounded
  // response as "unbounded"; then problem 3's total wrong.
  std::string right, wrong;
  std::string problem3;
  bool planted = false;
  for (const auto& p : key["questions"]) {
    const int n = p["number"];
    for (const auto& [name, value] : p["answer"].items()) {
      std::string text;
      if (value.is_null())
        text = "unbounded";
      else if (value.is_string())
        text = value.get<std::string>();
      else if (value.is_number() && name.ends_with("_s"))
        text = number_text(value.get<double>() * 1000) + " ms";
      else
        text = value.dump();
      const std::string line = std::to_string(n) + "." + name + ": " + text + "\n";
      right += line;
      if (n == 3 && !planted) {
        wrong += std::to_string(n) + "." + name + ": 1e9\n";
        problem3 = p["kind"];
        planted = true;
      } else {
        wrong += line;
      }
    }
  }
  std::ofstream(dir.dir + "/right.txt") << right;
  std::ofstream(dir.dir + "/wrong.txt") << wrong;
  auto g = grade({"quiz", "delay", "--seed", "42", "--count", "8", "--answers", dir.dir + "/right.txt"});
  EXPECT_EQ(g.exit_code, 0) << g.err;
  EXPECT_EQ(g.doc["score"], 8);
  g = grade({"quiz", "delay", "--seed", "42", "--count", "8", "--answers", dir.dir + "/wrong.txt"});
  EXPECT_EQ(g.exit_code, 1);
  ASSERT_EQ(g.failed_names(), std::set<std::string>{"problem_3_" + problem3});
  const double n3 = key["questions"][2]["answer"].size();
  EXPECT_DOUBLE_EQ(g.doc["score"].get<double>(), 7 + (n3 - 1) / n3) << "the other values of problem 3 still count";
  // Another seed is another quiz: the same answers are wrong there.
  g = grade({"quiz", "delay", "--seed", "43", "--count", "8", "--answers", dir.dir + "/right.txt"});
  EXPECT_LT(g.doc["score"].get<double>(), 8);
  // A malformed or missing answers file is a submission that scores 0, exit 1, with the reason in
  // every problem and the Gradescope file written (docs/conventions.md), not a usage error.
  std::ofstream(dir.dir + "/bad.txt") << "no colon here\n";
  g = grade({"quiz", "delay", "--seed", "42", "--answers", dir.dir + "/bad.txt"});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.doc["score"], 0);
  ASSERT_EQ(g.failed().size(), 5u) << g.doc.dump(2);
  for (const auto& [name, reason] : g.failed())
    EXPECT_NE(reason.find("bad.txt line 1: expected"), std::string::npos) << reason;
  const auto results = dir.dir + "/results.json";
  const auto missing = run({bin_path("netlab-grade"), "quiz", "delay", "--seed", "42", "--answers",
                            dir.dir + "/MISSING", "--gradescope", results});
  EXPECT_EQ(missing.exit_code, 1) << missing.err;
  std::ifstream in(results);
  ASSERT_TRUE(in) << "no Gradescope file for a missing submission";
  const auto gs = nlohmann::json::parse(in);
  EXPECT_EQ(gs["score"], 0);
  EXPECT_EQ(gs["tests"].size(), 5u);
  EXPECT_NE(gs["tests"][0]["output"].get<std::string>().find("MISSING: no such file"), std::string::npos) << gs.dump(2);
}

}  // namespace
