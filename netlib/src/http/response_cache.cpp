// Theory of operation: entries live in a byte_lru (netlib/core/byte_lru.hpp) under the total
// budget; this class adds the per-object cap and the cost of a response (body and header lines).
#include "netlib/http/response_cache.hpp"

#include <algorithm>
#include <utility>

namespace netlib::http {

response_cache::response_cache(std::size_t total_bytes, std::size_t max_object_bytes)
    : per_object_(std::min(max_object_bytes, total_bytes)), entries_(total_bytes) {}

std::size_t response_cache::cost_of(const std::string& key, const cached_response& v) {
  std::size_t c = key.size() + v.body.size() + 64;
  for (const auto& f : v.head.fields.lines()) c += f.name.size() + f.value.size() + 4;
  for (const auto& f : v.selecting.lines()) c += f.name.size() + f.value.size() + 4;
  return c;
}

std::shared_ptr<const cached_response> response_cache::find(const std::string& key) {
  if (const auto* v = entries_.find(key)) return *v;
  return nullptr;
}

void response_cache::erase(const std::string& key) { entries_.erase(key); }

bool response_cache::put(const std::string& key, cached_response value) {
  return put(key, std::make_shared<const cached_response>(std::move(value)));
}

bool response_cache::put(const std::string& key, std::shared_ptr<const cached_response> value) {
  const std::size_t cost = cost_of(key, *value);
  if (cost > per_object_) {
    entries_.erase(key);
    return false;
  }
  return entries_.put(key, std::move(value), cost);
}

}  // namespace netlib::http
