#pragma once
// The credentials guard (docs/architecture.md, "The credentials guard"): throttles password
// guessing per client address and per account, across every session of a server. Sans I/O: time
// comes in as a value, and the guard never sleeps; a core that must wait holds its reply and asks
// its driver for a wake_at (netlib/core/session.hpp).
//
//   admission a = gate.admit(address, account, now);
//   a.locked          -> refuse at once with the protocol's temporary-failure reply
//                        (RFC 4954 454 4.7.0, RFC 3206 [AUTH], RFC 959 421, RFC 6585 429)
//   a.turn > now      -> hold the attempt; check the password at a.turn (wake_at)
//   else              -> check the password now
//   gate.report(address, account, ok, when_checked);
//
// Policy: while a key (an address or an account) has no recent failure, attempts pass at once;
// after failures each attempt waits its turn, `delay` after the first failure and twice as long
// after each further one (up to max_delay), so sessions in parallel get no more guesses than one
// session in a row; after max_failures failures the key is locked for `lockout`, and every
// attempt on it is refused without looking at the password. A success clears its address and
// account; failures are forgotten `lockout` after the last one.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "netlib/core/clock.hpp"

namespace netlib {

struct guard_policy {
  std::size_t max_failures = 10;                 // failures on one key before the lockout
  duration delay = std::chrono::seconds(1);      // the wait after the first failure, doubling
  duration max_delay = std::chrono::seconds(30); // the longest wait between two attempts
  duration lockout = std::chrono::minutes(5);    // how long a locked key refuses every attempt
  std::size_t max_keys = 65536;                  // per table (addresses, accounts); memory bound
};

struct admission {
  bool locked = false;
  time_point turn{};       // not locked: check the password at this time (now or later)
  duration retry_after{};  // locked: how long the lockout lasts yet
};

// What a core asks: the guard itself, or the thread-safe one a server shares (netlib::io).
class credentials_gate {
 public:
  virtual ~credentials_gate() = default;
  // Before a password is checked: reserves the attempt's turn, or refuses it.
  virtual admission admit(std::string_view address, std::string_view account, time_point now) = 0;
  // After the check of an admitted attempt (at its turn).
  virtual void report(std::string_view address, std::string_view account, bool succeeded, time_point now) = 0;
};

class credentials_guard final : public credentials_gate {
 public:
  explicit credentials_guard(guard_policy policy = {});
  admission admit(std::string_view address, std::string_view account, time_point now) override;
  void report(std::string_view address, std::string_view account, bool succeeded, time_point now) override;

  [[nodiscard]] const guard_policy& policy() const noexcept { return policy_; }
  // Keys tracked now (addresses + accounts): what the guard's memory grows with.
  [[nodiscard]] std::size_t tracked() const noexcept { return addresses_.size() + accounts_.size(); }
  // The wait after the n-th failure in a row (n >= 1).
  [[nodiscard]] duration delay_after(std::size_t failures) const noexcept;

  // Key names longer than this are cut (memory bound; long names are not real accounts).
  static constexpr std::size_t max_key_length = 128;

 private:
  struct key_state {
    std::uint32_t failures = 0;  // recent failures in a row
    std::uint32_t pending = 0;   // admitted attempts not reported yet
    bool locked = false;
    time_point locked_until{};
    time_point next_turn{};      // with failures: no attempt is checked before this
    time_point last_failure{};
    time_point last_seen{};
  };
  using table = std::unordered_map<std::string, key_state>;

  key_state& entry(table& t, std::string_view key, time_point now);
  void refresh(key_state& k, time_point now) const;
  void fail(key_state& k, time_point now) const;
  void forget_idle(table& t, std::string_view key);
  void make_room(table& t, time_point now);

  guard_policy policy_;
  table addresses_;
  table accounts_;
};

}  // namespace netlib
