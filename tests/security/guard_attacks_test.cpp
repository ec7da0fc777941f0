// Issue 31, items 2 to 4: the attacks on the credentials guard itself, in virtual time against
// netlib::credentials_guard (the object every server asks; docs/architecture.md "The credentials
// guard"). A guesser here is as fast as the guard lets it be: it asks again as soon as it is
// answered, and many sessions run in parallel. What each test checks, and what it saw before:
//   - a flood of 200,000 made-up names from rotating addresses erased a lockout (each table kept
//     65,536 keys and dropped its least recently seen quarter, locked keys included);
//   - a stranger's failures locked an account, whose owner was then refused from an address
//     that never failed, and held attempts counted toward that lock (a burst locked it at once);
//   - a guesser sharing an address with honest users (a NAT, a proxy) locked them out too;
//   - spraying one password over many accounts from rotating addresses was never slowed;
//   - the guard's memory and work stay bounded under the flood, and its full tables do not keep
//     out a user who logged in before it.
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdio>
#include <functional>
#include <map>
#include <queue>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "netlib/core/credentials_guard.hpp"

namespace guard_attacks_test {

using namespace std::chrono_literals;
using netlib::credentials_guard;
using netlib::duration;
using netlib::time_point;

const time_point t0 = time_point(1000h);

// 127.A.B.C for attempt i: consecutive attempts come from different /24 networks, and a network
// comes back only every 65,024 attempts (the flood that fills every table of the guard).
std::string rotating(std::uint32_t i) {
  return fmt::format("127.{}.{}.{}", 1 + i % 254, (i / 254) % 256, 1 + (i / 65024) % 254);
}

// What a guesser gets from the guard: answers (the password checked, wrong), refusals.
struct tally {
  int attempts = 0;
  int guesses = 0;
  int refused = 0;
};

// `sessions` parallel guessers from `start` for `span` of virtual time (or until `max_attempts`
// were made), each asking again `cost` after its last answer (after a refusal: its Retry-After,
// at least 10 ms). An admitted attempt is checked, and reported, at its turn: every call to the
// guard comes in time order, as from a server. target(k) names the k-th attempt's address and
// account; every password is wrong.
tally run_guessers(credentials_guard& g, time_point start, duration span, int sessions,
                   const std::function<std::pair<std::string, std::string>(int)>& target, int max_attempts = 1'000'000,
                   duration cost = 1ms) {
  struct event {
    time_point when;
    int session;
    bool report;  // the check of a held attempt; else a new attempt
    std::string address, account;
    bool operator>(const event& o) const { return when > o.when; }
  };
  std::priority_queue<event, std::vector<event>, std::greater<>> queue;
  for (int s = 0; s < sessions; ++s) queue.push({start, s, false, {}, {}});
  tally t;
  for (int steps = 0; steps < 4'000'000 && !queue.empty(); ++steps) {
    event e = queue.top();
    queue.pop();
    if (e.report) {
      g.report(e.address, e.account, false, e.when);
      if (e.when < start + span) ++t.guesses;
      queue.push({e.when + cost, e.session, false, {}, {}});
      continue;
    }
    if (e.when >= start + span || t.attempts >= max_attempts) continue;
    auto [address, account] = target(t.attempts++);
    const auto a = g.admit(address, account, e.when);
    if (a.locked) {
      ++t.refused;
      queue.push({e.when + std::max<duration>(a.retry_after, 10ms), e.session, false, {}, {}});
      continue;
    }
    queue.push({std::max(a.turn, e.when), e.session, true, std::move(address), std::move(account)});
  }
  return t;
}

// The owner logs in with the right password: refused, or how long the answer waited.
struct owner_result {
  bool refused = false;
  duration waited{};
};
owner_result owner_logs_in(credentials_guard& g, const std::string& address, const std::string& account,
                           time_point now) {
  const auto a = g.admit(address, account, now);
  if (a.locked) return {true, {}};
  g.report(address, account, true, a.turn);
  return {false, a.turn - now};
}

TEST(GuardAttacks, FloodOfNamesDoesNotEraseALockout) {
  credentials_guard g;  // the servers' defaults: 10 failures, 1 s doubling, 5 min lockout
  time_point now = t0;
  // The guesser's own address fails until it is locked out.
  for (int i = 0; i < 20; ++i) {
    const auto a = g.admit("127.0.0.9", "alice", now);
    if (a.locked) break;
    g.report("127.0.0.9", "alice", false, a.turn);
    now = a.turn;
  }
  ASSERT_TRUE(g.admit("127.0.0.9", "alice", now).locked) << "the guesser's address is locked out";
  // bob logged in before the flood: the full tables must not turn against him (the overflow keys
  // slow the sources the tables cannot take; a known login is not one of them).
  ASSERT_FALSE(owner_logs_in(g, "192.0.2.10", "bob", now).refused);
  // Up to 200,000 wrong logins with made-up names from rotating addresses, 500 sessions at a time,
  // for two minutes (well inside the lockout): once the tables are full the overflow keys slow the
  // flood down, and it gets through only a little more than 65,536 names.
  const tally flood = run_guessers(
      g, now, 120s, 500,
      [](int k) {
        return std::pair<std::string, std::string>(rotating(static_cast<std::uint32_t>(k)),
                                                   fmt::format("made-up-{}", k));
      },
      200'000, 30ms);
  EXPECT_GT(flood.attempts, 32768);  // more names than a table holds
  now += 121s;
  const auto after = g.admit("127.0.0.9", "alice", now);
  std::printf(
      "after %d made-up names from rotating addresses (%d checked): the guesser's address is %s "
      "(%lld s left), %zu keys tracked\n",
      flood.attempts, flood.guesses, after.locked ? "still locked" : "free again",
      static_cast<long long>(std::chrono::duration_cast<std::chrono::seconds>(after.retry_after).count()), g.tracked());
  EXPECT_TRUE(after.locked) << "the flood erased the lockout";
  const auto bob = owner_logs_in(g, "192.0.2.10", "bob", now);
  std::printf("bob, who logged in before the flood, from his address: %s (waited %.1f s)\n",
              bob.refused ? "refused" : "let in", netlib::to_seconds(bob.waited));
  EXPECT_FALSE(bob.refused) << "the flood's full tables locked out a known user";
  EXPECT_LE(bob.waited, 0s);
  // Repeating the cycle gives no checked guess either.
  tally t = run_guessers(g, now, 30s, 4, [](int) { return std::pair<std::string, std::string>("127.0.0.9", "alice"); });
  EXPECT_EQ(t.guesses, 0);
}

TEST(GuardAttacks, FloodKeepsMemoryBounded) {
  credentials_guard g;
  std::size_t most = 0;
  malloc_trim(0);
  const std::size_t heap_before = mallinfo2().uordblks;
  std::size_t heap_most = 0;
  const tally flood = run_guessers(
      g, t0, 24h, 500,
      [&](int k) {
        if (k % 1000 == 0) heap_most = std::max(heap_most, mallinfo2().uordblks);
        most = std::max(most, g.tracked());
        // Long names are cut to 128 bytes.
        return std::pair<std::string, std::string>(rotating(static_cast<std::uint32_t>(k)),
                                                   fmt::format("made-up-{}-{}", k, std::string(200, 'x')));
      },
      200'000, 30ms);
  const double mib = static_cast<double>(heap_most > heap_before ? heap_most - heap_before : 0) / (1 << 20);
  std::printf(
      "%d made-up names from rotating addresses: at most %zu keys tracked, %.1f MiB of heap at most "
      "(glibc, with the simulation's own queue)\n",
      flood.attempts, most, mib);
  EXPECT_EQ(flood.attempts, 200'000);
  EXPECT_LE(most, 5u * 32768u);  // five tables of at most 32,768 keys
}

// A stranger cannot lock an account against its owner: after any number of failures from
// elsewhere, the right password from an address that never failed is accepted at once.
TEST(GuardAttacks, StrangerCannotLockTheOwnerOut) {
  credentials_guard g;
  // 50 parallel sessions guess alice's password for 2 minutes from one address...
  tally one =
      run_guessers(g, t0, 120s, 50, [](int) { return std::pair<std::string, std::string>("10.66.0.1", "alice"); });
  // ...and from a whole /24, one attempt per address in turn.
  tally many = run_guessers(g, t0 + 120s, 120s, 50, [](int k) {
    return std::pair<std::string, std::string>(fmt::format("10.67.0.{}", 1 + k % 254), "alice");
  });
  const auto owner = owner_logs_in(g, "192.0.2.10", "alice", t0 + 240s);
  std::printf(
      "a stranger: %d guesses from one address, %d from a /24; the owner from a clean address is %s "
      "(waited %.1f s)\n",
      one.guesses, many.guesses, owner.refused ? "refused" : "let in", netlib::to_seconds(owner.waited));
  EXPECT_FALSE(owner.refused) << "the owner's right password was refused";
  EXPECT_LE(owner.waited, 0s) << "the owner waited behind the stranger's attempts";
}

// One wrong password, then nine attempts held in parallel: they must not lock anything before
// they are checked (before: failures + held attempts reached the limit, a lock in 0.3 s).
TEST(GuardAttacks, HeldAttemptsDoNotLockInABurst) {
  credentials_guard g;
  const auto first = g.admit("10.70.0.1", "alice", t0);
  g.report("10.70.0.1", "alice", false, first.turn);
  for (int i = 0; i < 9; ++i) (void)g.admit("10.70.0.1", "alice", t0 + 300ms);
  const auto owner = owner_logs_in(g, "192.0.2.10", "alice", t0 + 300ms);
  std::printf("one failure and nine held attempts: the owner is %s\n", owner.refused ? "refused" : "let in");
  EXPECT_FALSE(owner.refused);
  EXPECT_LE(owner.waited, 0s);
}

// A guesser behind the same address as honest users (a NAT, or lab-http proxy without trusted
// forwarding): users who logged in from that address before keep getting in.
TEST(GuardAttacks, SharedAddressSparesItsKnownUsers) {
  credentials_guard g;
  const std::string nat = "198.51.100.7";
  ASSERT_FALSE(owner_logs_in(g, nat, "bob", t0).refused);  // bob logged in this morning
  tally t = run_guessers(g, t0 + 1s, 120s, 20, [&](int k) {
    return std::pair<std::string, std::string>(nat, fmt::format("user{}", k % 50));
  });
  const auto bob = owner_logs_in(g, nat, "bob", t0 + 122s);
  std::printf("a guesser behind bob's address: %d guesses, %d refused; bob is %s\n", t.guesses, t.refused,
              bob.refused ? "refused" : "let in");
  EXPECT_FALSE(bob.refused) << "one guesser locked out everybody behind the address";
  EXPECT_LE(t.guesses, 30);
}

// Spraying one password over many accounts: from rotating addresses of one /24 (IPv4) or one
// /64 (IPv6) the network is slowed as one source (before: 2,100 to 4,200 tries per second).
TEST(GuardAttacks, SprayingFromRotatingAddressesIsSlowedPerNetwork) {
  for (const bool v6 : {false, true}) {
    credentials_guard g;
    tally t = run_guessers(g, t0, 60s, 50, [v6](int k) {
      const std::string address =
          v6 ? fmt::format("2001:db8:7:9:{:x}::1", 1 + k % 60000) : fmt::format("10.80.3.{}", 1 + k % 254);
      return std::pair<std::string, std::string>(address, fmt::format("user{}", k));
    });
    std::printf(
        "spraying from rotating addresses of one %s for 60 s: %d passwords checked (%.2f per second), "
        "%d refused\n",
        v6 ? "/64" : "/24", t.guesses, t.guesses / 60.0, t.refused);
    EXPECT_LE(t.guesses, 40) << (v6 ? "IPv6" : "IPv4");
  }
  // Several networks: each is its own source, so the rate grows with their number, not with
  // the number of addresses.
  credentials_guard g;
  tally t = run_guessers(g, t0, 60s, 50, [](int k) {
    return std::pair<std::string, std::string>(fmt::format("10.81.{}.{}", k % 8, 1 + (k / 8) % 254),
                                               fmt::format("user{}", k));
  });
  std::printf("spraying from 8 networks for 60 s: %d passwords checked\n", t.guesses);
  EXPECT_LE(t.guesses, 8 * 40);
}

// A guesser with an account of its own logs in between guesses: its successes must not wipe
// out its failures on the other accounts.
TEST(GuardAttacks, OwnLoginsDoNotResetTheGuessingRecord) {
  credentials_guard g;
  time_point now = t0;
  int guesses = 0;
  for (int round = 0; round < 200 && now < t0 + 120s; ++round) {
    const auto a = g.admit("10.90.0.1", fmt::format("victim{}", round), now);
    if (a.locked) {
      now += std::max<duration>(a.retry_after, 10ms);
    } else {
      g.report("10.90.0.1", fmt::format("victim{}", round), false, a.turn);
      ++guesses;
      now = a.turn + 1ms;
    }
    const auto own = g.admit("10.90.0.1", "mallory", now);
    if (!own.locked) {
      g.report("10.90.0.1", "mallory", true, own.turn);
      now = std::max(now, own.turn) + 1ms;
    }
  }
  std::printf("guesses between logins to the guesser's own account: %d in 120 s\n", guesses);
  EXPECT_LE(guesses, 20);
}

}  // namespace guard_attacks_test
