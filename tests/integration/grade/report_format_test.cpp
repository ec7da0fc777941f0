// netlab-grade's --gradescope and --junit files checked against their documented shapes:
// Gradescope results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
// top-level score (number), output, output_format, visibility, stdout_visibility, extra_data,
// tests[] each with score, max_score (numbers), name, number, output (strings), output_format,
// status (passed/failed), tags (array of strings), visibility (hidden, after_due_date,
// after_published, visible) and extra_data; nothing Gradescope does not document.
#include <fstream>
#include <sstream>

#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::set<std::string> visibilities{"hidden", "after_due_date", "after_published", "visible"};
const std::set<std::string> top_keys{"score",         "execution_time", "output",
                                     "output_format", "visibility",     "stdout_visibility",
                                     "extra_data",    "tests",          "leaderboard"};
const std::set<std::string> test_keys{"score",  "max_score",     "status", "name",       "name_format", "number",
                                      "output", "output_format", "tags",   "visibility", "extra_data"};

void expect_gradescope_shape(const nlohmann::json& j) {
  ASSERT_TRUE(j.is_object());
  for (const auto& [key, value] : j.items()) EXPECT_TRUE(top_keys.contains(key)) << "unknown key " << key;
  ASSERT_TRUE(j.contains("score") && j["score"].is_number());
  ASSERT_TRUE(j["tests"].is_array());
  EXPECT_TRUE(visibilities.contains(j["visibility"].get<std::string>()));
  EXPECT_TRUE(visibilities.contains(j["stdout_visibility"].get<std::string>()));
  double sum = 0;
  for (const auto& t : j["tests"]) {
    for (const auto& [key, value] : t.items()) EXPECT_TRUE(test_keys.contains(key)) << "unknown test key " << key;
    ASSERT_TRUE(t["score"].is_number() && t["max_score"].is_number()) << t.dump();
    EXPECT_LE(t["score"].get<double>(), t["max_score"].get<double>());
    EXPECT_TRUE(t["name"].is_string() && t["number"].is_string() && t["output"].is_string()) << t.dump();
    EXPECT_TRUE(t["status"] == "passed" || t["status"] == "failed") << t.dump();
    EXPECT_EQ(t["status"] == "passed", t["score"] == t["max_score"]) << t.dump();
    EXPECT_TRUE(visibilities.contains(t["visibility"].get<std::string>()));
    ASSERT_TRUE(t["tags"].is_array());
    for (const auto& tag : t["tags"]) EXPECT_TRUE(tag.is_string());
    sum += t["score"].get<double>();
  }
  EXPECT_DOUBLE_EQ(sum, j["score"].get<double>());
}

TEST(ReportFormat, GradescopeAndJunitFilesHaveTheDocumentedShape) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  grade_site site;
  process broken({"/usr/bin/python3", source_path("tests/support/broken_server.py"), "http", "--root", site.dir});
  const auto target = broken.wait_listening();
  const auto gs = site.dir + "/results.json";
  const auto junit = site.dir + "/junit.xml";
  const auto r = run({bin_path("netlab-grade"), "http", "--target", target, "--path", "/index.html", "--gradescope", gs,
                      "--junit", junit});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // The human table names every failed check and the score.
  EXPECT_NE(r.out.find("FAIL     0/1  date_header"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("score 18/24 (13 of 17 checks passed)"), std::string::npos) << r.out;

  const auto j = nlohmann::json::parse(slurp(gs));
  expect_gradescope_shape(j);
  EXPECT_EQ(j["score"], 18);
  EXPECT_EQ(gradescope_max_score(j), 24);
  ASSERT_EQ(j["tests"].size(), 17u);
  const auto& date = j["tests"][2];
  EXPECT_EQ(date["name"], "date_header");
  EXPECT_EQ(date["status"], "failed");
  EXPECT_NE(date["output"].get<std::string>().find("RFC 9110 §6.6.1"), std::string::npos);
  EXPECT_NE(date["output"].get<std::string>().find("expected: Date:"), std::string::npos);

  const auto xml = slurp(junit);
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0), 0u);
  EXPECT_NE(xml.find("tests=\"17\" failures=\"4\""), std::string::npos) << xml;
  EXPECT_EQ(count_of(xml, "<testcase "), 17u);
  EXPECT_EQ(count_of(xml, "<failure "), 4u);
  EXPECT_EQ(count_of(xml, "</testcase>"), 17u);
  EXPECT_NE(xml.find("<failure message=\"answered 405 instead\">"), std::string::npos) << xml;
}

TEST(ReportFormat, GradescopeFileForAFullScore) {
  grade_site site;
  process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
  const auto target = server.wait_listening();
  const auto gs = site.dir + "/results.json";
  const auto r =
      run({bin_path("netlab-grade"), "http", "--target", target, "--path", "/index.html", "--gradescope", gs});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(slurp(gs));
  expect_gradescope_shape(j);
  EXPECT_EQ(j["score"], gradescope_max_score(j));
}

}  // namespace
