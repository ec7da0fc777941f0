// netlab-grade pop3 against lab-pop3 serve (full score, the maildrop unchanged afterwards) and the
// deliberately broken server (loses exactly its planted bugs).
#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

std::vector<std::string> pop3_args(const std::string& target) {
  return {"pop3", "--target", target, "--user", "alice", "--pass", "secret", "--timeout", "1"};
}

TEST(Pop3Grade, LabPop3GetsFullScoreAndKeepsTheMaildrop) {
  grade_site site;
  std::ofstream(site.dir + "/users.txt") << "alice:secret\n";
  for (const char* sub : {"new", "cur", "tmp"}) std::filesystem::create_directories(site.dir + "/mail/alice/" + sub);
  const auto message = site.dir + "/mail/alice/new/1000.M1.netlab";
  std::ofstream(message) << "From: bob@example.org\r\nSubject: hi\r\n\r\nHello Alice.\r\n.a line with a dot\r\n";
  // The suite's one wrong password makes the next login wait --auth-delay (1 s by default): against
  // the 1 s timeout of pop3_args that left tens of milliseconds, and the check timed out on a
  // loaded machine. 200 ms keeps the guard in the path with room to spare.
  process server({bin_path("lab-pop3"), "serve", "--maildir", site.dir + "/mail", "--users", site.dir + "/users.txt",
                  "--auth-delay", "200ms", "--listen", "127.0.0.1:0"});
  const auto g = grade(pop3_args(server.wait_listening()));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_TRUE(g.failed().empty()) << g.doc.dump(2);
  EXPECT_EQ(g.doc["checks"].size(), 12u);
  EXPECT_EQ(g.doc["score"], 16);
  std::size_t messages = 0;
  for (const char* sub : {"new", "cur"}) {
    for (const auto& e : std::filesystem::directory_iterator(site.dir + "/mail/alice/" + sub)) {
      messages += e.is_regular_file() ? 1 : 0;
    }
  }
  EXPECT_EQ(messages, 1u) << "the suite must not delete mail";
}

TEST(Pop3Grade, BrokenServerFailsItsPlantedBugs) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  process broken({"/usr/bin/python3", source_path("tests/support/broken_server.py"), "pop3", "--user", "alice:secret"});
  const auto g = grade(pop3_args(broken.wait_listening()));
  EXPECT_EQ(g.exit_code, 1);
  const std::map<std::string, std::string> expected{
      {"stat_before_login_err", "STAT answered +OK"},
      {"unknown_command_err", "XYZZY answered +OK"},
      {"dele_then_rset", "after RSET, STAT says 0 0; before DELE it said 1 66"},
  };
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
}

TEST(Pop3Grade, WrongPasswordFailsLoginChecksOnly) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  process broken({"/usr/bin/python3", source_path("tests/support/broken_server.py"), "pop3", "--user", "alice:other"});
  const auto g = grade(pop3_args(broken.wait_listening()));
  EXPECT_EQ(g.exit_code, 1);
  // Checks that never log in still pass; every check that needs the account fails at PASS.
  EXPECT_FALSE(g.failed().contains("greeting_ok"));
  EXPECT_FALSE(g.failed().contains("wrong_password_err"));
  EXPECT_EQ(g.failed().at("user_pass_login"), "PASS secret answered -ERR wrong user or password");
}

}  // namespace
