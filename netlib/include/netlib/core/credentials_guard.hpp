#pragma once
// The credentials guard (docs/architecture.md, "The credentials guard"; the reasoning and the
// attacks in docs/security.md, "Password guessing"): throttles password guessing across every
// session of a server. Sans I/O: time comes in as a value, and the guard never sleeps; a core that
// must wait holds its reply and asks its driver for a wake_at (netlib/core/session.hpp).
//
//   admission a = gate.admit(address, account, now);
//   a.locked          -> refuse at once with the protocol's temporary-failure reply
//                        (RFC 4954 454 4.7.0, RFC 3206 [AUTH], RFC 959 421, RFC 6585 429),
//                        Retry-After a.retry_after; the password is not looked at
//   a.turn > now      -> hold the attempt; check the password at a.turn (wake_at)
//   else              -> check the password now
//   gate.report(address, account, ok, when_checked);   // for every admitted attempt, once
//
// Policy, from Dovecot (a failed login delays the next one from that source, doubling; no
// account is ever locked), OpenSSH PerSourcePenalties (penalties per source and per network, in
// tables whose overflow is a decision, not an eviction) and Postfix's anvil:
//   - per address: after failures its attempts wait their turn (`delay`, doubling up to
//     `max_delay`); at `max_failures` failures not resolved by a later success it is locked out
//     for `lockout`. Attempts held in parallel are spaced as if they came one after the other,
//     never count as failures, and are refused beyond the failures left before the lock;
//   - per network (/24 for IPv4, /64 for IPv6): the same turns once the network's failures pass
//     `max_failures` (spraying from rotating addresses); never a lock;
//   - per account: its turns apply only to addresses that have failed themselves, so a stranger
//     cannot keep the owner out: the right password from an address that never failed is
//     checked at once, whatever the account's failures;
//   - per address and account: a success resolves the failures that address made on that
//     account (a user's own typos) in every key, and makes the address known to the account for
//     `remember_login`: a known address logs in to that account past the address's lock and
//     the network's and account's turns (others behind a shared address are not locked out by
//     one guesser), still under the pair's own turns;
//   - memory: each table holds at most `max_keys` keys; keys with nothing to remember leave at
//     once, the rest when they expire; nothing locked, delayed or held is ever evicted. A new
//     address when its table is full is treated as one that failed and counted on its network;
//     a new network or account when theirs is full shares one overflow key, which is slowed like
//     any other (docs/security.md: why).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "netlib/core/clock.hpp"

namespace netlib {

struct guard_policy {
  std::size_t max_failures = 10;                     // unresolved failures of an address before its lockout
  duration delay = std::chrono::seconds(1);          // the wait after the first failure, doubling
  duration max_delay = std::chrono::seconds(30);     // the longest wait between two attempts, and hold
  duration lockout = std::chrono::minutes(5);        // an address's lockout; failures are forgotten this
                                                     // long after the last one
  duration remember_login = std::chrono::hours(24);  // how long a login makes its address known
  std::size_t max_keys = 32768;                      // per table (addresses, networks, accounts, pairs,
                                                     // known logins): about 200 bytes a key
};

struct admission {
  bool locked = false;     // refused: the attempt is not checked (a lockout, or too many held)
  time_point turn{};       // not locked: check the password at this time (now or later)
  duration retry_after{};  // locked: when asking again makes sense
};

// What a core asks: the guard itself, or the thread-safe one a server shares (netlib::io).
class credentials_gate {
 public:
  virtual ~credentials_gate() = default;
  // Before a password is checked: reserves the attempt's turn, or refuses it.
  virtual admission admit(std::string_view address, std::string_view account, time_point now) = 0;
  // After the check of an admitted attempt (at its turn). An attempt whose session ended while it
  // was held is reported as a failure.
  virtual void report(std::string_view address, std::string_view account, bool succeeded, time_point now) = 0;
};

class credentials_guard final : public credentials_gate {
 public:
  explicit credentials_guard(guard_policy policy = {});
  ~credentials_guard() override;
  credentials_guard(const credentials_guard&) = delete;
  credentials_guard& operator=(const credentials_guard&) = delete;

  admission admit(std::string_view address, std::string_view account, time_point now) override;
  void report(std::string_view address, std::string_view account, bool succeeded, time_point now) override;

  [[nodiscard]] const guard_policy& policy() const noexcept { return policy_; }
  // Keys tracked now, in all tables: what the guard's memory grows with.
  [[nodiscard]] std::size_t tracked() const noexcept;
  // The wait after the n-th failure in a row (n >= 1).
  [[nodiscard]] duration delay_after(std::size_t failures) const noexcept;

  // Key names longer than this are cut (memory bound; long names are not real accounts).
  static constexpr std::size_t max_key_length = 128;
  // The network an address belongs to for the guard: "a.b.c.0/24" for IPv4 (also IPv4-mapped
  // IPv6), the /64 for IPv6 ("2001:db8:1:2::/64"); anything else is its own network.
  static std::string network_of(std::string_view address);

 private:
  struct tables;
  guard_policy policy_;
  std::unique_ptr<tables> t_;
};

}  // namespace netlib
