// The Maildir that lab-smtp serve writes, read by the programs people use on it: files with LF line
// ends that start with Return-Path and Delivered-To (RFC 5321 §4.4, the convention of qmail,
// Postfix and Dovecot); POP3 (lab-pop3 serve) sends them with CRLF line ends, dot-stuffed, and
// counts CRLF octets in STAT and LIST (RFC 1939 §11). Real readers: s-nail on the Maildir itself,
// getmail6, mpop and fetchmail through lab-pop3 serve, and Dovecot's POP3 server serving the same
// Maildir (root only: Dovecot changes to its own users). A missing program skips its test with the
// reason, except under CI=true.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "integration/mail/mail_env.hpp"
#include "support/third_party.hpp"

namespace {

using namespace mail_test;
using netlab::test::bin_path;
using netlab::test::run;

// A lunch message with the lines a mail reader and a POP3 server must get right: a header block,
// a line that is only ".", a line starting with "..", and an empty line.
const std::string lunch_body = "Hi Bob,\nlunch at noon?\n.\n..two dots\n\nAlice\n";

void send_lunch(const std::string& smtp_addr) {
  const auto r = run({bin_path("lab-smtp"), "send", "--server", smtp_addr, "--from", "alice@example.org", "--to",
                      "bob@example.org", "--subject", "Lunch"},
                     lunch_body);
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// The port of a server started by mail_env, once it is listening.
int process_port(netlab::test::process& p) {
  return netlab::test::process::port_of(p.wait_listening());
}

std::string crlf(std::string lf_text) {
  std::string out;
  for (char c : lf_text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// USER/PASS, STAT, LIST, UIDL, RETR 1 over a raw socket: the replies as they came (no unstuffing).
const char* pop3_dialogue = R"PY(
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
f = s.makefile("rb")
def line(): return f.readline().decode("latin-1")
def multi():
    out = []
    while True:
        l = line()
        if l == ".\r\n": return out
        out.append(l)
out = {"greeting": line()}
for cmd in ["USER " + sys.argv[2], "PASS " + sys.argv[3]]:
    s.sendall((cmd + "\r\n").encode()); line()
s.sendall(b"STAT\r\n"); out["stat"] = line()
s.sendall(b"LIST\r\n"); line(); out["list"] = multi()
s.sendall(b"RETR 1\r\n"); out["retr_status"] = line(); out["retr"] = "".join(multi())
s.sendall(b"QUIT\r\n"); out["quit"] = line()
import json; print(json.dumps(out))
)PY";

nlohmann::json pop3_session(int port, const std::string& user = "bob", const std::string& password = "hunter2") {
  const auto r = python(pop3_dialogue, {std::to_string(port), user, password});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out.empty() ? "{}" : r.out);
}

// Undoes POP3 dot-stuffing (RFC 1939 §3) of a multi-line answer's lines.
std::string unstuff(const std::string& stuffed) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < stuffed.size(); ++i) {
    if (!(line_start && stuffed[i] == '.')) out += stuffed[i];
    line_start = stuffed[i] == '\n';
  }
  return out;
}

TEST(MailStore, LabSmtpStoresLfFilesWithReturnPathAndPop3SendsCrlfWithCrlfSizes) {
  mail_env env;
  auto smtp = env.start_smtp();
  send_lunch(smtp->wait_listening());
  const auto files = env.files("bob", "new");
  ASSERT_EQ(files.size(), 1U);
  const std::string stored = mail_env::read(files[0]);
  EXPECT_EQ(stored.find('\r'), std::string::npos) << stored;
  EXPECT_EQ(
      stored.rfind("Return-Path: <alice@example.org>\nDelivered-To: bob@example.org\nReceived: from localhost", 0), 0U)
      << stored;
  EXPECT_NE(stored.find("\nSubject: Lunch\n"), std::string::npos);
  EXPECT_TRUE(stored.ends_with("\n\nHi Bob,\nlunch at noon?\n.\n..two dots\n\nAlice\n")) << stored;
  const std::string wire = crlf(stored);
  EXPECT_TRUE(files[0].filename().string().ends_with(fmt::format(",S={},W={}", stored.size(), wire.size())))
      << files[0];

  auto pop = env.start_pop3();
  const auto s = pop3_session(process_port(*pop));
  SCOPED_TRACE(s.dump());
  EXPECT_EQ(s["stat"], fmt::format("+OK 1 {}\r\n", wire.size()));
  EXPECT_EQ(s["list"], nlohmann::json::array({fmt::format("1 {}\r\n", wire.size())}));
  const std::string retr = s["retr"];
  EXPECT_NE(retr.find("\r\nlunch at noon?\r\n..\r\n...two dots\r\n"), std::string::npos);  // stuffed on the wire
  EXPECT_EQ(unstuff(retr), wire);  // exactly LIST's octets before stuffing
}

