// netlab-grade http against lab-http serve (full score), Python's http.server (loses exactly the
// checks it does not meet) and the deliberately broken server (loses exactly its planted bugs).
#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

std::vector<std::string> http_args(const std::string& target) {
  return {"http", "--target", target, "--path", "/index.html", "--timeout", "2"};
}

TEST(HttpGrade, LabHttpGetsFullScore) {
  grade_site site;
  process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
  const auto target = server.wait_listening();
  const auto g = grade(http_args(target));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_TRUE(g.failed().empty()) << g.doc.dump(2);
  EXPECT_EQ(g.doc["checks"].size(), 17u);
  EXPECT_EQ(g.doc["score"], g.doc["max_score"]);
  EXPECT_EQ(g.doc["max_score"], 24);
}

TEST(HttpGrade, PythonHttpServerLosesWhatItDoesNotImplement) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  grade_site site;
  process py({"/usr/bin/python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", site.dir, "0"});
  const auto line = py.wait_for_line("Serving HTTP on");
  ASSERT_TRUE(line) << py.err();
  const auto g = grade(http_args("127.0.0.1:" + python_port(*line)));
  EXPECT_EQ(g.exit_code, 1);
  const std::map<std::string, std::string> expected{
      // http.server never checks Host
      {"host_required_400", "answered 200 instead"},
      // it answers an unsupported version with an HTTP/0.9-style error page (no status line)
      {"bad_version_505", "no response: the reply has no HTTP/1.x status line (HTTP/0.9 style)"},
      // it speaks HTTP/1.0 and closes after every response
      {"keep_alive", "the server did not answer a second request on the same connection"},
      {"pipelining_in_order", "1 of 2 pipelined requests answered in order"},
      // it ignores Range
      {"range_206", "answered 200 instead"},
      {"range_416", "answered 200 instead"},
  };
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
  EXPECT_EQ(g.doc["score"], 16);
}

TEST(HttpGrade, BrokenServerFailsItsPlantedBugs) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  grade_site site;
  process broken({"/usr/bin/python3", source_path("tests/support/broken_server.py"), "http", "--root", site.dir});
  const auto target = broken.wait_listening();
  const auto g = grade(http_args(target));
  EXPECT_EQ(g.exit_code, 1);
  const std::map<std::string, std::string> expected{
      {"date_header", "no Date field"},
      {"head_matches_get", "a body of 39 bytes followed the HEAD response"},
      {"unknown_method_501", "answered 405 instead"},
      {"path_traversal_refused", "a file outside the document root was served"},
  };
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
  // A failing check says what was sent, what came back and what was expected.
  for (const auto& c : g.doc["checks"]) {
    if (c["passed"].get<bool>()) continue;
    EXPECT_FALSE(c["sent"].get<std::string>().empty()) << c.dump();
    EXPECT_FALSE(c["received"].get<std::string>().empty()) << c.dump();
    EXPECT_FALSE(c["expected"].get<std::string>().empty()) << c.dump();
    EXPECT_FALSE(c["rule"].get<std::string>().empty()) << c.dump();
  }
  const auto& traversal = *std::find_if(g.doc["checks"].begin(), g.doc["checks"].end(),
                                        [](const auto& c) { return c["name"] == "path_traversal_refused"; });
  EXPECT_NE(traversal["sent"].get<std::string>().find("/../"), std::string::npos);
  EXPECT_NE(traversal["received"].get<std::string>().find("200 OK"), std::string::npos);
}

TEST(HttpGrade, NoServerFailsEveryCheckWithExitOne) {
  // Bind a port, then close it: nothing listens there.
  grade_site site;
  std::string target;
  {
    process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
    target = server.wait_listening();
  }
  const auto g = grade(http_args(target));
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.failed().size(), 17u);
  EXPECT_EQ(g.doc["score"], 0);
  EXPECT_NE(g.failed().at("get_ok").find("cannot connect"), std::string::npos) << g.failed().at("get_ok");
}

TEST(HttpGrade, UsageErrorsExitTwo) {
  EXPECT_EQ(run({bin_path("netlab-grade"), "http"}).exit_code, 2);
  EXPECT_EQ(run({bin_path("netlab-grade"), "http", "--target", "127.0.0.1"}).exit_code, 2);
  EXPECT_EQ(run({bin_path("netlab-grade"), "http", "--target", "127.0.0.1:80", "--path", "x"}).exit_code, 2);
  EXPECT_EQ(run({bin_path("netlab-grade"), "nosuch"}).exit_code, 2);
}

}  // namespace
