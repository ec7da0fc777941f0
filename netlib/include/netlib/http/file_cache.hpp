#pragma once
// The static server's file cache (no I/O, no clock): per path under the root, what a checked
// open found (metadata, where a link led) and either the whole content of a small file or an
// open descriptor of a larger one, valid while the file's identity stamp (device, inode, size,
// modification and change times, to the nanosecond) is unchanged; like nginx's open_file_cache.
// The driver compares an entry's stamp with the file (one stat(2)) at most once per `valid`
// (default 1 s; 0: on every request); in between, a hit costs no system call. A changed file is a
// miss: the entry is dropped and the checked open runs again. Least recently used entries go
// first: small files and folders within a byte budget, open files within a count.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "netlib/core/byte_lru.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/http/static_site.hpp"

namespace netlib::http {

// What identifies one version of a file. A write changes mtime and ctime (and usually size); a
// rename or replace changes the inode; chmod/chown change ctime.
struct file_stamp {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  wall_time mtime{};
  wall_time ctime{};
  friend bool operator==(const file_stamp&, const file_stamp&) = default;
};

struct cached_file {
  file_stamp stamp;
  file_info info;
  std::string content;  // the whole file, when small (empty for a folder or an open file)
  // A larger file kept open instead: a descriptor of this very inode. Whoever made the entry owns
  // it and closes it when the entry is destroyed (io::http_disk_files makes such entries); -1: none.
  int descriptor = -1;
};

class file_cache {
 public:
  static constexpr duration default_settle = std::chrono::seconds(2);
  static constexpr duration default_valid = std::chrono::seconds(1);
  static constexpr std::size_t default_max_open = 256;

  // total_bytes: budget for the small files' content (0 disables the whole cache); max_file_bytes:
  // larger files are kept open, not read; settle: see admissible; valid: how long an entry is
  // used without comparing its stamp with the file; max_open: files kept open at most.
  file_cache(std::size_t total_bytes, std::size_t max_file_bytes, duration settle = default_settle,
             duration valid = default_valid, std::size_t max_open = default_max_open);

  // The entry for `path` when its stamp was compared with the file less than `valid` before
  // `now` (it becomes most recently used): no need to look at the file. nullptr otherwise.
  std::shared_ptr<const cached_file> fresh(std::string_view path, time_point now);
  // The entry for `path` if its stamp equals `current` (the file as it is now); it then counts as
  // compared at `checked`. An entry with another stamp is dropped. nullptr on a miss.
  std::shared_ptr<const cached_file> find(std::string_view path, const file_stamp& current, time_point checked = {});
  // Any entry for `path`, without validation (to learn whether a stat is worth making).
  [[nodiscard]] bool contains(std::string_view path) const { return content_.contains(path) || open_.contains(path); }
  // Stores (or replaces) the entry, compared with the file at `checked`; false when it may not be
  // cached (see admissible).
  bool put(std::string_view path, std::shared_ptr<const cached_file> file, wall_time now, time_point checked = {});
  void erase(std::string_view path);

  // A small file may be cached when it fits and when its last change is at least `settle` old:
  // file systems stamp times with a coarse clock, so a second write within the same tick as the
  // first would leave the stamp unchanged while the bytes in memory are the first write's (the
  // "racily clean" problem); such a file is served but not kept until it has settled. An open
  // file needs no settling: its bytes are read from the file at each response. `now` is on the
  // same clock as the stamps (the wall clock).
  [[nodiscard]] bool admissible(const cached_file& file, wall_time now) const;

  [[nodiscard]] std::size_t bytes() const noexcept { return content_.bytes(); }
  [[nodiscard]] std::size_t size() const noexcept { return content_.size() + open_.size(); }
  [[nodiscard]] std::size_t open_files() const noexcept { return open_.size(); }
  [[nodiscard]] std::size_t max_file_bytes() const noexcept { return max_file_; }
  [[nodiscard]] duration valid() const noexcept { return valid_; }
  [[nodiscard]] std::uint64_t evictions() const noexcept { return content_.evictions() + open_.evictions(); }

 private:
  struct entry {
    std::shared_ptr<const cached_file> file;
    time_point checked;  // when its stamp was last found equal to the file's
  };
  entry* lookup(std::string_view path);

  std::size_t total_, max_file_;
  duration settle_;
  duration valid_;
  byte_lru<entry> content_;  // small files and folders; cost: their bytes
  byte_lru<entry> open_;     // open files; cost: 1 each
};

}  // namespace netlib::http
