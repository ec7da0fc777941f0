// Theory of operation: two tables of key_state, one keyed by client address, one by account.
// admit() refreshes both keys (an ended lockout or failures older than the lockout are
// forgotten), refuses when either is locked, and otherwise gives the attempt a turn: now while
// neither key has failures, else the later of the keys' next_turn. Each admitted attempt counts as
// pending and, on a key with failures, pushes that key's next_turn by the delay a failure would
// cost (delay_after(failures + pending)), so attempts held in parallel sessions are spaced as if
// they came one after the other. When failures + pending reach max_failures, the key locks at
// once. report() settles the attempt: a failure counts and sets next_turn and the lockout; a
// success clears both keys. Keys with nothing to remember are erased at once, and a full table
// first drops what has expired, then its least recently seen quarter.
#include "netlib/core/credentials_guard.hpp"

#include <algorithm>
#include <vector>

namespace netlib {

credentials_guard::credentials_guard(guard_policy policy) : policy_(policy) {
  if (policy_.max_keys < 4) policy_.max_keys = 4;
}

duration credentials_guard::delay_after(std::size_t failures) const noexcept {
  if (failures == 0) return duration::zero();
  duration d = policy_.delay;
  for (std::size_t i = 1; i < failures && i < 64 && d < policy_.max_delay; ++i) d *= 2;
  return std::min(d, policy_.max_delay);
}

void credentials_guard::refresh(key_state& k, time_point now) const {
  if (k.locked && now >= k.locked_until) {
    k.locked = false;
    k.failures = 0;
    k.next_turn = now;
  } else if (!k.locked && k.failures > 0 && k.pending == 0 && now - k.last_failure >= policy_.lockout) {
    k.failures = 0;
  }
}

void credentials_guard::make_room(table& t, time_point now) {
  for (auto it = t.begin(); it != t.end();) {
    refresh(it->second, now);
    const key_state& k = it->second;
    it = (k.failures == 0 && k.pending == 0 && !k.locked) ? t.erase(it) : std::next(it);
  }
  if (t.size() < policy_.max_keys) return;
  std::vector<std::pair<time_point, std::string>> by_age;
  by_age.reserve(t.size());
  for (const auto& [key, k] : t) by_age.emplace_back(k.last_seen, key);
  const auto cut = by_age.begin() + static_cast<std::ptrdiff_t>(by_age.size() / 4);
  std::nth_element(by_age.begin(), cut, by_age.end());
  for (auto it = by_age.begin(); it != cut; ++it) t.erase(it->second);
}

credentials_guard::key_state& credentials_guard::entry(table& t, std::string_view key, time_point now) {
  const std::string name(key.substr(0, max_key_length));
  auto it = t.find(name);
  if (it == t.end()) {
    if (t.size() >= policy_.max_keys) make_room(t, now);
    it = t.emplace(name, key_state{}).first;
  }
  it->second.last_seen = now;
  refresh(it->second, now);
  return it->second;
}

void credentials_guard::forget_idle(table& t, std::string_view key) {
  const auto it = t.find(std::string(key.substr(0, max_key_length)));
  if (it != t.end() && it->second.failures == 0 && it->second.pending == 0 && !it->second.locked) t.erase(it);
}

admission credentials_guard::admit(std::string_view address, std::string_view account, time_point now) {
  key_state& a = entry(addresses_, address, now);
  key_state& u = entry(accounts_, account, now);
  for (key_state* k : {&a, &u}) {
    if (!k->locked && k->failures > 0 && k->failures + k->pending >= policy_.max_failures) {
      k->locked = true;  // the attempts already held would reach the limit: no more
      k->locked_until = now + policy_.lockout;
    }
  }
  if (a.locked || u.locked) {
    const time_point until = std::max(a.locked ? a.locked_until : now, u.locked ? u.locked_until : now);
    forget_idle(addresses_, address);  // a refused attempt leaves nothing behind
    forget_idle(accounts_, account);
    return {true, {}, until - now};
  }
  time_point turn = now;
  for (const key_state* k : {&a, &u})
    if (k->failures > 0) turn = std::max(turn, k->next_turn);
  for (key_state* k : {&a, &u}) {
    ++k->pending;
    if (k->failures > 0) k->next_turn = turn + delay_after(k->failures + k->pending);
  }
  return {false, turn, {}};
}

void credentials_guard::fail(key_state& k, time_point now) const {
  ++k.failures;
  k.last_failure = now;
  k.next_turn = std::max(k.next_turn, now + delay_after(k.failures));
  if (k.failures >= policy_.max_failures && !k.locked) {
    k.locked = true;
    k.locked_until = now + policy_.lockout;
  }
}

void credentials_guard::report(std::string_view address, std::string_view account, bool succeeded, time_point now) {
  for (auto* t : {&addresses_, &accounts_}) {
    key_state& k = entry(*t, t == &addresses_ ? address : account, now);
    if (k.pending > 0) --k.pending;
    if (succeeded) {
      k.failures = 0;
      k.locked = false;
      k.next_turn = now;
    } else {
      fail(k, now);
    }
  }
  forget_idle(addresses_, address);
  forget_idle(accounts_, account);
}

}  // namespace netlib
