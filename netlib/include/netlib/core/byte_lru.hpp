#pragma once
// A byte-bounded least-recently-used map: string keys, values with a caller-given cost in bytes.
// A list in recency order plus a hash index into it. find() moves the entry to the front; put()
// replaces an existing entry, then evicts from the back until the total fits the budget.
// Invariant: bytes() == sum of the entries' costs <= the budget. No I/O, no clock. Used by the
// HTTP proxy's response cache and the web server's small-file cache.
#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace netlib {

template <typename Value>
class byte_lru {
 public:
  explicit byte_lru(std::size_t budget_bytes) : budget_(budget_bytes) {}

  // The entry (it becomes most recently used), or nullptr. Valid until the next put or erase.
  Value* find(const std::string& key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    if (it->second != lru_.begin()) lru_.splice(lru_.begin(), lru_, it->second);
    return &it->second->value;
  }
  [[nodiscard]] bool contains(const std::string& key) const { return index_.contains(key); }

  // Stores or replaces; false (and nothing stored, any old entry gone) when cost exceeds the budget.
  bool put(const std::string& key, Value value, std::size_t cost) {
    erase(key);
    if (cost > budget_) return false;
    while (bytes_ + cost > budget_ && !lru_.empty()) {
      bytes_ -= lru_.back().cost;
      index_.erase(lru_.back().key);
      lru_.pop_back();
      ++evictions_;
    }
    lru_.push_front({key, std::move(value), cost});
    index_[key] = lru_.begin();
    bytes_ += cost;
    return true;
  }

  void erase(const std::string& key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return;
    bytes_ -= it->second->cost;
    lru_.erase(it->second);
    index_.erase(it);
  }

  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] std::size_t size() const noexcept { return index_.size(); }
  [[nodiscard]] std::uint64_t evictions() const noexcept { return evictions_; }

 private:
  struct item {
    std::string key;
    Value value;
    std::size_t cost = 0;
  };
  using list = std::list<item>;  // front: most recently used

  std::size_t budget_;
  std::size_t bytes_ = 0;
  std::uint64_t evictions_ = 0;
  list lru_;
  std::unordered_map<std::string, typename list::iterator> index_;
};

}  // namespace netlib
