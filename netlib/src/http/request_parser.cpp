// Theory of operation: states awaiting_head -> (body_none | body_length | body_chunked) ->
// awaiting_head for the next pipelined request; failed is sticky.
//   awaiting_head: find the end of the head without consuming (so any split gives the same
//     result), then parse and validate it all at once and consume it: head_complete.
//   body_none: message_complete, consuming nothing.
//   body_length: body_data of what is there, up to the remaining length, then message_complete.
//   body_chunked: the chunked_decoder's events.
// Invariant: nothing past the current message is consumed, so pipelined requests stay in the
// caller's buffer. Limits: request line (414), head (431), body (413), chunk lines (400).
// The head is views of the input (head_bytes_ is the span they point into); keep_head() copies
// that span into kept_ and moves every view by the same offset. The fields whose rules the parser
// checks (Host, Content-Length, Transfer-Encoding) are found in one pass over the names, by
// length first; a request with neither length field has no body and skips the framing rules.
#include "netlib/http/request_parser.hpp"

#include "netlib/http/head_syntax.hpp"

namespace netlib::http {
namespace {

// RFC 3986 host characters: unreserved, pct-encoded, sub-delims, ':' (port) and '[' ']' (IPv6).
// A table, since every Host byte is checked.
struct host_table {
  bool ok[256]{};
  constexpr host_table() noexcept {
    for (int c = 0; c < 256; ++c) {
      const char ch = static_cast<char>(c);
      ok[c] = (detail::tchar_table_entry(static_cast<unsigned char>(c)) && ch != '`' && ch != '^' && ch != '|') ||
              ch == ':' || ch == '[' || ch == ']' || ch == '(' || ch == ')' || ch == ',' || ch == ';' || ch == '=';
    }
  }
};
inline constexpr host_table host_chars{};

bool valid_host(std::string_view h) {
  bool ok = true;
  for (const char c : h) ok &= host_chars.ok[static_cast<unsigned char>(c)];
  return ok;
}

// RFC 9112 §3.2: origin-form, absolute-form, authority-form (CONNECT), asterisk-form (OPTIONS).
bool valid_target_form(const request_view& h) {
  const std::string_view t = h.target;
  if (h.method == "CONNECT") return t.front() != '/' && t.find('/') == std::string_view::npos;
  if (t == "*") return h.method == "OPTIONS";
  if (t.front() == '/') return true;
  const std::size_t colon = t.find("://");
  return colon != std::string_view::npos && colon > 0 && is_token(t.substr(0, colon));
}

enum seen_field : std::uint32_t { seen_host = 1, seen_host_twice = 2, seen_length = 4, seen_coding = 8 };

// Which of the fields the parser rules on are present (and the first Host value).
std::uint32_t classify(const field_views& fields, std::string_view& host) {
  std::uint32_t seen = 0;
  for (const auto& f : fields.lines()) {
    switch (f.name.size()) {
      case 4:
        if (iequals(f.name, "Host")) {
          if (seen & seen_host) {
            seen |= seen_host_twice;
          } else {
            seen |= seen_host;
            host = f.value;
          }
        }
        break;
      case 14:
        if (iequals(f.name, "Content-Length")) seen |= seen_length;
        break;
      case 17:
        if (iequals(f.name, "Transfer-Encoding")) seen |= seen_coding;
        break;
      default:
        break;
    }
  }
  return seen;
}

// Moves a view of `from` to the same place in `to` (views elsewhere are left alone).
void rebase(std::string_view& v, std::string_view from, const char* to) {
  const auto p = reinterpret_cast<std::uintptr_t>(v.data());
  const auto b = reinterpret_cast<std::uintptr_t>(from.data());
  if (p >= b && p <= b + from.size()) v = std::string_view(to + (p - b), v.size());
}

}  // namespace

request_parser& request_parser::operator=(const request_parser& other) {
  if (this == &other) return *this;
  const bool kept = !other.head_bytes_.empty() && other.head_bytes_.data() == other.kept_.data();
  limits_ = other.limits_;
  state_ = other.state_;
  head_ = other.head_;
  head_bytes_ = other.head_bytes_;
  kept_ = other.kept_;
  remaining_ = other.remaining_;
  chunked_ = other.chunked_;
  error_ = other.error_;
  refused_line_ = other.refused_line_;
  if (kept) {  // the views point into other.kept_: move them to this copy's
    rebase(head_.method, other.head_bytes_, kept_.data());
    rebase(head_.target, other.head_bytes_, kept_.data());
    for (auto& f : head_.fields.lines()) {
      rebase(f.name, other.head_bytes_, kept_.data());
      rebase(f.value, other.head_bytes_, kept_.data());
    }
    head_bytes_ = kept_;
  }
  if (!head_.trailers.empty()) take_trailers();  // views of other.chunked_'s
  return *this;
}

void request_parser::take_trailers() {
  head_.trailers.clear();
  for (const field_view t : chunked_.trailers().lines()) head_.trailers.add(t.name, t.value);
}

void request_parser::keep_head() {
  if (head_bytes_.empty() || head_bytes_.data() == kept_.data()) return;
  kept_.assign(head_bytes_);
  rebase(head_.method, head_bytes_, kept_.data());
  rebase(head_.target, head_bytes_, kept_.data());
  for (auto& f : head_.fields.lines()) {
    rebase(f.name, head_bytes_, kept_.data());
    rebase(f.value, head_bytes_, kept_.data());
  }
  head_bytes_ = kept_;
}

parse_step request_parser::fail(errc e) {
  state_ = state::failed;
  error_ = e;
  return {parse_error{e}, 0};
}

parse_step request_parser::next(byte_view input) {
  switch (state_) {
    case state::awaiting_head:
      return on_head(input);
    case state::body_none:
      state_ = state::awaiting_head;
      return {message_complete{}, 0};
    case state::body_length:
      return on_body_length(input);
    case state::body_chunked:
      return on_body_chunked(input);
    case state::failed:
      return {parse_error{*error_}, 0};
  }
  return fail(errc::bad_request_line);
}

std::optional<errc> request_parser::validate(const request_view& h, std::uint32_t seen) const {
  if (!valid_target_form(h)) return errc::bad_target;
  if (seen & seen_host_twice) return errc::repeated_host;                      // RFC 9112 §3.2
  if (!(seen & seen_host) && h.version.minor >= 1) return errc::missing_host;  // RFC 9112 §3.2
  return std::nullopt;
}

parse_step request_parser::on_head(byte_view input) {
  const std::string_view s = as_chars(input);
  // Parsed in place: the field list keeps its memory from the last request. A refused head may be
  // left half filled: a refusal reports refused_request_line(), not head().
  request_view& h = head_;
  h.method = {};
  h.target = {};
  h.version = {};
  h.fields.clear();
  h.trailers.clear();
  const request_scan scan =
      scan_request_head(s, limits_.max_request_line, limits_.max_head_bytes, limits_.max_fields, h);
  // A refused head keeps its first line, so a server can still log the request it refuses.
  const auto refuse = [&](errc e, std::string_view line) {
    refused_line_.assign(line);
    return fail(e);
  };
  switch (scan.status) {
    case request_scan::result::incomplete:
      return {need_more{}, 0};
    case request_scan::result::failed:
      if (!scan.request_line.empty()) return refuse(scan.error, scan.request_line);
      return fail(scan.error);
    case request_scan::result::complete:
      break;
  }
  const std::string_view block = s.substr(scan.skipped, scan.length);
  head_bytes_ = block;
  const auto first_line = [block] {
    std::string_view line = block.substr(0, block.find('\n'));
    if (line.ends_with('\r')) line.remove_suffix(1);
    return line;
  };
  std::string_view host;
  const std::uint32_t seen = classify(h.fields, host);
  if (auto e = validate(h, seen)) return refuse(*e, first_line());
  if ((seen & seen_host) && !valid_host(host)) return refuse(errc::bad_host, first_line());
  body_framing f;  // no length field: no body (RFC 9112 §6.3 rule 6)
  if (seen & (seen_length | seen_coding)) {
    const auto framing = request_framing(h, limits_);
    if (const auto* e = std::get_if<errc>(&framing)) return refuse(*e, first_line());
    f = std::get<body_framing>(framing);
  }
  switch (f.how) {
    case body_framing::kind::length:
      state_ = state::body_length;
      remaining_ = f.length;
      break;
    case body_framing::kind::chunked:
      state_ = state::body_chunked;
      chunked_.reset();
      break;
    default:
      state_ = state::body_none;
      break;
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
    take_trailers();
    state_ = state::awaiting_head;
  }
  return s;
}

}  // namespace netlib::http
