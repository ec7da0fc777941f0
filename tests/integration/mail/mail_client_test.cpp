// lab-smtp send and lab-pop3 fetch against real servers (aiosmtpd) and our own, and the whole
// path of the textbook: user agent -> SMTP -> mailbox -> POP3.
#include <nlohmann/json.hpp>

#include "integration/mail/mail_env.hpp"

namespace {

using namespace mail_test;

// aiosmtpd on port 0: prints "listening on HOST:PORT", then one line per message received and
// writes the message bytes to DIR/<n>.eml.
const char* aiosmtpd_server = R"PY(
import asyncio, sys, os
from aiosmtpd.smtp import SMTP
out = sys.argv[1]
class Handler:
    n = 0
    async def handle_DATA(self, server, session, envelope):
        Handler.n += 1
        with open(os.path.join(out, "%d.eml" % Handler.n), "wb") as f:
            f.write(envelope.original_content)
        print("message", envelope.mail_from, ",".join(envelope.rcpt_tos), len(envelope.original_content), flush=True)
        return "250 2.0.0 stored by aiosmtpd"
async def main():
    loop = asyncio.get_running_loop()
    srv = await loop.create_server(lambda: SMTP(Handler(), hostname="aiosmtpd.test"), "127.0.0.1", 0)
    print("listening on 127.0.0.1:%d" % srv.sockets[0].getsockname()[1], flush=True)
    await srv.serve_forever()
asyncio.run(main())
)PY";

netlab::test::run_result lab_smtp(std::vector<std::string> args, const std::string& input) {
  args.insert(args.begin(), {netlab::test::bin_path("lab-smtp"), "send"});
  return netlab::test::run(args, input);
}

TEST(MailClient, SendToAiosmtpdWithAttachment) {
  NETLAB_REQUIRE_PYTHON_MODULE("aiosmtpd");
  mail_env env;
  netlab::test::process server({"/usr/bin/python3", "-c", aiosmtpd_server, env.dir.string()});
  const std::string addr = server.wait_listening();
  std::ofstream(env.dir / "data.bin", std::ios::binary) << std::string(
      "\x00\x01\x02"
      "binary"
      "\xff",
      10);
  const auto r =
      lab_smtp({"--server", addr, "--from", "alice@example.org", "--to", "bob@example.net", "--to", "carol@example.net",
                "--subject", "Report", "--attach", (env.dir / "data.bin").string(), "--trace"},
               "Hello Bob,\n.see the attachment\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("to 2 recipient(s): 2.0.0 stored by aiosmtpd"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("C: MAIL FROM:<alice@example.org>\nS: 250 OK\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("C: RCPT TO:<carol@example.net>"), std::string::npos);
  ASSERT_TRUE(server.wait_for_line("message").has_value());
  EXPECT_NE(server.out().find("message alice@example.org bob@example.net,carol@example.net"), std::string::npos);
  const std::string m = mail_env::read(env.dir / "1.eml");
  EXPECT_NE(m.find("Subject: Report\r\n"), std::string::npos);
  EXPECT_NE(m.find("Content-Type: multipart/mixed; boundary="), std::string::npos);
  EXPECT_NE(m.find("\r\n.see the attachment\r\n"), std::string::npos);  // unstuffed by aiosmtpd
  EXPECT_NE(m.find("filename=\"data.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\nAAECYmluYXJ5/w==\r\n"),
            std::string::npos)
      << m;
}

