// Message body length, RFC 9112 §6.3, in the order of its rules. Requests are judged strictly:
// anything two implementations could read differently is rejected (request smuggling, RFC 9112
// §11.2), and the server closes after answering.
#include "netlib/http/body_framing.hpp"

#include "netlib/http/status.hpp"

namespace netlib::http {
namespace {

struct te_info {
  bool present = false;
  bool chunked_last = false;
  bool chunked_twice = false;
  bool other = false;  // a coding other than chunked
};

// Every Transfer-Encoding line in order, as one list (RFC 9110 §5.3), without joining them.
template <class Fields>
te_info inspect_transfer_encoding(const Fields& f) {
  te_info te;
  int chunked = 0;
  bool last_is_chunked = false;
  for (const auto& line : f.lines()) {
    if (!iequals(line.name, "Transfer-Encoding")) continue;
    te.present = true;
    for (list_items items(line.value); auto coding = items.next();) {
      // A coding may carry parameters ("gzip;q=1"); only its name matters here.
      const std::string_view name = trim_ows(coding->substr(0, coding->find(';')));
      last_is_chunked = iequals(name, "chunked");
      if (last_is_chunked)
        ++chunked;
      else
        te.other = true;
    }
  }
  if (!te.present) return te;
  te.chunked_last = last_is_chunked;
  te.chunked_twice = chunked > 1;                  // RFC 9112 §7: MUST NOT apply chunked more than once
  if (chunked == 0 && !te.other) te.other = true;  // no coding at all
  return te;
}

template <class Fields>
std::optional<std::uint64_t> content_length_of(const Fields& f, bool& differing, bool& overflow) {
  differing = overflow = false;
  std::optional<std::uint64_t> result;
  for (const auto& line : f.lines()) {
    if (!iequals(line.name, "Content-Length")) continue;
    // "42, 42" and repeated lines are accepted when every value is the same (RFC 9110 §8.6).
    list_items items(line.value);
    auto item = items.next();
    if (!item) return std::nullopt;
    for (; item; item = items.next()) {
      std::uint64_t n = 0;
      for (char c : *item) {
        if (c < '0' || c > '9') return std::nullopt;
        if (n > (UINT64_C(1) << 62) / 10) overflow = true;
        n = overflow ? n : n * 10 + static_cast<std::uint64_t>(c - '0');
      }
      if (overflow) return std::nullopt;
      if (result && *result != n) {
        differing = true;
        return std::nullopt;
      }
      result = n;
    }
  }
  return result;
}

}  // namespace

std::optional<std::uint64_t> parse_content_length(const fields& f, bool& differing, bool& overflow) {
  return content_length_of(f, differing, overflow);
}
std::optional<std::uint64_t> parse_content_length(const field_views& f, bool& differing, bool& overflow) {
  return content_length_of(f, differing, overflow);
}

std::variant<body_framing, errc> request_framing(const request_view& head, const parser_limits& limits) {
  const te_info te = inspect_transfer_encoding(head.fields);
  const bool has_cl = head.fields.contains("Content-Length");
  if (te.present) {
    if (head.version.minor == 0) return errc::transfer_encoding_in_http10;  // RFC 9112 §6.1
    if (has_cl) return errc::content_length_with_transfer_encoding;         // §6.1, §6.3 rule 3
    if (te.chunked_twice) return errc::chunked_twice;                       // §7
    if (!te.chunked_last) return errc::transfer_encoding_not_chunked;       // §6.3 rule 4
    if (te.other) return errc::unsupported_transfer_coding;                 // §6.1: 501
    return body_framing{body_framing::kind::chunked, 0};
  }
  if (has_cl) {
    bool differing = false;
    bool overflow = false;
    const auto n = parse_content_length(head.fields, differing, overflow);
    if (overflow) return errc::body_too_large;
    if (differing) return errc::differing_content_lengths;  // §6.3 rule 5
    if (!n) return errc::bad_content_length;
    if (*n > limits.max_body) return errc::body_too_large;
    return body_framing{*n == 0 ? body_framing::kind::none : body_framing::kind::length, *n};
  }
  return body_framing{body_framing::kind::none, 0};  // §6.3 rule 6
}

std::variant<body_framing, errc> response_framing(const response_head& head, std::string_view request_method) {
  // §6.3 rule 1: HEAD responses, 1xx, 204 and 304 end at the empty line after the header.
  if (request_method == "HEAD" || status_has_no_body(head.status)) return body_framing{};
  // §6.3 rule 2: a 2xx answer to CONNECT switches to a tunnel.
  if (request_method == "CONNECT" && head.status / 100 == 2) return body_framing{};
  const te_info te = inspect_transfer_encoding(head.fields);
  if (te.present) {
    // §6.3 rule 3: Transfer-Encoding overrides Content-Length; rule 4: chunked last or read
    // until the connection closes.
    if (te.chunked_last && !te.chunked_twice && head.version.minor >= 1)
      return body_framing{body_framing::kind::chunked, 0};
    return body_framing{body_framing::kind::until_close, 0};
  }
  if (head.fields.contains("Content-Length")) {
    bool differing = false;
    bool overflow = false;
    const auto n = parse_content_length(head.fields, differing, overflow);
    if (differing) return errc::differing_content_lengths;  // §6.3 rule 5: unrecoverable
    if (!n) return errc::bad_content_length;
    return body_framing{*n == 0 ? body_framing::kind::none : body_framing::kind::length, *n};
  }
  return body_framing{body_framing::kind::until_close, 0};  // §6.3 rule 8
}

}  // namespace netlib::http
