#pragma once
// The proxy's store: complete responses by URL in least-recently-used order, with a cap on the
// total size and one per object (RFC 9111 leaves eviction to the cache). No I/O, no clock.
// Entries are shared and immutable: a response served from the store stays valid while it is
// written, even if the store drops or replaces it meanwhile. Room for a response still arriving
// is reserved against the same total (reserve/release), so what the store holds plus what is
// being gathered for it never exceeds the total.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "netlib/core/byte_lru.hpp"
#include "netlib/http/message.hpp"

namespace netlib::http {

struct cached_response {
  response_head head;
  std::string body;
  std::chrono::sys_seconds request_time{};   // when the request that got it was sent
  std::chrono::sys_seconds response_time{};  // when it arrived
  // RFC 9111 §4.1: the request's fields named by the response's Vary (an absent field is absent
  // here too), to match later requests against.
  fields selecting;
};

class response_cache {
 public:
  response_cache(std::size_t total_bytes, std::size_t max_object_bytes);
  // The entry (it becomes most recently used), or nullptr.
  std::shared_ptr<const cached_response> find(const std::string& key);
  // Stores or replaces; false when the object is over the per-object cap or does not fit beside
  // the reserved room (nothing stored then, any old entry gone). The value is stored compact.
  bool put(const std::string& key, cached_response value);
  bool put(const std::string& key, std::shared_ptr<const cached_response> value);
  void erase(const std::string& key);
  // Room for a response being gathered: false when it cannot be had (see byte_lru::reserve).
  bool reserve(std::size_t bytes) { return entries_.reserve(bytes); }
  void release(std::size_t bytes) noexcept { entries_.release(bytes); }
  // What storing `value` under `key` costs against the caps: the memory it takes in the store,
  // every allocation with the allocator's overhead (body, field lines, key, the store's nodes).
  static std::size_t cost_of(const std::string& key, const cached_response& value);
  // What a body of `bytes` adds to cost_of() once stored (compact).
  static std::size_t body_cost(std::size_t bytes);
  [[nodiscard]] std::size_t max_object() const noexcept { return per_object_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return entries_.bytes(); }
  [[nodiscard]] std::size_t reserved() const noexcept { return entries_.reserved(); }
  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
  [[nodiscard]] std::uint64_t evictions() const noexcept { return entries_.evictions(); }

 private:
  std::size_t per_object_;
  byte_lru<std::shared_ptr<const cached_response>> entries_;
};

}  // namespace netlib::http
