// POP3 PASS behind the credentials guard, in virtual time: a held -ERR, the address lockout's
// "-ERR [AUTH]" (RFC 3206) even for the right password, the owner let in from another address,
// and recovery after the lockout.
#include <gtest/gtest.h>

#include <optional>

#include "netlib/core/credentials_guard.hpp"
#include "pop3_harness.hpp"

namespace pop3_guard_test {

using namespace pop3_test;
using namespace std::chrono_literals;

// Keeps the first line of every reply.
struct first_lines {
  std::vector<std::string>* lines;
  void on_send(std::string_view bytes) { lines->emplace_back(bytes.substr(0, bytes.find("\r\n"))); }
};

// One POP3 connection over a shared guard and clock, on the shared in-memory driver.
struct connection {
  std::vector<std::string> lines;
  netlab::test::memory_session<netlib::pop3::server_session, first_lines> m;
  netlib::pop3::server_session& s = m.core();
  std::optional<netlib::time_point>& wake = m.wake;

  connection(fixture& f, netlib::virtual_clock& c, const std::string& peer)
      : m(
            [&] {
              auto cfg = f.config;
              cfg.peer_address = peer;
              return netlib::pop3::server_session(cfg, f.store, f.users);
            }(),
            c, first_lines{&lines}) {
    lines.clear();
  }
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  void feed(std::string_view bytes) { m.feed(bytes); }
  void tick() { m.wake_up(); }
};

struct Pop3Guard : ::testing::Test {
  fixture f;
  netlib::credentials_guard guard{{.max_failures = 2, .delay = 2s, .lockout = 30s}};
  netlib::virtual_clock clock{netlib::time_point(1000h)};
  Pop3Guard() { f.config.guard = &guard; }
};

TEST_F(Pop3Guard, HeldAnswerThenLockoutThenRecovery) {
  connection c(f, clock, "10.0.0.1");
  c.feed("USER alice\r\nPASS wrong\r\n");
  EXPECT_EQ(c.lines.back(), "-ERR [AUTH] invalid user name or password");
  c.feed("USER alice\r\nPASS wrong\r\nCAPA\r\n");
  EXPECT_EQ(c.lines.back(), "+OK send PASS");  // the PASS answer is held, CAPA waits behind it
  EXPECT_EQ(c.s.state(), netlib::pop3::server_state::pass_delayed);
  ASSERT_TRUE(c.wake);
  EXPECT_EQ(*c.wake, clock.now() + 2s);
  clock.advance(2s);
  c.tick();
  ASSERT_GE(c.lines.size(), 2U);
  EXPECT_EQ(c.lines[c.lines.size() - 2], "-ERR [AUTH] invalid user name or password");
  EXPECT_EQ(c.lines.back(), "+OK Capability list follows");
  // Two failures: the address is locked out, whatever the password.
  connection d(f, clock, "10.0.0.1");
  d.feed("USER alice\r\nPASS secret\r\n");
  EXPECT_EQ(d.lines.back(), "-ERR [AUTH] too many failed logins for this user or address, try again in 30 s");
  EXPECT_EQ(d.s.state(), netlib::pop3::server_state::awaiting_user);
  {  // The account is not: from an address that never failed (in another network: 10.0.0.0/24
     // has used up its allowance of two failures), alice gets in at once.
    connection owner(f, clock, "192.0.2.7");
    owner.feed("USER alice\r\nPASS secret\r\n");
    EXPECT_EQ(owner.lines.back(), "+OK alice has 2 messages (64 octets)");
  }
  clock.advance(30s);
  d.feed("USER alice\r\nPASS secret\r\n");
  EXPECT_EQ(d.lines.back(), "+OK alice has 2 messages (64 octets)");
  EXPECT_EQ(d.s.state(), netlib::pop3::server_state::transaction);
}

}  // namespace pop3_guard_test
