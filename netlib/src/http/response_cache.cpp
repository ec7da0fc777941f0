// Theory of operation: a list in recency order plus a hash index into it. find() moves the entry
// to the front; put() replaces an existing entry, then evicts from the back until the total fits.
// Invariant: bytes_ == sum of cost over the list <= total_, and each cost <= per_object_.
#include "netlib/http/response_cache.hpp"

namespace netlib::http {

response_cache::response_cache(std::size_t total_bytes, std::size_t max_object_bytes)
    : total_(total_bytes), per_object_(std::min(max_object_bytes, total_bytes)) {}

std::size_t response_cache::cost_of(const std::string& key, const cached_response& v) {
  std::size_t c = key.size() + v.body.size() + 64;
  for (const auto& f : v.head.fields.lines()) c += f.name.size() + f.value.size() + 4;
  return c;
}

std::optional<cached_response> response_cache::find(const std::string& key) {
  const auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->value;
}

void response_cache::erase(const std::string& key) {
  const auto it = index_.find(key);
  if (it == index_.end()) return;
  bytes_ -= it->second->cost;
  lru_.erase(it->second);
  index_.erase(it);
}

bool response_cache::put(const std::string& key, cached_response value) {
  erase(key);
  const std::size_t cost = cost_of(key, value);
  if (cost > per_object_) return false;
  while (bytes_ + cost > total_ && !lru_.empty()) {
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

}  // namespace netlib::http
