// Theory of operation: states awaiting_head -> (body_none | body_length | body_chunked) ->
// awaiting_head for the next pipelined request; failed is sticky.
//   awaiting_head: find the end of the head without consuming (so any split gives the same
//     result), then parse and validate it all at once and consume it: head_complete.
//   body_none: message_complete, consuming nothing.
//   body_length: body_data of what is there, up to the remaining length, then message_complete.
//   body_chunked: the chunked_decoder's events.
// Invariant: nothing past the current message is consumed, so pipelined requests stay in the
// caller's buffer. Limits: request line (414), head (431), body (413), chunk lines (400).
#include "netlib/http/request_parser.hpp"

#include "netlib/http/head_syntax.hpp"

namespace netlib::http {
namespace {

// RFC 3986 host characters: unreserved, pct-encoded, sub-delims, ':' (port) and '[' ']' (IPv6).
bool valid_host(std::string_view h) {
  for (char c : h) {
    if (is_tchar(c) && c != '`' && c != '^' && c != '|') continue;
    switch (c) {
      case ':': case '[': case ']': case '(': case ')': case ',': case ';': case '=': continue;
      default: return false;
    }
  }
  return true;
}

// RFC 9112 §3.2: origin-form, absolute-form, authority-form (CONNECT), asterisk-form (OPTIONS).
bool valid_target_form(const request_head& h) {
  const std::string_view t = h.target;
  if (h.method == "CONNECT") return t.front() != '/' && t.find('/') == std::string_view::npos;
  if (t == "*") return h.method == "OPTIONS";
  if (t.front() == '/') return true;
  const std::size_t colon = t.find("://");
  return colon != std::string_view::npos && colon > 0 && is_token(t.substr(0, colon));
}

}  // namespace

parse_step request_parser::fail(errc e) {
  state_ = state::failed;
  error_ = e;
  return {parse_error{e}, 0};
}

parse_step request_parser::next(byte_view input) {
  switch (state_) {
    case state::awaiting_head: return on_head(input);
    case state::body_none:
      state_ = state::awaiting_head;
      return {message_complete{}, 0};
    case state::body_length: return on_body_length(input);
    case state::body_chunked: return on_body_chunked(input);
    case state::failed: return {parse_error{*error_}, 0};
  }
  return fail(errc::bad_request_line);
}

std::optional<errc> request_parser::validate(const request_head& h) const {
  if (!valid_target_form(h)) return errc::bad_target;
  const std::size_t hosts = h.fields.count("Host");
  if (hosts > 1) return errc::repeated_host;                       // RFC 9112 §3.2
  if (hosts == 0 && h.version.minor >= 1) return errc::missing_host;  // RFC 9112 §3.2
  if (hosts == 1 && !valid_host(*h.fields.get("Host"))) return errc::bad_host;
  return std::nullopt;
}

parse_step request_parser::on_head(byte_view input) {
  const std::string_view s = as_chars(input);
  const section_scan scan = find_head_end(s, limits_.max_request_line, limits_.max_head_bytes, true);
  switch (scan.status) {
    case section_scan::result::incomplete: return {need_more{}, 0};
    case section_scan::result::first_line_too_long: return fail(errc::uri_too_long);
    case section_scan::result::too_large: return fail(errc::header_too_large);
    case section_scan::result::complete: break;
  }
  const std::string_view block = s.substr(scan.skipped, scan.length);
  if (auto e = check_bare_cr(block)) return fail(*e);
  const std::size_t lf = block.find('\n');
  std::string_view line = block.substr(0, lf);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // Parsed in place (the strings and the field list keep their memory from the last request);
  // a refused head may be left half filled: a refusal reports refused_line(), not head().
  request_head& h = head_;
  h.method.clear();
  h.target.clear();
  h.version = {};
  h.fields.clear();
  h.trailers.clear();
  // A refused head keeps its first line, so a server can still log the request it refuses.
  const auto refuse = [&](errc e) {
    refused_line_.assign(line);
    return fail(e);
  };
  if (auto e = parse_request_line(line, h)) return refuse(*e);
  if (auto e = parse_field_lines(block.substr(lf + 1), h.fields, limits_.max_fields)) return refuse(*e);
  if (auto e = validate(h)) return refuse(*e);
  const auto framing = request_framing(h, limits_);
  if (const auto* e = std::get_if<errc>(&framing)) return refuse(*e);
  const auto& f = std::get<body_framing>(framing);
  switch (f.how) {
    case body_framing::kind::length:
      state_ = state::body_length;
      remaining_ = f.length;
      break;
    case body_framing::kind::chunked:
      state_ = state::body_chunked;
      chunked_.reset();
      break;
    default: state_ = state::body_none; break;
  }
  return {head_complete{}, scan.skipped + scan.length};
}

parse_step request_parser::on_body_length(byte_view input) {
  if (remaining_ == 0) {
    state_ = state::awaiting_head;
    return {message_complete{}, 0};
  }
  if (input.empty()) return {need_more{}, 0};
  const std::size_t n = remaining_ < input.size() ? static_cast<std::size_t>(remaining_) : input.size();
  remaining_ -= n;
  return {body_data{input.first(n)}, n};
}

parse_step request_parser::on_body_chunked(byte_view input) {
  parse_step s = chunked_.next(input);
  if (const auto* e = std::get_if<parse_error>(&s.event)) return fail(e->code);
  if (std::holds_alternative<message_complete>(s.event)) {
    head_.trailers = chunked_.trailers();
    state_ = state::awaiting_head;
  }
  return s;
}

}  // namespace netlib::http
