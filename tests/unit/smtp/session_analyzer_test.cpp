#include <gtest/gtest.h>

#include "netlib/smtp/session_analyzer.hpp"
#include "support/split_feed.hpp"

namespace {

using netlib::smtp::session_analyzer;

// One exchange: the client's and the server's bytes in the order they were sent, each a step.
struct exchange {
  bool from_client;
  std::string bytes;
};

void feed(session_analyzer& a, const exchange& e) {
  if (e.from_client)
    a.client_bytes(netlib::as_bytes(e.bytes));
  else
    a.server_bytes(netlib::as_bytes(e.bytes));
}

const std::vector<exchange> recorded_dialogue = {
    {false, "220 mx ESMTP\r\n"},
    {true, "EHLO c\r\n"},
    {false, "250-mx\r\n250 PIPELINING\r\n"},
    {true, "MAIL FROM:<a@x.org> SIZE=9\r\nRCPT TO:<b@y.org>\r\nRCPT TO:<bad@y.org>\r\nDATA\r\n"},
    {false, "250 ok\r\n250 ok\r\n550 no\r\n354 go\r\n"},
    {true, "Subject: s\r\n\r\n..dot\r\nend\r\n.\r\n"},
    {false, "250 queued\r\n"},
    {true, "AUTH LOGIN\r\n"},
    {false, "334 VXNlcm5hbWU6\r\n"},
    {true, "dXNlcg==\r\n"},
    {false, "334 UGFzc3dvcmQ6\r\n"},
    {true, "cGFzcw==\r\n"},
    {false, "235 ok\r\n"},
    {true, "DATA\r\nnot data\r\n.\r\nSTARTTLS\r\n"},
    {false, "503 no rcpt\r\n500 what\r\n500 what\r\n220 go ahead\r\n"},
    {true, "\x16\x03\x01 tls client hello"},
    {false, "\x16\x03\x03 tls server hello"},
};

TEST(SmtpSessionAnalyzer, PairsCommandsRepliesAndMessages) {
  session_analyzer a;
  for (const auto& e : recorded_dialogue) feed(a, e);
  const auto& s = a.session();
  EXPECT_EQ(s.greeting_code, 220);
  std::vector<std::string> got;
  for (const auto& c : s.commands) got.push_back(c.verb + "=" + (c.reply_code ? std::to_string(*c.reply_code) : "-"));
  EXPECT_EQ(got, (std::vector<std::string>{"EHLO=250", "MAIL=250", "RCPT=250", "RCPT=550", "DATA=354", "AUTH=334",
                                           "<auth-continuation>=334", "<auth-continuation>=235", "DATA=503", "NOT=500",
                                           ".=500", "STARTTLS=220"}));
  ASSERT_EQ(s.messages.size(), 1U);
  EXPECT_EQ(s.messages[0].from, "a@x.org");
  EXPECT_EQ(s.messages[0].to, std::vector<std::string>{"b@y.org"});
  EXPECT_EQ(s.messages[0].bytes, 25U);  // "Subject: s\r\n\r\n.dot\r\nend\r\n"
  EXPECT_EQ(s.messages[0].reply_code, 250);
  EXPECT_TRUE(s.encrypted);
  EXPECT_EQ(s.encrypted_client_bytes, 20U);
  EXPECT_EQ(s.encrypted_server_bytes, 20U);
}

// Each command and message says which bytes of the client's stream it was (netlab-replay re-sends
// them): units_in_client_order covers the stream up to the TLS bytes, in order, without overlap.
TEST(SmtpSessionAnalyzer, CommandsAndMessagesCoverTheClientStream) {
  session_analyzer a;
  std::string client;
  for (const auto& e : recorded_dialogue) {
    feed(a, e);
    if (e.from_client) client += e.bytes;
  }
  const auto& s = a.session();
  std::size_t at = 0, messages = 0;
  for (const auto& u : netlib::smtp::units_in_client_order(s)) {
    EXPECT_EQ(u.begin, at);
    at = u.end;
    messages += u.message ? 1 : 0;
  }
  EXPECT_EQ(messages, 1U);
  EXPECT_EQ(at, client.size() - s.encrypted_client_bytes);
  EXPECT_EQ(client.substr(s.commands[1].client_begin, s.commands[1].client_end - s.commands[1].client_begin),
            "MAIL FROM:<a@x.org> SIZE=9\r\n");
  EXPECT_EQ(client.substr(s.messages[0].client_begin, s.messages[0].client_end - s.messages[0].client_begin),
            "Subject: s\r\n\r\n..dot\r\nend\r\n.\r\n");
}

TEST(SmtpSessionAnalyzer, SameResultForEverySplitOfTheClientStream) {
  // Each client step is split at every offset; the server steps stay in place (causality).
  session_analyzer whole;
  for (const auto& e : recorded_dialogue) feed(whole, e);
  for (std::size_t step = 0; step < recorded_dialogue.size(); ++step) {
    if (!recorded_dialogue[step].from_client) continue;
    netlab::test::for_each_split(recorded_dialogue[step].bytes, [&](const netlab::test::pieces& pieces) {
      session_analyzer a;
      for (std::size_t i = 0; i < recorded_dialogue.size(); ++i) {
        const auto& e = recorded_dialogue[i];
        if (i == step) {
          for (auto p : pieces) a.client_bytes(netlib::as_bytes(p));
        } else {
          feed(a, e);
        }
      }
      ASSERT_EQ(a.session().commands.size(), whole.session().commands.size());
      ASSERT_EQ(a.session().messages.size(), 1U);
      ASSERT_EQ(a.session().messages[0].bytes, whole.session().messages[0].bytes);
      ASSERT_EQ(a.session().messages[0].client_begin, whole.session().messages[0].client_begin);
      ASSERT_EQ(a.session().messages[0].client_end, whole.session().messages[0].client_end);
      for (std::size_t c = 0; c < whole.session().commands.size(); ++c) {
        ASSERT_EQ(a.session().commands[c].client_begin, whole.session().commands[c].client_begin);
        ASSERT_EQ(a.session().commands[c].client_end, whole.session().commands[c].client_end);
      }
      ASSERT_EQ(a.session().encrypted_client_bytes, whole.session().encrypted_client_bytes);
    });
  }
}

TEST(SmtpSessionAnalyzer, GapStopsThatSide) {
  session_analyzer a;
  a.server_bytes(netlib::as_bytes("220 hi\r\n"));
  a.client_bytes(netlib::as_bytes("EHLO c\r\n"));
  a.gap(true, 100);
  a.client_bytes(netlib::as_bytes("MAIL FROM:<a@b.org>\r\n"));
  a.server_bytes(netlib::as_bytes("250 ok\r\n"));
  EXPECT_EQ(a.session().commands.size(), 1U);
  EXPECT_EQ(a.session().gap_bytes, 100U);
  EXPECT_EQ(a.session().problem, "client bytes missing from the capture");
}

}  // namespace
