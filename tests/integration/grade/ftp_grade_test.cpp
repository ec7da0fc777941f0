// netlab-grade ftp against lab-ftp serve and pyftpdlib (both full score: pyftpdlib delays a failed
// login by 3 s, which --login-delay allows for whatever --timeout is), and with a --file the server
// does not have (exactly the transfer checks fail, saying so).
#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

std::vector<std::string> ftp_args(const std::string& target, const std::string& file, const std::string& timeout) {
  return {"ftp", "--target", target, "--user", "alice", "--pass", "secret", "--file", file, "--timeout", timeout};
}

struct ftp_site : grade_site {
  ftp_site() {
    std::ofstream(dir + "/hello.txt") << "hello from netlab ftp\n";
    std::ofstream(dir + "/users.txt") << "alice:secret\n";
  }
};

TEST(FtpGrade, LabFtpGetsFullScore) {
  ftp_site site;
  process server({bin_path("lab-ftp"), "serve", "--root", site.dir, "--users", site.dir + "/users.txt", "--listen",
                  "127.0.0.1:0"});
  const auto g = grade(ftp_args(server.wait_listening(), "hello.txt", "2"));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_TRUE(g.failed().empty()) << g.doc.dump(2);
  EXPECT_EQ(g.doc["checks"].size(), 14u);
  EXPECT_EQ(g.doc["score"], 19);
}

TEST(FtpGrade, PyftpdlibGetsFullScore) {
  NETLAB_REQUIRE_PYTHON_MODULE("pyftpdlib");
  ftp_site site;
  process server(
      {"/usr/bin/python3", source_path("tests/integration/grade/pyftpdlib_server.py"), site.dir, "alice:secret"});
  const auto g = grade(ftp_args(server.wait_listening(), "hello.txt", "5"));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_TRUE(g.failed().empty()) << g.doc.dump(2);
}

// pyftpdlib answers a wrong password after its default auth_failed_timeout of 3 s. The Gradescope
// recipe grades with --timeout 3 (tools/autograder/run_autograder), and a short --timeout must not
// cost the wrong_password_530 point either: the refusal may take --login-delay (default 5s) more.
TEST(FtpGrade, PyftpdlibsFailedLoginDelayCostsNothing) {
  NETLAB_REQUIRE_PYTHON_MODULE("pyftpdlib");
  ftp_site site;
  process server(
      {"/usr/bin/python3", source_path("tests/integration/grade/pyftpdlib_server.py"), site.dir, "alice:secret"});
  const auto target = server.wait_listening();
  for (const char* timeout : {"1", "3s"}) {
    const auto g = grade(ftp_args(target, "hello.txt", timeout));
    EXPECT_EQ(g.exit_code, 0) << timeout << ": " << g.doc.dump(2);
    EXPECT_TRUE(g.failed().empty()) << timeout << ": " << g.doc.dump(2);
  }
  // With no delay allowed, a 1 s timeout is shorter than pyftpdlib's 3 s: the check says so.
  auto args = ftp_args(target, "hello.txt", "1");
  args.insert(args.end(), {"--login-delay", "0"});
  const auto g = grade(args);
  EXPECT_EQ(g.failed_names(), (std::set<std::string>{"wrong_password_530"})) << g.doc.dump(2);
  EXPECT_NE(g.failed().at("wrong_password_530").find("no reply to PASS netlab-grade-wrong"), std::string::npos)
      << g.doc.dump(2);
}

TEST(FtpGrade, MissingFileFailsExactlyTheTransferChecks) {
  NETLAB_REQUIRE_PYTHON_MODULE("pyftpdlib");
  ftp_site site;
  process server(
      {"/usr/bin/python3", source_path("tests/integration/grade/pyftpdlib_server.py"), site.dir, "alice:secret"});
  const auto g = grade(ftp_args(server.wait_listening(), "nosuch.txt", "5"));
  EXPECT_EQ(g.exit_code, 1);
  const auto failed = g.failed();
  EXPECT_EQ(g.failed_names(), (std::set<std::string>{"list_passive", "retr_passive", "retr_epsv", "list_active"}))
      << g.doc.dump(2);
  EXPECT_EQ(failed.at("list_active"), "the listing does not name nosuch.txt");
  EXPECT_EQ(failed.at("retr_passive").rfind("RETR nosuch.txt answered 550", 0), 0u) << failed.at("retr_passive");
}

}  // namespace
