#pragma once
// The proxy's store: complete responses by URL in least-recently-used order, with a cap on the
// total size and one per object (RFC 9111 leaves eviction to the cache). No I/O, no clock.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "netlib/core/byte_lru.hpp"
#include "netlib/http/message.hpp"

namespace netlib::http {

struct cached_response {
  response_head head;
  std::string body;
  std::int64_t request_s = 0;   // when the request that got it was sent
  std::int64_t response_s = 0;  // when it arrived
};

class response_cache {
 public:
  response_cache(std::size_t total_bytes, std::size_t max_object_bytes);
  // A copy of the entry (and it becomes most recently used), or nullopt.
  std::optional<cached_response> find(const std::string& key);
  // Stores or replaces; false when the object is over the per-object cap (nothing stored then).
  bool put(const std::string& key, cached_response value);
  void erase(const std::string& key);
  [[nodiscard]] std::size_t bytes() const noexcept { return entries_.bytes(); }
  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
  [[nodiscard]] std::uint64_t evictions() const noexcept { return entries_.evictions(); }

 private:
  static std::size_t cost_of(const std::string& key, const cached_response& v);

  std::size_t per_object_;
  byte_lru<cached_response> entries_;
};

}  // namespace netlib::http
