#pragma once
// Limits every HTTP parser enforces on input from the network (docs/architecture.md, "Protocol cores never do I/O").
#include <cstddef>
#include <cstdint>

namespace netlib::http {

struct parser_limits {
  std::size_t max_request_line = 8192;        // 414 past it (RFC 9112 §3)
  std::size_t max_head_bytes = 16384;         // start line + field lines; 431 past it (RFC 6585 §5)
  std::size_t max_fields = 100;               // field lines; 431 past it
  std::uint64_t max_body = 16 * 1024 * 1024;  // 413 past it (RFC 9110 §15.5.14)
  std::size_t max_chunk_line = 1024;          // chunk-size + extensions; 400 past it
  std::size_t max_trailer_bytes = 8192;       // 431 past it
};

}  // namespace netlib::http
