// Theory of operation: entries live in a byte_lru (netlib/core/byte_lru.hpp) under the total
// budget; this class adds the per-object cap and the cost of a response: the memory it really
// takes, every allocation with the allocator's overhead, not only its bytes (issue 31: entries
// counted as body + field lines + 64 bytes took about four times that). A response is stored
// compact: its body, and each field list's lines and text, in an allocation of their own size.
#include "netlib/http/response_cache.hpp"

#include <algorithm>
#include <list>
#include <utility>

namespace netlib::http {

namespace {

// What an allocation of `n` bytes takes from the heap: glibc's chunks have an 8-byte header and
// are rounded up to 16 bytes, 32 at least (a figure for any malloc of this kind: the test
// tests/load/proxy_cache_memory_test.cpp checks the total against the heap it measures).
std::size_t heap_bytes(std::size_t n) {
  return n == 0 ? 0 : std::max<std::size_t>(32, (n + 8 + 15) & ~std::size_t{15});
}

// A string's own allocation: none while it fits in the object (short strings).
std::size_t string_heap(const std::string& s) {
  return s.capacity() > std::string().capacity() ? heap_bytes(s.capacity() + 1) : 0;
}

std::size_t fields_heap(const fields& f) {
  const auto [lines, text] = f.heap();
  return heap_bytes(lines) + heap_bytes(text);
}

// The store's own structures per entry (byte_lru: a list node holding the key, the shared
// pointer and the cost; a hash node holding the key again and an iterator; its bucket).
struct lru_item_shape {
  std::string key;
  std::shared_ptr<const cached_response> value;
  std::size_t cost;
};
constexpr std::size_t list_node = sizeof(lru_item_shape) + 2 * sizeof(void*);
constexpr std::size_t hash_node =
    sizeof(void*) + sizeof(std::string) + sizeof(std::list<int>::iterator) + sizeof(std::size_t);
constexpr std::size_t bucket = 2 * sizeof(void*);  // the bucket array, at a load of about one half to one
constexpr std::size_t shared_block = sizeof(cached_response) + 2 * sizeof(long) + sizeof(void*);  // make_shared

// The same fields in allocations of their own size: the lines, and their names and values.
fields compacted(const fields& f) {
  return f;
}  // a copy takes no more than it needs

}  // namespace

response_cache::response_cache(std::size_t total_bytes, std::size_t max_object_bytes)
    : per_object_(std::min(max_object_bytes, total_bytes)), entries_(total_bytes) {}

std::size_t response_cache::cost_of(const std::string& key, const cached_response& v) {
  std::size_t c = heap_bytes(list_node) + heap_bytes(hash_node) + bucket + 2 * string_heap(key);
  c += heap_bytes(shared_block) + string_heap(v.head.reason) + string_heap(v.body);
  c += fields_heap(v.head.fields) + fields_heap(v.head.trailers) + fields_heap(v.selecting);
  return c;
}

std::size_t response_cache::body_cost(std::size_t bytes) {
  return bytes > std::string().capacity() ? heap_bytes(bytes + 1) : 0;
}

std::shared_ptr<const cached_response> response_cache::find(const std::string& key) {
  if (const auto* v = entries_.find(key)) return *v;
  return nullptr;
}

void response_cache::erase(const std::string& key) {
  entries_.erase(key);
}

bool response_cache::put(const std::string& key, cached_response value) {
  // Stored compact: a body gathered piece by piece has grown by doubling, a parsed head has room
  // for the hop-by-hop fields taken out of it.
  value.body.shrink_to_fit();
  value.head.fields = compacted(value.head.fields);
  value.selecting = compacted(value.selecting);
  value.head.reason.shrink_to_fit();
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