// Files stored with CRLF line ends by an older netlab (named with S= only) are served as before:
// POP3 sizes and bytes unchanged, the file untouched (this version reads them, it does not migrate).
TEST(MailStore, OldCrlfFilesAreServedUnchangedAndNotRewritten) {
  mail_env env;
  const std::string old =
      "Received: from x\r\n\tby example.org; Mon, 30 Nov 2026 08:55:04 +0000\r\nSubject: old\r\n\r\n.\r\nold body\r\n";
  fs::create_directories(env.maildir / "bob" / "new");
  fs::create_directories(env.maildir / "bob" / "cur");
  fs::create_directories(env.maildir / "bob" / "tmp");
  const fs::path file = env.maildir / "bob" / "new" / fmt::format("1700000000.M1P1Q1.old,S={}", old.size());
  std::ofstream(file, std::ios::binary) << old;
  auto pop = env.start_pop3();
  const auto s = pop3_session(process_port(*pop));
  SCOPED_TRACE(s.dump());
  EXPECT_EQ(s["stat"], fmt::format("+OK 1 {}\r\n", old.size()));
  EXPECT_EQ(unstuff(s["retr"]), old);
  EXPECT_EQ(mail_env::read(file), old);
}

TEST(MailStore, SNailReadsTheMaildirWithoutCarriageReturns) {
  NETLAB_REQUIRE_PEER("s-nail");
  mail_env env;
  auto smtp = env.start_smtp();
  send_lunch(smtp->wait_listening());
  // -n: no system start-up file; -#: batch mode; -R: read-only.
  const auto r = run({"s-nail", "-n", "-#", "-R", "-f", "maildir://" + (env.maildir / "bob").string()},
                     "headers\nprint 1\n", std::chrono::seconds(30));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\r'), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("Not a header line"), std::string::npos) << r.err;
  // The summary line: the sender from From:, then the subject.
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(1 alice@example\.org .* Lunch)"))) << r.out;
  EXPECT_NE(r.out.find("Return-Path: <alice@example.org>\nDelivered-To: bob@example.org\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nlunch at noon?\n.\n..two dots\n\nAlice\n"), std::string::npos) << r.out;
}

TEST(MailStore, Getmail6FetchesThroughLabPop3AndSeesTheEnvelopeSender) {
  NETLAB_REQUIRE_PEER("getmail");
  mail_env env;
  auto smtp = env.start_smtp();
  send_lunch(smtp->wait_listening());
  auto pop = env.start_pop3();
  const fs::path dest = env.dir / "getmail-maildir";
  for (const char* sub : {"tmp", "new", "cur"}) fs::create_directories(dest / sub);
  // getmail refuses to deliver as root: as root it delivers as nobody (`user`), which needs the way in.
  const bool root = ::geteuid() == 0;
  if (root) {
    ::chmod(env.dir.c_str(), 0755);
    for (const char* sub : {"", "tmp", "new", "cur"}) ::chmod((dest / sub).c_str(), 0777);
  }
  const fs::path rc = env.dir / "getmailrc";
  std::ofstream(rc) << fmt::format(
      "[retriever]\ntype = SimplePOP3Retriever\nserver = 127.0.0.1\nport = {}\nusername = bob\npassword = hunter2\n"
      "[destination]\ntype = Maildir\npath = {}/\n{}[options]\nread_all = true\ndelete = false\nverbose = 2\n",
      process_port(*pop), dest.string(), root ? "user = nobody\n" : "");
  const auto r =
      run({"getmail", "--getmaildir", env.dir.string(), "--rcfile", rc.string()}, {}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("from <alice@example.org>"), std::string::npos) << r.out;  // not "from <unknown>"
  std::vector<fs::path> got;
  for (const auto& e : fs::directory_iterator(dest / "new")) got.push_back(e.path());
  ASSERT_EQ(got.size(), 1U);
  const std::string m = mail_env::read(got[0]);
  EXPECT_EQ(m.find('\r'), std::string::npos);
  EXPECT_NE(m.find("Delivered-To: bob@example.org\n"), std::string::npos) << m;
  EXPECT_TRUE(m.ends_with("\n\nHi Bob,\nlunch at noon?\n.\n..two dots\n\nAlice\n")) << m;
}

