#pragma once
// A byte-bounded least-recently-used map: string keys, values with a caller-given cost in bytes.
// A list in recency order plus a hash index into it. find() moves the entry to the front; put()
// replaces an existing entry, then evicts from the back until the total fits the budget.
// Room can be reserved ahead for an entry still being built (the proxy reserves the bytes of a
// response while it streams it to its client, and stores it at the end): reserve() evicts until
// the room fits beside the entries, release() gives it back.
// Invariant: bytes() (the sum of the entries' costs) + reserved() <= the budget. No I/O, no clock.
// Keys are looked up by string_view (no key string is built for a lookup).
// Used by the HTTP proxy's response cache and the web server's file cache.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace netlib {

template <typename Value>
class byte_lru {
 public:
  explicit byte_lru(std::size_t budget_bytes) : budget_(budget_bytes) {}

  // The entry (it becomes most recently used), or nullptr. Valid until the next put or erase.
  Value* find(std::string_view key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    if (it->second != lru_.begin()) lru_.splice(lru_.begin(), lru_, it->second);
    return &it->second->value;
  }
  [[nodiscard]] bool contains(std::string_view key) const { return index_.find(key) != index_.end(); }

  // Stores or replaces; false (and nothing stored, any old entry gone) when cost does not fit the
  // budget beside the reserved room.
  bool put(std::string_view key, Value value, std::size_t cost) {
    erase(key);
    if (cost > budget_ - reserved_) return false;
    evict_until(budget_ - reserved_ - cost);
    lru_.push_front({std::string(key), std::move(value), cost});
    index_.emplace(lru_.front().key, lru_.begin());
    bytes_ += cost;
    return true;
  }

  void erase(std::string_view key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return;
    bytes_ -= it->second->cost;
    lru_.erase(it->second);
    index_.erase(it);
  }

  // Sets `n` more bytes aside for an entry still being built, evicting the least recently used
  // entries as far as needed; false (nothing reserved, nothing evicted) when the reserved room
  // would exceed the budget.
  bool reserve(std::size_t n) {
    if (n > budget_ - reserved_) return false;
    reserved_ += n;
    evict_until(budget_ - reserved_);
    return true;
  }
  // Gives back reserved room (at most what is reserved).
  void release(std::size_t n) noexcept { reserved_ -= n < reserved_ ? n : reserved_; }

  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] std::size_t reserved() const noexcept { return reserved_; }
  [[nodiscard]] std::size_t size() const noexcept { return index_.size(); }
  [[nodiscard]] std::uint64_t evictions() const noexcept { return evictions_; }

 private:
  struct item {
    std::string key;
    Value value;
    std::size_t cost = 0;
  };
  using list = std::list<item>;  // front: most recently used

  // Evicts from the back until the entries take at most `limit` bytes.
  void evict_until(std::size_t limit) {
    while (bytes_ > limit && !lru_.empty()) {
      bytes_ -= lru_.back().cost;
      index_.erase(lru_.back().key);
      lru_.pop_back();
      ++evictions_;
    }
  }

  std::size_t budget_;
  std::size_t bytes_ = 0;
  std::size_t reserved_ = 0;
  std::uint64_t evictions_ = 0;
  list lru_;
  struct key_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view k) const noexcept { return std::hash<std::string_view>{}(k); }
  };
  std::unordered_map<std::string, typename list::iterator, key_hash, std::equal_to<>> index_;
};

}  // namespace netlib
