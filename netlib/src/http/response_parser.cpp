// Theory of operation: states awaiting_head -> (body_none | body_length | body_chunked |
// body_until_close) -> awaiting_head; failed is sticky. A 1xx head (RFC 9110 §15.2) is reported
// and the parser waits for the next head of the same response. Each final response takes the
// oldest expected method (expect()), so HEAD answers carry no body even when pipelined.
// A close-delimited body (RFC 9112 §6.3 rule 8) ends only at receive_eof(); end of stream inside
// a body of known length is truncated_message.
#include "netlib/http/response_parser.hpp"

#include "netlib/http/head_syntax.hpp"
#include "netlib/http/status.hpp"

namespace netlib::http {

parse_step response_parser::fail(errc e) {
  state_ = state::failed;
  error_ = e;
  return {parse_error{e}, 0};
}

void response_parser::finish_message() {
  state_ = state::awaiting_head;
  if (!methods_.empty()) methods_.pop_front();
}

parse_step response_parser::next(byte_view input) {
  switch (state_) {
    case state::awaiting_head:
      return on_head(input);
    case state::body_none:
      finish_message();
      return {message_complete{}, 0};
    case state::body_length:
      return on_body_length(input);
    case state::body_chunked:
      return on_body_chunked(input);
    case state::body_until_close:
      if (input.empty()) return {need_more{}, 0};
      return {body_data{input}, input.size()};
    case state::failed:
      return {parse_error{*error_}, 0};
  }
  return fail(errc::bad_status_line);
}

parse_step response_parser::receive_eof() {
  switch (state_) {
    case state::awaiting_head:
      return {need_more{}, 0};
    case state::body_until_close:
      finish_message();
      return {message_complete{}, 0};
    case state::failed:
      return {parse_error{*error_}, 0};
    default:
      return fail(errc::truncated_message);
  }
}

parse_step response_parser::on_head(byte_view input) {
  const std::string_view s = as_chars(input);
  const section_scan scan = find_head_end(s, limits_.max_head_bytes, limits_.max_head_bytes, false);
  switch (scan.status) {
    case section_scan::result::incomplete:
      return {need_more{}, 0};
    case section_scan::result::first_line_too_long:
    case section_scan::result::too_large:
      return fail(errc::header_too_large);
    case section_scan::result::complete:
      break;
  }
  const std::string_view block = s.substr(0, scan.length);
  if (auto e = check_bare_cr(block)) return fail(*e);
  const std::size_t lf = block.find('\n');
  std::string_view line = block.substr(0, lf);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  response_head h;
  if (auto e = parse_status_line(line, h)) return fail(*e);
  if (auto e = parse_field_lines(block.substr(lf + 1), h.fields, limits_.max_fields)) return fail(*e);
  head_ = std::move(h);
  if (is_interim(head_.status) && head_.status != 101) return {head_complete{}, scan.length};
  const std::string method = methods_.empty() ? std::string("GET") : methods_.front();
  const auto framing = response_framing(head_, method);
  if (const auto* e = std::get_if<errc>(&framing)) return fail(*e);
  framing_ = std::get<body_framing>(framing);
  switch (framing_.how) {
    case body_framing::kind::none:
      state_ = state::body_none;
      break;
    case body_framing::kind::length:
      state_ = state::body_length;
      remaining_ = framing_.length;
      break;
    case body_framing::kind::chunked:
      state_ = state::body_chunked;
      chunked_.reset();
      break;
    case body_framing::kind::until_close:
      state_ = state::body_until_close;
      break;
  }
  return {head_complete{}, scan.length};
}

parse_step response_parser::on_body_length(byte_view input) {
  if (remaining_ == 0) {
    finish_message();
    return {message_complete{}, 0};
  }
  if (input.empty()) return {need_more{}, 0};
  const std::size_t n = remaining_ < input.size() ? static_cast<std::size_t>(remaining_) : input.size();
  remaining_ -= n;
  return {body_data{input.first(n)}, n};
}

parse_step response_parser::on_body_chunked(byte_view input) {
  parse_step s = chunked_.next(input);
  if (const auto* e = std::get_if<parse_error>(&s.event)) return fail(e->code);
  if (std::holds_alternative<message_complete>(s.event)) {
    head_.trailers = chunked_.trailers();
    finish_message();
  }
  return s;
}

}  // namespace netlib::http
