#pragma once
// The syntax of a message head (RFC 9112 §2-§5), shared by the request and response parsers:
// finding where a head ends, and parsing its start line and field lines. Pure functions on text.
#include <cstddef>
#include <optional>
#include <string_view>

#include "netlib/http/errc.hpp"
#include "netlib/http/message.hpp"

namespace netlib::http {

struct section_scan {
  enum class result { incomplete, complete, first_line_too_long, too_large };
  result status = result::incomplete;
  std::size_t skipped = 0;  // empty lines before the start line (RFC 9112 §2.2), request side
  std::size_t length = 0;   // the section after `skipped`, its final empty line included
};

// Finds the empty line that ends a head. Lines end with LF, optionally preceded by CR (RFC 9112
// §2.2 allows a recipient to accept a bare LF). With skip_leading_empty, empty lines before the
// start line are skipped (at most max_bytes of them).
section_scan find_head_end(std::string_view in, std::size_t max_first_line, std::size_t max_bytes,
                           bool skip_leading_empty);
// Finds the end of a trailer section (it may be just the empty line).
section_scan find_section_end(std::string_view in, std::size_t max_bytes);

// A request head found and parsed in one pass (request_parser): the lines are walked once, each
// parsed as it is passed, into views of `in`. The answer is the same as find_head_end, then
// check_bare_cr, then parse_request_line and parse_field_lines on the complete head would give:
// limits first (414, 431), then a bare CR anywhere, then the first syntax error in line order.
struct request_scan {
  enum class result { incomplete, complete, failed };
  result status = result::incomplete;
  errc error = errc::bad_request_line;  // failed
  std::size_t skipped = 0;              // empty lines before the request line
  std::size_t length = 0;               // complete: the head after `skipped`, its empty line included
  std::string_view request_line;        // failed on the head's syntax: its first line (for a log)
};
request_scan scan_request_head(std::string_view in, std::size_t max_request_line, std::size_t max_head_bytes,
                               std::size_t max_fields, request_view& out);

// Splits a complete head (as found above) into lines without terminators. Returns bare_cr when a
// CR appears anywhere but right before a LF.
std::optional<errc> check_bare_cr(std::string_view head);

// The request line's parts become views of `line`.
std::optional<errc> parse_request_line(std::string_view line, request_view& out);
std::optional<errc> parse_status_line(std::string_view line, response_head& out);
// Parses the field lines of `block` (lines ended by LF or CRLF, final empty line excluded) into
// `out`, enforcing RFC 9112 §5.1/§5.2 and RFC 9110 §5.5. Into field_views, the lines are views of
// `block`; into fields, copies.
std::optional<errc> parse_field_lines(std::string_view block, fields& out, std::size_t max_fields);
std::optional<errc> parse_field_lines(std::string_view block, field_views& out, std::size_t max_fields);

// RFC 9110 §5.6.2 tchar. A table, since every name and method byte is checked.
namespace detail {
constexpr bool tchar_table_entry(unsigned char c) noexcept {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  for (const char t : std::string_view("!#$%&'*+-.^_`|~"))
    if (c == static_cast<unsigned char>(t)) return true;
  return false;
}
struct tchar_table {
  bool is[256]{};
  constexpr tchar_table() noexcept {
    for (int c = 0; c < 256; ++c) is[c] = tchar_table_entry(static_cast<unsigned char>(c));
  }
};
inline constexpr tchar_table tchars{};
}  // namespace detail
inline bool is_tchar(char c) noexcept {
  return detail::tchars.is[static_cast<unsigned char>(c)];
}
bool is_token(std::string_view s) noexcept;

}  // namespace netlib::http
