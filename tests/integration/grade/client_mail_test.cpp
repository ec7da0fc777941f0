// netlab-grade smtp/pop3 --client: swaks, Python smtplib/poplib and our lab-smtp send and
// lab-pop3 fetch against the reference servers get full score; the broken client that does not
// dot-stuff, or that leaves without QUIT, fails exactly those checks.
#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

std::string broken(const std::string& args) {
  return "/usr/bin/python3 " + source_path("tests/integration/grade/client_broken.py") + " " + args;
}

const char* const smtplib_client =
    "/usr/bin/python3 -c 'import smtplib, sys; s = smtplib.SMTP(sys.argv[1], int(sys.argv[2]), timeout=10); "
    "s.sendmail(sys.argv[3], sys.argv[4:], open(\"{message}\", \"rb\").read()); s.quit()' {host} {port} {from} {rcpts}";

const char* const poplib_client =
    "/usr/bin/python3 -c 'import poplib, sys; p = poplib.POP3(sys.argv[1], int(sys.argv[2]), timeout=10); "
    "p.user(\"{user}\"); p.pass_(\"{pass}\"); n = len(p.list()[1]); "
    "[sys.stdout.buffer.write(b\"\\r\\n\".join(p.retr(i)[1]) + b\"\\r\\n\") for i in range(1, n + 1)]; p.quit()' "
    "{host} {port}";

TEST(ClientSmtpGrade, SwaksSmtplibCurlAndLabSmtpSendGetFullScore) {
  NETLAB_REQUIRE_PEER("swaks");
  NETLAB_REQUIRE_PEER("curl");
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  for (const char* cmd : {"swaks --server {host}:{port} --from {from} --to {rcpt} --data {message}", smtplib_client,
                          "lab-smtp send --server {host}:{port} --from {from} --to {rcpt} --raw < {message}",
                          "lab-smtp send --server {host}:{port} --from {from} --to {rcpt} --subject Hi < {body}",
                          "curl -s smtp://{host}:{port} --mail-from {from} --mail-rcpt {rcpt} -T {message}"}) {
    const auto g = grade({"smtp", "--client", cmd, "--json"});
    EXPECT_EQ(g.exit_code, 0) << cmd << "\n" << g.doc.dump(2);
    EXPECT_TRUE(g.failed().empty()) << cmd << "\n" << g.doc.dump(2);
    EXPECT_EQ(g.doc["checks"].size(), 8u);
    EXPECT_EQ(g.doc["score"], 14);
  }
}

TEST(ClientSmtpGrade, SeveralRecipientsEachGetTheMessage) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  const auto g =
      grade({"smtp", "--client", smtplib_client, "--rcpt", "alice@example.org", "--rcpt", "bob@example.org"});
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  // Naming only one of the two recipients loses exactly the recipient and delivery checks.
  const auto one =
      grade({"smtp", "--client", "lab-smtp send --server {host}:{port} --from {from} --to {rcpt} --raw < {message}",
             "--rcpt", "alice@example.org", "--rcpt", "bob@example.org"});
  EXPECT_EQ(one.failed_names(), (std::set<std::string>{"recipients", "message_stored_intact"})) << one.doc.dump(2);
  EXPECT_EQ(one.failed().at("message_stored_intact"), "bob@example.org holds 0 messages");
}

TEST(ClientSmtpGrade, BrokenClientWithoutDotStuffingFailsExactlyThat) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  const auto g = grade({"smtp", "--client", broken("smtp {host} {port} {from} {rcpt} {message}")});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.failed_names(), (std::set<std::string>{"dot_stuffing", "message_stored_intact"})) << g.doc.dump(2);
  EXPECT_EQ(g.failed().at("dot_stuffing"), "the line \".this line starts with a dot\" was not dot-stuffed");
  EXPECT_EQ(g.failed().at("message_stored_intact"), "alice@example.org holds 1 messages, with another body");
}

TEST(ClientPop3Grade, LabPop3FetchPoplibAndCurlGetFullScore) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  NETLAB_REQUIRE_PEER("curl");
  for (const char* cmd :
       {"lab-pop3 fetch --server {host}:{port} --user {user} --password {pass} --out {out}", poplib_client,
        "curl -s pop3://{user}:{pass}@{host}:{port}/1 pop3://{user}:{pass}@{host}:{port}/2"}) {
    const auto g = grade({"pop3", "--client", cmd});
    EXPECT_EQ(g.exit_code, 0) << cmd << "\n" << g.doc.dump(2);
    EXPECT_TRUE(g.failed().empty()) << cmd << "\n" << g.doc.dump(2);
    EXPECT_EQ(g.doc["checks"].size(), 7u);
  }
}

TEST(ClientPop3Grade, DeletingClientLosesTheDeleCheck) {
  const auto g = grade({"pop3", "--client",
                        "lab-pop3 fetch --server {host}:{port} --user {user} --password {pass} --out {out} --delete"});
  EXPECT_EQ(g.failed_names(), std::set<std::string>{"no_unasked_dele"}) << g.doc.dump(2);
}

TEST(ClientPop3Grade, BrokenClientWithoutQuitFailsExactlyThat) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  const auto g = grade({"pop3", "--client", broken("pop3 {host} {port} {user} {pass}")});
  EXPECT_EQ(g.exit_code, 1);
  const std::map<std::string, std::string> expected{{"quit_ok", "the last command is not QUIT"}};
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
}

TEST(ClientPop3Grade, RetrievingTheWrongMessageFails) {
  NETLAB_REQUIRE_PEER("curl");
  const auto g = grade({"pop3", "--client", "curl -s pop3://{user}:{pass}@{host}:{port}/1", "--message", "2"});
  EXPECT_EQ(g.exit_code, 1);
  const std::map<std::string, std::string> expected{{"retr_messages", "message 2 was not retrieved"},
                                                    {"messages_saved", "stdout does not hold message 2"}};
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
  const auto none = grade({"pop3", "--client", "true"});
  EXPECT_EQ(none.failed().at("retr_messages"), "message 1 was not retrieved");
  EXPECT_EQ(none.failed().at("no_unasked_dele"), "the client sent nothing");
}

}  // namespace
