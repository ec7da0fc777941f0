#pragma once
// The document root of `lab-http serve` on disk: netlib::http::file_system for the static site
// core, plus the body of a file for the driver (http_serve_driver). Every file is opened through
// the disk root (disk_root.hpp, link_policy::inside_root): a symbolic link is followed while it
// stays inside the root and refused when it leads out; stat() reports where a file reached
// through a link really is (file_info::resolved), so the site's access rules are decided on the
// file that is served (docs/architecture.md, "One disk root"). What an open found is kept in a
// netlib::http::file_cache: small files' bytes, larger files' open descriptors, folders; an entry
// is compared with the file by one stat at most once per validity (1 s by default), so a hot file
// costs no system call of its own in between.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "netlib/http/file_cache.hpp"
#include "netlib/http/static_site.hpp"
#include "netlib/io/disk_root.hpp"

namespace netlib::io {

// What http_disk_files keeps (netlib::http::file_cache).
struct http_cache_options {
  std::size_t bytes = 16u << 20;                       // small files' content (0: no cache at all)
  std::size_t file_bytes = 32u << 10;                  // larger files are kept open instead of read
  duration settle = http::file_cache::default_settle;  // file_cache::admissible
  duration valid = http::file_cache::default_valid;    // an entry's stamp is compared this often at most
  std::size_t max_open = http::file_cache::default_max_open;
};

class http_disk_files final : public http::file_system {
 public:
  using cache_options = http_cache_options;
  // Throws io_error when root is not a folder that can be opened.
  explicit http_disk_files(const std::string& root, cache_options cache = {}, disk_root::options root_options = {});
  http_disk_files(const http_disk_files&) = delete;
  http_disk_files& operator=(const http_disk_files&) = delete;

  // A regular file or a folder under the root (nullopt: absent, unreadable, a device or fifo, or
  // reached through a link that leaves the root). The answer may come from the cache, compared
  // with the file at most `valid` before `now`. A regular file stays open (or cached) for the
  // open_body() of the same path that usually follows on the same thread.
  std::optional<http::file_info> stat(std::string_view path, const clock_reading& now) override;

  // A file's bytes: a cache entry (its content when small, else its open descriptor), or a
  // descriptor of its own (a file that may not be cached yet). Neither: the file is absent or
  // outside the root.
  struct body {
    std::shared_ptr<const http::cached_file> cached;
    unique_fd fd;
    // The descriptor to read from (-1 for content in memory, or no file).
    [[nodiscard]] int descriptor() const noexcept { return cached ? cached->descriptor : fd.get(); }
  };
  body open_body(std::string_view path);
  // Closes a file that stat() opened and no open_body() took (HEAD, 304, 416, errors); the
  // driver calls it after every response. Cheap when there is none.
  static void release_pending() noexcept;

  // Where the folder `path` really is under the root (links resolved); nullopt when it is absent
  // or leaves the root. For access rules configured by name (--auth-dir).
  [[nodiscard]] std::optional<std::string> real_folder(std::string_view path) const;
  [[nodiscard]] const std::string& root() const noexcept { return root_.real_path(); }

 private:
  std::shared_ptr<const http::cached_file> cached(std::string_view path, time_point now);
  std::shared_ptr<const http::cached_file> load(std::string_view path, int fd, std::optional<std::string> resolved,
                                                const clock_reading& now);

  disk_root root_;
  std::mutex mutex_;  // guards cache_ (threads share one http_disk_files)
  http::file_cache cache_;
};

}  // namespace netlib::io
