// Theory of operation. Five tables, each a timed_table (a hash map plus an index by expiry):
//   addresses  exact client address           failures, lock, turns
//   networks   /24 (IPv4) or /64 (IPv6)        failures, turns past an allowance of max_failures
//   accounts   account name                    failures, turns for addresses that failed
//   pairs      address + account               failures (resolved by a success), turns
//   known      account -> up to 8 addresses    the last successful logins, for remember_login
// A key_state's failures are the failures not resolved by a success, forgotten `lockout` after the
// last one. admit() computes the turn as the latest next_turn of the keys that apply (a key with
// failures; the network past its allowance; the account only for an address that failed; none but
// the pair for a known address), refuses when that turn is further than max_delay (the attempt
// would be held longer than any delay: ask again later) or when the address is locked, or when
// its failures plus the attempts under way reach max_failures. An admitted attempt counts as
// pending on all four keys (so report() can settle it without knowing which applied) and pushes
// the next_turn of each key that applied by the delay one more failure would cost. report()
// settles it: a failure counts on all four keys (the address locks at max_failures); a success
// resolves the pair's failures in every key and records the address as known to the account.
// Entries leave their table when they have nothing left to remember (no failure, nothing
// pending, no lock): at once, or at their expiry (purge, from the front of the expiry index, on
// every call: amortised O(log n) per entry). Nothing with state is evicted; a full table makes
// the new key untracked: an address is then taken as one that failed, a network or an account
// shares the table's overflow key. Only the known logins, which are an exemption and no penalty,
// give way to newer ones when their table is full.
#include "netlib/core/credentials_guard.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace netlib {

namespace {

// A hash map whose entries carry an expiry time, indexed so that the expired ones are found
// from the front.
template <class V>
class timed_table {
 public:
  explicit timed_table(std::size_t capacity) : capacity_(capacity) {}

  V* find(const std::string& key) {
    const auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second.value;
  }
  // A new entry (expiring at `now` until set_expiry), or nullptr when the table is full.
  V* create(const std::string& key, time_point now) {
    if (map_.size() >= capacity_) return nullptr;
    const auto [it, fresh] = map_.try_emplace(key, node{V{}, now});
    if (fresh) index_.emplace(now, &it->first);
    return &it->second.value;
  }
  V* find_or_create(const std::string& key, time_point now) {
    V* v = find(key);
    return v != nullptr ? v : create(key, now);
  }
  void set_expiry(const std::string& key, time_point expires) {
    const auto it = map_.find(key);
    if (it == map_.end() || it->second.expires == expires) return;
    index_.erase({it->second.expires, &it->first});
    it->second.expires = expires;
    index_.emplace(expires, &it->first);
  }
  void erase(const std::string& key) {
    const auto it = map_.find(key);
    if (it == map_.end()) return;
    index_.erase({it->second.expires, &it->first});
    map_.erase(it);
  }
  // Erases the entries whose expiry has come (before `now`, or at it).
  void purge(time_point now) {
    while (!index_.empty() && index_.begin()->first <= now) {
      const std::string* key = index_.begin()->second;
      index_.erase(index_.begin());
      map_.erase(*key);
    }
  }
  // Erases the entry that expires first (only for tables whose entries may give way).
  void evict_first() {
    if (index_.empty()) return;
    const std::string* key = index_.begin()->second;
    index_.erase(index_.begin());
    map_.erase(*key);
  }
  [[nodiscard]] bool full() const noexcept { return map_.size() >= capacity_; }
  [[nodiscard]] std::size_t size() const noexcept { return map_.size(); }

