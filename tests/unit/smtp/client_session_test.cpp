#include <gtest/gtest.h>

#include "smtp_harness.hpp"

namespace {

using namespace smtp_test;
using netlib::smtp::client_session;

struct pair_result {
  netlib::smtp::client_result result;
  std::vector<std::string> trace;  // "C: ..." / "S: <code>"
};

// Pumps bytes between an in-memory client and server until the client finishes (bounded).
pair_result run_pair(server_fixture& f, netlib::smtp::client_options opts, netlib::smtp::envelope env,
                     const std::string& message) {
  netlib::smtp::server_session server(f.config, {"[127.0.0.1]:1", "P"}, f.users);
  client_session client(std::move(opts), std::move(env), message);
  pair_result out;
  netlib::input_buffer to_client;
  netlib::input_buffer to_server;
  bool server_tls = false;
  bool client_tls = false;
  const auto server_actions = [&](const std::vector<netlib::smtp::server_action>& actions) {
    for (const auto& a : actions) {
      if (const auto* r = std::get_if<netlib::send_bytes>(&a)) to_client.append(r->bytes);
      if (std::holds_alternative<netlib::start_tls>(a)) server_tls = true;
      if (const auto* d = std::get_if<netlib::smtp::deliver_message>(&a))  // the next round reads on
        for (const auto& done : server.delivery_done(netlib::smtp::deliver_to_store(f.store, *d, f.config.domain)))
          to_client.append(std::get<netlib::send_bytes>(done).bytes);
    }
  };
  server_actions(server.start(test_time));
  for (int round = 0; round < 200 && !client.finished(); ++round) {
    auto cs = client.receive(to_client.data());
    to_client.consume(cs.consumed);
    for (const auto& r : cs.replies) out.trace.push_back("S: " + std::to_string(r.code));
    for (const auto& a : cs.actions) {
      if (const auto* c = std::get_if<netlib::send_command>(&a)) {
        to_server.append(c->bytes);
        out.trace.push_back("C: " + c->shown);
      }
      if (std::holds_alternative<netlib::start_tls>(a)) client_tls = true;
    }
    if (server_tls && client_tls) {  // both sides handshake (simulated)
      to_server.clear();
      (void)server.tls_established(true);
      for (const auto& a : client.tls_started()) {
        const auto& c = std::get<netlib::send_command>(a);
        to_server.append(c.bytes);
        out.trace.push_back("C: " + c.shown);
      }
      server_tls = client_tls = false;
    }
    auto ss = server.receive(to_server.data(), test_time);
    to_server.consume(ss.consumed);
    server_actions(ss.actions);
  }
  EXPECT_TRUE(client.finished());
  out.result = client.result();
  return out;
}

const std::string message = "Subject: test\r\n\r\n.dot line\r\nend\r\n";

TEST(SmtpClient, DeliversThroughTheServerCore) {
  server_fixture f;
  const auto r = run_pair(f, {}, {"me@other.org", {"alice@example.org"}}, message);
  EXPECT_TRUE(r.result.delivered);
  EXPECT_TRUE(r.result.error.empty()) << r.result.error;
  ASSERT_EQ(f.store.messages_of("alice").size(), 1U);
  const std::string& stored = f.store.messages_of("alice")[0].bytes;
  EXPECT_EQ(stored.substr(stored.find("Subject:")), message);
  EXPECT_EQ(r.trace,
            (std::vector<std::string>{"S: 220", "C: EHLO localhost", "S: 250", "C: MAIL FROM:<me@other.org>", "S: 250",
                                      "C: RCPT TO:<alice@example.org>", "S: 250", "C: DATA", "S: 354",
                                      "C: <message, 33 bytes>\r\n.", "S: 250", "C: QUIT", "S: 221"}));
}

TEST(SmtpClient, StartTlsAndAuthPlainThenRelay) {
  server_fixture f;
  f.config.tls_available = true;
  netlib::smtp::client_options o;
  o.starttls = true;
  o.auth = std::make_pair(std::string("bob"), std::string("hunter2"));
  const auto r = run_pair(f, o, {"bob@example.org", {"x@remote.net", "alice@example.org"}}, message);
  EXPECT_TRUE(r.result.delivered) << r.result.error;
  EXPECT_EQ(f.store.relay_queue().size(), 1U);
  EXPECT_EQ(f.store.messages_of("alice").size(), 1U);
  EXPECT_NE(std::find(r.trace.begin(), r.trace.end(), "C: AUTH PLAIN <credentials of bob>"), r.trace.end());
  EXPECT_EQ(std::count(r.trace.begin(), r.trace.end(), "C: EHLO localhost"), 2);
}

TEST(SmtpClient, ReportsEveryRefusal) {
  server_fixture f;
  auto r = run_pair(f, {}, {"me@other.org", {"nobody@example.org"}}, message);
  EXPECT_FALSE(r.result.delivered);
  EXPECT_EQ(r.result.error,
            "server refused RCPT TO:<nobody@example.org>: 550 5.1.1 <nobody@example.org>: no such user here");
  r = run_pair(f, {}, {"me@other.org", {"alice@example.org", "x@remote.net"}}, message);
  EXPECT_TRUE(r.result.delivered);
  EXPECT_EQ(r.result.rejected.size(), 1U);
  EXPECT_EQ(r.result.error, "server refused RCPT TO:<x@remote.net>: 554 5.7.1 <x@remote.net>: Relay access denied");
  r = run_pair(f, {}, {"bad address", {"alice@example.org"}}, message);
  EXPECT_EQ(r.result.error.rfind("server refused MAIL FROM:<bad address>: 501 5.5.4", 0), 0U) << r.result.error;
  netlib::smtp::client_options tls;
  tls.starttls = true;
  r = run_pair(f, tls, {"me@other.org", {"alice@example.org"}}, message);
  EXPECT_EQ(r.result.error, "the server does not offer STARTTLS (not in its EHLO reply)");
  netlib::smtp::client_options auth;
  auth.auth = std::make_pair(std::string("bob"), std::string("x"));
  r = run_pair(f, auth, {"me@other.org", {"alice@example.org"}}, message);
  EXPECT_EQ(r.result.error, "the server does not offer AUTH PLAIN (try --starttls)");
  f.config.max_message_bytes = 10;
  r = run_pair(f, {}, {"me@other.org", {"alice@example.org"}}, message);
  EXPECT_EQ(r.result.error, "server refused the message (after DATA): 552 5.3.4 Message too big (10 bytes at most)");
  f.config.max_message_bytes = 1000;
  f.config.tls_available = true;
  f.config.require_tls = true;
  r = run_pair(f, {}, {"me@other.org", {"alice@example.org"}}, message);
  EXPECT_EQ(r.result.error, "server refused MAIL FROM:<me@other.org>: 530 5.7.0 Must issue a STARTTLS command first");
}

TEST(SmtpClient, BadGreetingAndMalformedReplyAndEof) {
  netlib::smtp::client_session c({}, {"a@b.org", {"c@d.org"}}, "x\r\n");
  auto step = c.receive(netlib::as_bytes("554 go away\r\n"));
  EXPECT_EQ(c.result().error, "server refused the connection (greeting): 554 go away");
  netlib::smtp::client_session m({}, {"a@b.org", {"c@d.org"}}, "x\r\n");
  step = m.receive(netlib::as_bytes("hello there\r\n"));
  EXPECT_TRUE(m.finished());
  EXPECT_EQ(m.result().error, "malformed reply from the server (expected a 3-digit code)");
  netlib::smtp::client_session e({}, {"a@b.org", {"c@d.org"}}, "x\r\n");
  (void)e.receive_eof();
  EXPECT_EQ(e.result().error, "the server closed the connection unexpectedly");
}

TEST(SmtpReplyParser, MultiLineRepliesAtEverySplit) {
  const std::string input = "250-mx greets c\r\n250-PIPELINING\r\n250 SIZE 100\r\n221\r\n354 go\r\n";
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& pieces) {
    netlib::smtp::reply_parser p;
    netlib::input_buffer buf;
    std::vector<netlib::smtp::reply> got;
    for (auto piece : pieces) {
      buf.append(piece);
      for (;;) {
        auto r = p.next(buf.data());
        buf.consume(r.consumed);
        if (r.status != netlib::smtp::reply_status::reply) break;
        got.push_back(r.value);
      }
    }
    ASSERT_EQ(got.size(), 3U);
    EXPECT_EQ(got[0].code, 250);
    EXPECT_EQ(got[0].lines, (std::vector<std::string>{"mx greets c", "PIPELINING", "SIZE 100"}));
    EXPECT_EQ(got[1].code, 221);
    EXPECT_TRUE(got[1].lines.front().empty());
    EXPECT_EQ(fmt::format("{}", got[2]), "354 go");
  });
  netlab::test::for_each_prefix("250-a\r\n250 b\r\n", [](std::string_view prefix) {
    netlib::smtp::reply_parser p;
    EXPECT_EQ(p.next(netlib::as_bytes(prefix)).status, netlib::smtp::reply_status::need_more);
  });
}

