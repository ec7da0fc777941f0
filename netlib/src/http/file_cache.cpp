// Theory of operation: entries live in a byte_lru (netlib/core/byte_lru.hpp), like response_cache,
// but they are shared (a hit hands out a shared_ptr, so a response being written keeps its
// bytes alive after an eviction) and every hit is checked against the caller's fresh stamp.
// Invariant: bytes() <= total_; each content size <= max_file_.
// Correctness rests on admissible(): only a file whose mtime and ctime lie settle_ns_ in the past
// is stored, so any later write gives it a later (different) stamp even on a coarse-tick file
// system, and find() then misses (RFC 9110 §8.8.2: Last-Modified and ETag follow the new stamp).
#include "netlib/http/file_cache.hpp"

#include <algorithm>
#include <utility>

namespace netlib::http {
namespace {
std::size_t file_cache_cost(const std::string& path, const cached_file& f) {
  return path.size() + f.content.size() + 128;  // 128: list node, index node, control block
}
}  // namespace

file_cache::file_cache(std::size_t total_bytes, std::size_t max_file_bytes, std::int64_t settle_ns)
    : total_(total_bytes), max_file_(std::min(max_file_bytes, total_bytes)), settle_ns_(settle_ns), entries_(total_bytes) {}

bool file_cache::admissible(const cached_file& file, std::int64_t now_ns) const {
  if (total_ == 0 || file.content.size() > max_file_) return false;
  if (!file.info.is_directory && file.content.size() != file.stamp.size) return false;
  const std::int64_t latest = std::max(file.stamp.mtime_ns, file.stamp.ctime_ns);
  return latest <= now_ns - settle_ns_;
}

std::shared_ptr<const cached_file> file_cache::find(const std::string& path, const file_stamp& current) {
  auto* entry = entries_.find(path);
  if (entry == nullptr) return nullptr;
  if (!((*entry)->stamp == current)) {
    entries_.erase(path);
    return nullptr;
  }
  return *entry;
}

void file_cache::erase(const std::string& path) { entries_.erase(path); }

bool file_cache::put(const std::string& path, std::shared_ptr<const cached_file> file, std::int64_t now_ns) {
  if (!file || !admissible(*file, now_ns)) {
    entries_.erase(path);
    return false;
  }
  const std::size_t cost = file_cache_cost(path, *file);
  return entries_.put(path, std::move(file), cost);
}

}  // namespace netlib::http
