#pragma once
// Media types by file extension (RFC 9110 §8.3), for static files.
#include <string_view>

namespace netlib::http {

// "text/html; charset=utf-8" for "index.html"; application/octet-stream when unknown.
std::string_view mime_type_for(std::string_view path) noexcept;

}  // namespace netlib::http
