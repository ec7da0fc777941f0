#include <gtest/gtest.h>

#include "netlib/pop3/response.hpp"
#include "netlib/pop3/session_analyzer.hpp"
#include "support/split_feed.hpp"

namespace {

using netlib::pop3::session_analyzer;

struct exchange {
  bool from_client;
  std::string bytes;
};

const std::vector<exchange> dialogue = {
    {false, "+OK ready\r\n"},
    {true, "CAPA\r\n"},
    {false, "+OK caps\r\nUSER\r\nSTLS\r\n.\r\n"},
    {true, "USER alice\r\nPASS secret\r\n"},
    {false, "+OK\r\n\x01\x02garbage\r\n+OK logged in\r\n"},
    {true, "LIST\r\nRETR 1\r\nLIST 1\r\nDELE 9\r\n"},
    {false, "+OK\r\n1 12\r\n.\r\n+OK 12 octets\r\n..a\r\nbody\r\n.\r\n+OK 1 12\r\n-ERR no such message\r\n"},
    {true, "AUTH PLAIN\r\n"},
    {false, "+ \r\n"},
    {true, "AGEAYg==\r\n"},
    {false, "-ERR nope\r\n"},
    {true, "STLS\r\n"},
    {false, "+OK begin\r\n"},
    {true, "\x16\x03 hello"},
};

void feed(session_analyzer& a, const exchange& e) {
  if (e.from_client)
    a.client_bytes(netlib::as_bytes(e.bytes));
  else
    a.server_bytes(netlib::as_bytes(e.bytes));
}

TEST(Pop3SessionAnalyzer, PairsCommandsAndSizesMultiLineAnswers) {
  session_analyzer a;
  for (const auto& e : dialogue) feed(a, e);
  const auto& s = a.session();
  EXPECT_EQ(s.greeting, "+OK ready");
  std::vector<std::string> got;
  for (const auto& c : s.commands)
    got.push_back(c.verb + "=" + c.status.value_or("-") + (c.body_bytes ? "/" + std::to_string(*c.body_bytes) : ""));
  EXPECT_EQ(got, (std::vector<std::string>{"CAPA=+OK/12", "USER=+OK", "PASS=+OK", "LIST=+OK/6", "RETR=+OK/10",
                                           "LIST=+OK", "DELE=-ERR", "AUTH=+", "<auth-continuation>=-ERR", "STLS=+OK"}));
  EXPECT_EQ(s.commands[2].argument, "<hidden>");
  EXPECT_EQ(s.garbage_lines, 1U);
  EXPECT_TRUE(s.encrypted);
  EXPECT_EQ(s.encrypted_client_bytes, 8U);
}

// Each command says which bytes of the client's stream it was (netlab-grade's client suite reads
// the lines as sent): together they cover the stream up to the TLS bytes, in order.
TEST(Pop3SessionAnalyzer, CommandsCoverTheClientStream) {
  session_analyzer a;
  std::string client;
  for (const auto& e : dialogue) {
    feed(a, e);
    if (e.from_client) client += e.bytes;
  }
  std::size_t at = 0;
  for (const auto& c : a.session().commands) {
    EXPECT_EQ(c.client_begin, at);
    at = c.client_end;
  }
  EXPECT_EQ(at, client.size() - a.session().encrypted_client_bytes);
  const auto& pass = a.session().commands[2];
  EXPECT_EQ(client.substr(pass.client_begin, pass.client_end - pass.client_begin), "PASS secret\r\n");
}

// One rule says which responses are multi-line, for the client, the analyzer, replay and grader.
TEST(Pop3SessionAnalyzer, MultiLineResponsesFollowOneRule) {
  using netlib::pop3::multiline_response;
  EXPECT_TRUE(multiline_response("RETR", "1"));
  EXPECT_TRUE(multiline_response("TOP", "1 0"));
  EXPECT_TRUE(multiline_response("CAPA", ""));
  EXPECT_TRUE(multiline_response("LIST", ""));
  EXPECT_FALSE(multiline_response("LIST", "1"));
  EXPECT_TRUE(multiline_response("UIDL", ""));
  EXPECT_FALSE(multiline_response("UIDL", "1"));
  EXPECT_TRUE(multiline_response("AUTH", ""));  // RFC 5034 §4: the mechanisms, one per line
  EXPECT_FALSE(multiline_response("AUTH", "PLAIN"));
  EXPECT_FALSE(multiline_response("STAT", ""));
  session_analyzer a;
  for (const char* bytes : {"+OK ready\r\n", "AUTH\r\n", "+OK\r\nPLAIN\r\n.\r\n", "QUIT\r\n", "+OK bye\r\n"}) {
    const std::string_view b(bytes);
    (b.front() == '+' ? a.server_bytes(netlib::as_bytes(b)) : a.client_bytes(netlib::as_bytes(b)));
  }
  ASSERT_EQ(a.session().commands.size(), 2U);
  EXPECT_EQ(a.session().commands[0].body_bytes, 7U);
  EXPECT_EQ(a.session().commands[1].text, "bye");
}

TEST(Pop3SessionAnalyzer, SameResultForEverySplitOfTheServerStream) {
  session_analyzer whole;
  for (const auto& e : dialogue) feed(whole, e);
  const std::size_t step = 6;  // the server's multi-line answers
  netlab::test::for_each_split(dialogue[step].bytes, [&](const netlab::test::pieces& pieces) {
    session_analyzer a;
    for (std::size_t i = 0; i < dialogue.size(); ++i) {
      if (i != step) {
        feed(a, dialogue[i]);
        continue;
      }
      for (auto p : pieces) a.server_bytes(netlib::as_bytes(p));
    }
    ASSERT_EQ(a.session().commands.size(), whole.session().commands.size());
    for (std::size_t c = 0; c < whole.session().commands.size(); ++c) {
      ASSERT_EQ(a.session().commands[c].status, whole.session().commands[c].status);
      ASSERT_EQ(a.session().commands[c].body_bytes, whole.session().commands[c].body_bytes);
    }
  });
}

}  // namespace
