// lab-ftp serve against Python's ftplib (passive and active), ten clients at once, the RFC 2577
// checks (bounce, foreign passive connections, failed logins), aborted uploads, limits.
#include <sys/socket.h>

#include "netlib/io/tcp_client.hpp"
#include "serve_fixture.hpp"

using namespace ftp_it;

namespace serve_python_test {
struct ServePython : ::testing::Test {
  void SetUp() override { NETLAB_REQUIRE_PYTHON_MODULE("ftplib"); }
};

void expect_check(const run_result& r) {
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

std::string read_line(netlib::io::tcp_client& c) {
  std::string line;
  std::byte b[1];
  for (int i = 0; i < 4096; ++i) {
    if (c.read_some(b) == 0) break;
    line += static_cast<char>(b[0]);
    if (line.back() == '\n') break;
  }
  return line;
}
}  // namespace serve_python_test
using namespace serve_python_test;

TEST_F(ServePython, FtplibPassive) {
  served_dir d;
  running_server s(d, {"--anonymous", "--write", "--users", d.dir + "/users.txt"});
  expect_check(python_check("ftplib", s, d, {"passive"}));
}

TEST_F(ServePython, FtplibActive) {
  served_dir d;
  running_server s(d, {"--anonymous", "--write", "--users", d.dir + "/users.txt"});
  expect_check(python_check("ftplib", s, d, {"active"}));
}

TEST_F(ServePython, TenClientsAtOnce) {
  served_dir d;
  running_server s(d, {"--anonymous", "--write", "--pasv-ports", "40000-40100"});
  expect_check(python_check("concurrent", s, d, {"10"}));
}

TEST_F(ServePython, BounceRefusedAndErrorReplies) {
  served_dir d;
  running_server s(d, {"--anonymous"});
  expect_check(python_check("bounce", s, d));
}

TEST_F(ServePython, PassiveConnectionFromAnotherAddressRefused) {
  served_dir d;
  running_server s(d, {"--anonymous"});
  expect_check(python_check("pasv-foreign", s, d));
}

TEST_F(ServePython, AbortedAndDroppedUploadsLeaveNothing) {
  served_dir d;
  running_server s(d, {"--anonymous", "--write"});
  expect_check(python_check("abort-upload", s, d));
}

TEST_F(ServePython, UsersFileAndAnonymousSwitch) {
  served_dir d;
  running_server s(d, {"--users", d.dir + "/users.txt", "--login-delay", "0.05"});
  expect_check(python_check("login", s, d));
}

TEST_F(ServePython, ReadOnlyByDefault) {
  served_dir d;
  running_server s(d, {"--anonymous"});
  expect_check(python_check("readonly", s, d));
}

TEST(ServeLimits, FailedLoginsAreDelayedThenDisconnected) {
  served_dir d;
  running_server s(d, {"--users", d.dir + "/users.txt", "--login-delay", "0.2", "--max-failed-logins", "2"});
  netlib::io::tcp_client c(std::chrono::seconds(10));
  c.connect("127.0.0.1", static_cast<unsigned short>(s.port));
  EXPECT_EQ(read_line(c).substr(0, 3), "220");
  const auto t0 = std::chrono::steady_clock::now();
  c.write("USER alice\r\nPASS bad\r\n");
  EXPECT_EQ(read_line(c).substr(0, 3), "331");
  EXPECT_EQ(read_line(c).substr(0, 3), "530");
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(190));
  c.write("USER alice\r\nPASS bad\r\n");
  EXPECT_EQ(read_line(c).substr(0, 3), "331");
  EXPECT_EQ(read_line(c).substr(0, 3), "421");
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(590));  // 0.2 s + 0.4 s
  std::byte b[16];
  EXPECT_EQ(c.read_some(b), 0u);  // closed
}

TEST(ServeLimits, SessionCapAndIdleTimeout) {
  served_dir d;
  running_server s(d, {"--anonymous", "--max-sessions", "2", "--idle-timeout", "0.5"});
  netlib::io::tcp_client a(std::chrono::seconds(10)), b(std::chrono::seconds(10)), c(std::chrono::seconds(10));
  a.connect("127.0.0.1", static_cast<unsigned short>(s.port));
  EXPECT_EQ(read_line(a).substr(0, 3), "220");
  b.connect("127.0.0.1", static_cast<unsigned short>(s.port));
  EXPECT_EQ(read_line(b).substr(0, 3), "220");
  c.connect("127.0.0.1", static_cast<unsigned short>(s.port));
  EXPECT_EQ(read_line(c).substr(0, 3), "421");  // over the cap
  // The idle timeout closes a silent session with 421.
  EXPECT_EQ(read_line(a).substr(0, 3), "421");
}

TEST_F(ServePython, ExplicitFtpsAuthTlsProtP) {
  NETLAB_REQUIRE_PEER("openssl");
  served_dir d;
  const auto gen = run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", d.dir + "/key.pem",
                        "-out", d.dir + "/cert.pem", "-days", "1", "-subj", "/CN=localhost"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  running_server s(d, {"--anonymous", "--write", "--tls-cert", d.dir + "/cert.pem", "--tls-key", d.dir + "/key.pem"});
  expect_check(python_check("ftps", s, d));
  if (find_program("curl")) {
    const auto r = run({"curl", "-sS", "-k", "--ssl-reqd", "-o", d.dir + "/curl-tls.bin", s.url("/big.bin")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_whole(d.dir + "/curl-tls.bin") == read_whole(d.root + "/big.bin"));
  }
}