TEST(SmtpReplyParser, MalformedIsSticky) {
  for (std::string_view bad : {"25 x\r\n", "abc\r\n", "250-a\r\n251 b\r\n", "250xabc\r\n", "600 no\r\n"}) {
    netlib::smtp::reply_parser p;
    auto r = p.next(netlib::as_bytes(bad));
    EXPECT_EQ(r.status, netlib::smtp::reply_status::malformed) << bad;
    EXPECT_EQ(p.next(netlib::as_bytes("250 ok\r\n")).status, netlib::smtp::reply_status::malformed);
  }
}

TEST(SmtpCommand, PathParsing) {
  std::string why;
  auto p = netlib::smtp::parse_path("FROM:<a.b+c@x-y.example.org> SIZE=10 BODY=8BITMIME", "FROM:", why);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->address, "a.b+c@x-y.example.org");
  EXPECT_EQ(p->params.size(), 2U);
  EXPECT_EQ(p->params[0], (std::pair<std::string, std::string>{"SIZE", "10"}));
  EXPECT_TRUE(netlib::smtp::parse_path("to:<\"john doe\"@[127.0.0.1]>", "TO:", why).has_value());
  for (std::string_view bad :
       {"TO:", "TO:a@b", "TO:<a@b", "TO:<a..b@c>", "TO:<a@-b.org>", "TO:<a@b>x", "TO:<a@b_c>", "TO:<@x>"})
    EXPECT_FALSE(netlib::smtp::parse_path(bad, "TO:", why).has_value()) << bad;
}

}  // namespace
