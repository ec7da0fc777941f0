// Media types for common static file extensions (IANA registry names).
#include "netlib/http/mime_types.hpp"

#include <cstdint>

namespace netlib::http {

namespace {
// An extension of up to 7 bytes, lower-cased, and its length as one number (a switch label).
constexpr std::uint64_t extension_key(std::string_view ext) noexcept {
  std::uint64_t key = ext.size();
  for (const char c : ext) key = (key << 8) | static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return key;
}
}  // namespace

// Called for every file response: the extension is found by looking back at most six bytes from
// the end, and its key is matched by a switch (a few comparisons).
std::string_view mime_type_for(std::string_view path) noexcept {
  constexpr std::size_t longest = 5;  // "woff2"
  std::size_t dot = std::string_view::npos;
  for (std::size_t i = path.size(), seen = 0; i > 0 && seen <= longest; --i, ++seen) {
    const char c = path[i - 1];
    if (c == '/') break;
    if (c == '.') {
      dot = i - 1;
      break;
    }
  }
  if (dot == std::string_view::npos) return "application/octet-stream";
  const std::string_view ext = path.substr(dot + 1);
  if (ext.empty()) return "application/octet-stream";
  switch (extension_key(ext)) {
    case extension_key("html"):
    case extension_key("htm"):
      return "text/html; charset=utf-8";
    case extension_key("css"):
      return "text/css; charset=utf-8";
    case extension_key("js"):
      return "text/javascript; charset=utf-8";
    case extension_key("txt"):
      return "text/plain; charset=utf-8";
    case extension_key("json"):
      return "application/json";
    case extension_key("xml"):
      return "application/xml";
    case extension_key("png"):
      return "image/png";
    case extension_key("jpg"):
    case extension_key("jpeg"):
      return "image/jpeg";
    case extension_key("gif"):
      return "image/gif";
    case extension_key("svg"):
      return "image/svg+xml";
    case extension_key("ico"):
      return "image/vnd.microsoft.icon";
    case extension_key("webp"):
      return "image/webp";
    case extension_key("pdf"):
      return "application/pdf";
    case extension_key("zip"):
      return "application/zip";
    case extension_key("gz"):
      return "application/gzip";
    case extension_key("mp4"):
      return "video/mp4";
    case extension_key("wasm"):
      return "application/wasm";
    case extension_key("woff2"):
      return "font/woff2";
    case extension_key("csv"):
      return "text/csv; charset=utf-8";
    case extension_key("md"):
      return "text/markdown; charset=utf-8";
    default:
      return "application/octet-stream";
  }
}

}  // namespace netlib::http
