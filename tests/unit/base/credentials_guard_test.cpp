// The credentials guard in virtual time: growing delays, parallel attempts spaced as if serial,
// the address lockout and its end, a success resolving the user's own failures, the per-account
// turns that never hold up a clean address, the network's allowance, known logins, forgetting,
// networks of addresses, and the memory bound (tests/security/guard_attacks_test.cpp attacks it).
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

TEST(CredentialsGuard, first_attempts_pass_at_once_and_a_clean_success_leaves_only_its_login) {
  credentials_guard g;
  for (int i = 0; i < 100; ++i) EXPECT_EQ(attempt(g, "10.0.0.1", "alice", t0, true), t0);
  EXPECT_EQ(g.tracked(), 1u);  // alice's known address
}

TEST(CredentialsGuard, delay_doubles_after_each_failure_up_to_the_cap) {
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

TEST(CredentialsGuard, parallel_attempts_get_the_turns_of_one_session_and_the_rest_are_refused) {
  credentials_guard g({.max_failures = 100, .delay = 1s, .max_delay = 30s});
  attempt(g, "10.0.0.1", "alice", t0, false);  // one failure: attempts from there now wait their turn
  std::vector<time_point> turns;
  int refused = 0;
  for (int i = 0; i < 8; ++i) {
    const auto a = g.admit("10.0.0.1", "alice", t0);
    if (a.locked)
      ++refused;
    else
      turns.push_back(a.turn);
  }
  // Spaced as if in a row; beyond max_delay from now they are refused, not queued for ever.
  EXPECT_EQ(turns, (std::vector<time_point>{t0 + 1s, t0 + 3s, t0 + 7s, t0 + 15s}));
  EXPECT_EQ(refused, 4);
  const auto later = g.admit("10.0.0.1", "alice", t0);
  EXPECT_EQ(later.retry_after, 1s);  // t0 + 31 s is the next turn: admissible from t0 + 1 s
}

TEST(CredentialsGuard, address_lockout_refuses_even_the_right_password_then_it_works_again) {
  credentials_guard g({.max_failures = 3, .delay = 1s, .lockout = 60s});
  time_point now = t0;
  for (int i = 0; i < 3; ++i) now = attempt(g, "10.0.0.1", "alice", now, false);
  const auto locked = g.admit("10.0.0.1", "bob", now + 1s);  // same address, another account
  ASSERT_TRUE(locked.locked);
  EXPECT_EQ(locked.retry_after, 59s);
  // The account is never locked: from an address that never failed, alice is let in at once.
  const auto owner = g.admit("192.0.2.1", "alice", now + 1s);
  ASSERT_FALSE(owner.locked);
  EXPECT_EQ(owner.turn, now + 1s);
  g.report("192.0.2.1", "alice", true, owner.turn);
  // After the lockout the address starts clean.
  const auto again = g.admit("10.0.0.1", "alice", now + 60s);
  ASSERT_FALSE(again.locked);
  EXPECT_EQ(again.turn, now + 60s);
}

TEST(CredentialsGuard, held_attempts_never_lock_but_cannot_pass_the_limit) {
  credentials_guard g({.max_failures = 4, .delay = 1s, .max_delay = 30s, .lockout = 60s});
  attempt(g, "10.0.0.1", "alice", t0, false);
  EXPECT_FALSE(g.admit("10.0.0.1", "alice", t0).locked);  // 1 failure + 1 held
  EXPECT_FALSE(g.admit("10.0.0.1", "alice", t0).locked);  // + 2 held
  EXPECT_FALSE(g.admit("10.0.0.1", "alice", t0).locked);  // + 3 held: 4 in all
  EXPECT_TRUE(g.admit("10.0.0.1", "alice", t0).locked);   // a fifth could pass the limit: refused
  // Nothing is locked by the held ones: another address gets in, and the refused one was not
  // counted as a failure.
  EXPECT_FALSE(g.admit("10.0.0.2", "bob", t0).locked);
}

TEST(CredentialsGuard, a_success_resolves_the_users_own_failures_only) {
  credentials_guard g({.max_failures = 10, .delay = 1s});
  time_point now = attempt(g, "10.0.0.1", "alice", t0, false);
  now = attempt(g, "10.0.0.1", "alice", now, false);
  EXPECT_EQ(g.admit("10.0.0.1", "alice", now).turn, now + 2s);
  g.report("10.0.0.1", "alice", true, now + 2s);
  EXPECT_EQ(g.admit("10.0.0.1", "alice", now + 2s).turn, now + 2s);  // no wait any more
  g.report("10.0.0.1", "alice", true, now + 2s);
  // A guesser's failures on other accounts are not resolved by its own login.
  now += 10s;
  for (int i = 0; i < 3; ++i) now = attempt(g, "10.0.0.9", "victim" + std::to_string(i), now, false);
  const auto own = g.admit("10.0.0.9", "mallory", now);
  g.report("10.0.0.9", "mallory", true, own.turn);
  const auto next = g.admit("10.0.0.9", "victim9", own.turn);
  EXPECT_GT(next.turn, own.turn) << "the address still waits for its turn";
}

TEST(CredentialsGuard, account_turns_hold_up_only_addresses_that_failed) {
  credentials_guard g({.max_failures = 100, .delay = 1s, .max_delay = 30s});
  time_point now = t0;
  for (int i = 0; i < 6; ++i) now = attempt(g, "10.1.0." + std::to_string(i + 1), "alice", now, false);
  // A stranger's addresses each failed once: the next one from any of them waits alice's turn.
  EXPECT_GT(g.admit("10.1.0.1", "alice", now).turn, now);
  // An address that never failed is not held up by alice's failures.
  EXPECT_EQ(g.admit("192.0.2.7", "alice", now).turn, now);
}

TEST(CredentialsGuard, a_network_waits_its_turn_past_its_allowance) {
  credentials_guard g({.max_failures = 3, .delay = 1s, .max_delay = 30s});
  time_point now = t0;
  // Three failures from three addresses of 10.2.0.0/24 on three accounts: the allowance.
  for (int i = 0; i < 3; ++i)
    now = attempt(g, "10.2.0." + std::to_string(i + 1), "user" + std::to_string(i), now, false);
  // The next fresh address of the network on a fresh account waits; another network does not.
  EXPECT_EQ(g.admit("10.2.0.77", "user77", now).turn, now + 1s);
  EXPECT_EQ(g.admit("10.3.0.1", "user78", now).turn, now);
}

TEST(CredentialsGuard, a_known_address_gets_past_the_lock_of_its_shared_address) {
  credentials_guard g({.max_failures = 3, .delay = 1s, .lockout = 60s});
  attempt(g, "198.51.100.7", "bob", t0, true);  // bob logged in from the shared address
  time_point now = t0 + 1s;
  for (int i = 0; i < 3; ++i) now = attempt(g, "198.51.100.7", "user" + std::to_string(i), now, false);
  EXPECT_TRUE(g.admit("198.51.100.7", "carol", now).locked);  // the guesser's address is locked...
  const auto bob = g.admit("198.51.100.7", "bob", now);       // ...not for bob
  ASSERT_FALSE(bob.locked);
  EXPECT_EQ(bob.turn, now);
}

TEST(CredentialsGuard, failures_are_forgotten_after_the_lockout_time) {
  credentials_guard g({.max_failures = 5, .delay = 1s, .lockout = 60s});
  const time_point last = attempt(g, "10.0.0.1", "alice", t0, false);
  EXPECT_EQ(g.admit("10.0.0.1", "alice", last + 59s).turn, last + 59s);  // the delay has passed
  g.report("10.0.0.1", "alice", false, last + 59s);
  // Two failures now, the last at +59 s: the next turn is 2 s after it.
  EXPECT_EQ(g.admit("10.0.0.1", "alice", last + 60s).turn, last + 61s);
  g.report("10.0.0.1", "alice", false, last + 61s);
  // 60 s after the last failure all are forgotten, and the keys leave the tables.
  const auto later = g.admit("10.0.0.1", "alice", last + 61s + 60s);
  EXPECT_EQ(later.turn, last + 121s);
  g.report("10.0.0.1", "alice", true, later.turn);
  EXPECT_EQ(g.tracked(), 1u);  // the known login only
}

TEST(CredentialsGuard, networks_of_addresses) {
  EXPECT_EQ(credentials_guard::network_of("192.0.2.77"), "192.0.2.0/24");
  EXPECT_EQ(credentials_guard::network_of("[192.0.2.77]"), "192.0.2.0/24");  // SMTP's Received: form
  EXPECT_EQ(credentials_guard::network_of("::ffff:192.0.2.77"), "192.0.2.0/24");
  EXPECT_EQ(credentials_guard::network_of("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
  EXPECT_EQ(credentials_guard::network_of("[2001:db8::1]"), "2001:db8::/64");
  EXPECT_EQ(credentials_guard::network_of("peer-7"), "peer-7");
}

TEST(CredentialsGuard, full_tables_evict_nothing_that_is_penalised) {
  credentials_guard g({.max_failures = 2, .delay = 1ms, .max_delay = 10ms, .lockout = 60s, .max_keys = 100});
  time_point now = t0;
  for (int i = 0; i < 2; ++i) now = attempt(g, "10.9.9.9", "alice", now, false);
  ASSERT_TRUE(g.admit("10.9.9.9", "alice", now).locked);
  for (int i = 0; i < 5000; ++i) {
    now += 1ms;
    const std::string address = "10." + std::to_string(i % 250) + "." + std::to_string(i / 250 % 250) + ".1";
    const auto a = g.admit(address, "made-up-" + std::to_string(i), now);
    if (!a.locked) g.report(address, "made-up-" + std::to_string(i), false, a.turn);
    EXPECT_LE(g.tracked(), 5u * 100u);
  }
  EXPECT_TRUE(g.admit("10.9.9.9", "alice", now).locked) << "a full table evicted a locked address";
  // Long names are cut, so they cannot make a key large.
  g.admit("10.9.9.8", std::string(100000, 'x'), now);
}

}  // namespace credentials_guard_test
