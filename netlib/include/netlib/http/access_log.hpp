#pragma once
// Common Log Format lines (the NCSA httpd format):
//   127.0.0.1 - alice [06/Nov/1994:08:49:37 +0000] "GET /a.html HTTP/1.1" 200 1043
// A field with no value is "-": the user, a body of 0 bytes, and a request line that never arrived
// (written "-" inside its quotes, as Apache httpd writes it, so the line keeps its shape).
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace netlib::http {

struct access_record {
  std::string remote_host;
  std::string user;                 // authenticated user, empty for "-"
  std::chrono::sys_seconds time{};  // when the request arrived
  std::string request_line;         // "GET / HTTP/1.1"; empty when none was parsed
  int status = 0;
  std::uint64_t body_bytes = 0;
};

std::string format_clf(const access_record& r);
// The body size of a serialized response (the bytes after the blank line that ends its head), for
// a response the server core wrote whole (errors such as 400, 405, 501, 505).
std::uint64_t body_size_of(std::string_view response);

}  // namespace netlib::http
