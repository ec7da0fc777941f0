#pragma once
// The document root on disk: netlib::http::file_system for the static site core, plus the body of
// a file for the driver. Every path is resolved with realpath(3) and must stay inside the root's
// own real path, so ".." (already removed by the core) and symbolic links pointing outside the
// root are both refused. Small files (and directories) are kept in a netlib::http::file_cache and
// revalidated by one stat per request.
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "netlib/http/file_cache.hpp"
#include "netlib/http/static_site.hpp"

namespace lab_http {

class disk_files final : public netlib::http::file_system {
 public:
  // Throws netlib::app::usage_error when root is not a readable directory. cache_bytes 0: no cache;
  // settle_ns: how old a file's last change must be before it is cached (file_cache::admissible).
  explicit disk_files(const std::string& root, std::size_t cache_bytes = 16u << 20,
                      std::int64_t settle_ns = netlib::http::file_cache::default_settle_ns,
                      std::size_t cache_file_bytes = 32u << 10);
  ~disk_files() override;
  disk_files(const disk_files&) = delete;
  disk_files& operator=(const disk_files&) = delete;

  std::optional<netlib::http::file_info> stat(std::string_view path) override;

  // A file's bytes: the cached content (whole file) when it is small, else an open descriptor that
  // the caller closes. Neither: the file is absent or outside the root.
  struct body {
    std::shared_ptr<const netlib::http::cached_file> cached;
    int fd = -1;
  };
  body open_body(std::string_view path);
  [[nodiscard]] const std::string& root() const noexcept { return root_; }

 private:
  std::optional<std::string> resolve(std::string_view path) const;
  std::optional<netlib::http::file_info> stat_cached(const std::string& path);
  std::shared_ptr<const netlib::http::cached_file> load(const std::string& path, int fd);

  std::string root_;  // real path, no trailing slash
  int root_fd_ = -1;  // the root directory, for stat relative to it
  std::mutex mutex_;  // guards cache_ (threads share one disk_files)
  netlib::http::file_cache cache_;
};

}  // namespace lab_http
