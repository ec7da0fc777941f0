// Fuzzes the credentials guard with sequences of attempts (address, account, outcome, time step
// from the bytes; a check is reported at its turn, so time never runs back): turns never lie in
// the past, a refusal never lasts longer than the lockout, and the tables stay within their bound.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "netlib/core/credentials_guard.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace std::chrono_literals;
  netlib::credentials_guard guard({.max_failures = 4, .delay = 100ms, .max_delay = 2s, .lockout = 5s, .max_keys = 8});
  netlib::time_point now{};
  for (std::size_t i = 0; i + 2 < size; i += 3) {
    const std::uint8_t op = data[i], who = data[i + 1], step = data[i + 2];
    now += std::chrono::milliseconds(step * 10);
    const std::string address = "10.0.0." + std::to_string(who & 0x0f);
    const std::string account = (who & 0x80) ? std::string(200, static_cast<char>('a' + (who & 0x07)))
                                             : "user" + std::to_string((who >> 4) & 0x07);
    const auto a = guard.admit(address, account, now);
    if (a.locked) {
      if (a.retry_after <= netlib::duration::zero() || a.retry_after > 5s) __builtin_trap();
      continue;
    }
    if (a.turn < now) __builtin_trap();
    if (op & 1) {  // the check at its turn: time has come that far (one clock for every session)
      now = a.turn;
      guard.report(address, account, (op & 2) != 0, now);
    }                                               // else the session went away held: never reported
    if (guard.tracked() > 5 * 8) __builtin_trap();  // five tables of at most max_keys
  }
  return 0;
}
