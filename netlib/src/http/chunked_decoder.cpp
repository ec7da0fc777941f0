// Theory of operation: states size_line -> data -> data_crlf -> size_line ... -> (size 0) ->
// trailers -> done; failed is sticky. Each call handles the state's piece of the unconsumed input
// and reports what it consumed; a piece that is not complete yet (a chunk line without its CRLF,
// an unfinished trailer section) gives need_more and consumes nothing, so any split of the input
// gives the same events. Chunk lines must end with CRLF exactly (RFC 9112 §7.1): accepting a bare
// LF here is a known request-smuggling vector.
#include "netlib/http/chunked_decoder.hpp"

#include "netlib/http/head_syntax.hpp"

namespace netlib::http {
namespace {

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void skip_bws(std::string_view& s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
}

std::string_view take_token(std::string_view& s) {
  std::size_t n = 0;
  while (n < s.size() && is_tchar(s[n])) ++n;
  const auto t = s.substr(0, n);
  s.remove_prefix(n);
  return t;
}

// quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE (RFC 9110 §5.6.4)
bool take_quoted(std::string_view& s) {
  if (s.empty() || s.front() != '"') return false;
  for (std::size_t i = 1; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"') {
      s.remove_prefix(i + 1);
      return true;
    }
    if (c == '\\') {
      if (++i == s.size()) return false;
      const auto q = static_cast<unsigned char>(s[i]);
      if (q != '\t' && (q < 0x20 || q == 0x7f)) return false;
    } else if (c != '\t' && (c < 0x20 || c == 0x7f)) {
      return false;
    }
  }
  return false;
}

// chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ) (RFC 9112 §7.1.1)
bool valid_extensions(std::string_view s) {
  for (;;) {
    skip_bws(s);
    if (s.empty()) return true;
    if (s.front() != ';') return false;
    s.remove_prefix(1);
    skip_bws(s);
    if (take_token(s).empty()) return false;
    skip_bws(s);
    if (s.empty() || s.front() != '=') continue;
    s.remove_prefix(1);
    skip_bws(s);
    if (!s.empty() && s.front() == '"') {
      if (!take_quoted(s)) return false;
    } else if (take_token(s).empty()) {
      return false;
    }
  }
}

}  // namespace

std::optional<std::uint64_t> parse_chunk_line(std::string_view line, errc& error) {
  std::uint64_t size = 0;
  std::size_t digits = 0;
  while (digits < line.size() && hex_value(line[digits]) >= 0) {
    if (size > (UINT64_MAX >> 4) || digits >= 16) {  // overflow guard (RFC 9112 §7.1)
      error = errc::chunk_size_overflow;
      return std::nullopt;
    }
    size = size * 16 + static_cast<std::uint64_t>(hex_value(line[digits]));
    ++digits;
  }
  if (digits == 0) {
    error = errc::bad_chunk_size;
    return std::nullopt;
  }
  if (!valid_extensions(line.substr(digits))) {
    error = errc::bad_chunk_extension;
    return std::nullopt;
  }
  return size;
}

parse_step chunked_decoder::fail(errc e) {
  state_ = state::failed;
  error_ = e;
  return {parse_error{e}, 0};
}

parse_step chunked_decoder::next(byte_view input) {
  // Framing bytes (chunk lines, CRLFs) give need_more with consumed > 0: go on with the rest so
  // that need_more is only returned when the input is exhausted. Each round consumes, so the loop
  // is bounded by the input size.
  std::size_t used = 0;
  for (;;) {
    parse_step s = step(input.subspan(used));
    used += s.consumed;
    if (!std::holds_alternative<need_more>(s.event) || s.consumed == 0) {
      s.consumed = used;
      return s;
    }
  }
}

void chunked_decoder::reset() {
  state_ = state::size_line;
  remaining_ = total_ = 0;
  trailers_.clear();
}

parse_step chunked_decoder::step(byte_view input) {
  switch (state_) {
    case state::size_line:
      return on_size_line(input);
    case state::data:
      return on_data(input);
    case state::data_crlf:
      return on_data_crlf(input);
    case state::trailers:
      return on_trailers(input);
    case state::done:
      return {message_complete{}, 0};
    case state::failed:
      return {parse_error{error_}, 0};
  }
  return fail(errc::bad_chunk_size);
}

parse_step chunked_decoder::on_size_line(byte_view input) {
  const std::string_view s = as_chars(input);
  const std::size_t lf = s.find('\n');
  if (lf == std::string_view::npos) {
    if (s.size() > limits_.max_chunk_line) return fail(errc::bad_chunk_extension);
    return {need_more{}, 0};
  }
  if (lf > limits_.max_chunk_line) return fail(errc::bad_chunk_extension);
  if (lf == 0 || s[lf - 1] != '\r') return fail(errc::bad_chunk_size);  // CRLF required
  errc e = errc::bad_chunk_size;
  const auto size = parse_chunk_line(s.substr(0, lf - 1), e);
  if (!size) return fail(e);
  if (*size > limits_.max_body || total_ + *size > limits_.max_body) return fail(errc::body_too_large);
  remaining_ = *size;
  total_ += *size;
  state_ = *size == 0 ? state::trailers : state::data;
  return {need_more{}, lf + 1};
}

parse_step chunked_decoder::on_data(byte_view input) {
  if (input.empty()) return {need_more{}, 0};
  const std::size_t n = remaining_ < input.size() ? static_cast<std::size_t>(remaining_) : input.size();
  remaining_ -= n;
  if (remaining_ == 0) state_ = state::data_crlf;
  return {body_data{input.first(n)}, n};
}

parse_step chunked_decoder::on_data_crlf(byte_view input) {
  const std::string_view s = as_chars(input);
  if (s.empty() || (s.size() == 1 && s[0] == '\r')) return {need_more{}, 0};
  if (s.substr(0, 2) != "\r\n") return fail(errc::bad_chunk_terminator);
  state_ = state::size_line;
  return {need_more{}, 2};
}

parse_step chunked_decoder::on_trailers(byte_view input) {
  const std::string_view s = as_chars(input);
  const section_scan scan = find_section_end(s, limits_.max_trailer_bytes);
  if (scan.status == section_scan::result::too_large) return fail(errc::header_too_large);
  if (scan.status != section_scan::result::complete) return {need_more{}, 0};
  const std::string_view block = s.substr(0, scan.length);
  if (check_bare_cr(block)) return fail(errc::bare_cr);
  fields parsed;
  if (parse_field_lines(block, parsed, limits_.max_fields)) return fail(errc::bad_trailer);
  trailers_ = std::move(parsed);
  state_ = state::done;
  return {message_complete{}, scan.length};
}

}  // namespace netlib::http