TEST(MailClient, ClearErrorsForRefusals) {
  mail_env env;
  env.make_cert();
  auto server = env.start_smtp(env.tls_args());
  const std::string addr = server->wait_listening();
  auto r = lab_smtp({"--server", addr, "--from", "x@other.org", "--to", "nobody@example.org"}, "hi\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "lab-smtp: error: server refused RCPT TO:<nobody@example.org>: 550 5.1.1 <nobody@example.org>: no such "
            "user here\n");
  r = lab_smtp({"--server", addr, "--from", "x@other.org", "--to", "far@away.net", "--auth", "alice:secret"}, "hi\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lab-smtp: error: the server does not offer AUTH PLAIN (try --starttls)\n");
  const std::string by_name = "localhost:" + port_string(addr);  // the certificate is for CN=localhost
  r = lab_smtp({"--server", by_name, "--from", "x@other.org", "--to", "far@away.net", "--auth", "alice:wrong",
                "--starttls", "--ca-file", env.cert.string()},
               "hi\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("server refused AUTH PLAIN (user alice): 535 5.7.8"), std::string::npos) << r.err;
  r = lab_smtp({"--server", "127.0.0.1:1", "--from", "x@other.org", "--to", "a@example.org"}, "hi\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("127.0.0.1:1"), std::string::npos) << r.err;
  r = lab_smtp({"--server", addr, "--from", "not an address", "--to", "a@example.org"}, "hi\n");
  EXPECT_EQ(r.exit_code, 2);
  r = lab_smtp({"--server", addr, "--from", "x@other.org", "--to", "alice@example.org", "--auth", "nocolon"}, "hi\n");
  EXPECT_EQ(r.exit_code, 2);
}

// A certificate for another name: the error says the name asked for and what the certificate
// holds (its CN and subjectAltNames), for lab-smtp send and lab-pop3 fetch alike; a certificate
// nobody vouches for says why it was not trusted.
TEST(MailClient, TlsNameMismatchNamesTheAskedNameAndTheCertificatesNames) {
  mail_env env;
  env.make_cert();  // CN=localhost, no subjectAltName
  auto smtp = env.start_smtp(env.tls_args());
  const std::string smtp_addr = smtp->wait_listening();
  auto r = lab_smtp({"--server", smtp_addr, "--from", "x@other.org", "--to", "alice@example.org", "--starttls",
                     "--ca-file", env.cert.string()},
                    "hi\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lab-smtp: error: TLS handshake with " + smtp_addr +
                       " failed: the certificate does not name '127.0.0.1': it holds CN=localhost\n");
  r = lab_smtp({"--server", smtp_addr, "--from", "x@other.org", "--to", "alice@example.org", "--starttls"}, "hi\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("certificate verify failed (self-signed certificate)"), std::string::npos) << r.err;
  auto pop = env.start_pop3(env.tls_args());
  const std::string pop_addr = pop->wait_listening();
  r = netlab::test::run({netlab::test::bin_path("lab-pop3"), "fetch", "--server", pop_addr, "--user", "alice",
                         "--password", "secret", "--out", (env.dir / "in").string(), "--stls", "--ca-file",
                         env.cert.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lab-pop3: error: TLS handshake with " + pop_addr +
                       " failed: the certificate does not name '127.0.0.1': it holds CN=localhost\n");
  EXPECT_EQ(r.out, "");
}

TEST(MailClient, StartTlsAuthRelayAndJson) {
  mail_env env;
  env.make_cert();
  auto server = env.start_smtp(env.tls_args());
  const std::string addr = server->wait_listening();
  const auto r = lab_smtp({"--server", "localhost:" + port_string(addr), "--from", "alice@example.org", "--to",
                           "friend@far.net", "--to", "nobody@example.org", "--starttls", "--ca-file", env.cert.string(),
                           "--auth", "alice:secret", "--json", "--trace"},
                          "relayed\n");
  EXPECT_EQ(r.exit_code, 1);  // one recipient refused
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["delivered"].get<bool>());
  EXPECT_EQ(doc["accepted"], nlohmann::json::array({"friend@far.net"}));
  EXPECT_EQ(doc["rejected"][0]["reply_code"], 550);
  EXPECT_NE(r.err.find("-- TLS handshake done; the rest is encrypted --\nC: EHLO localhost"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("C: AUTH PLAIN <credentials of alice>\nS: 235"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("secret"), std::string::npos);
  EXPECT_EQ(env.files(".relay", "new").size(), 1U);
}

// The textbook's path: lab-smtp send -> lab-smtp serve -> Maildir -> lab-pop3 serve -> poplib,
// and the bytes poplib reads are the bytes sent, after the final delivery's Return-Path and
// Delivered-To and the server's Received: header.
TEST(MailPath, SendThenReadBackTheSameBytesWithPoplib) {
  mail_env env;
  auto smtp = env.start_smtp();
  const std::string smtp_addr = smtp->wait_listening();
  const std::string message =
      "From: alice@example.org\r\nTo: bob@example.org\r\nSubject: path\r\n\r\n"
      "Line one\r\n.Line with a leading dot\r\n..two dots\r\n\r\nlast line\r\n";
  const auto sent =
      lab_smtp({"--server", smtp_addr, "--from", "alice@example.org", "--to", "bob@example.org", "--raw"}, message);
  ASSERT_EQ(sent.exit_code, 0) << sent.err;
  auto pop = env.start_pop3();
  const std::string pop_addr = pop->wait_listening();
  const auto r = python(R"PY(
import poplib, sys
p = poplib.POP3("127.0.0.1", int(sys.argv[1]), timeout=10)
p.user("bob"); p.pass_("hunter2")
lines = p.retr(1)[1]
sys.stdout.buffer.write(b"".join(l + b"\r\n" for l in lines))
p.quit()
)PY",
                        {port_string(pop_addr)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.out.rfind("Return-Path: <alice@example.org>\r\nDelivered-To: bob@example.org\r\n"
                        "Received: from localhost ([127.0.0.1])\r\n\tby example.org",
                        0),
            0U)
      << r.out;
  const auto header_end = r.out.find("\r\nFrom: ");
  ASSERT_NE(header_end, std::string::npos);
  EXPECT_EQ(r.out.substr(header_end + 2), message);
  // The Maildir keeps the same text with LF line ends; POP3 sent each as CRLF.
  std::string stored = mail_env::read(env.files("bob", "new")[0]);
  EXPECT_EQ(stored.find('\r'), std::string::npos);
  for (std::size_t at = 0; (at = stored.find('\n', at)) != std::string::npos; at += 2) stored.insert(at, "\r");
  EXPECT_EQ(r.out, stored);
}

TEST(MailPath, FetchSavesMessagesAndDeletes) {
  mail_env env;
  auto smtp = env.start_smtp();
  const std::string smtp_addr = smtp->wait_listening();
  for (const char* body : {"first\n", "second\n"})
    ASSERT_EQ(
        lab_smtp({"--server", smtp_addr, "--from", "bob@example.org", "--to", "alice@example.org"}, body).exit_code, 0);
  auto pop = env.start_pop3();
  const std::string pop_addr = pop->wait_listening();
  const auto out = env.dir / "inbox";
  auto r = netlab::test::run({netlab::test::bin_path("lab-pop3"), "fetch", "--server", pop_addr, "--user", "alice",
                              "--password", "secret", "--out", out.string(), "--delete", "--json", "--trace"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["messages"].size(), 2U);
  EXPECT_EQ(doc["deleted"], 2);
  EXPECT_NE(r.err.find("C: PASS <hidden>"), std::string::npos);
  const auto stored = env.files("alice", "new");
  EXPECT_TRUE(stored.empty());  // deleted at QUIT
  for (const auto& m : doc["messages"]) {
    const std::string file = m["file"];
    EXPECT_NE(mail_env::read(file).find("Received: from localhost"), std::string::npos);
    EXPECT_EQ(fs::file_size(file), m["size_bytes"].get<std::size_t>());
  }
  r = netlab::test::run({netlab::test::bin_path("lab-pop3"), "fetch", "--server", pop_addr, "--user", "alice",
                         "--password", "bad", "--out", out.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.err,
      "lab-pop3: error: login failed: server refused PASS (user alice): -ERR [AUTH] invalid user name or password\n");
  EXPECT_EQ(r.out, "");  // no "saved 0 message(s)": nothing was fetched, the login failed
}

TEST(MailPath, FetchWithStls) {
  mail_env env;
  env.make_cert();
  auto smtp = env.start_smtp();
  const std::string smtp_addr = smtp->wait_listening();
  ASSERT_EQ(
      lab_smtp({"--server", smtp_addr, "--from", "bob@example.org", "--to", "alice@example.org"}, "x\n").exit_code, 0);
  auto pop = env.start_pop3(env.tls_args());
  const std::string pop_addr = pop->wait_listening();
  const auto r = netlab::test::run({netlab::test::bin_path("lab-pop3"), "fetch", "--server", pop_addr, "--user",
                                    "alice", "--password", "secret", "--out", (env.dir / "in").string(), "--stls",
                                    "--insecure", "--trace"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("C: STLS\nS: +OK Begin TLS negotiation\n-- TLS handshake done"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("saved 1 message(s)"), std::string::npos);
}

}  // namespace