 private:
  struct node {
    V value;
    time_point expires;
  };
  std::size_t capacity_;
  std::unordered_map<std::string, node> map_;
  std::set<std::pair<time_point, const std::string*>> index_;
};

struct key_state {
  std::uint32_t failures = 0;  // not resolved by a success, forgotten `lockout` after the last
  std::uint32_t pending = 0;   // admitted attempts not reported yet
  time_point next_turn{};      // with failures: no attempt is checked before this
  time_point last_failure{};
  time_point locked_until{};  // addresses only
  time_point held_until{};    // the latest turn given to a pending attempt
};

struct known_login {
  std::string address;
  time_point until;
};
using known_logins = std::vector<known_login>;  // at most known_per_account
constexpr std::size_t known_per_account = 8;

enum class kind { address, network, account, pair };

std::string cut(std::string_view s) {
  return std::string(s.substr(0, credentials_guard::max_key_length));
}

// The address as one key: without the brackets of "[127.0.0.1]" (SMTP's Received: form), an
// IPv4-mapped IPv6 address as IPv4.
std::string normalize_address(std::string_view a) {
  if (a.size() >= 2 && a.front() == '[' && a.back() == ']') a = a.substr(1, a.size() - 2);
  constexpr std::string_view mapped = "::ffff:";
  if (a.size() > mapped.size() && a.substr(0, mapped.size()) == mapped && a.find('.') != std::string_view::npos)
    a.remove_prefix(mapped.size());
  return cut(a);
}

}  // namespace

// The four keys of one attempt and their states (nullptr: not tracked, its table full; a network or
// an account the full table could not take is its table's overflow key).
struct attempt_keys {
  std::string address, network, account, pair;
  key_state *a = nullptr, *n = nullptr, *u = nullptr, *p = nullptr;
};

struct credentials_guard::tables {
  explicit tables(std::size_t capacity)
      : addresses(capacity), networks(capacity), accounts(capacity), pairs(capacity), known(capacity) {}
  timed_table<key_state> addresses, networks, accounts, pairs;
  timed_table<known_logins> known;
  key_state overflow_network;  // every network the full table could not take
  key_state overflow_account;  // every account the full table could not take

  void purge(time_point now) {
    for (auto* table : {&addresses, &networks, &accounts, &pairs}) table->purge(now);
    known.purge(now);
  }
  // The attempt's keys; `create`: made where absent (and there is room).
  attempt_keys look_up(std::string_view address_in, std::string_view account_in, time_point now, bool create);
  // Each of the attempt's states leaves its table when it has nothing left to remember, or is
  // indexed again by its expiry.
  void settle(const attempt_keys& k, time_point now, const guard_policy& policy);
};

credentials_guard::credentials_guard(guard_policy policy) : policy_(policy) {
  if (policy_.max_keys < 4) policy_.max_keys = 4;
  if (policy_.max_failures == 0) policy_.max_failures = 1;
  if (policy_.max_delay < policy_.delay) policy_.max_delay = policy_.delay;
  t_ = std::make_unique<tables>(policy_.max_keys);
}

credentials_guard::~credentials_guard() = default;

std::size_t credentials_guard::tracked() const noexcept {
  return t_->addresses.size() + t_->networks.size() + t_->accounts.size() + t_->pairs.size() + t_->known.size();
}

duration credentials_guard::delay_after(std::size_t failures) const noexcept {
  if (failures == 0) return duration::zero();
  duration d = policy_.delay;
  for (std::size_t i = 1; i < failures && i < 64 && d < policy_.max_delay; ++i) d *= 2;
  return std::min(d, policy_.max_delay);
}

std::string credentials_guard::network_of(std::string_view address) {
  const std::string a = normalize_address(address);
  std::array<unsigned char, 16> bytes{};
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (::inet_pton(AF_INET, a.c_str(), bytes.data()) == 1) {
    bytes[3] = 0;
    ::inet_ntop(AF_INET, bytes.data(), text.data(), text.size());
    return std::string(text.data()) + "/24";
  }
  if (::inet_pton(AF_INET6, a.c_str(), bytes.data()) == 1) {
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    ::inet_ntop(AF_INET6, bytes.data(), text.data(), text.size());
    return std::string(text.data()) + "/64";
  }
  return a;
}

