#include <gtest/gtest.h>

#include <stdexcept>

#include "netlib/ftp/client_session.hpp"
#include "support/split_feed.hpp"

using namespace netlib;
using namespace netlib::ftp;

TEST(ClientSession, GreetingAfter120ThenCommandsOneAtATime) {
  client_session c;
  auto out = c.receive(as_bytes("120 wait\r\n220 ready\r\n"));
  ASSERT_EQ(out.events.size(), 2u);
  EXPECT_FALSE(out.events[0].final);
  EXPECT_EQ(c.state(), client_state::ready);
  EXPECT_EQ(c.send({"RETR", "f"}), "RETR f\r\n");
  EXPECT_THROW(c.send({"NOOP", ""}), std::logic_error);
  out = c.receive(as_bytes("150 opening\r\n"));
  EXPECT_EQ(c.state(), client_state::awaiting_final);
  ASSERT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.events[0].verb, "RETR");
  out = c.receive(as_bytes("226 done\r\n"));
  EXPECT_TRUE(out.events[0].final);
  EXPECT_EQ(c.state(), client_state::ready);
}

TEST(ClientSession, RepliesSplitAnywhere) {
  const std::string input = "220 hi\r\n331-need\r\n password\r\n331 now\r\n";
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& pieces) {
    client_session c;
    input_buffer buf;
    std::vector<client_event> events;
    bool sent = false;
    for (auto p : pieces) {
      buf.append(p);
      auto out = c.receive(buf.data());
      buf.consume(out.consumed);
      for (auto& e : out.events) events.push_back(e);
      if (!sent && c.state() == client_state::ready) {
        c.send({"USER", "a"});
        sent = true;
        out = c.receive(buf.data());
        buf.consume(out.consumed);
        for (auto& e : out.events) events.push_back(e);
      }
    }
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].value.code, 331);
    EXPECT_EQ(events[1].value.lines.size(), 3u);
    EXPECT_EQ(events[1].verb, "USER");
  });
}

TEST(ClientSession, ClosingAndFailure) {
  client_session c;
  c.receive(as_bytes("220 hi\r\n"));
  auto out = c.receive(as_bytes("421 idle timeout\r\n"));
  EXPECT_EQ(out.events.size(), 1u);
  EXPECT_EQ(c.state(), client_state::closed);
  client_session q;
  q.receive(as_bytes("220 hi\r\n"));
  q.send({"QUIT", ""});
  q.receive(as_bytes("221 bye\r\n"));
  EXPECT_EQ(q.state(), client_state::closed);
  client_session bad;
  out = bad.receive(as_bytes("HTTP/1.1 200 OK\r\n"));
  EXPECT_EQ(bad.state(), client_state::failed);
  EXPECT_FALSE(out.error.empty());
  client_session refused;
  refused.receive(as_bytes("421 too many sessions\r\n"));
  EXPECT_EQ(refused.state(), client_state::closed);
}
