// lab-smtp serve accepts mail for postmaster (RFC 5321 §4.5.1: every SMTP server that delivers
// mail MUST accept the reserved, case-insensitive local name "postmaster", with or without a
// domain, §4.1.1.3) even when no user is called postmaster (issue 17, defect 9). The mail goes to
// the --postmaster user, by default the first user of the users file. Real client: swaks.
#include <chrono>

#include "netlib/io/tcp_client.hpp"
#include "security/security_env.hpp"
#include "support/peers.hpp"

namespace smtp_postmaster_test {

using namespace security_test;

struct smtp_site {
  temp_dir dir{"netlab-sec-postmaster"};
  std::unique_ptr<netlab::test::process> server;
  int port = 0;
  explicit smtp_site(std::vector<std::string> extra = {}) {
    write_file(dir.path / "users.txt",
               "# the first user receives postmaster mail by default\nalice:secret\nbob:hunter2\n");
    std::vector<std::string> argv{netlab::test::bin_path("lab-smtp"),
                                  "serve",
                                  "--maildir",
                                  (dir.path / "mail").string(),
                                  "--domain",
                                  "example.org",
                                  "--users",
                                  (dir.path / "users.txt").string(),
                                  "--listen",
                                  "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    server = std::make_unique<netlab::test::process>(argv);
    port = netlab::test::process::port_of(server->wait_listening());
  }
  [[nodiscard]] std::size_t delivered(const std::string& user) const {
    std::error_code ec;
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir.path / "mail" / user / "new", ec)) n += e.is_regular_file() ? 1 : 0;
    return n;
  }
};

// One SMTP dialogue line by line; returns the reply to each line (the last line of a multi-line reply).
std::vector<std::string> dialogue(int port, const std::vector<std::string>& lines) {
  netlib::io::tcp_client c(std::chrono::seconds(10));
  c.connect("127.0.0.1", static_cast<unsigned short>(port));
  std::string pending;
  auto reply = [&] {
    std::array<std::byte, 4096> buf;
    while (true) {
      std::size_t start = 0;
      for (std::size_t lf; (lf = pending.find('\n', start)) != std::string::npos; start = lf + 1) {
        const std::string line = pending.substr(start, lf + 1 - start);
        if (line.size() >= 4 && line[3] == ' ') {
          pending.erase(0, lf + 1);
          return line.substr(0, line.size() - 2);
        }
      }
      const std::size_t n = c.read_some(buf);
      if (n == 0) return std::string("closed");
      pending.append(reinterpret_cast<const char*>(buf.data()), n);
    }
  };
  std::vector<std::string> out{reply()};
  for (const auto& line : lines) {
    c.write(line + "\r\n");
    out.push_back(reply());
  }
  return out;
}

TEST(SmtpPostmaster, PostmasterAcceptedWithoutSuchAUser) {
  smtp_site site;
  const auto r = dialogue(
      site.port, {"EHLO client.example", "MAIL FROM:<someone@elsewhere.example>", "RCPT TO:<postmaster@example.org>",
                  "RCPT TO:<PostMaster@EXAMPLE.ORG>", "RCPT TO:<Postmaster>", "RCPT TO:<nobody@example.org>", "DATA",
                  "Subject: hello postmaster\r\n\r\nabuse report\r\n.", "QUIT"});
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(r[3].substr(0, 3), "250") << r[3];
  EXPECT_EQ(r[4].substr(0, 3), "250") << r[4];
  EXPECT_EQ(r[5].substr(0, 3), "250") << r[5];
  EXPECT_EQ(r[6].substr(0, 3), "550") << r[6];  // the control: other unknown users are still refused
  EXPECT_EQ(r[8].substr(0, 3), "250") << r[8];
  site.server->signal(SIGTERM);
  site.server->wait();
  EXPECT_EQ(site.delivered("alice"), 1u) << "postmaster mail goes to the first user, once";
  EXPECT_EQ(site.delivered("bob"), 0u);
}

TEST(SmtpPostmaster, SwaksToPostmasterReachesTheConfiguredUser) {
  NETLAB_REQUIRE_PEER("swaks");
  smtp_site site({"--postmaster", "bob"});
  const auto r = netlab::test::run(
      {"swaks", "--server", "127.0.0.1", "--port", std::to_string(site.port), "--to", "postmaster@example.org",
       "--from", "reporter@elsewhere.example", "--helo", "client.example", "--body", "postmaster test"},
      {}, std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  site.server->signal(SIGTERM);
  site.server->wait();
  EXPECT_EQ(site.delivered("bob"), 1u);
  EXPECT_EQ(site.delivered("alice"), 0u);
}

}  // namespace smtp_postmaster_test
