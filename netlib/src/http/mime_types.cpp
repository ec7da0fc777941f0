// Media types for common static file extensions (IANA registry names).
#include "netlib/http/mime_types.hpp"

#include <array>
#include <utility>

#include "netlib/http/fields.hpp"

namespace netlib::http {

std::string_view mime_type_for(std::string_view path) noexcept {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 22> table{{
      {"html", "text/html; charset=utf-8"}, {"htm", "text/html; charset=utf-8"},
      {"css", "text/css; charset=utf-8"},   {"js", "text/javascript; charset=utf-8"},
      {"txt", "text/plain; charset=utf-8"}, {"json", "application/json"},
      {"xml", "application/xml"},           {"png", "image/png"},
      {"jpg", "image/jpeg"},                {"jpeg", "image/jpeg"},
      {"gif", "image/gif"},                 {"svg", "image/svg+xml"},
      {"ico", "image/vnd.microsoft.icon"},  {"webp", "image/webp"},
      {"pdf", "application/pdf"},           {"zip", "application/zip"},
      {"gz", "application/gzip"},           {"mp4", "video/mp4"},
      {"wasm", "application/wasm"},         {"woff2", "font/woff2"},
      {"csv", "text/csv; charset=utf-8"},   {"md", "text/markdown; charset=utf-8"},
  }};
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return "application/octet-stream";
  const std::string_view ext = name.substr(dot + 1);
  for (const auto& [e, type] : table)
    if (iequals(e, ext)) return type;
  return "application/octet-stream";
}

}  // namespace netlib::http
