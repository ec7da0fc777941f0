#include <gtest/gtest.h>

#include "netlib/pop3/client_session.hpp"
#include "pop3_harness.hpp"

namespace {

using namespace pop3_test;

struct pair_result {
  std::vector<netlib::pop3::fetched_message> messages;
  std::vector<std::string> trace;
  std::string error;
};

pair_result run_pair(fixture& f, netlib::pop3::client_options o) {
  netlib::pop3::server_session server(f.config, f.store, f.users);
  netlib::pop3::client_session client(std::move(o));
  netlib::input_buffer to_client;
  netlib::input_buffer to_server;
  pair_result out;
  bool server_tls = false;
  bool client_tls = false;
  const auto server_actions = [&](const std::vector<netlib::pop3::server_action>& actions) {
    for (const auto& a : actions) {
      if (const auto* r = std::get_if<netlib::send_bytes>(&a)) to_client.append(r->bytes);
      if (std::holds_alternative<netlib::start_tls>(a)) server_tls = true;
    }
  };
  server_actions(server.start({}));
  for (int round = 0; round < 200 && !client.finished(); ++round) {
    auto cs = client.receive(to_client.data());
    to_client.consume(cs.consumed);
    for (auto& m : cs.messages) out.messages.push_back(m);
    for (const auto& r : cs.responses) out.trace.push_back("S: " + r);
    for (const auto& a : cs.actions) {
      if (const auto* c = std::get_if<netlib::send_command>(&a)) {
        to_server.append(c->bytes);
        out.trace.push_back("C: " + c->shown);
      }
      if (std::holds_alternative<netlib::start_tls>(a)) client_tls = true;
    }
    if (server_tls && client_tls) {
      to_server.clear();
      (void)server.tls_established(true);
      for (const auto& a : client.tls_started()) to_server.append(std::get<netlib::send_command>(a).bytes);
      server_tls = client_tls = false;
    }
    auto ss = server.receive(to_server.data(), {});
    to_server.consume(ss.consumed);
    server_actions(ss.actions);
  }
  EXPECT_TRUE(client.finished());
  out.error = client.error();
  return out;
}

TEST(Pop3Client, FetchesEveryMessageUnstuffed) {
  fixture f;
  const auto r = run_pair(f, {"alice", "secret", false, false});
  EXPECT_TRUE(r.error.empty()) << r.error;
  ASSERT_EQ(r.messages.size(), 2U);
  EXPECT_EQ(r.messages[0].uid, "m1");
  EXPECT_EQ(r.messages[1].size, 41U);
  EXPECT_EQ(r.messages[1].bytes, "Subject: two\r\n\r\n.dotted\r\nline 2\r\nline 3\r\n");
  EXPECT_EQ(r.messages[1].bytes.size(), r.messages[1].size);
  EXPECT_NE(std::find(r.trace.begin(), r.trace.end(), "C: PASS <hidden>"), r.trace.end());
  EXPECT_EQ(f.store.messages_of("alice").size(), 2U);
}

TEST(Pop3Client, DeleteAndStls) {
  fixture f;
  f.config.tls_available = true;
  auto r = run_pair(f, {"alice", "secret", true, true});
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.messages.size(), 2U);
  EXPECT_TRUE(f.store.messages_of("alice").empty());
  r = run_pair(f, {"alice", "secret", false, false});
  EXPECT_TRUE(r.messages.empty());
}

TEST(Pop3Client, ReportsRefusals) {
  fixture f;
  EXPECT_EQ(run_pair(f, {"alice", "bad", false, false}).error,
            "login failed: server refused PASS (user alice): -ERR [AUTH] invalid user name or password");
  EXPECT_EQ(run_pair(f, {"alice", "secret", true, false}).error,
            "server refused STLS: -ERR STLS not available (no certificate configured)");
  netlib::pop3::client_session c({"a", "b", false, false});
  auto step = c.receive(netlib::as_bytes("* OK IMAP\r\n"));
  EXPECT_EQ(c.error(), "malformed response from the server (expected +OK or -ERR)");
}

TEST(Pop3ResponseParser, MultiLineAtEverySplit) {
  const std::string input = "+OK 2 octets\r\n..a\r\n\r\n.\r\n-ERR no\r\n+OK\r\n";
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& pieces) {
    netlib::pop3::response_parser p;
    netlib::input_buffer buf;
    std::vector<netlib::pop3::response> got;
    for (auto piece : pieces) {
      buf.append(piece);
      for (;;) {
        auto r = p.next(buf.data(), got.empty());
        buf.consume(r.consumed);
        if (r.status != netlib::pop3::response_status::response) break;
        got.push_back(r.value);
      }
    }
    ASSERT_EQ(got.size(), 3U);
    EXPECT_TRUE(got[0].ok);
    EXPECT_EQ(got[0].body, ".a\r\n\r\n");
    EXPECT_FALSE(got[1].ok);
    EXPECT_EQ(got[1].text, "no");
    EXPECT_TRUE(got[2].ok);
  });
  netlab::test::for_each_prefix("+OK\r\nx\r\n.\r\n", [](std::string_view prefix) {
    netlib::pop3::response_parser p;
    EXPECT_EQ(p.next(netlib::as_bytes(prefix), true).status, netlib::pop3::response_status::need_more);
  });
}

TEST(Pop3ResponseParser, MalformedAndBodyLimit) {
  netlib::pop3::response_parser p;
  EXPECT_EQ(p.next(netlib::as_bytes("OK\r\n"), false).status, netlib::pop3::response_status::malformed);
  EXPECT_EQ(p.next(netlib::as_bytes("+OK\r\n"), false).status, netlib::pop3::response_status::malformed);
  netlib::pop3::response_parser small(8);
  EXPECT_EQ(small.next(netlib::as_bytes("+OK\r\n0123456789\r\n.\r\n"), true).status,
            netlib::pop3::response_status::malformed);
}

}  // namespace
