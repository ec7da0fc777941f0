// netlab-grade ftp against lab-ftp serve and pyftpdlib (both full score: pyftpdlib delays a failed
// login by 3 s, so it gets a longer timeout), and with a --file the server does not have (exactly
// the transfer checks fail, saying so).
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
  process server({"/usr/bin/python3", source_path("tests/integration/grade/pyftpdlib_server.py"), site.dir,
                  "alice:secret"});
  const auto g = grade(ftp_args(server.wait_listening(), "hello.txt", "5"));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_TRUE(g.failed().empty()) << g.doc.dump(2);
}

TEST(FtpGrade, MissingFileFailsExactlyTheTransferChecks) {
  NETLAB_REQUIRE_PYTHON_MODULE("pyftpdlib");
  ftp_site site;
  process server({"/usr/bin/python3", source_path("tests/integration/grade/pyftpdlib_server.py"), site.dir,
                  "alice:secret"});
  const auto g = grade(ftp_args(server.wait_listening(), "nosuch.txt", "5"));
  EXPECT_EQ(g.exit_code, 1);
  const auto failed = g.failed();
  EXPECT_EQ(g.failed_names(),
            (std::set<std::string>{"list_passive", "retr_passive", "retr_epsv", "list_active"}))
      << g.doc.dump(2);
  EXPECT_EQ(failed.at("list_active"), "the listing does not name nosuch.txt");
  EXPECT_EQ(failed.at("retr_passive").rfind("RETR nosuch.txt answered 550", 0), 0u) << failed.at("retr_passive");
}

}  // namespace
