#pragma once
// Validators and conditional requests (RFC 9110 §8.8, §13): entity tags and If-None-Match /
// If-Modified-Since evaluation (If-None-Match first; If-Modified-Since only without it).
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "netlib/http/message.hpp"

namespace netlib::http {

// A strong entity tag from a file's size and modification time: "\"1a2b-5f00\"".
std::string make_etag(std::uint64_t size, std::chrono::sys_seconds mtime);
// The same written into `out`, without allocating: a view of `out`.
struct etag_buffer {
  char text[40];
};
std::string_view make_etag(std::uint64_t size, std::chrono::sys_seconds mtime, etag_buffer& out);
// RFC 9110 §13.1.2: weak comparison against a list ("*" matches any).
bool if_none_match_matches(std::string_view header_value, std::string_view etag);
// RFC 9110 §13.2.2 steps 3-4 for GET/HEAD: true when the answer is 304 Not Modified.
bool not_modified(const request_view& r, std::string_view etag, std::chrono::sys_seconds mtime);
// RFC 9110 §13.1.5: true when a Range may be honoured (no If-Range, or it matches).
bool if_range_allows(const request_view& r, std::string_view etag, std::chrono::sys_seconds mtime);

}  // namespace netlib::http
