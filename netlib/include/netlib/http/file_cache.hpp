#pragma once
// A bounded in-memory cache of small files for the static server (no I/O, no clock): the content
// and metadata of a file, keyed by its path under the root, valid while the file's identity stamp
// (device, inode, size, modification and change times in nanoseconds) is unchanged. The driver
// revalidates a hit with one stat(2) per request and compares stamps; a changed file is a miss.
// Least recently used entries are evicted to keep the total cost under a byte budget.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "netlib/core/byte_lru.hpp"
#include "netlib/http/static_site.hpp"

namespace netlib::http {

// What identifies one version of a file. A write changes mtime and ctime (and usually size); a
// rename or replace changes the inode; chmod/chown change ctime.
struct file_stamp {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  friend bool operator==(const file_stamp&, const file_stamp&) = default;
};

struct cached_file {
  file_stamp stamp;
  file_info info;
  std::string content;  // the whole file (empty for a directory)
};

class file_cache {
 public:
  // total_bytes: budget for all entries (0 disables the cache); max_file_bytes: larger files are
  // never stored; settle_ns: see admissible.
  file_cache(std::size_t total_bytes, std::size_t max_file_bytes, std::int64_t settle_ns = default_settle_ns);

  // The entry for `path` if its stamp equals `current` (it becomes most recently used); an entry
  // with another stamp is dropped. nullptr on a miss.
  std::shared_ptr<const cached_file> find(const std::string& path, const file_stamp& current);
  // Any entry for `path`, without validation (to learn whether a stat is worth making).
  [[nodiscard]] bool contains(const std::string& path) const { return entries_.contains(path); }
  // Stores (or replaces) the entry; false when it may not be cached (see admissible).
  bool put(const std::string& path, std::shared_ptr<const cached_file> file, std::int64_t now_ns);
  void erase(const std::string& path);

  // A file may be cached when it fits and when its last change is at least settle_ns old: file
  // systems stamp times with a coarse clock, so a second write within the same tick as the first
  // would leave the stamp unchanged (the "racily clean" problem); such a file is served but not
  // kept until it has settled. now_ns is on the same clock as the stamps (CLOCK_REALTIME).
  [[nodiscard]] bool admissible(const cached_file& file, std::int64_t now_ns) const;
  static constexpr std::int64_t default_settle_ns = 2'000'000'000;

  [[nodiscard]] std::size_t bytes() const noexcept { return entries_.bytes(); }
  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
  [[nodiscard]] std::size_t max_file_bytes() const noexcept { return max_file_; }
  [[nodiscard]] std::uint64_t evictions() const noexcept { return entries_.evictions(); }

 private:
  std::size_t total_, max_file_;
  std::int64_t settle_ns_;
  byte_lru<std::shared_ptr<const cached_file>> entries_;
};

}  // namespace netlib::http
