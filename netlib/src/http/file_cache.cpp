// Theory of operation: entries live in two byte_lrus (netlib/core/byte_lru.hpp), like
// response_cache: small files and folders charged their bytes, open files charged one each (the
// count of descriptors is what they cost). Entries are shared (a hit hands out a shared_ptr, so a
// response being written keeps its bytes, or its descriptor, after an eviction) and each carries
// when its stamp was last found equal to the file's: fresh() answers without a look at the file
// within `valid` of that, find() compares a stamp taken now.
// Invariant: bytes() <= total_; each content size <= max_file_; open files <= max_open.
// Correctness rests on admissible(): only a small file whose mtime and ctime lie settle_ in the
// past is stored, so any later write gives it a later (different) stamp even on a coarse-tick
// file system, and find() then misses (RFC 9110 §8.8.2: Last-Modified and ETag follow the new
// stamp). Staleness is bounded by `valid`: after it, the next request compares the stamp again.
#include "netlib/http/file_cache.hpp"

#include <algorithm>
#include <utility>

namespace netlib::http {
namespace {
std::size_t file_cache_cost(std::string_view path, const cached_file& f) {
  return path.size() + f.content.size() + 128;  // 128: list node, index node, control block
}
}  // namespace

file_cache::file_cache(std::size_t total_bytes, std::size_t max_file_bytes, duration settle, duration valid,
                       std::size_t max_open)
    : total_(total_bytes),
      max_file_(std::min(max_file_bytes, total_bytes)),
      settle_(settle),
      valid_(std::max(valid, duration::zero())),
      content_(total_bytes),
      open_(total_bytes == 0 ? 0 : max_open) {}

bool file_cache::admissible(const cached_file& file, wall_time now) const {
  if (total_ == 0) return false;
  if (file.descriptor >= 0) return !file.info.is_directory && file.content.empty();
  if (file.content.size() > max_file_) return false;
  if (!file.info.is_directory && file.content.size() != file.stamp.size) return false;
  return std::max(file.stamp.mtime, file.stamp.ctime) <= now - settle_;
}

file_cache::entry* file_cache::lookup(std::string_view path) {
  if (auto* e = content_.find(path)) return e;
  return open_.find(path);
}

std::shared_ptr<const cached_file> file_cache::fresh(std::string_view path, time_point now) {
  const entry* e = lookup(path);
  if (e == nullptr || now - e->checked >= valid_) return nullptr;
  return e->file;
}

std::shared_ptr<const cached_file> file_cache::find(std::string_view path, const file_stamp& current,
                                                    time_point checked) {
  entry* e = lookup(path);
  if (e == nullptr) return nullptr;
  if (!(e->file->stamp == current)) {
    erase(path);
    return nullptr;
  }
  e->checked = checked;
  return e->file;
}

void file_cache::erase(std::string_view path) {
  content_.erase(path);
  open_.erase(path);
}

bool file_cache::put(std::string_view path, std::shared_ptr<const cached_file> file, wall_time now,
                     time_point checked) {
  erase(path);
  if (!file || !admissible(*file, now)) return false;
  if (file->descriptor >= 0) return open_.put(path, entry{std::move(file), checked}, 1);
  const std::size_t cost = file_cache_cost(path, *file);
  return content_.put(path, entry{std::move(file), checked}, cost);
}

}  // namespace netlib::http