namespace {

// The delay steps of a key after `count` failures (or failures and attempts under way): the count,
// or for a network what is past its allowance.
std::size_t steps_of(kind k, std::size_t count, std::size_t allowance) {
  if (k != kind::network) return count;
  return count >= allowance ? count - allowance + 1 : 0;
}

// Pending attempts whose report never came (a bug elsewhere must not pin an entry for ever) are
// dropped, and failures are forgotten `lockout` after the last one.
void refresh(key_state& s, time_point now, const guard_policy& p) {
  if (s.pending > 0 && now > s.held_until + p.max_delay) s.pending = 0;
  if (s.failures > 0 && s.pending == 0 && now - s.last_failure >= p.lockout) s.failures = 0;
}

time_point expiry_of(const key_state& s, const guard_policy& p) {
  time_point e{};
  if (s.failures > 0) e = std::max(e, s.last_failure + p.lockout);
  e = std::max(e, s.locked_until);
  if (s.pending > 0) e = std::max(e, s.held_until + p.max_delay);
  return e;
}

void settle_one(timed_table<key_state>& table, const std::string& key, key_state* s, time_point now,
                const guard_policy& policy) {
  if (s == nullptr || table.find(key) != s) return;  // untracked, or an overflow key
  const time_point e = expiry_of(*s, policy);
  if (e <= now)
    table.erase(key);
  else
    table.set_expiry(key, e);
}

}  // namespace

attempt_keys credentials_guard::tables::look_up(std::string_view address_in, std::string_view account_in,
                                                time_point now, bool create) {
  attempt_keys k;
  k.address = normalize_address(address_in);
  k.network = network_of(k.address);
  k.account = cut(account_in);
  k.pair = k.address + '\n' + k.account;
  const auto get = [&](timed_table<key_state>& table, const std::string& key) {
    return create ? table.find_or_create(key, now) : table.find(key);
  };
  k.a = get(addresses, k.address);
  k.n = get(networks, k.network);
  if (k.n == nullptr) k.n = &overflow_network;
  k.u = get(accounts, k.account);
  if (k.u == nullptr) k.u = &overflow_account;
  k.p = get(pairs, k.pair);
  return k;
}

void credentials_guard::tables::settle(const attempt_keys& k, time_point now, const guard_policy& policy) {
  settle_one(addresses, k.address, k.a, now, policy);
  settle_one(networks, k.network, k.n, now, policy);
  settle_one(accounts, k.account, k.u, now, policy);
  settle_one(pairs, k.pair, k.p, now, policy);
}

