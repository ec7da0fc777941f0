// Issue 31, item 1: every TLS handshake has a deadline. A client that asks for TLS (FTP AUTH TLS,
// SMTP STARTTLS, POP3 STLS), or connects to an implicit-TLS port (lab-http serve --tls-cert), and
// then stays silent or trickles its handshake must be closed, never hold a session slot for ever.
// Before the fix, `lab-ftp serve --idle-timeout 5` kept AUTH TLS + silence open past 330 s (its
// idle timeout is the session's own, which does not run during a handshake), so five such
// clients took every slot of --max-sessions 5. An FTPS data connection that never starts its
// handshake is answered within --data-timeout (tests/security/hardening_probe.py).
#include <chrono>
#include <cstdio>
#include <thread>

#include "security/raw_client.hpp"
#include "security/security_env.hpp"

namespace tls_deadline_test {

using namespace security_test;
using namespace std::chrono_literals;

// How long a silent handshake may last here: the servers get --idle-timeout 2 (the handshake
// deadline is the shorter of the idle timeout and 10 s); the bound leaves room for a loaded machine.
constexpr auto closed_within = 12s;

struct server {
  temp_dir dir{"netlab-sec-tls-deadline"};
  std::vector<std::string> tls;
  std::unique_ptr<netlab::test::process> proc;
  int port = 0;
  server(const std::string& proto, std::vector<std::string> extra) {
    write_file(dir.path / "users.txt", "alice:secret\n");
    write_file(dir.path / "root/file.txt", "some data\n");
    tls = make_cert(dir.path);
    const std::string users = (dir.path / "users.txt").string();
    std::vector<std::string> argv;
    if (proto == "ftp")
      argv = {netlab::test::bin_path("lab-ftp"), "serve", "--root", (dir.path / "root").string(), "--users", users};
    else if (proto == "smtp")
      argv = {netlab::test::bin_path("lab-smtp"),
              "serve",
              "--maildir",
              (dir.path / "mail").string(),
              "--domain",
              "example.org",
              "--users",
              users};
    else if (proto == "pop3")
      argv = {netlab::test::bin_path("lab-pop3"), "serve", "--maildir", (dir.path / "mail").string(), "--users", users};
    else
      argv = {netlab::test::bin_path("lab-http"), "serve", "--root", (dir.path / "root").string()};
    argv.insert(argv.end(), tls.begin(), tls.end());
    argv.insert(argv.end(), {"--listen", "127.0.0.1:0"});
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<netlab::test::process>(argv);
    port = netlab::test::process::port_of(proc->wait_listening());
  }
};

// Connects, asks for TLS with `dialogue` (each line's reply read), then stays silent; returns
// the seconds until the server closed (negative: still open after `closed_within`).
double silent_after(const server& s, const std::vector<std::string>& dialogue, bool greeting = true) {
  raw_client c(s.port);
  EXPECT_TRUE(c.ok());
  if (greeting) {
    EXPECT_FALSE(c.reply().empty());
  }
  for (const auto& line : dialogue) {
    c.send(line + "\r\n");
    const std::string r = c.reply();
    EXPECT_FALSE(r.empty()) << line;
  }
  return c.seconds_until_closed(closed_within);
}

// A TLS record header that announces a ClientHello, then one byte every 0.4 s: a handshake that
// trickles is cut by the same total deadline (the bytes do not renew it).
double trickle_after(const server& s, const std::vector<std::string>& dialogue, bool greeting = true) {
  raw_client c(s.port);
  EXPECT_TRUE(c.ok());
  if (greeting) c.reply();
  for (const auto& line : dialogue) {
    c.send(line + "\r\n");
    c.reply();
  }
  const auto start = std::chrono::steady_clock::now();
  const std::string hello = std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11) + std::string(500, 'x');
  for (std::size_t i = 0; i < hello.size() && std::chrono::steady_clock::now() - start < closed_within; ++i) {
    if (!c.send(hello.substr(i, 1))) break;
    const double closed = c.seconds_until_closed(400ms);
    if (closed >= 0) return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return -1;
}

void report(const char* what, double seconds) {
  if (seconds < 0)
    std::printf("%s: still open after %lld s\n", what, static_cast<long long>(closed_within.count()));
  else
    std::printf("%s: closed after %.2f s\n", what, seconds);
}

TEST(TlsDeadline, FtpAuthTlsThenSilenceIsClosed) {
  server s("ftp", {"--idle-timeout", "2", "--max-sessions", "3"});
  const double silent = silent_after(s, {"AUTH TLS"});
  report("FTP AUTH TLS then silence, --idle-timeout 2", silent);
  EXPECT_GE(silent, 0) << "the server kept a silent AUTH TLS connection open";
  const double trickle = trickle_after(s, {"AUTH TLS"});
  report("FTP AUTH TLS then a handshake one byte every 0.4 s", trickle);
  EXPECT_GE(trickle, 0);
  // The attack: as many silent AUTH TLS clients as --max-sessions, then a new user.
  std::vector<raw_client> holders;
  for (int i = 0; i < 3; ++i) {
    holders.emplace_back(s.port, "127.0.0." + std::to_string(20 + i));
    holders.back().reply();
    holders.back().send("AUTH TLS\r\n");
    holders.back().reply();
  }
  for (auto& h : holders) EXPECT_GE(h.seconds_until_closed(closed_within), 0);
  raw_client user(s.port, "127.0.0.30");
  const std::string greeting = user.reply();
  std::printf("FTP, 3 silent AUTH TLS clients on --max-sessions 3: a new user then gets \"%s\"\n",
              greeting.substr(0, greeting.find('\n')).c_str());
  EXPECT_EQ(greeting.substr(0, 3), "220") << greeting;
}

TEST(TlsDeadline, SmtpStartTlsThenSilenceIsClosed) {
  server s("smtp", {"--idle-timeout", "2"});
  const double silent = silent_after(s, {"EHLO probe.example", "STARTTLS"});
  report("SMTP STARTTLS then silence, --idle-timeout 2", silent);
  EXPECT_GE(silent, 0);
  const double trickle = trickle_after(s, {"EHLO probe.example", "STARTTLS"});
  report("SMTP STARTTLS then a trickled handshake", trickle);
  EXPECT_GE(trickle, 0);
}

TEST(TlsDeadline, Pop3StlsThenSilenceIsClosed) {
  server s("pop3", {"--idle-timeout", "2"});
  const double silent = silent_after(s, {"STLS"});
  report("POP3 STLS then silence, --idle-timeout 2", silent);
  EXPECT_GE(silent, 0);
  const double trickle = trickle_after(s, {"STLS"});
  report("POP3 STLS then a trickled handshake", trickle);
  EXPECT_GE(trickle, 0);
}

TEST(TlsDeadline, HttpsSilentOrTricklingHandshakeIsClosed) {
  server s("http", {"--idle-timeout", "2", "--head-timeout", "30"});
  const double silent = silent_after(s, {}, false);
  report("HTTPS, a connection that never starts its handshake (--head-timeout 30)", silent);
  EXPECT_GE(silent, 0);
  const double trickle = trickle_after(s, {}, false);
  report("HTTPS, a handshake one byte every 0.4 s", trickle);
  EXPECT_GE(trickle, 0);
}

// The data connection of a PROT P transfer: the client connects to the passive port and never
// starts its handshake. The transfer must end (425/426/522) within --data-timeout.
TEST(TlsDeadline, FtpsDataConnectionWithoutHandshakeEnds) {
  server s("ftp", {"--data-timeout", "2"});
  const auto r = netlab::test::run({"/usr/bin/python3", netlab::test::source_path("tests/security/hardening_probe.py"),
                                    "ftps-silent-data", std::to_string(s.port), "alice", "secret", "20"},
                                   {}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << r.out;
  std::printf("FTPS data connection without a handshake, --data-timeout 2: \"%s\" after %.2f s\n",
              doc.value("reply", std::string()).c_str(), doc.value("seconds", -1.0));
  const std::string reply = doc.value("reply", std::string());
  ASSERT_GE(reply.size(), 3u) << doc.dump();
  EXPECT_TRUE(reply[0] == '4' || reply[0] == '5') << doc.dump();
  EXPECT_LT(doc.value("seconds", 1e9), 7.0) << doc.dump();  // the data timeout, not the 10 s connect timeout
}

}  // namespace tls_deadline_test
