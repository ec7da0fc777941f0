#include <gtest/gtest.h>

#include "session_pair.hpp"
#include "support/split_feed.hpp"

using namespace ftp_test;
using namespace std::chrono_literals;

TEST(ServerLogin, GreetingThenUserPass) {
  session_pair p;
  ASSERT_EQ(p.replies.size(), 1u);
  EXPECT_EQ(p.replies[0].code, 220);
  EXPECT_EQ(p.cmd("USER", "alice").code, 331);
  EXPECT_EQ(p.cmd("PASS", "secret").code, 230);
  EXPECT_TRUE(p.server.logged_in());
  EXPECT_EQ(p.server.state(), server_state::ready);
}

TEST(ServerLogin, AnonymousAndFtpWithAnyPassword) {
  for (const char* name : {"anonymous", "ftp", "FTP"}) {
    session_pair p;
    EXPECT_EQ(p.cmd("USER", name).code, 331);
    EXPECT_EQ(p.cmd("PASS", "me@example.org").code, 230) << name;
  }
  auto cfg = default_config();
  cfg.users.set_anonymous(false);
  session_pair q(cfg);
  EXPECT_EQ(q.cmd("USER", "anonymous").code, 331);
  EXPECT_EQ(q.cmd("PASS", "x").code, 0);  // held: the 530 comes after the delay
  q.advance(1s);
  EXPECT_EQ(q.replies.back().code, 530);
}

TEST(ServerLogin, CommandsBeforeLoginGet530) {
  session_pair p;
  for (const char* verb : {"CWD", "PWD", "LIST", "RETR", "STOR", "PASV", "PORT", "TYPE", "SIZE", "MKD", "DELE"}) {
    EXPECT_EQ(p.cmd(verb, "x").code, 530) << verb;
  }
  EXPECT_EQ(p.cmd("SYST").code, 215);
  EXPECT_EQ(p.cmd("FEAT").code, 211);
  EXPECT_EQ(p.cmd("NOOP").code, 200);
}

TEST(ServerLogin, PassWithoutUserIs503) {
  session_pair p;
  EXPECT_EQ(p.cmd("PASS", "secret").code, 503);
  p.login();
  EXPECT_EQ(p.cmd("PASS", "secret").code, 503);
  EXPECT_EQ(p.cmd("USER").code, 501);
}

TEST(ServerLogin, FailedLoginIsDelayedThroughTimeInput) {
  session_pair p;
  EXPECT_EQ(p.cmd("USER", "alice").code, 331);
  EXPECT_EQ(p.cmd("PASS", "wrong").code, 0);
  EXPECT_EQ(p.server.state(), server_state::login_delayed);
  ASSERT_TRUE(p.wake);
  EXPECT_EQ(*p.wake, p.clock.now() + 1s);
  // Input that arrives meanwhile is not consumed.
  p.raw("USER alice\r\n");
  EXPECT_EQ(p.pending_input(), "USER alice\r\n");
  p.advance(999ms);
  EXPECT_NE(p.replies.back().code, 530);
  p.advance(1ms);
  EXPECT_EQ(p.replies[p.replies.size() - 2].code, 530);
  EXPECT_EQ(p.replies.back().code, 331);  // the waiting USER was then taken
  EXPECT_TRUE(p.pending_input().empty());
}

TEST(ServerLogin, TooManyFailuresClose421AndDelayGrows) {
  session_pair p;
  for (int i = 1; i <= 3; ++i) {
    p.raw("USER alice\r\nPASS bad\r\n");
    ASSERT_TRUE(p.wake);
    EXPECT_EQ(*p.wake - p.clock.now(), std::chrono::seconds(i));
    p.advance(std::chrono::seconds(i));
  }
  EXPECT_EQ(p.replies.back().code, 421);
  EXPECT_TRUE(p.control_closed);
  EXPECT_EQ(p.server.state(), server_state::closed);
}

TEST(ServerLogin, IdleTimeoutGives421) {
  auto cfg = default_config();
  cfg.idle_timeout = 30s;
  session_pair p(cfg);
  p.login();
  ASSERT_TRUE(p.server.next_deadline());
  p.advance(29s);
  EXPECT_FALSE(p.control_closed);
  p.cmd("NOOP");
  p.advance(29s);
  EXPECT_FALSE(p.control_closed);
  p.advance(1s);
  EXPECT_EQ(p.replies.back().code, 421);
  EXPECT_TRUE(p.control_closed);
}

TEST(ServerLogin, QuitSays221AndCloses) {
  session_pair p;
  EXPECT_EQ(p.cmd("QUIT").code, 221);
  EXPECT_TRUE(p.control_closed);
  EXPECT_EQ(p.client.state(), client_state::closed);
}

TEST(ServerLogin, UnknownUnimplementedAndBadLines) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("XYZZ").code, 500);
  EXPECT_EQ(p.cmd("SITE", "CHMOD 777 x").code, 502);
  EXPECT_EQ(p.cmd("STOU").code, 502);
  auto r = p.raw("\r\n" + std::string(3000, 'A') + "\r\nR2D2\r\nnoop\r\n");
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].code, 500);
  EXPECT_EQ(r[1].code, 500);
  EXPECT_EQ(r[2].code, 500);
  EXPECT_EQ(r[3].code, 200);
}

TEST(ServerLogin, WholeDialogueAnySplitSameReplies) {
  const std::string input =
      "USER alice\r\nPASS secret\r\nTYPE I\r\nCWD pub\r\nPWD\r\nCDUP\r\nSIZE readme.txt\r\nQUIT\r\n";
  std::vector<int> expected;
  {
    session_pair p;
    for (auto& r : p.raw(input)) expected.push_back(r.code);
  }
  EXPECT_EQ(expected, (std::vector<int>{331, 230, 200, 250, 257, 250, 213, 221}));
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& pieces) {
    session_pair p;
    std::vector<int> got;
    for (auto piece : pieces) {
      for (auto& r : p.raw(std::string(piece))) got.push_back(r.code);
    }
    EXPECT_EQ(got, expected);
  });
}

TEST(ServerLogin, IdleClockStartsAtTheGreeting) {
  memory_file_system fs;
  server_session s(default_config(), fs);
  const time_point boot = time_point(std::chrono::hours(1000));  // a steady clock long after its epoch
  (void)s.start({boot, {}});
  EXPECT_TRUE(s.tick({boot + 1s, {}}).empty());
  ASSERT_TRUE(s.next_deadline());
  EXPECT_EQ(*s.next_deadline(), boot + 300s);
}