admission credentials_guard::admit(std::string_view address_in, std::string_view account_in, time_point now) {
  tables& t = *t_;
  t.purge(now);
  const attempt_keys keys = t.look_up(address_in, account_in, now, true);
  key_state *a = keys.a, *n = keys.n, *u = keys.u, *p = keys.p;
  for (key_state* s : {a, n, u, p})
    if (s != nullptr) refresh(*s, now, policy_);

  bool known = false;
  if (const known_logins* k = t.known.find(keys.account))
    known = std::any_of(k->begin(), k->end(),
                        [&](const known_login& l) { return l.address == keys.address && l.until > now; });

  const auto refuse = [&](duration retry_after) {
    t.settle(keys, now, policy_);  // entries made for this attempt alone leave again
    return admission{true, {}, std::max(retry_after, duration::zero())};
  };

  if (!known && a != nullptr) {
    if (a->locked_until > now) return refuse(a->locked_until - now);
    // The attempts under way could reach the limit: no more at once (a burst from a clean address
    // gets no more guesses than its lockout allows).
    if (a->failures + a->pending >= policy_.max_failures) return refuse(std::max(a->held_until - now, policy_.delay));
  }
  // An address that failed (or that the full table could not take) is a suspect to every
  // account; one that never failed is not held up by an account's failures.
  const bool suspect = !known && (a == nullptr || a->failures > 0 || (p != nullptr && p->failures > 0));
  struct applied_key {
    key_state* state;
    kind what;
  };
  std::vector<applied_key> applied;
  applied.reserve(4);
  const std::size_t allowance = policy_.max_failures;
  if (p != nullptr && p->failures > 0) applied.push_back({p, kind::pair});
  if (!known) {
    if (a != nullptr && a->failures > 0) applied.push_back({a, kind::address});
    // A network's allowance counts its attempts under way too: a burst from many fresh addresses
    // of one network gets no more at once than the allowance.
    if (steps_of(kind::network, n->failures + n->pending, allowance) > 0) applied.push_back({n, kind::network});
    if (suspect && u->failures > 0) applied.push_back({u, kind::account});
  }
  time_point turn = now;
  for (const auto& k : applied) turn = std::max(turn, k.state->next_turn);
  if (turn - now > policy_.max_delay) return refuse(turn - policy_.max_delay - now);

  for (key_state* s : {a, n, u, p}) {
    if (s == nullptr) continue;
    ++s->pending;
    s->held_until = std::max(s->held_until, turn);
  }
  for (const auto& k : applied)
    k.state->next_turn = turn + delay_after(steps_of(k.what, k.state->failures + k.state->pending, allowance));
  t.settle(keys, now, policy_);
  return {false, turn, {}};
}

void credentials_guard::report(std::string_view address_in, std::string_view account_in, bool succeeded,
                               time_point now) {
  tables& t = *t_;
  t.purge(now);
  // A failure is recorded even when its entries left meanwhile (made again if there is room).
  const attempt_keys keys = t.look_up(address_in, account_in, now, !succeeded);
  key_state *a = keys.a, *n = keys.n, *u = keys.u, *p = keys.p;
  const std::string& address = keys.address;
  const std::string& account = keys.account;
  for (key_state* s : {a, n, u, p}) {
    if (s == nullptr) continue;
    refresh(*s, now, policy_);
    if (s->pending > 0) --s->pending;
  }
  const std::size_t allowance = policy_.max_failures;
  if (succeeded) {
    // The failures this address made on this account were the user's own: resolved everywhere.
    const std::uint32_t resolved = p != nullptr ? p->failures : 0;
    for (key_state* s : {a, n, u, p})
      if (s != nullptr) s->failures -= std::min(resolved, s->failures);
    if (a != nullptr && a->failures < policy_.max_failures) a->locked_until = std::min(a->locked_until, now);
    known_logins* k = t.known.find(account);
    if (k == nullptr) {
      if (t.known.full()) t.known.evict_first();  // an exemption gives way, never a penalty
      k = t.known.create(account, now);
    }
    if (k != nullptr) {
      const time_point until = now + policy_.remember_login;
      auto it = std::find_if(k->begin(), k->end(), [&](const known_login& l) { return l.address == address; });
      if (it == k->end() && k->size() >= known_per_account)
        it = std::min_element(k->begin(), k->end(), [](const auto& x, const auto& y) { return x.until < y.until; });
      if (it == k->end())
        k->push_back({address, until});
      else
        *it = {address, until};
      t.known.set_expiry(account, until);
    }
  } else {
    const auto fail = [&](key_state* s, kind what) {
      if (s == nullptr) return;
      ++s->failures;
      s->last_failure = now;
      s->next_turn = std::max(s->next_turn, now + delay_after(steps_of(what, s->failures, allowance)));
    };
    fail(a, kind::address);
    fail(n, kind::network);
    fail(u, kind::account);
    fail(p, kind::pair);
    if (a != nullptr && a->failures >= policy_.max_failures && a->locked_until <= now)
      a->locked_until = now + policy_.lockout;
  }
  t.settle(keys, now, policy_);
}

}  // namespace netlib
