// lab-smtp serve against real clients (swaks, Python smtplib, curl) and security probes.
#include <csignal>

#include "integration/mail/mail_env.hpp"

namespace {

using namespace mail_test;

class SmtpServe : public ::testing::Test {
 protected:
  mail_env env;
};

TEST_F(SmtpServe, SwaksPlainDeliversIntoNewWithReceivedHeader) {
  NETLAB_REQUIRE_PEER("swaks");
  auto server = env.start_smtp();
  const std::string addr = server->wait_listening();
  const auto r = netlab::test::run({"swaks", "--server", addr, "--from", "x@other.org", "--to", "alice@example.org",
                                    "--header", "Subject: plain", "--body", "Hello Alice\n.dot line\n"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto files = env.files("alice", "new");
  ASSERT_EQ(files.size(), 1U);
  const std::string m = mail_env::read(files[0]);
  // Final delivery (RFC 5321 §4.4): Return-Path, Delivered-To, then our Received:; LF line ends.
  EXPECT_EQ(m.rfind("Return-Path: <x@other.org>\nDelivered-To: alice@example.org\nReceived: from ", 0), 0U) << m;
  EXPECT_NE(m.find("by example.org (netlab lab-smtp) with ESMTP id "), std::string::npos);
  EXPECT_NE(m.find("\nSubject: plain\n"), std::string::npos);
  EXPECT_NE(m.find("\n\nHello Alice\n.dot line\n"), std::string::npos);  // unstuffed again
  EXPECT_EQ(m.find('\r'), std::string::npos);
  EXPECT_TRUE(env.files("alice", "tmp").empty());
  EXPECT_TRUE(env.files("bob", "new").empty());
}

TEST_F(SmtpServe, SwaksPipelining) {
  NETLAB_REQUIRE_PEER("swaks");
  auto server = env.start_smtp();
  const std::string addr = server->wait_listening();
  const auto r = netlab::test::run(
      {"swaks", "--server", addr, "--pipeline", "--from", "x@other.org", "--to", "alice@example.org,bob@example.org"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PIPELINING"), std::string::npos);
  EXPECT_EQ(env.files("alice", "new").size(), 1U);
  EXPECT_EQ(env.files("bob", "new").size(), 1U);
}

TEST_F(SmtpServe, SwaksTlsAndAuthRelay) {
  NETLAB_REQUIRE_PEER("swaks");
  env.make_cert();
  auto server = env.start_smtp(env.tls_args());
  const std::string addr = server->wait_listening();
  auto r =
      netlab::test::run({"swaks", "--server", addr, "--tls", "--from", "x@other.org", "--to", "alice@example.org"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  ASSERT_EQ(env.files("alice", "new").size(), 1U);
  EXPECT_NE(mail_env::read(env.files("alice", "new")[0]).find(" with ESMTPS id "), std::string::npos);
  // Authenticated relay over TLS is accepted and queued, not sent on.
  r = netlab::test::run({"swaks", "--server", addr, "--tls", "--auth", "LOGIN", "--auth-user", "bob", "--auth-password",
                         "hunter2", "--from", "bob@example.org", "--to", "friend@elsewhere.net"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(env.files(".relay", "new").size(), 1U);
  // Wrong password: 535.
  r = netlab::test::run({"swaks", "--server", addr, "--tls", "--auth", "PLAIN", "--auth-user", "bob", "--auth-password",
                         "nope", "--from", "bob@example.org", "--to", "friend@elsewhere.net"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("535 5.7.8"), std::string::npos) << r.out;
}

TEST_F(SmtpServe, PythonSmtplibWithStartTlsAndLogin) {
  env.make_cert();
  auto server = env.start_smtp(env.tls_args());
  const std::string addr = server->wait_listening();
  const auto r = python(R"PY(
import smtplib, ssl, sys
ctx = ssl.create_default_context(cafile=sys.argv[2])
s = smtplib.SMTP("localhost", int(sys.argv[1]), local_hostname="client.test")
code, _ = s.ehlo()
assert "starttls" in s.esmtp_features and "auth" not in s.esmtp_features, s.esmtp_features
s.starttls(context=ctx)
s.ehlo()
assert "auth" in s.esmtp_features
s.login("alice", "secret")
refused = s.sendmail("alice@example.org", ["bob@example.org", "far@away.net"], "Subject: py\r\n\r\nfrom smtplib\r\n")
print("refused", refused)
s.quit()
)PY",
                        {port_string(addr), env.cert.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "refused {}\n");
  ASSERT_EQ(env.files("bob", "new").size(), 1U);
  EXPECT_NE(mail_env::read(env.files("bob", "new")[0]).find(" with ESMTPSA id "), std::string::npos);
  EXPECT_EQ(env.files(".relay", "new").size(), 1U);
}

TEST_F(SmtpServe, PythonSmtplibErrorsAreTheRightCodes) {
  auto server = env.start_smtp();
  const std::string addr = server->wait_listening();
  const auto r = python(R"PY(
import smtplib, sys
s = smtplib.SMTP("127.0.0.1", int(sys.argv[1]))
s.ehlo()
print(s.docmd("DATA")[0], s.mail("x@other.org")[0], s.rcpt("nobody@example.org")[0], s.rcpt("v@relay.net")[0],
      s.docmd("MAIL FROM:bad")[0], s.docmd("VRFY alice")[0], s.docmd("AUTH PLAIN AGFsaWNlAHNlY3JldA==")[0],
      s.docmd("STARTTLS")[0])
s.quit()
)PY",
                        {port_string(addr)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "503 250 550 554 503 252 503 502\n");
}

TEST_F(SmtpServe, CurlSmtpUpload) {
  NETLAB_REQUIRE_PEER("curl");
  auto server = env.start_smtp();
  const std::string addr = server->wait_listening();
  const auto r = netlab::test::run(
      {"curl", "-sS", "smtp://" + addr, "--mail-from", "x@other.org", "--mail-rcpt", "alice@example.org", "-T", "-"},
      "Subject: curl\r\n\r\nsent by curl\r\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(env.files("alice", "new").size(), 1U);
  EXPECT_NE(mail_env::read(env.files("alice", "new")[0]).find("\nSubject: curl\n\nsent by curl\n"), std::string::npos);
}

TEST_F(SmtpServe, StartTlsWithPipelinedCommandGetsOnly220) {
  env.make_cert();
  auto server = env.start_smtp(env.tls_args());
  const std::string addr = server->wait_listening();
  const auto r =
      python(raw_client, {port_string(addr), "starttls",
                          "EHLO x\\r\\nSTARTTLS\\r\\nMAIL FROM:<a@other.org>\\r\\nRCPT TO:<alice@example.org>\\r\\n"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("250 HELP\r\n220 2.0.0 Ready to start TLS\r\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("2.1.0"), std::string::npos) << r.out;  // MAIL was never answered
  EXPECT_TRUE(r.out.ends_with("220 2.0.0 Ready to start TLS\r\n")) << r.out;
}

TEST_F(SmtpServe, SmugglingVariantsDeliverNothing) {
  auto server = env.start_smtp();
  const std::string addr = server->wait_listening();
  for (const std::string end : {"\\n.\\n", "\\n.\\r\\n", "\\r\\n.\\n", "\\r.\\r\\n", "\\r.\\n"}) {
    const auto r =
        python(raw_client, {port_string(addr), "eof",
                            "EHLO x\\r\\nMAIL FROM:<a@other.org>\\r\\nRCPT TO:<alice@example.org>\\r\\nDATA\\r\\n",
                            "hello" + end +
                                "MAIL FROM:<admin@example.org>\\r\\nRCPT TO:<bob@example.org>\\r\\n"
                                "DATA\\r\\nforged\\r\\n.\\r\\nQUIT\\r\\n"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("550 5.6.11"), std::string::npos) << end << r.out;
    EXPECT_EQ(r.out.find("2.0.0 OK: queued"), std::string::npos) << end << r.out;
  }
  EXPECT_TRUE(env.files("alice", "new").empty());
  EXPECT_TRUE(env.files("bob", "new").empty());
}

TEST_F(SmtpServe, OpenRelayRefused) {
  NETLAB_REQUIRE_PEER("swaks");
  auto server = env.start_smtp();
  const std::string addr = server->wait_listening();
  const auto r =
      netlab::test::run({"swaks", "--server", addr, "--from", "spam@evil.example", "--to", "victim@gmail.example"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("554 5.7.1 <victim@gmail.example>: Relay access denied"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(env.maildir / ".relay"));
}

TEST_F(SmtpServe, ClientKilledMidDataLeavesNothing) {
  auto server = env.start_smtp();
  const std::string addr = server->wait_listening();
  const auto r =
      python(raw_client, {port_string(addr), "abort",
                          "EHLO x\\r\\nMAIL FROM:<a@other.org>\\r\\nRCPT TO:<alice@example.org>\\r\\nDATA\\r\\n",
                          "Subject: half\\r\\n\\r\\nthe first half of the body\\r\\n"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("354 "), std::string::npos);
  server->signal(SIGTERM);  // a clean stop handles every connection's end first
  EXPECT_EQ(server->wait(), 0);
  EXPECT_TRUE(env.files("alice", "new").empty());
  EXPECT_TRUE(env.files("alice", "tmp").empty());
}

TEST_F(SmtpServe, ServerKilledMidDataLeavesNothingInNew) {
  auto server = env.start_smtp();
  const std::string addr = server->wait_listening();
  netlab::test::process client({"/usr/bin/python3", "-c", R"PY(
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.recv(4096)
s.sendall(b"EHLO x\r\nMAIL FROM:<a@other.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\n")
got = b""
while b"354" not in got: got += s.recv(4096)
s.sendall(b"Subject: half\r\n\r\npart one\r\n")
print("in data", flush=True)
s.recv(4096)
)PY",
                                port_string(addr)});
  ASSERT_TRUE(client.wait_for_line("in data").has_value());
  server->signal(SIGKILL);
  server->wait();
  EXPECT_TRUE(env.files("alice", "new").empty());
}

TEST_F(SmtpServe, RequireTls) {
  env.make_cert();
  auto extra = env.tls_args();
  extra.push_back("--require-tls");
  auto server = env.start_smtp(extra);
  const std::string addr = server->wait_listening();
  const auto r = python(raw_client, {port_string(addr), "eof", "EHLO x\\r\\nMAIL FROM:<a@other.org>\\r\\nQUIT\\r\\n"});
  EXPECT_NE(r.out.find("530 5.7.0 Must issue a STARTTLS command first"), std::string::npos) << r.out;
}

TEST_F(SmtpServe, UsageAndSetupErrors) {
  auto r = netlab::test::run({netlab::test::bin_path("lab-smtp"), "serve", "--maildir", env.maildir.string(),
                              "--domain", "example.org", "--users", (env.dir / "missing.txt").string()});
  EXPECT_EQ(r.exit_code, 2);  // a missing input file is a usage error (docs/conventions.md)
  EXPECT_NE(r.err.find("missing.txt': no such file"), std::string::npos) << r.err;
  r = netlab::test::run({netlab::test::bin_path("lab-smtp"), "serve", "--maildir", env.maildir.string(), "--domain",
                         "example.org", "--users", env.users.string(), "--require-tls"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--require-tls needs --tls-cert"), std::string::npos) << r.err;
  r = netlab::test::run({netlab::test::bin_path("lab-smtp"), "serve", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Example:"), std::string::npos);
}

}  // namespace

namespace {

using namespace mail_test;

TEST(SmtpServeLimits, ConnectionCapAnswers421) {
  mail_env env;
  auto server = env.start_smtp({"--max-connections", "1"});
  const std::string addr = server->wait_listening();
  const auto r = python(R"PY(
import socket, sys
port = int(sys.argv[1])
a = socket.create_connection(("127.0.0.1", port), timeout=10)
print(a.recv(4096).decode().strip())
b = socket.create_connection(("127.0.0.1", port), timeout=10)
print(b.recv(4096).decode().strip())
)PY",
                        {port_string(addr)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "220 example.org ESMTP netlab lab-smtp ready\n421 4.3.2 Too many connections, try again later\n");
}

TEST(SmtpServeLimits, IdleClientIsDisconnected) {
  mail_env env;
  auto server = env.start_smtp({"--idle-timeout", "0.3"});
  const std::string addr = server->wait_listening();
  const auto r = python(R"PY(
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
start = time.monotonic()
data = s.recv(4096)
while True:
    b = s.recv(4096)
    if not b: break
print("closed after idle", time.monotonic() - start < 5)
)PY",
                        {port_string(addr)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "closed after idle True\n");
}

}  // namespace
