// Theory of operation: a head is found before it is parsed. find_head_end walks the input line by
// line (a line ends at LF; a CR right before it is part of the terminator) until it meets an empty
// line; it never consumes anything, so a parser can call it again on the same unconsumed input
// with more bytes appended, and any split of the input gives the same result. Limits are checked
// while walking (first line: 414 for requests; whole head: 431). Once complete, the head is
// checked for bare CRs and then parsed line by line.
#include "netlib/http/head_syntax.hpp"

namespace netlib::http {
namespace {

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3).
std::optional<errc> parse_version(std::string_view s, version& v) {
  if (s.size() != 8 || s.substr(0, 5) != "HTTP/" || !is_digit(s[5]) || s[6] != '.' || !is_digit(s[7]))
    return errc::bad_version;
  v.major = s[5] - '0';
  v.minor = s[7] - '0';
  if (v.major != 1) return errc::unsupported_version;  // RFC 9110 §15.6.6
  return std::nullopt;
}

// RFC 9110 §5.5: field-value = *( VCHAR / obs-text / SP / HTAB ).
bool valid_value(std::string_view v) {
  for (char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\t' || c == ' ' || (c >= 0x21 && c != 0x7f)) continue;
    return false;
  }
  return true;
}

std::optional<errc> parse_field_line(std::string_view line, fields& out) {
  if (line.front() == ' ' || line.front() == '\t') return errc::obs_fold;  // RFC 9112 §5.2
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return errc::bad_field_name;
  const std::string_view name = line.substr(0, colon);
  if (name.back() == ' ' || name.back() == '\t') return errc::whitespace_before_colon;  // §5.1
  if (!is_token(name)) return errc::bad_field_name;
  const std::string_view value = trim_ows(line.substr(colon + 1));
  if (!valid_value(value)) return errc::bad_field_value;
  out.add(name, value);
  return std::nullopt;
}

}  // namespace

bool is_token(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_tchar(c)) return false;
  return true;
}

section_scan find_head_end(std::string_view in, std::size_t max_first_line, std::size_t max_bytes,
                           bool skip_leading_empty) {
  section_scan scan;
  std::size_t pos = 0;
  // RFC 9112 §2.2: a server SHOULD ignore empty lines received before the request-line.
  while (skip_leading_empty && pos < in.size()) {
    if (in[pos] == '\n') ++pos;
    else if (in[pos] == '\r' && pos + 1 < in.size() && in[pos + 1] == '\n') pos += 2;
    else break;
    if (pos > max_bytes) return {section_scan::result::too_large, pos, 0};
  }
  scan.skipped = pos;
  const std::string_view head = in.substr(pos);
  const std::size_t first_lf = head.find('\n');
  if ((first_lf == std::string_view::npos ? head.size() : first_lf) > max_first_line) {
    scan.status = section_scan::result::first_line_too_long;
    return scan;
  }
  if (first_lf == std::string_view::npos) return scan;
  std::size_t line_start = first_lf + 1;
  for (;;) {
    const std::size_t lf = head.find('\n', line_start);
    if (lf == std::string_view::npos) {
      if (head.size() > max_bytes) scan.status = section_scan::result::too_large;
      return scan;
    }
    if (lf + 1 > max_bytes) {
      scan.status = section_scan::result::too_large;
      return scan;
    }
    if (strip_cr(head.substr(line_start, lf - line_start)).empty()) {
      scan.status = section_scan::result::complete;
      scan.length = lf + 1;
      return scan;
    }
    line_start = lf + 1;
  }
}

section_scan find_section_end(std::string_view in, std::size_t max_bytes) {
  section_scan scan;
  std::size_t line_start = 0;
  for (;;) {
    const std::size_t lf = in.find('\n', line_start);
    if (lf == std::string_view::npos) {
      if (in.size() > max_bytes) scan.status = section_scan::result::too_large;
      return scan;
    }
    if (lf + 1 > max_bytes) {
      scan.status = section_scan::result::too_large;
      return scan;
    }
    if (strip_cr(in.substr(line_start, lf - line_start)).empty()) {
      scan.status = section_scan::result::complete;
      scan.length = lf + 1;
      return scan;
    }
    line_start = lf + 1;
  }
}

std::optional<errc> check_bare_cr(std::string_view head) {
  for (std::size_t i = head.find('\r'); i != std::string_view::npos; i = head.find('\r', i + 1))
    if (i + 1 == head.size() || head[i + 1] != '\n') return errc::bare_cr;  // §2.2
  return std::nullopt;
}

std::optional<errc> parse_request_line(std::string_view line, request_head& out) {
  // RFC 9112 §3: request-line = method SP request-target SP HTTP-version (single spaces).
  const std::size_t sp1 = line.find(' ');
  if (sp1 == std::string_view::npos) return errc::bad_request_line;
  const std::size_t sp2 = line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos)
    return errc::bad_request_line;
  const std::string_view method = line.substr(0, sp1);
  const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  if (!is_token(method)) return errc::bad_request_line;
  if (target.empty()) return errc::bad_target;
  for (char ch : target) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7f) return errc::bad_target;  // RFC 3986 characters only
  }
  if (auto e = parse_version(line.substr(sp2 + 1), out.version)) return e;
  out.method = method;
  out.target = target;
  return std::nullopt;
}

std::optional<errc> parse_status_line(std::string_view line, response_head& out) {
  // RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ]; the SP before an
  // empty reason is accepted missing, as many servers omit it.
  if (line.size() < 12 || line[8] != ' ') return errc::bad_status_line;
  version v;
  if (auto e = parse_version(line.substr(0, 8), v)) return e == errc::unsupported_version ? e : errc::bad_status_line;
  if (!is_digit(line[9]) || !is_digit(line[10]) || !is_digit(line[11])) return errc::bad_status_line;
  if (line.size() > 12 && line[12] != ' ') return errc::bad_status_line;
  const int code = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
  if (code < 100) return errc::bad_status_line;
  const std::string_view reason = line.size() > 13 ? line.substr(13) : std::string_view{};
  if (!valid_value(reason)) return errc::bad_status_line;
  out.version = v;
  out.status = code;
  out.reason = reason;
  return std::nullopt;
}

std::optional<errc> parse_field_lines(std::string_view block, fields& out, std::size_t max_fields) {
  while (!block.empty()) {
    const std::size_t lf = block.find('\n');
    const std::string_view line = strip_cr(block.substr(0, lf));
    block.remove_prefix(lf == std::string_view::npos ? block.size() : lf + 1);
    if (line.empty()) break;
    if (out.size() >= max_fields) return errc::header_too_large;
    if (auto e = parse_field_line(line, out)) return e;
  }
  return std::nullopt;
}

}  // namespace netlib::http
