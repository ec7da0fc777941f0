// SMTP AUTH behind the credentials guard, in virtual time: the held answer (wake_at, tick), input
// pipelined behind it left in the buffer, the lockout's 454 4.7.0 (RFC 4954 §6) and recovery.
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

// One SMTP connection over a shared guard and clock, past STARTTLS (AUTH needs TLS here).
struct guarded_connection {
  server_fixture& f;
  netlib::virtual_clock& clock;
  netlib::smtp::server_session s;
  netlib::input_buffer buf;
  std::vector<int> codes;
  std::string last;
  std::optional<netlib::time_point> wake;
  bool closed = false;

  guarded_connection(server_fixture& fx, netlib::virtual_clock& c, const std::string& peer)
      : f(fx), clock(c), s(fx.config, {peer, "G"}, fx.users) {
    take(s.start(clock.reading()));
    feed("EHLO c\r\nSTARTTLS\r\n");
    buf.clear();
    take(s.tls_established(true));
    feed("EHLO c\r\n");
    codes.clear();
  }
  void take(const std::vector<netlib::smtp::server_action>& actions) {
    for (const auto& a : actions) {
      if (const auto* r = std::get_if<netlib::send_bytes>(&a)) {
        last = r->bytes;
        const auto before_last = r->bytes.rfind("\r\n", r->bytes.size() - 3);  // a reply's last line has its code
        codes.push_back(std::stoi(r->bytes.substr(before_last == std::string::npos ? 0 : before_last + 2, 3)));
      } else if (const auto* w = std::get_if<netlib::wake_at>(&a)) {
        wake = w->when;
      } else if (std::holds_alternative<netlib::close_connection>(a)) {
        closed = true;
      }
    }
  }
  void feed(std::string_view bytes) {
    buf.append(bytes);
    auto step = s.receive(buf.data(), clock.reading());
    buf.consume(step.consumed);
    take(step.actions);
  }
  void tick() {
    take(s.tick(clock.reading()));
    feed("");
  }
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
  EXPECT_EQ(c.buf.size(), 6U);  // NOOP waits in the buffer
  clock.advance(999ms);
  c.tick();
  EXPECT_EQ(c.codes.size(), 1U);
  clock.advance(1ms);
  c.tick();
  EXPECT_EQ(c.codes, (std::vector<int>{535, 535, 250}));  // then the NOOP
}

TEST_F(SmtpGuard, ParallelConnectionsShareTheTurns) {
  guarded_connection a(f, clock, "[10.0.0.1]");
  guarded_connection b(f, clock, "[10.0.0.2]");
  a.feed(auth_plain("alice", "wrong"));
  b.feed(auth_plain("alice", "secret"));  // another address, same account: waits too
  EXPECT_TRUE(b.codes.empty());
  ASSERT_TRUE(b.wake);
  EXPECT_EQ(*b.wake, clock.now() + 1s);
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
  guarded_connection d(f, clock, "[10.0.0.9]");
  d.feed(auth_plain("alice", "secret"));
  EXPECT_EQ(d.codes, (std::vector<int>{454}));
  EXPECT_NE(d.last.find("454 4.7.0 Temporary authentication failure"), std::string::npos) << d.last;
  EXPECT_NE(d.last.find("try again in 60 s"), std::string::npos) << d.last;
  EXPECT_FALSE(d.s.authenticated());
  clock.advance(60s);
  d.feed(auth_plain("alice", "secret"));
  EXPECT_EQ(d.codes, (std::vector<int>{454, 235}));
  EXPECT_EQ(guard.tracked(), 1U);  // only [10.0.0.1]'s ended lockout, cleared when it comes back
}

TEST_F(SmtpGuard, LeavingWhileHeldCountsAsAFailure) {
  guarded_connection c(f, clock, "[10.0.0.1]");
  c.feed(auth_plain("alice", "wrong"));
  c.feed(auth_plain("alice", "guess"));
  (void)c.s.receive_eof();
  guarded_connection d(f, clock, "[10.0.0.2]");
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
