#pragma once
// The document root on disk: netlib::http::file_system for the static site core, plus opening a
// file for the driver. Every path is resolved with realpath(3) and must stay inside the root's own
// real path, so ".." (already removed by the core) and symbolic links pointing outside the root
// are both refused.
#include <optional>
#include <string>
#include <string_view>

#include "netlib/http/static_site.hpp"

namespace lab_http {

class disk_files final : public netlib::http::file_system {
 public:
  // Throws netlib::app::usage_error when root is not a readable directory.
  explicit disk_files(const std::string& root);
  std::optional<netlib::http::file_info> stat(std::string_view path) override;
  // An open descriptor for reading, or -1 (absent or outside the root). The caller closes it.
  int open_read(std::string_view path) const;
  [[nodiscard]] const std::string& root() const noexcept { return root_; }

 private:
  std::optional<std::string> resolve(std::string_view path) const;
  std::string root_;  // real path, no trailing slash
};

}  // namespace lab_http
