// The Gradescope example in docs/instructor/gradescope: run_autograder, pointed at a temporary
// /autograder tree, grades a submission whose ./server is our lab-http (full score), and writes a
// zero-score results.json that says why when the submission has no server.
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

// A port nothing listens on right now (lab-http picked it, then exited).
std::string free_port() {
  grade_site site;
  process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
  return std::to_string(process::port_of(server.wait_listening()));
}

nlohmann::json run_autograder(const std::string& root) {
  const auto r = run({"/usr/bin/env", "AUTOGRADER_ROOT=" + root, "NETLAB_GRADE=" + bin_path("netlab-grade"),
                      "GRADE_PORT=" + free_port(), "bash", source_path("docs/instructor/gradescope/run_autograder")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(root + "/results/results.json");
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

TEST(GradescopeExample, GradesASubmissionEndToEnd) {
  grade_site root;
  std::filesystem::create_directories(root.dir + "/submission");
  const auto server = root.dir + "/submission/server";
  std::ofstream(server) << "#!/bin/sh\n# --root DIR --port PORT\nexec '" << bin_path("lab-http")
                        << "' serve --root \"$2\" --listen \"127.0.0.1:$4\"\n";
  ::chmod(server.c_str(), 0755);
  const auto j = run_autograder(root.dir);
  EXPECT_EQ(j["score"], 24) << j.dump(2);
  EXPECT_EQ(j["max_score"], 24);
  EXPECT_EQ(j["tests"].size(), 17u);
}

TEST(GradescopeExample, MissingServerScoresZeroWithAReason) {
  grade_site root;
  std::filesystem::create_directories(root.dir + "/submission");
  const auto j = run_autograder(root.dir);
  EXPECT_EQ(j["score"], 0);
  EXPECT_NE(j["output"].get<std::string>().find("no executable ./server"), std::string::npos) << j.dump();
  EXPECT_TRUE(j["tests"].is_array());
}

}  // namespace
