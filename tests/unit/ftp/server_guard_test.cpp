// FTP PASS behind the credentials guard (shared by two control connections), in virtual time:
// the guard's turn before the check, the RFC 2577 delay of the 530 after it, the lockout's 421,
// anonymous logins left alone.
#include <gtest/gtest.h>

#include "netlib/core/credentials_guard.hpp"
#include "session_pair.hpp"

namespace ftp_guard_test {

using namespace ftp_test;
using namespace std::chrono_literals;

server_config guarded(credentials_gate& g) {
  server_config c = default_config();
  c.guard = &g;
  c.login_delay = 0s;  // only the guard's waits, to see them alone
  return c;
}

TEST(FtpGuard, ChecksWaitForTheGuardsTurnAcrossConnections) {
  credentials_guard guard({.max_failures = 10, .delay = 1s});
  session_pair a(guarded(guard));
  session_pair b(guarded(guard));
  a.raw("USER alice\r\nPASS wrong\r\n");
  a.advance(0s);
  EXPECT_EQ(a.replies.back().code, 530);
  b.clock = a.clock;
  b.raw("USER alice\r\nPASS secret\r\n");
  EXPECT_EQ(b.server.state(), server_state::login_delayed);  // the check itself waits
  ASSERT_TRUE(b.wake);
  EXPECT_EQ(*b.wake, b.clock.now() + 1s);
  b.advance(999ms);
  EXPECT_FALSE(b.server.logged_in());
  b.advance(1ms);
  EXPECT_EQ(b.replies.back().code, 230);
  EXPECT_TRUE(b.server.logged_in());
}

TEST(FtpGuard, LockoutIs421AndCloses) {
  credentials_guard guard({.max_failures = 2, .delay = 1s, .lockout = 60s});
  session_pair a(guarded(guard));
  for (int i = 0; i < 2; ++i) {
    a.raw("USER alice\r\nPASS wrong\r\n");
    if (a.wake) a.advance(*a.wake - a.clock.now());
    a.advance(0s);
  }
  session_pair b(guarded(guard));
  b.clock = a.clock;
  const auto r = b.raw("USER alice\r\nPASS secret\r\n");
  ASSERT_EQ(r.size(), 2U);
  EXPECT_EQ(r[1].code, 421);
  EXPECT_EQ(r[1].text(), "Too many failed logins for this user or address, try again in 60 s.");
  EXPECT_TRUE(b.control_closed);
  session_pair c(guarded(guard));
  c.clock = a.clock;
  c.advance(60s);
  c.login("alice", "secret");  // after the lockout the right password works
}

TEST(FtpGuard, AnonymousLoginsAreNotGuarded) {
  credentials_guard guard({.max_failures = 1, .delay = 1s, .lockout = 60s});
  session_pair a(guarded(guard));
  a.raw("USER alice\r\nPASS wrong\r\n");
  a.advance(0s);
  EXPECT_EQ(guard.tracked(), 4U);  // 127.0.0.1 is locked; its network, alice and the pair hold the failure
  session_pair b(guarded(guard));
  b.clock = a.clock;
  b.login("anonymous", "me@example.org");  // any password: nothing to guess, nothing to refuse
}

}  // namespace ftp_guard_test
