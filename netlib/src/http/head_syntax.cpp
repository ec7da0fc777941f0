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

bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}

// "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3).
std::optional<errc> parse_version(std::string_view s, version& v) {
  if (s.size() != 8 || s[0] != 'H' || s[1] != 'T' || s[2] != 'T' || s[3] != 'P' || s[4] != '/' || !is_digit(s[5]) ||
      s[6] != '.' || !is_digit(s[7]))
    return errc::bad_version;
  v.major = s[5] - '0';
  v.minor = s[7] - '0';
  if (v.major != 1) return errc::unsupported_version;  // RFC 9110 §15.6.6
  return std::nullopt;
}

// RFC 9110 §5.5: field-value = *( VCHAR / obs-text / SP / HTAB ): no control character but HTAB,
// no DEL. Checked without a branch per byte (the loop vectorizes), since every value byte is.
bool valid_value(std::string_view v) {
  unsigned bad = 0;
  for (const char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    bad |= static_cast<unsigned>((c < 0x20 && c != '\t') | (c == 0x7f));
  }
  return bad == 0;
}

// One pass over the name: its bytes are checked while looking for the colon.
template <class Fields>
std::optional<errc> parse_field_line(std::string_view line, Fields& out) {
  if (line.front() == ' ' || line.front() == '\t') return errc::obs_fold;  // RFC 9112 §5.2
  std::size_t colon = 0;
  bool token = true;
  while (colon < line.size() && line[colon] != ':') token &= is_tchar(line[colon++]);
  if (colon == line.size() || colon == 0) return errc::bad_field_name;
  const std::string_view name = line.substr(0, colon);
  if (name.back() == ' ' || name.back() == '\t') return errc::whitespace_before_colon;  // §5.1
  if (!token) return errc::bad_field_name;
  const std::string_view value = trim_ows(line.substr(colon + 1));
  if (!valid_value(value)) return errc::bad_field_value;
  out.add(name, value);
  return std::nullopt;
}

bool has_bare_cr(std::string_view line) {  // a line without its LF; a CR only right before it
  const std::size_t cr = line.find('\r');
  return cr != std::string_view::npos && cr + 1 != line.size();
}

// RFC 9112 §2.2: a server SHOULD ignore empty lines (CRLF or LF) received before the
// request-line. Returns where the first other byte is, or the first position past `max_bytes`
// (the caller then refuses the head as too large).
std::size_t skip_empty_lines(std::string_view in, std::size_t max_bytes) {
  std::size_t pos = 0;
  while (pos < in.size()) {
    if (in[pos] == '\n')
      ++pos;
    else if (in[pos] == '\r' && pos + 1 < in.size() && in[pos + 1] == '\n')
      pos += 2;
    else
      break;
    if (pos > max_bytes) break;
  }
  return pos;
}

// Reads `in` line by line from `line_start` (the start of a line) to the first empty one (CRLF or
// LF): complete with the length up to and including it, too_large once more than `max_bytes` from
// the start of `in` would be needed, else `scan` as it came (more input needed).
section_scan scan_to_blank_line(std::string_view in, std::size_t line_start, std::size_t max_bytes, section_scan scan) {
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
  const std::size_t pos = skip_leading_empty ? skip_empty_lines(in, max_bytes) : 0;
  if (pos > max_bytes) return {section_scan::result::too_large, pos, 0};
  scan.skipped = pos;
  const std::string_view head = in.substr(pos);
  const std::size_t first_lf = head.find('\n');
  if ((first_lf == std::string_view::npos ? head.size() : first_lf) > max_first_line) {
    scan.status = section_scan::result::first_line_too_long;
    return scan;
  }
  if (first_lf == std::string_view::npos) return scan;
  return scan_to_blank_line(head, first_lf + 1, max_bytes, scan);
}

section_scan find_section_end(std::string_view in, std::size_t max_bytes) {
  return scan_to_blank_line(in, 0, max_bytes, section_scan{});
}

std::optional<errc> check_bare_cr(std::string_view head) {
  for (std::size_t i = head.find('\r'); i != std::string_view::npos; i = head.find('\r', i + 1))
    if (i + 1 == head.size() || head[i + 1] != '\n') return errc::bare_cr;  // §2.2
  return std::nullopt;
}

