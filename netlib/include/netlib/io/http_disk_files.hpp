#pragma once
// The document root of `lab-http serve` on disk: netlib::http::file_system for the static site
// core, plus the body of a file for the driver (http_serve_driver). Every file is opened through
// the disk root (disk_root.hpp, link_policy::inside_root): a symbolic link is followed while it
// stays inside the root and refused when it leads out; stat() reports where a file reached
// through a link really is (file_info::resolved), so the site's access rules are decided on the
// file that is served (docs/architecture.md, "One disk root"). Small files (and directories) are
// kept in a netlib::http::file_cache and revalidated by one stat per request.
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

class http_disk_files final : public http::file_system {
 public:
  // Throws io_error when root is not a folder that can be opened. cache_bytes 0: no cache;
  // settle_ns: how old a file's last change must be before it is cached (file_cache::admissible).
  explicit http_disk_files(const std::string& root, std::size_t cache_bytes = 16u << 20,
                           std::int64_t settle_ns = http::file_cache::default_settle_ns,
                           std::size_t cache_file_bytes = 32u << 10, disk_root::options root_options = {});
  http_disk_files(const http_disk_files&) = delete;
  http_disk_files& operator=(const http_disk_files&) = delete;

  // A regular file or a folder under the root (nullopt: absent, unreadable, a device or fifo, or
  // reached through a link that leaves the root). A regular file stays open for the open_body()
  // of the same path that usually follows on the same thread.
  std::optional<http::file_info> stat(std::string_view path) override;

  // A file's bytes: the cached content (whole file) when it is small, else an open descriptor.
  // Neither: the file is absent or outside the root.
  struct body {
    std::shared_ptr<const http::cached_file> cached;
    unique_fd fd;
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
  std::optional<http::file_info> stat_cached(const std::string& path);
  std::shared_ptr<const http::cached_file> load(const std::string& path, int fd, std::optional<std::string> resolved);

  disk_root root_;
  std::mutex mutex_;  // guards cache_ (threads share one http_disk_files)
  http::file_cache cache_;
};

}  // namespace netlib::io
