// POP3 PASS behind the credentials guard, in virtual time: a held -ERR, the lockout's
// "-ERR [AUTH]" (RFC 3206) even for the right password, and recovery after the lockout.
#include <gtest/gtest.h>

#include <optional>

#include "netlib/core/credentials_guard.hpp"
#include "pop3_harness.hpp"

namespace pop3_guard_test {

using namespace pop3_test;
using namespace std::chrono_literals;

struct connection {
  netlib::pop3::server_session s;
  netlib::virtual_clock& clock;
  netlib::input_buffer buf;
  std::vector<std::string> lines;
  std::optional<netlib::time_point> wake;

  connection(fixture& f, netlib::virtual_clock& c, const std::string& peer)
      : s([&] {
          auto cfg = f.config;
          cfg.peer_address = peer;
          return netlib::pop3::server_session(cfg, f.store, f.users);
        }()),
        clock(c) {
    take(s.start(clock.reading()));
    lines.clear();
  }
  void take(const std::vector<netlib::pop3::server_action>& actions) {
    for (const auto& a : actions) {
      if (const auto* r = std::get_if<netlib::send_bytes>(&a)) lines.push_back(r->bytes.substr(0, r->bytes.find("\r\n")));
      if (const auto* w = std::get_if<netlib::wake_at>(&a)) wake = w->when;
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
  // Two failures: alice is locked out, from any address, whatever the password.
  connection d(f, clock, "10.0.0.2");
  d.feed("USER alice\r\nPASS secret\r\n");
  EXPECT_EQ(d.lines.back(), "-ERR [AUTH] too many failed logins for this user or address, try again in 30 s");
  EXPECT_EQ(d.s.state(), netlib::pop3::server_state::awaiting_user);
  clock.advance(30s);
  d.feed("USER alice\r\nPASS secret\r\n");
  EXPECT_EQ(d.lines.back(), "+OK alice has 2 messages (64 octets)");
  EXPECT_EQ(d.s.state(), netlib::pop3::server_state::transaction);
}

}  // namespace pop3_guard_test
