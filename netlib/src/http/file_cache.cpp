// Theory of operation: a list in recency order plus a hash index into it, like response_cache,
// but entries are shared (a hit hands out a shared_ptr, so a response being written keeps its
// bytes alive after an eviction) and every hit is checked against the caller's fresh stamp.
// Invariant: bytes_ == sum of cost over the list <= total_; each content size <= max_file_.
// Correctness rests on admissible(): only a file whose mtime and ctime lie settle_ns_ in the past
// is stored, so any later write gives it a later (different) stamp even on a coarse-tick file
// system, and find() then misses (RFC 9110 §8.8.2: Last-Modified and ETag follow the new stamp).
#include "netlib/http/file_cache.hpp"

#include <algorithm>

namespace netlib::http {
namespace {
std::size_t file_cache_cost(const std::string& path, const cached_file& f) {
  return path.size() + f.content.size() + 128;  // 128: list node, index node, control block
}
}  // namespace

file_cache::file_cache(std::size_t total_bytes, std::size_t max_file_bytes, std::int64_t settle_ns)
    : total_(total_bytes), max_file_(std::min(max_file_bytes, total_bytes)), settle_ns_(settle_ns) {}

bool file_cache::admissible(const cached_file& file, std::int64_t now_ns) const {
  if (total_ == 0 || file.content.size() > max_file_) return false;
  if (!file.info.is_directory && file.content.size() != file.stamp.size) return false;
  const std::int64_t latest = std::max(file.stamp.mtime_ns, file.stamp.ctime_ns);
  return latest <= now_ns - settle_ns_;
}

std::shared_ptr<const cached_file> file_cache::find(const std::string& path, const file_stamp& current) {
  const auto it = index_.find(path);
  if (it == index_.end()) return nullptr;
  if (!(it->second->file->stamp == current)) {
    erase(path);
    return nullptr;
  }
  if (it->second != lru_.begin()) lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->file;
}

void file_cache::erase(const std::string& path) {
  const auto it = index_.find(path);
  if (it == index_.end()) return;
  bytes_ -= it->second->cost;
  lru_.erase(it->second);
  index_.erase(it);
}

bool file_cache::put(const std::string& path, std::shared_ptr<const cached_file> file, std::int64_t now_ns) {
  erase(path);
  if (!file || !admissible(*file, now_ns)) return false;
  const std::size_t cost = file_cache_cost(path, *file);
  if (cost > total_) return false;
  while (bytes_ + cost > total_ && !lru_.empty()) {
    bytes_ -= lru_.back().cost;
    index_.erase(lru_.back().path);
    lru_.pop_back();
    ++evictions_;
  }
  lru_.push_front({path, std::move(file), cost});
  index_[path] = lru_.begin();
  bytes_ += cost;
  return true;
}

}  // namespace netlib::http
