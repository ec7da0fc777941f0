// Media types for common static file extensions (IANA registry names).
#include "netlib/http/mime_types.hpp"

#include <array>
#include <cstdint>
#include <utility>

namespace netlib::http {

namespace {
// An extension of up to 7 bytes, lower-cased, and its length as one number: one comparison per
// table entry.
constexpr std::uint64_t extension_key(std::string_view ext) noexcept {
  std::uint64_t key = ext.size();
  for (const char c : ext) key = (key << 8) | static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return key;
}
}  // namespace

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
  if (ext.empty() || ext.size() > 5) return "application/octet-stream";  // the longest known: "woff2"
  static constexpr auto keys = [] {
    std::array<std::uint64_t, table.size()> k{};
    for (std::size_t i = 0; i < table.size(); ++i) k[i] = extension_key(table[i].first);
    return k;
  }();
  const std::uint64_t key = extension_key(ext);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return table[i].second;
  return "application/octet-stream";
}

}  // namespace netlib::http
