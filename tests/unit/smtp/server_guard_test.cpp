// SMTP AUTH behind the credentials guard, in virtual time: the held answer (wake_at, tick), input
// pipelined behind it left in the buffer, the address lockout's 454 4.7.0 (RFC 4954 §6), the owner
// let in from an address that never failed, and recovery.
#include <gtest/gtest.h>

#include <optional>

#include "netlib/core/credentials_guard.hpp"
#include "netlib/mail/base64.hpp"
#include "smtp_harness.hpp"

namespace smtp_guard_test {

using namespace smtp_test;
using namespace std::chrono_literals;

std::string auth_plain(const std::string& user, const std::string& password) {
  return "AUTH PLAIN " + netlib::mail::base64_encode(std::string(1, '\0') + user + '\0' + password) + "\r\n";
}

// One SMTP connection over a shared guard and clock, past STARTTLS (AUTH needs TLS here), on the
// shared in-memory driver.
struct guarded_connection {
  transcript t;
  memory_server m;
  netlib::smtp::server_session& s = m.core();
  std::vector<int>& codes = t.codes;
  std::optional<netlib::time_point>& wake = m.wake;

  guarded_connection(server_fixture& fx, netlib::virtual_clock& c, const std::string& peer)
      : m(netlib::smtp::server_session(fx.config, {peer, "G"}, fx.users), c, smtp_hooks{&fx, &t}) {
    m.feed("EHLO c\r\nSTARTTLS\r\n");  // the handshake succeeds; what followed is discarded
    m.feed("EHLO c\r\n");
    codes.clear();
  }
  guarded_connection(const guarded_connection&) = delete;
  guarded_connection& operator=(const guarded_connection&) = delete;
  void feed(std::string_view bytes) { m.feed(bytes); }
  void tick() { m.wake_up(); }
  [[nodiscard]] const std::string& last() const { return m.sends.back(); }
};

struct SmtpGuard : ::testing::Test {
  server_fixture f;
  netlib::credentials_guard guard{{.max_failures = 3, .delay = 1s, .lockout = 60s}};
  netlib::virtual_clock clock{netlib::time_point(1000h), netlib::wall_time(1'796'028'904s)};
  SmtpGuard() {
    f.config.tls_available = true;
    f.config.guard = &guard;
  }
};

TEST_F(SmtpGuard, SecondGuessWaitsItsTurnWithPipelinedInputLeftAlone) {
  guarded_connection c(f, clock, "[10.0.0.1]");
  c.feed(auth_plain("alice", "wrong"));
  EXPECT_EQ(c.codes, (std::vector<int>{535}));  // the first failure is answered at once
  c.feed(auth_plain("alice", "guess2") + "NOOP\r\n");
  EXPECT_EQ(c.codes.size(), 1U);  // held
  EXPECT_EQ(c.s.state(), netlib::smtp::server_state::auth_delayed);
  ASSERT_TRUE(c.wake);
  EXPECT_EQ(*c.wake, clock.now() + 1s);
  EXPECT_EQ(c.m.unconsumed(), 6U);  // NOOP waits in the buffer
  clock.advance(999ms);
  c.tick();
  EXPECT_EQ(c.codes.size(), 1U);
  clock.advance(1ms);
  c.tick();
  EXPECT_EQ(c.codes, (std::vector<int>{535, 535, 250}));  // then the NOOP
}

TEST_F(SmtpGuard, ParallelConnectionsShareTheTurns) {
  guarded_connection a(f, clock, "[10.0.0.1]");
  guarded_connection b(f, clock, "[10.0.0.1]");
  guarded_connection owner(f, clock, "[10.0.0.2]");
  a.feed(auth_plain("alice", "wrong"));
  b.feed(auth_plain("alice", "secret"));  // the same address on another connection: waits too
  EXPECT_TRUE(b.codes.empty());
  ASSERT_TRUE(b.wake);
  EXPECT_EQ(*b.wake, clock.now() + 1s);
  owner.feed(auth_plain("alice", "secret"));  // an address that never failed: at once
  EXPECT_EQ(owner.codes, (std::vector<int>{235}));
  clock.advance(1s);
  b.tick();
  EXPECT_EQ(b.codes, (std::vector<int>{235}));
  EXPECT_TRUE(b.s.authenticated());
}

TEST_F(SmtpGuard, LockoutRefusesTheRightPasswordWith454ThenRecovers) {
  guarded_connection c(f, clock, "[10.0.0.1]");
  for (int i = 0; i < 3; ++i) {
    c.feed(auth_plain("alice", "wrong"));
    if (c.wake) {
      clock.advance(*c.wake - clock.now());
      c.tick();
    }
  }
  EXPECT_EQ(c.codes, (std::vector<int>{535, 535, 535}));
  guarded_connection d(f, clock, "[10.0.0.1]");
  d.feed(auth_plain("alice", "secret"));
  EXPECT_EQ(d.codes, (std::vector<int>{454}));
  EXPECT_NE(d.last().find("454 4.7.0 Temporary authentication failure"), std::string::npos) << d.last();
  EXPECT_NE(d.last().find("try again in 60 s"), std::string::npos) << d.last();
  EXPECT_FALSE(d.s.authenticated());
  guarded_connection owner(f, clock, "[192.0.2.9]");  // the account is never locked (another network)
  owner.feed(auth_plain("alice", "secret"));
  EXPECT_EQ(owner.codes, (std::vector<int>{235}));
  clock.advance(60s);
  d.feed(auth_plain("alice", "secret"));
  EXPECT_EQ(d.codes, (std::vector<int>{454, 235}));
  EXPECT_EQ(guard.tracked(), 1U);  // alice's known addresses; the failures are forgotten
}

TEST_F(SmtpGuard, LeavingWhileHeldCountsAsAFailure) {
  guarded_connection c(f, clock, "[10.0.0.1]");
  c.feed(auth_plain("alice", "wrong"));
  c.feed(auth_plain("alice", "guess"));
  (void)c.s.receive_eof();
  guarded_connection d(f, clock, "[10.0.0.1]");
  d.feed(auth_plain("alice", "secret"));
  ASSERT_TRUE(d.wake);
  EXPECT_EQ(*d.wake, clock.now() + 3s);  // after two failures: 1 s, then 2 s more
}

TEST_F(SmtpGuard, NoGuardNoWait) {
  f.config.guard = nullptr;
  guarded_connection c(f, clock, "[10.0.0.1]");
  for (int i = 0; i < 5; ++i) c.feed(auth_plain("alice", "wrong"));
  EXPECT_EQ(c.codes, (std::vector<int>{535, 535, 535, 535, 535}));
  EXPECT_FALSE(c.wake);
}

}  // namespace smtp_guard_test
