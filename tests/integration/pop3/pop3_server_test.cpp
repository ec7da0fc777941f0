// lab-pop3 serve against Python poplib and curl, over mail delivered by lab-smtp serve.
#include <csignal>

#include <nlohmann/json.hpp>

#include "integration/mail/mail_env.hpp"

namespace {

using namespace mail_test;

class Pop3Serve : public ::testing::Test {
 protected:
  mail_env env;
  // Delivers messages with Python smtplib through a lab-smtp server on the same maildir.
  void deliver(const std::vector<std::string>& bodies) {
    auto smtp = env.start_smtp();
    const std::string addr = smtp->wait_listening();
    for (const auto& body : bodies) {
      const auto r = python(R"PY(
import smtplib, sys
with smtplib.SMTP("127.0.0.1", int(sys.argv[1])) as s:
    s.sendmail("x@other.org", ["alice@example.org"], sys.stdin.read().encode())
)PY",
                            {port_string(addr)}, body);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
};

const char* poplib_dump = R"PY(
import poplib, sys
p = poplib.POP3("127.0.0.1", int(sys.argv[1]), timeout=10)
p.user("alice"); p.pass_("secret")
count, octets = p.stat()
print("stat", count, octets)
listing = p.list()[1]
uids = [u.decode().split()[1] for u in p.uidl()[1]]
print("uids", " ".join(uids))
for i in range(1, count + 1):
    resp, lines, size = p.retr(i)
    data = b"".join(l + b"\r\n" for l in lines)
    listed = int(listing[i - 1].split()[1])
    print("msg", i, listed, len(data), resp.decode().split()[1])
    sys.stdout.flush()
if len(sys.argv) > 2 and sys.argv[2] == "dele":
    p.dele(1)
print(p.quit().decode())
)PY";

TEST_F(Pop3Serve, PoplibListsRetrievesWithSizesCountingCrlf) {
  deliver({"Subject: one\r\n\r\n.starts with a dot\r\nbody\r\n", "Subject: two\r\n\r\nsecond\r\n"});
  auto pop = env.start_pop3();
  const std::string addr = pop->wait_listening();
  const auto r = python(poplib_dump, {port_string(addr)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // poplib undoes the byte-stuffing; the listed size equals the bytes received and RETR's octets.
  std::istringstream lines(r.out);
  std::string line;
  int messages = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("msg", 0) != 0) continue;
    ++messages;
    std::istringstream f(line);
    std::string tag;
    int n = 0;
    std::size_t listed = 0, got = 0, octets = 0;
    f >> tag >> n >> listed >> got >> octets;
    EXPECT_EQ(listed, got) << line;
    EXPECT_EQ(octets, got) << line;
  }
  EXPECT_EQ(messages, 2);
  EXPECT_NE(r.out.find("stat 2 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("signing off (2 messages left)"), std::string::npos);
}

TEST_F(Pop3Serve, UidsStableAndDeletionOnlyAtQuit) {
  deliver({"Subject: a\r\n\r\n1\r\n", "Subject: b\r\n\r\n2\r\n", "Subject: c\r\n\r\n3\r\n"});
  auto pop = env.start_pop3();
  const std::string addr = pop->wait_listening();
  const auto first = python(poplib_dump, {port_string(addr)});
  const auto second = python(poplib_dump, {port_string(addr), "dele"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const auto uid_line = [](const std::string& out) {
    return out.substr(out.find("uids"), out.find('\n', out.find("uids")) - out.find("uids"));
  };
  EXPECT_EQ(uid_line(first.out), uid_line(second.out));
  EXPECT_NE(second.out.find("(2 messages left)"), std::string::npos) << second.out;
  EXPECT_EQ(env.files("alice", "new").size(), 2U);
  const auto third = python(poplib_dump, {port_string(addr)});
  const std::string uids1 = uid_line(first.out);
  EXPECT_EQ(uid_line(third.out), "uids" + uids1.substr(uids1.find(' ', 5)));  // the first UID is gone, others stay
  // A session that drops without QUIT deletes nothing.
  const auto drop = python(R"PY(
import poplib, sys
p = poplib.POP3("127.0.0.1", int(sys.argv[1]), timeout=10)
p.user("alice"); p.pass_("secret"); p.dele(1); p.dele(2)
p.sock.close()
)PY",
                           {port_string(addr)});
  EXPECT_EQ(drop.exit_code, 0) << drop.err;
  const auto after = python(poplib_dump, {port_string(addr)});  // waits for the lock to be free
  EXPECT_NE(after.out.find("stat 2 "), std::string::npos) << after.out << after.err;
}

TEST_F(Pop3Serve, OneSessionPerMailbox) {
  deliver({"Subject: a\r\n\r\n1\r\n"});
  auto pop = env.start_pop3();
  const std::string addr = pop->wait_listening();
  const auto r = python(R"PY(
import poplib, sys
a = poplib.POP3("127.0.0.1", int(sys.argv[1]), timeout=10)
a.user("alice"); a.pass_("secret")
b = poplib.POP3("127.0.0.1", int(sys.argv[1]), timeout=10)
b.user("alice")
try:
    b.pass_("secret"); print("second session got in")
except poplib.error_proto as e:
    print(e.args[0].decode())
a.quit()
b.user("alice"); print(b.pass_("secret").decode()); b.quit()
)PY",
                        {port_string(addr)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "-ERR [IN-USE] maildrop already locked by another session\n+OK alice has 1 messages (" +
                       std::to_string(mail_env::read_as_crlf(env.files("alice", "new")[0]).size()) + " octets)\n");
}

TEST_F(Pop3Serve, PoplibStlsCapaTopAndErrors) {
  env.make_cert();
  deliver({"Subject: top\r\n\r\nline 1\r\nline 2\r\n"});
  auto pop = env.start_pop3(env.tls_args());
  const std::string addr = pop->wait_listening();
  const auto r = python(R"PY(
import poplib, ssl, sys
ctx = ssl.create_default_context(cafile=sys.argv[2])
p = poplib.POP3("localhost", int(sys.argv[1]), timeout=10)
caps = p.capa()
print(sorted(caps))
p.stls(context=ctx)
print("STLS" in p.capa())
try:
    p.user("alice"); p.pass_("wrong")
except poplib.error_proto as e:
    print(e.args[0].decode())
p.user("alice"); p.pass_("secret")
print(p.top(1, 1)[1][-2:])
try:
    p.retr(9)
except poplib.error_proto as e:
    print(e.args[0].decode())
p.quit()
)PY",
                        {port_string(addr), env.cert.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "['AUTH-RESP-CODE', 'IMPLEMENTATION', 'PIPELINING', 'RESP-CODES', 'STLS', 'TOP', 'UIDL', 'USER']\nFalse\n"
            "-ERR [AUTH] invalid user name or password\n[b'', b'line 1']\n"
            "-ERR no such message, only 1 messages in maildrop\n");
}

TEST_F(Pop3Serve, CurlPop3ListAndRetr) {
  NETLAB_REQUIRE_PEER("curl");
  deliver({"Subject: curl\r\n\r\nfor curl\r\n"});
  auto pop = env.start_pop3();
  const std::string addr = pop->wait_listening();
  auto r = netlab::test::run({"curl", "-sS", "pop3://" + addr + "/", "-u", "alice:secret"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1 " + std::to_string(mail_env::read_as_crlf(env.files("alice", "new")[0]).size()) + "\r\n");
  r = netlab::test::run({"curl", "-sS", "pop3://" + addr + "/1", "-u", "alice:secret"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, mail_env::read_as_crlf(env.files("alice", "new")[0]));
  r = netlab::test::run({"curl", "-sS", "pop3://" + addr + "/1", "-u", "alice:bad"});
  EXPECT_NE(r.exit_code, 0);
}

// --json: the listening line goes to stderr, and stdout holds one JSON document and nothing else
// (docs/conventions.md, "Output"), so `lab-pop3 serve --json > stats.json` is valid JSON.
TEST_F(Pop3Serve, JsonKeepsStdoutForTheDocumentAlone) {
  auto pop = env.start_pop3({"--json"});
  const auto listening = pop->wait_for_err_line("listening on ");
  ASSERT_TRUE(listening) << pop->err() << pop->out();
  const std::string addr = listening->substr(std::string("listening on ").size());
  const auto r = python(R"PY(
import poplib, sys
p = poplib.POP3("127.0.0.1", int(sys.argv[1]), timeout=10)
p.user("alice"); p.pass_("secret")
print(p.stat()[0], p.quit().decode().split()[0])
)PY",
                        {port_string(addr)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0 +OK\n");
  pop->signal(SIGINT);
  EXPECT_EQ(pop->wait(), 0) << pop->err();
  const auto doc = nlohmann::json::parse(pop->out(), nullptr, false);
  ASSERT_TRUE(doc.is_object()) << "stdout is not one JSON document:\n" << pop->out();
  EXPECT_EQ(doc, nlohmann::json({{"connections_accepted", 1}}));
}

}  // namespace
