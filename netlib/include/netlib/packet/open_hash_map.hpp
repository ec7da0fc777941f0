#pragma once
// A flat hash map with open addressing (linear probing, backward-shift deletion, no tombstones)
// for the per-packet lookups of the capture path: TCP flows by their 4-tuple, filtering-database
// entries by (VLAN, MAC). One array of slots, each holding the key's full hash, the key and the
// value; a lookup is one hash and, almost always, one or two adjacent slots, with no node to
// chase (std::unordered_map allocates a node per entry and walks a bucket list).
//
//   open_hash_map<std::uint64_t, int, my_hash> m;   // my_hash: std::uint64_t(const Key&)
//   m.insert(k, 1); if (int* v = m.find(k)) ...; m.erase(k);
//
// The load factor stays at most 1/2 (the table doubles before that), so probes are short and the
// loops below always reach an empty slot. Pointers returned by find()/insert() are valid until
// the next insert() or erase(). Iteration order is unspecified.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace netlib::packet {

template <class Key, class Value, class Hash, class Equal = std::equal_to<Key>>
class open_hash_map {
 public:
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }

  [[nodiscard]] Value* find(const Key& key) noexcept { return find_hashed(key, hash_(key)); }
  [[nodiscard]] const Value* find(const Key& key) const noexcept {
    return const_cast<open_hash_map*>(this)->find_hashed(key, hash_(key));
  }

  // Inserts a key that is not in the map (check with find() first).
  Value& insert(const Key& key, Value value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    const std::uint64_t h = hash_(key);
    std::size_t i = h & mask();
    while (slots_[i].used) i = (i + 1) & mask();
    slot& s = slots_[i];
    s.used = true;
    s.hash = h;
    s.key = key;
    s.value = std::move(value);
    ++size_;
    return s.value;
  }

  // Removes `key`; false when it was not there.
  bool erase(const Key& key) {
    if (slots_.empty()) return false;
    const std::uint64_t h = hash_(key);
    std::size_t hole = h & mask();
    while (slots_[hole].used && !(slots_[hole].hash == h && equal_(slots_[hole].key, key))) hole = (hole + 1) & mask();
    if (!slots_[hole].used) return false;
    // Backward shift: pull later entries of the same run into the hole when their home slot is at
    // or before it (cyclically), so every entry stays reachable from its home without tombstones.
    for (std::size_t j = (hole + 1) & mask(); slots_[j].used; j = (j + 1) & mask()) {
      const std::size_t home = slots_[j].hash & mask();
      if (((j - home) & mask()) >= ((j - hole) & mask())) {
        slots_[hole] = std::move(slots_[j]);
        hole = j;
      }
    }
    slots_[hole] = slot{};
    --size_;
    return true;
  }

  void clear() {
    slots_.clear();
    size_ = 0;
  }

  // Calls f(const Key&, Value&) for every entry; f must not insert or erase.
  template <class F>
  void for_each(F&& f) {
    for (slot& s : slots_) {
      if (s.used) f(static_cast<const Key&>(s.key), s.value);
    }
  }
  template <class F>
  void for_each(F&& f) const {
    for (const slot& s : slots_) {
      if (s.used) f(s.key, s.value);
    }
  }

 private:
  struct slot {
    std::uint64_t hash = 0;
    bool used = false;
    Key key{};
    Value value{};
  };

  [[nodiscard]] std::size_t mask() const noexcept { return slots_.size() - 1; }

  Value* find_hashed(const Key& key, std::uint64_t h) noexcept {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.hash == h && equal_(s.key, key)) return &s.value;
    }
  }

  void grow() {
    std::vector<slot> old(slots_.empty() ? 16 : slots_.size() * 2);
    old.swap(slots_);
    for (slot& s : old) {
      if (!s.used) continue;
      std::size_t i = s.hash & mask();
      while (slots_[i].used) i = (i + 1) & mask();
      slots_[i] = std::move(s);
    }
  }

  std::vector<slot> slots_;
  std::size_t size_ = 0;
  [[no_unique_address]] Hash hash_{};
  [[no_unique_address]] Equal equal_{};
};

}  // namespace netlib::packet
