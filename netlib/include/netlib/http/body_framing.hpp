#pragma once
// How a message body is delimited (RFC 9112 §6.3), decided from a parsed head.
#include <cstdint>
#include <string_view>
#include <variant>

#include "netlib/http/errc.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/parser_limits.hpp"

namespace netlib::http {

struct body_framing {
  enum class kind { none, length, chunked, until_close };
  kind how = kind::none;
  std::uint64_t length = 0;  // for kind::length
};

// Request side, strict: rejects every ambiguous framing (request smuggling defence).
std::variant<body_framing, errc> request_framing(const request_view& head, const parser_limits& limits);
// Response side, to a request with `request_method` (HEAD responses carry no body).
std::variant<body_framing, errc> response_framing(const response_head& head, std::string_view request_method);

// Parses a Content-Length field value list ("42" or "42, 42"); nullopt when invalid or differing
// (RFC 9112 §6.3 rule 5). `overflow` is set when the digits do not fit 63 bits.
std::optional<std::uint64_t> parse_content_length(const fields& f, bool& differing, bool& overflow);
std::optional<std::uint64_t> parse_content_length(const field_views& f, bool& differing, bool& overflow);

}  // namespace netlib::http
