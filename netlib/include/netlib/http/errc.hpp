#pragma once
// HTTP protocol errors as std::error_code (docs/architecture.md, "Protocol cores never do I/O"). A request-side error
// carries the status a server must answer with (status_for); after any of them the connection is closed.
#include <string>
#include <system_error>

namespace netlib::http {

enum class errc {
  // 400 Bad Request: malformed syntax or framing (RFC 9112 §2.2, §3, §5, §6, §7)
  bad_request_line = 1,
  bad_version,
  bad_target,
  bad_field_name,
  whitespace_before_colon,  // RFC 9112 §5.1
  obs_fold,                 // RFC 9112 §5.2
  bare_cr,                  // RFC 9112 §2.2
  bare_lf,                  // (reserved: LF alone is accepted as a terminator, RFC 9112 §2.2)
  bad_field_value,
  missing_host,   // RFC 9112 §3.2
  repeated_host,  // RFC 9112 §3.2
  bad_host,
  bad_content_length,                     // RFC 9112 §6.3 rule 5
  differing_content_lengths,              // RFC 9112 §6.3 rule 5
  content_length_with_transfer_encoding,  // RFC 9112 §6.1, §6.3 rule 3
  transfer_encoding_not_chunked,          // RFC 9112 §6.3 rule 4
  transfer_encoding_in_http10,            // RFC 9112 §6.1
  chunked_twice,                          // RFC 9112 §7
  bad_chunk_size,                         // RFC 9112 §7.1
  chunk_size_overflow,
  bad_chunk_extension,   // RFC 9112 §7.1.1
  bad_chunk_terminator,  // CRLF after chunk data
  bad_trailer,           // RFC 9112 §7.1.2
  // other request statuses
  unsupported_transfer_coding,  // 501, RFC 9112 §6.1
  unknown_method,               // 501, RFC 9110 §9.1
  method_not_allowed,           // 405, RFC 9110 §15.5.6
  uri_too_long,                 // 414, RFC 9112 §3
  header_too_large,             // 431, RFC 6585 §5
  body_too_large,               // 413, RFC 9110 §15.5.14
  unsupported_version,          // 505, RFC 9110 §15.6.6
  // response side (a client has no status to send; it closes)
  bad_status_line,
  truncated_message,  // end of stream inside a message with known length
};

const std::error_category& http_category() noexcept;
std::error_code make_error_code(errc e) noexcept;
// The status a server answers a request error with (400, 405, 413, 414, 431, 501, 505).
int status_for(errc e) noexcept;

}  // namespace netlib::http

template <>
struct std::is_error_code_enum<netlib::http::errc> : std::true_type {};