TEST(MailStore, MpopFetchesThroughLabPop3IntoAnMboxWithTheRealSender) {
  NETLAB_REQUIRE_PEER("mpop");
  mail_env env;
  auto smtp = env.start_smtp();
  send_lunch(smtp->wait_listening());
  auto pop = env.start_pop3();
  const fs::path mbox = env.dir / "mbox";
  std::ofstream(mbox).flush();
  const auto r = run({"mpop", "--host=127.0.0.1", fmt::format("--port={}", process_port(*pop)), "--tls=off",
                      "--auth=user", "--user=bob", "--passwordeval=echo hunter2", "--keep=on",
                      "--uidls-file=" + (env.dir / "uidls").string(), "--delivery=mbox," + mbox.string(), "--quiet"},
                     {}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string m = mail_env::read(mbox);
  EXPECT_EQ(m.rfind("From alice@example.org ", 0), 0U) << m;  // not "From MAILER-DAEMON"
  EXPECT_EQ(m.find('\r'), std::string::npos);
  EXPECT_NE(m.find("\nSubject: Lunch\n"), std::string::npos) << m;
}

TEST(MailStore, FetchmailFetchesThroughLabPop3) {
  NETLAB_REQUIRE_PEER("fetchmail");
  mail_env env;
  auto smtp = env.start_smtp();
  send_lunch(smtp->wait_listening());
  auto pop = env.start_pop3();
  const fs::path out = env.dir / "fetched.eml";
  const fs::path rc = env.dir / "fetchmailrc";
  std::ofstream(rc) << fmt::format(
      "set no syslog\npoll 127.0.0.1 protocol pop3 port {} user \"bob\" password \"hunter2\" sslproto '' keep\n"
      "  mda \"/bin/sh -c 'cat > {}'\"\n",
      process_port(*pop), out.string());
  fs::permissions(rc, fs::perms::owner_read | fs::perms::owner_write);
  const auto r = run({"fetchmail", "--fetchmailrc", rc.string(), "--pidfile", (env.dir / "fetchmail.pid").string(),
                      "--idfile", (env.dir / "fetchids").string(), "--nodetach", "--verbose"},
                     {}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string m = mail_env::read(out);
  EXPECT_EQ(m.find('\r'), std::string::npos) << m;
  EXPECT_NE(m.find("Return-Path: <alice@example.org>\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\nlunch at noon?\n.\n..two dots\n\nAlice\n"), std::string::npos) << m;
}

// Dovecot's POP3 server, run privately (its own configuration, base and state folders in the
// test's folder, a free port on 127.0.0.1), serves the Maildir lab-smtp serve wrote with the same
// sizes and bytes as lab-pop3 serve, and finds nothing wrong with the files (it checks S= and W=
// against the file and logs "Error:" when they disagree).
TEST(MailStore, DovecotServesTheMaildirLabSmtpWroteLikeLabPop3Does) {
  NETLAB_REQUIRE_PEER("/usr/sbin/dovecot");
  if (::geteuid() != 0) GTEST_SKIP() << "Dovecot must start as root (it changes to its own users)";
  mail_env env;
  auto smtp = env.start_smtp();
  const std::string smtp_addr = smtp->wait_listening();
  send_lunch(smtp_addr);
  ASSERT_EQ(run({bin_path("lab-smtp"), "send", "--server", smtp_addr, "--from", "", "--to", "bob@example.org",
                 "--subject", "Bounce"},
                "a message with the null sender\n")
                .exit_code,
            0);
  nlohmann::json ours;
  {
    auto pop = env.start_pop3();
    ours = pop3_session(process_port(*pop));
  }
  // Dovecot's mail processes run as nobody (never root); the login process as dovenull.
  ::chmod(env.dir.c_str(), 0755);
  ASSERT_EQ(run({"chown", "-R", "nobody:nogroup", env.maildir.string()}).exit_code, 0);
  const fs::path conf = env.dir / "dovecot.conf";
  std::ofstream(env.dir / "passwd") << "bob:{PLAIN}hunter2\n";
  int port = 0;
  auto dovecot = netlab::test::start_daemon(
      [&](int p) {
        std::ofstream(conf) << fmt::format(
            "base_dir = {0}/run\nstate_dir = {0}/state\ninstance_name = netlab-test-{1}\nlog_path = /dev/stderr\n"
            "info_log_path = /dev/stderr\nprotocols = pop3\nlisten = 127.0.0.1\nssl = no\n"
            "disable_plaintext_auth = no\nauth_mechanisms = plain\ndefault_internal_user = dovecot\n"
            "default_internal_group = dovecot\ndefault_login_user = dovenull\nmail_location = maildir:{2}/%n\n"
            "pop3_uidl_format = %f\npassdb {{\n  driver = passwd-file\n  args = {0}/passwd\n}}\n"
            "userdb {{\n  driver = static\n  args = uid=nobody gid=nogroup home={2}/%n\n}}\n"
            "service pop3-login {{\n  inet_listener pop3 {{\n    address = 127.0.0.1\n    port = {1}\n  }}\n"
            "  inet_listener pop3s {{\n    port = 0\n  }}\n}}\n",
            env.dir.string(), p, env.maildir.string());
        return std::vector<std::string>{"/usr/sbin/dovecot", "-F", "-c", conf.string()};
      },
      port);
  const auto theirs = pop3_session(port);
  dovecot->signal(SIGTERM);
  dovecot->wait();
  SCOPED_TRACE("lab-pop3: " + ours.dump() + "\ndovecot: " + theirs.dump() + "\ndovecot log:\n" + dovecot->err());
  ASSERT_EQ(theirs["stat"].get<std::string>().rfind("+OK 2 ", 0), 0U);
  EXPECT_EQ(theirs["stat"], ours["stat"]);
  EXPECT_EQ(theirs["list"], ours["list"]);
  EXPECT_EQ(theirs["retr"], ours["retr"]);
  EXPECT_NE(theirs["retr"].get<std::string>().find("Return-Path: <"), std::string::npos);
  EXPECT_NE(dovecot->err().find("Login: user=<bob>"), std::string::npos);
  EXPECT_EQ(dovecot->err().find("Error:"), std::string::npos);
}

}  // namespace
