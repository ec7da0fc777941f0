// The security suites in one place: path traversal (HTTP, FTP), FTP bounce, SMTP open relay,
// STARTTLS injection (SMTP STARTTLS, POP3 STLS) and SMTP smuggling. Each runs many attempts
// against a live server over raw sockets and prints "SUITE: N attempts, 0 succeeded".
// (The narrower per-lab checks in tests/integration/* and tests/unit/* stay where they are.)
#include "security/security_env.hpp"

namespace {

using namespace security_test;

TEST(Security, HttpPathTraversal) {
  temp_dir dir("netlab-sec-http");
  write_file(dir.path / "secret.txt", "SECRET-outside-the-root-7f3a\n");
  write_file(dir.path / "root/index.html", "<p>inside</p>\n");
  write_file(dir.path / "root/control.txt", "SECRET-outside-the-root-7f3a\n");  // the control
  write_file(dir.path / "root/img/a.png", "png");
  fs::create_symlink(dir.path / "secret.txt", dir.path / "root/escape.txt");
  netlab::test::process server(
      {netlab::test::bin_path("lab-http"), "serve", "--root", (dir.path / "root").string(), "--listen", "127.0.0.1:0"});
  expect_no_success({"http-traversal", port_of(server), "SECRET-outside-the-root-7f3a"}, 400);
}

struct ftp_site {
  temp_dir dir{"netlab-sec-ftp"};
  std::unique_ptr<netlab::test::process> server;
  ftp_site() {
    write_file(dir.path / "secret.txt", "SECRET-ftp-outside-91c2\n");
    write_file(dir.path / "root/pub/readme.txt", "inside\n");
    write_file(dir.path / "root/control.txt", "SECRET-ftp-outside-91c2\n");  // the control
    write_file(dir.path / "users.txt", "probe:probe\n");
    fs::create_symlink(dir.path / "secret.txt", dir.path / "root/escape.txt");
    server = std::make_unique<netlab::test::process>(
        std::vector<std::string>{netlab::test::bin_path("lab-ftp"), "serve", "--root", (dir.path / "root").string(),
                                 "--users", (dir.path / "users.txt").string(), "--write", "--listen", "127.0.0.1:0"});
  }
};

TEST(Security, FtpPathTraversal) {
  ftp_site site;
  expect_no_success({"ftp-traversal", port_of(*site.server), "SECRET-ftp-outside-91c2", site.dir.path.string()}, 70);
}

TEST(Security, FtpBounce) {
  ftp_site site;
  expect_no_success({"ftp-bounce", port_of(*site.server)}, 25);
}

struct mail_site {
  temp_dir dir{"netlab-sec-mail"};
  std::vector<std::string> tls;
  mail_site() {
    write_file(dir.path / "users.txt", "alice:secret\nbob:hunter2\n");
    tls = make_cert(dir.path);
  }
  std::vector<std::string> smtp_argv() const {
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
    argv.insert(argv.end(), tls.begin(), tls.end());
    return argv;
  }
};

TEST(Security, SmtpOpenRelay) {
  mail_site site;
  netlab::test::process server(site.smtp_argv());
  expect_no_success({"smtp-relay", port_of(server)}, 80);
  EXPECT_FALSE(fs::exists(site.dir.path / "mail/.relay"));
}

TEST(Security, SmtpStartTlsInjection) {
  mail_site site;
  netlab::test::process server(site.smtp_argv());
  expect_no_success({"smtp-starttls-injection", port_of(server)}, 13);
}

TEST(Security, Pop3StlsInjection) {
  mail_site site;
  std::vector<std::string> argv{
      netlab::test::bin_path("lab-pop3"),     "serve",    "--maildir",  (site.dir.path / "mail").string(), "--users",
      (site.dir.path / "users.txt").string(), "--listen", "127.0.0.1:0"};
  argv.insert(argv.end(), site.tls.begin(), site.tls.end());
  netlab::test::process server(argv);
  expect_no_success({"pop3-stls-injection", port_of(server)}, 11);
}

TEST(Security, SmtpSmuggling) {
  mail_site site;
  netlab::test::process server(site.smtp_argv());
  expect_no_success({"smtp-smuggling", port_of(server), (site.dir.path / "mail").string()}, 28);
}

}  // namespace
