// tools/autograder/run_autograder on this machine (AUTOGRADER_ROOT pointed at a temporary
// /autograder tree whose netlab/bin holds the built programs): the quick check of its logic in the
// Release suite. The zips themselves are run as Gradescope runs them, in a minimal Debian root, by
// tests/package/autograder_test.sh (ctest --preset package).
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;
namespace fs = std::filesystem;

// /autograder/source as make_autograders.sh lays it out: the scripts, autograder.conf, netlab/bin.
void lay_out(const std::string& root, const std::string& conf) {
  fs::create_directories(root + "/source/netlab/bin");
  fs::create_directories(root + "/submission");
  for (const char* f : {"run_autograder", "setup.sh"})
    fs::copy_file(source_path(std::string("tools/autograder/") + f), root + "/source/" + f);
  for (const char* p : {"netlab-grade", "lab-http", "lab-delay"})
    fs::create_symlink(bin_path(p), root + "/source/netlab/bin/" + p);
  std::ofstream(root + "/source/autograder.conf") << conf;
  std::ofstream(root + "/submission_metadata.json")
      << R"({"id": 1, "assignment": {"id": 31415}, "users": [{"email": "s@example.edu", "id": 4242, "name": "S"}]})";
}

nlohmann::json run_autograder(const std::string& root) {
  const auto r = run({"/usr/bin/env", "AUTOGRADER_ROOT=" + root, "bash", root + "/source/run_autograder"}, {},
                     std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(root + "/results/results.json");
  std::stringstream s;
  s << in.rdbuf();
  try {
    return nlohmann::json::parse(s.str());
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "no results.json: " << e.what() << "\n" << r.out << r.err;
    return {};
  }
}

TEST(GradescopeExample, HttpServerSubmissionGetsFullMarksAndALeaderboardEntry) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  grade_site root;
  lay_out(root.dir,
          "LAB=http\nROLE=server\nSUBMISSION_PACKAGES=python3\nVISIBILITY=visible\n"
          "CHECK_VISIBILITY=\"path_traversal_refused=after_due_date\"\nTHROUGHPUT_SECONDS=0.3\n");
  fs::copy_file(source_path("tests/package/submissions/http-server/server"), root.dir + "/submission/server");
  const auto j = run_autograder(root.dir);
  EXPECT_EQ(j["score"], 24) << j.dump(2);
  EXPECT_EQ(gradescope_max_score(j), 24);
  EXPECT_EQ(j["tests"].size(), 17u);
  EXPECT_EQ(j["stdout_visibility"], "hidden");
  EXPECT_TRUE(j["extra_data"]["seed"].is_string()) << "the staff see the seed";
  ASSERT_EQ(j["leaderboard"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["leaderboard"][0]["name"], "requests_per_s_vs_lab_http");
  EXPECT_GT(j["leaderboard"][0]["value"].get<double>(), 0);
  // One check hidden until the due date: the summary then gives no score away.
  std::size_t hidden = 0;
  for (const auto& t : j["tests"]) hidden += t["visibility"] == "after_due_date" ? 1 : 0;
  EXPECT_EQ(hidden, 1u);
  EXPECT_NE(j["output"].get<std::string>().find("16 shown now"), std::string::npos) << j["output"];
}

TEST(GradescopeExample, MissingServerScoresZeroWithAReason) {
  grade_site root;
  lay_out(root.dir, "LAB=http\nROLE=server\nVISIBILITY=visible\nTHROUGHPUT_SECONDS=0\n");
  const auto j = run_autograder(root.dir);
  EXPECT_EQ(j["score"], 0);
  EXPECT_EQ(gradescope_max_score(j), 24) << "every check is listed, failed";
  EXPECT_NE(j["output"].get<std::string>().find("no executable ./server"), std::string::npos) << j["output"];
}

TEST(GradescopeExample, QuizShowsTheStudentsSeedAndGradesTheirAnswers) {
  grade_site root;
  lay_out(root.dir, "LAB=delay\nROLE=answers\nVISIBILITY=after_due_date\nQUIZ_COUNT=3\n");
  // First submission, no answers: score 0, the quiz and its seed shown, the reason visible.
  auto j = run_autograder(root.dir);
  const std::string output = j["output"];
  const auto at = output.find("Your quiz: seed ");
  ASSERT_NE(at, std::string::npos) << output;
  const std::string seed = output.substr(at + 16, output.find(' ', at + 16) - at - 16);
  EXPECT_NE(output.find("no answers.txt"), std::string::npos) << output;
  EXPECT_EQ(j["score"], 0);
  // The seed is the variant of user 4242 on assignment 31415.
  const auto variant = run({bin_path("netlab-grade"), "variant", "--metadata", root.dir + "/submission_metadata.json"});
  EXPECT_EQ(variant.out, seed + "\n");
  // The answers for that seed: full marks (hidden until the due date).
  const auto key = nlohmann::json::parse(
      run({bin_path("lab-delay"), "quiz", "--seed", seed, "--count", "3", "--answers", "--json"}).out);
  std::ofstream answers(root.dir + "/submission/answers.txt");
  for (const auto& p : key["questions"])
    for (const auto& [name, value] : p["answer"].items())
      answers << p["number"].get<int>() << "." << name << ": "
              << (value.is_null()     ? "unbounded"
                  : value.is_string() ? value.get<std::string>()
                                      : value.dump())
              << "\n";
  answers.close();
  j = run_autograder(root.dir);
  EXPECT_EQ(j["score"], 3) << j.dump(2);
  for (const auto& t : j["tests"]) EXPECT_EQ(t["visibility"], "after_due_date");
  EXPECT_EQ(j["output"].get<std::string>().find("points"), std::string::npos) << "the score waits for the due date";
}

}  // namespace
