#include <gtest/gtest.h>

#include "pop3_harness.hpp"

namespace {

using namespace pop3_test;
const std::string greeting = "+OK pop.example.org netlab lab-pop3 ready\r\n";
const std::string login = "USER alice\r\nPASS secret\r\n";
const std::string login_ok = "+OK send PASS\r\n+OK alice has 2 messages (64 octets)\r\n";

TEST(Pop3Server, LoginStatListUidl) {
  fixture f;
  const auto t = run(f, login + "STAT\r\nLIST\r\nLIST 2\r\nUIDL\r\nUIDL 1\r\nNOOP\r\nQUIT\r\n");
  // Sizes count CRLF: message 2 has a bare LF that goes out as CRLF (40 + 1 octets).
  EXPECT_EQ(t.sent, greeting + login_ok +
                        "+OK 2 64\r\n+OK scan listing follows\r\n1 23\r\n2 41\r\n.\r\n+OK 2 41\r\n"
                        "+OK unique-id listing follows\r\n1 m1\r\n2 m2\r\n.\r\n+OK 1 m1\r\n+OK \r\n"
                        "+OK pop.example.org signing off (2 messages left)\r\n");
  EXPECT_TRUE(t.closed);
  EXPECT_FALSE(f.store.is_locked("alice"));
}

TEST(Pop3Server, RetrByteStuffsAndCountsCrlf) {
  fixture f;
  const auto t = run(f, login + "RETR 2\r\nTOP 2 1\r\nTOP 2 0\r\nTOP 1 9\r\n");
  const std::string body2 = "Subject: two\r\n\r\n..dotted\r\nline 2\r\nline 3\r\n.\r\n";
  EXPECT_EQ(t.sent.substr(greeting.size() + login_ok.size()),
            "+OK 41 octets\r\n" + body2 + "+OK top of message follows\r\nSubject: two\r\n\r\n..dotted\r\n.\r\n" +
                "+OK top of message follows\r\nSubject: two\r\n\r\n.\r\n" +
                "+OK top of message follows\r\nSubject: one\r\n\r\nfirst\r\n.\r\n");
}

TEST(Pop3Server, DeletionsOnlyAtQuitInUpdateState) {
  fixture f;
  auto t = run(f, login + "DELE 1\r\nSTAT\r\nRETR 1\r\nDELE 1\r\nLIST\r\n", true);  // connection drops
  EXPECT_NE(t.sent.find("+OK message 1 deleted\r\n+OK 1 41\r\n-ERR message 1 already deleted\r\n"
                        "-ERR message 1 already deleted\r\n+OK scan listing follows\r\n2 41\r\n.\r\n"),
            std::string::npos);
  EXPECT_EQ(f.store.messages_of("alice").size(), 2U);  // no QUIT, no UPDATE
  EXPECT_FALSE(f.store.is_locked("alice"));
  t = run(f, login + "DELE 1\r\nRSET\r\nSTAT\r\nDELE 2\r\nQUIT\r\n");
  EXPECT_NE(t.sent.find("+OK maildrop has 2 messages\r\n+OK 2 64\r\n+OK message 2 deleted\r\n"
                        "+OK pop.example.org signing off (1 messages left)\r\n"),
            std::string::npos);
  ASSERT_EQ(f.store.messages_of("alice").size(), 1U);
  EXPECT_EQ(f.store.messages_of("alice")[0].uid, "m1");
  // UIDs stay stable in the next session.
  t = run(f, login + "UIDL\r\nQUIT\r\n");
  EXPECT_NE(t.sent.find("1 m1\r\n.\r\n"), std::string::npos);
}

TEST(Pop3Server, OneSessionPerMailbox) {
  fixture f;
  memory_server first(netlib::pop3::server_session(f.config, f.store, f.users));
  first.feed(login);
  EXPECT_TRUE(f.store.is_locked("alice"));
  const auto second = run(f, login + "USER bob\r\nPASS hunter2\r\n");
  EXPECT_EQ(second.sent, greeting +
                             "+OK send PASS\r\n-ERR [IN-USE] maildrop already locked by another session\r\n"
                             "+OK send PASS\r\n+OK bob has 0 messages (0 octets)\r\n");
  first.eof();
  EXPECT_FALSE(f.store.is_locked("alice"));
}

TEST(Pop3Server, AuthorizationErrors) {
  fixture f;
  const auto t = run(f,
                     "PASS secret\r\nSTAT\r\nUSER\r\nUSER alice\r\nPASS wrong\r\nPASS secret\r\nUSER eve\r\nPASS x\r\n"
                     "APOP alice abc\r\nQUIT\r\n");
  EXPECT_EQ(t.sent, greeting +
                        "-ERR send USER first\r\n-ERR STAT is allowed only after USER and PASS\r\n"
                        "-ERR USER needs a name\r\n+OK send PASS\r\n-ERR [AUTH] invalid user name or password\r\n"
                        "-ERR send USER first\r\n+OK send PASS\r\n-ERR [AUTH] invalid user name or password\r\n"
                        "-ERR unknown command\r\n+OK pop.example.org signing off\r\n");
}

TEST(Pop3Server, TransactionErrors) {
  fixture f;
  const auto t = run(
      f, login + "RETR\r\nRETR 0\r\nRETR 3\r\nRETR x1\r\nTOP 1\r\nTOP 1 x\r\nSTAT 1\r\nUSER bob\r\nSTLS\r\nXYZ\r\n");
  EXPECT_EQ(
      t.sent.substr(greeting.size() + login_ok.size()),
      "-ERR message number required\r\n-ERR no such message, only 2 messages in maildrop\r\n"
      "-ERR no such message, only 2 messages in maildrop\r\n-ERR message number required\r\n"
      "-ERR Syntax: TOP <message> <lines>\r\n-ERR Syntax: TOP <message> <lines>\r\n-ERR STAT takes no argument\r\n"
      "-ERR USER is not allowed after login\r\n-ERR STLS is not allowed after login\r\n-ERR unknown command\r\n");
}

TEST(Pop3Server, CapaAndStls) {
  fixture f;
  auto t = run(f, "CAPA\r\nSTLS\r\n");
  EXPECT_EQ(t.sent, greeting +
                        "+OK Capability list follows\r\nUSER\r\nUIDL\r\nTOP\r\nPIPELINING\r\nRESP-CODES\r\n"
                        "AUTH-RESP-CODE\r\nIMPLEMENTATION netlab-lab-pop3\r\n.\r\n"
                        "-ERR STLS not available (no certificate configured)\r\n");
  f.config.tls_available = true;
  memory_server s(netlib::pop3::server_session(f.config, f.store, f.users));
  s.feed({"CAPA\r\nSTLS\r\nUSER alice\r\n", "CAPA\r\nSTLS\r\n" + login});
  t = transcript_of(s);
  EXPECT_TRUE(t.tls);
  // STARTTLS-like rule: the pipelined USER after STLS was discarded, not answered.
  EXPECT_EQ(t.sent.find("+OK Begin TLS negotiation\r\n+OK send PASS"), std::string::npos);
  EXPECT_NE(t.sent.find("STLS\r\nIMPLEMENTATION"), std::string::npos);
  EXPECT_NE(t.sent.find("-ERR TLS already active\r\n+OK send PASS\r\n+OK alice has 2"), std::string::npos);
  EXPECT_TRUE(s.core().tls_active());
}

TEST(Pop3Server, LongLinesAndTooManyErrors) {
  fixture f;
  f.config.max_errors = 3;
  const auto t = run(f, "NOOP " + std::string(300, 'x') + "\r\nA\r\nB\r\nC\r\n");
  EXPECT_EQ(t.sent, greeting +
                        "-ERR line too long (255 octets at most, RFC 2449)\r\n-ERR unknown command\r\n"
                        "-ERR unknown command\r\n-ERR too many errors, closing connection\r\n");
  EXPECT_TRUE(t.closed);
}

TEST(Pop3Server, AnySplitGivesTheSameDialogue) {
  const std::string input = login + "STAT\r\nLIST\r\nRETR 2\r\nDELE 1\r\nUIDL\r\nTOP 2 1\r\nQUIT\r\n";
  fixture whole;
  const auto expected = run(whole, input);
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& p) {
    fixture f;
    ASSERT_EQ(run_pieces(f, p).sent, expected.sent);
    ASSERT_EQ(f.store.messages_of("alice").size(), 1U);
  });
}

}  // namespace