// RFC 9112 §3: request-line = method SP request-target SP HTTP-version (single spaces). One pass:
// the method's bytes are checked while looking for the first space, the target's while looking for
// the second; the errors are those of the rules in this order: a missing or third space, a method
// that is no token, an empty target, a target byte outside RFC 3986's characters, the version.
std::optional<errc> parse_request_line(std::string_view line, request_view& out) {
  const std::size_t n = line.size();
  std::size_t sp1 = 0;
  bool token = true;
  while (sp1 < n && line[sp1] != ' ') token &= is_tchar(line[sp1++]);
  if (sp1 == n) return errc::bad_request_line;
  std::size_t sp2 = sp1 + 1;
  bool target_ok = true;
  while (sp2 < n && line[sp2] != ' ') {
    const auto c = static_cast<unsigned char>(line[sp2++]);
    target_ok &= c > 0x20 && c < 0x7f;  // RFC 3986 characters only
  }
  if (sp2 == n || line.find(' ', sp2 + 1) != std::string_view::npos) return errc::bad_request_line;
  if (sp1 == 0 || !token) return errc::bad_request_line;
  if (sp2 == sp1 + 1) return errc::bad_target;
  if (!target_ok) return errc::bad_target;
  if (auto e = parse_version(line.substr(sp2 + 1), out.version)) return e;
  out.method = line.substr(0, sp1);
  out.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
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

namespace {
template <class Fields>
std::optional<errc> parse_lines(std::string_view block, Fields& out, std::size_t max_fields) {
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
}  // namespace

std::optional<errc> parse_field_lines(std::string_view block, fields& out, std::size_t max_fields) {
  return parse_lines(block, out, max_fields);
}
std::optional<errc> parse_field_lines(std::string_view block, field_views& out, std::size_t max_fields) {
  return parse_lines(block, out, max_fields);
}

// Theory of operation: the walk of find_head_end, with each line parsed as it is passed. A line
// that fails is remembered (the first) and the walk goes on to the end of the head, since limits
// and a bare CR anywhere take precedence; a line that parsed had no bare CR (every byte of a
// request line and a field line is checked, and CR is none of the bytes allowed), so only the
// failing line and the lines after it are searched for one.
request_scan scan_request_head(std::string_view in, std::size_t max_request_line, std::size_t max_head_bytes,
                               std::size_t max_fields, request_view& out) {
  request_scan scan;
  const std::size_t pos = skip_empty_lines(in, max_head_bytes);
  if (pos > max_head_bytes) {
    scan.status = request_scan::result::failed;
    scan.error = errc::header_too_large;
    return scan;
  }
  scan.skipped = pos;
  const std::string_view head = in.substr(pos);
  const auto fail = [&scan](errc e) {
    scan.status = request_scan::result::failed;
    scan.error = e;
    return scan;
  };
  const std::size_t first_lf = head.find('\n');
  if ((first_lf == std::string_view::npos ? head.size() : first_lf) > max_request_line) return fail(errc::uri_too_long);
  if (first_lf == std::string_view::npos) return scan;  // incomplete
  const std::string_view first = strip_cr(head.substr(0, first_lf));
  std::optional<errc> syntax = parse_request_line(first, out);
  bool bare_cr = syntax && has_bare_cr(head.substr(0, first_lf));
  std::size_t line_start = first_lf + 1;
  for (;;) {
    const std::size_t lf = head.find('\n', line_start);
    if (lf == std::string_view::npos) return head.size() > max_head_bytes ? fail(errc::header_too_large) : scan;
    if (lf + 1 > max_head_bytes) return fail(errc::header_too_large);
    const std::string_view raw = head.substr(line_start, lf - line_start);
    const std::string_view line = strip_cr(raw);
    if (line.empty()) {
      bare_cr = bare_cr || has_bare_cr(raw);  // "\r\r\n" is no empty line, but caught here too
      scan.length = lf + 1;
      break;
    }
    if (syntax) {
      bare_cr = bare_cr || has_bare_cr(raw);
    } else if (out.fields.size() >= max_fields) {
      syntax = errc::header_too_large;
      bare_cr = has_bare_cr(raw);
    } else if ((syntax = parse_field_line(line, out.fields))) {
      bare_cr = has_bare_cr(raw);
    }
    line_start = lf + 1;
  }
  if (bare_cr) return fail(errc::bare_cr);
  if (syntax) {
    scan.request_line = first;
    return fail(*syntax);
  }
  scan.status = request_scan::result::complete;
  return scan;
}

}  // namespace netlib::http
