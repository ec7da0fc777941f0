// HTTP error category: messages for humans and the status each request error is answered with.
#include "netlib/http/errc.hpp"

namespace netlib::http {
namespace {

class category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "http"; }
  std::string message(int v) const override {
    switch (static_cast<errc>(v)) {
      case errc::bad_request_line:
        return "malformed request line";
      case errc::bad_version:
        return "malformed HTTP version";
      case errc::bad_target:
        return "malformed request target";
      case errc::bad_field_name:
        return "malformed header field name";
      case errc::whitespace_before_colon:
        return "whitespace between field name and colon";
      case errc::obs_fold:
        return "obsolete line folding";
      case errc::bare_cr:
        return "bare CR in message head";
      case errc::bare_lf:
        return "bare LF";
      case errc::bad_field_value:
        return "invalid character in header field value";
      case errc::missing_host:
        return "HTTP/1.1 request without Host";
      case errc::repeated_host:
        return "more than one Host field";
      case errc::bad_host:
        return "invalid Host value";
      case errc::bad_content_length:
        return "invalid Content-Length";
      case errc::differing_content_lengths:
        return "differing Content-Length values";
      case errc::content_length_with_transfer_encoding:
        return "both Content-Length and Transfer-Encoding";
      case errc::transfer_encoding_not_chunked:
        return "Transfer-Encoding does not end with chunked";
      case errc::transfer_encoding_in_http10:
        return "Transfer-Encoding in an HTTP/1.0 message";
      case errc::chunked_twice:
        return "chunked applied more than once";
      case errc::bad_chunk_size:
        return "malformed chunk size";
      case errc::chunk_size_overflow:
        return "chunk size too large";
      case errc::bad_chunk_extension:
        return "malformed chunk extension";
      case errc::bad_chunk_terminator:
        return "chunk data not followed by CRLF";
      case errc::bad_trailer:
        return "malformed trailer section";
      case errc::unsupported_transfer_coding:
        return "unsupported transfer coding";
      case errc::unknown_method:
        return "unknown method";
      case errc::method_not_allowed:
        return "method not allowed";
      case errc::uri_too_long:
        return "request target too long";
      case errc::header_too_large:
        return "header section too large";
      case errc::body_too_large:
        return "body too large";
      case errc::unsupported_version:
        return "unsupported HTTP major version";
      case errc::bad_status_line:
        return "malformed status line";
      case errc::truncated_message:
        return "connection closed inside a message";
    }
    return "unknown http error";
  }
};

}  // namespace

const std::error_category& http_category() noexcept {
  static const category c;
  return c;
}

std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), http_category()};
}

int status_for(errc e) noexcept {
  switch (e) {
    case errc::unsupported_transfer_coding:
    case errc::unknown_method:
      return 501;
    case errc::method_not_allowed:
      return 405;
    case errc::uri_too_long:
      return 414;
    case errc::header_too_large:
      return 431;
    case errc::body_too_large:
      return 413;
    case errc::unsupported_version:
      return 505;
    default:
      return 400;
  }
}

}  // namespace netlib::http
