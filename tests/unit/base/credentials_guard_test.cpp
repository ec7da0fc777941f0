// The credentials guard in virtual time: growing delays, parallel attempts spaced as if serial,
// the lockout, recovery with the right password, forgetting, and the memory bound.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netlib/core/clock.hpp"
#include "netlib/core/credentials_guard.hpp"

namespace credentials_guard_test {

using namespace std::chrono_literals;
using netlib::credentials_guard;
using netlib::guard_policy;
using netlib::time_point;

const time_point t0 = time_point(1000h);  // a steady clock long after its epoch

// One attempt that is checked at its turn and fails (or succeeds); returns the turn.
time_point attempt(credentials_guard& g, const std::string& address, const std::string& account, time_point now,
                   bool right) {
  const auto a = g.admit(address, account, now);
  EXPECT_FALSE(a.locked);
  g.report(address, account, right, a.turn);
  return a.turn;
}

TEST(credentials_guard, first_attempts_pass_at_once_and_success_leaves_nothing) {
  credentials_guard g;
  for (int i = 0; i < 100; ++i) EXPECT_EQ(attempt(g, "10.0.0.1", "alice", t0, true), t0);
  EXPECT_EQ(g.tracked(), 0u);
}

TEST(credentials_guard, delay_doubles_after_each_failure_up_to_the_cap) {
  credentials_guard g({.max_failures = 100, .delay = 1s, .max_delay = 30s});
  EXPECT_EQ(g.delay_after(1), 1s);
  EXPECT_EQ(g.delay_after(2), 2s);
  EXPECT_EQ(g.delay_after(5), 16s);
  EXPECT_EQ(g.delay_after(6), 30s);
  EXPECT_EQ(g.delay_after(60), 30s);
  // One guesser in a row: each attempt comes as soon as the last answer did.
  time_point now = t0;
  std::vector<netlib::duration> waits;
  for (int i = 0; i < 7; ++i) {
    const time_point turn = attempt(g, "10.0.0.1", "alice", now, false);
    waits.push_back(turn - now);
    now = turn;
  }
  EXPECT_EQ(waits, (std::vector<netlib::duration>{0s, 1s, 2s, 4s, 8s, 16s, 30s}));
}

TEST(credentials_guard, parallel_sessions_get_the_turns_of_one_session) {
  credentials_guard g({.max_failures = 100, .delay = 1s, .max_delay = 30s});
  attempt(g, "10.0.0.1", "alice", t0, false);  // one failure: attempts now wait their turn
  // 50 sessions ask at the same moment: their turns are spaced as if they came in a row.
  std::vector<time_point> turns;
  for (int i = 0; i < 5; ++i) {
    const auto a = g.admit("10.0.0." + std::to_string(i + 2), "alice", t0);
    ASSERT_FALSE(a.locked);
    turns.push_back(a.turn);
  }
  EXPECT_EQ(turns, (std::vector<time_point>{t0 + 1s, t0 + 3s, t0 + 7s, t0 + 15s, t0 + 31s}));
}

TEST(credentials_guard, lockout_refuses_even_the_right_password_then_it_works_again) {
  credentials_guard g({.max_failures = 3, .delay = 1s, .lockout = 60s});
  time_point now = t0;
  for (int i = 0; i < 3; ++i) now = attempt(g, "10.0.0.1", "alice", now, false);
  const auto locked = g.admit("10.0.0.9", "alice", now + 1s);  // another address, same account
  ASSERT_TRUE(locked.locked);
  EXPECT_EQ(locked.retry_after, 59s);
  EXPECT_TRUE(g.admit("10.0.0.1", "bob", now + 1s).locked);  // same address, another account
  EXPECT_FALSE(g.admit("10.0.0.2", "bob", now + 1s).locked);  // neither key failed
  g.report("10.0.0.2", "bob", true, now + 1s);
  // After the lockout the right password works at once, and the keys start clean.
  const auto again = g.admit("10.0.0.1", "alice", now + 60s);
  ASSERT_FALSE(again.locked);
  EXPECT_EQ(again.turn, now + 60s);
  g.report("10.0.0.1", "alice", true, again.turn);
  EXPECT_EQ(g.tracked(), 0u);
}

TEST(credentials_guard, held_attempts_count_toward_the_lockout) {
  credentials_guard g({.max_failures = 4, .delay = 1s, .lockout = 60s});
  attempt(g, "10.0.0.1", "alice", t0, false);
  EXPECT_FALSE(g.admit("10.0.0.1", "alice", t0).locked);  // 1 failure + 1 held
  EXPECT_FALSE(g.admit("10.0.0.1", "alice", t0).locked);  // + 2 held
  EXPECT_FALSE(g.admit("10.0.0.1", "alice", t0).locked);  // + 3 held: 4 in all
  EXPECT_TRUE(g.admit("10.0.0.1", "alice", t0).locked);   // a fifth would pass the limit
}

TEST(credentials_guard, success_clears_the_address_and_account) {
  credentials_guard g({.max_failures = 10, .delay = 1s});
  time_point now = attempt(g, "10.0.0.1", "alice", t0, false);
  now = attempt(g, "10.0.0.1", "alice", now, false);
  EXPECT_EQ(g.admit("10.0.0.1", "alice", now).turn, now + 2s);
  g.report("10.0.0.1", "alice", true, now + 2s);
  EXPECT_EQ(g.admit("10.0.0.1", "alice", now + 2s).turn, now + 2s);  // no wait any more
}

TEST(credentials_guard, failures_are_forgotten_after_the_lockout_time) {
  credentials_guard g({.max_failures = 5, .delay = 1s, .lockout = 60s});
  const time_point last = attempt(g, "10.0.0.1", "alice", t0, false);
  EXPECT_EQ(g.admit("10.0.0.1", "alice", last + 59s).turn, last + 59s);  // the delay has passed
  g.report("10.0.0.1", "alice", false, last + 59s);
  // Two failures now, the last at +59 s: the next turn is 2 s after it.
  EXPECT_EQ(g.admit("10.0.0.1", "alice", last + 60s).turn, last + 61s);
  g.report("10.0.0.1", "alice", false, last + 61s);
  // 60 s after the last failure all are forgotten: no wait.
  const auto later = g.admit("10.0.0.1", "alice", last + 61s + 60s);
  EXPECT_EQ(later.turn, last + 121s);
}

TEST(credentials_guard, memory_is_bounded_under_a_spray_of_names) {
  credentials_guard g({.max_failures = 1000, .delay = 1ms, .max_keys = 1000});
  time_point now = t0;
  for (int i = 0; i < 20000; ++i) {
    now += 1ms;
    const auto a = g.admit("10.0." + std::to_string(i % 200) + ".1", "user" + std::to_string(i), now);
    if (!a.locked) g.report("10.0." + std::to_string(i % 200) + ".1", "user" + std::to_string(i), false, a.turn);
  }
  EXPECT_LE(g.tracked(), 2000u);
  // Long names are cut, so they cannot make a key large.
  g.admit("10.9.9.9", std::string(100000, 'x'), now);
  EXPECT_LE(g.tracked(), 2002u);
}

}  // namespace credentials_guard_test
