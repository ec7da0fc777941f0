#include <gtest/gtest.h>

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
