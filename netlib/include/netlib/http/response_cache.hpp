#pragma once
// The proxy's store: complete responses by URL in least-recently-used order, with a cap on the
// total size and one per object (RFC 9111 leaves eviction to the cache). No I/O, no clock.
#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>

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
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] std::size_t size() const noexcept { return index_.size(); }
  [[nodiscard]] std::uint64_t evictions() const noexcept { return evictions_; }

 private:
  struct item {
    std::string key;
    cached_response value;
    std::size_t cost = 0;
  };
  static std::size_t cost_of(const std::string& key, const cached_response& v);

  std::size_t total_, per_object_;
  std::size_t bytes_ = 0;
  std::uint64_t evictions_ = 0;
  std::list<item> lru_;  // front: most recently used
  std::unordered_map<std::string, std::list<item>::iterator> index_;
};

}  // namespace netlib::http
