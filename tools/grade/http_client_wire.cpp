// Parsing the client's side of every relayed connection into requests (RFC 9112 §2-§6) and the
// server's side into responses matched to them in order (RFC 9112 §9.3: one response per request).
#include "http_client_wire.hpp"

#include <fmt/format.h>

#include <variant>

#include "netlib/core/bytes.hpp"
#include "netlib/http/request_parser.hpp"
#include "netlib/http/response_parser.hpp"

namespace netlab::grade {

namespace http = netlib::http;

namespace {

std::vector<std::string> split_lines(const std::string& head) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < head.size()) {
    auto end = head.find('\n', start);
    if (end == std::string::npos) end = head.size();
    auto line = head.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

bool host_error(http::errc e) {
  return e == http::errc::missing_host || e == http::errc::repeated_host || e == http::errc::bad_host;
}

// A head the parser refused only for its Host field (RFC 9112 §3.2), read leniently so the host
// check can still name it: the request line split at spaces, field lines split at the colon.
netlib::http::request_head lenient_head(const std::string& head) {
  http::request_head h;
  const auto lines = split_lines(head);
  if (!lines.empty()) {
    const auto sp1 = lines[0].find(' ');
    const auto sp2 = lines[0].rfind(' ');
    h.method = lines[0].substr(0, sp1);
    if (sp1 != std::string::npos && sp2 > sp1) h.target = lines[0].substr(sp1 + 1, sp2 - sp1 - 1);
    h.version.minor = lines[0].ends_with("HTTP/1.0") ? 0 : 1;
  }
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto colon = lines[i].find(':');
    if (colon != std::string::npos)
      h.fields.add(lines[i].substr(0, colon), http::trim_ows(std::string_view(lines[i]).substr(colon + 1)));
  }
  return h;
}

// Parses one connection's requests; false (with out.error set) at the first parse error.
bool parse_requests(const std::string& bytes, std::size_t index, client_requests& out) {
  http::request_parser parser;
  netlib::byte_view rest = netlib::as_bytes(bytes);
  std::size_t head_start = 0;
  for (int guard = 0; guard < 100000; ++guard) {
    const std::size_t offset = bytes.size() - rest.size();
    const auto step = parser.next(rest);
    rest = rest.subspan(step.consumed);
    if (std::holds_alternative<http::need_more>(step.event)) break;
    if (const auto* e = std::get_if<http::parse_error>(&step.event); e && host_error(e->code)) {
      // Recorded without a parsed Host; parsing goes on after its head with a fresh parser.
      const auto end = bytes.find("\r\n\r\n", offset);
      if (end == std::string::npos) break;
      out.requests.push_back({index,
                              bytes.substr(offset, end + 4 - offset),
                              lenient_head(bytes.substr(offset, end - offset)),
                              {},
                              {},
                              {}});
      parser = http::request_parser();
      rest = netlib::as_bytes(bytes).subspan(end + 4);
      head_start = end + 4;
      continue;
    }
    if (const auto* e = std::get_if<http::parse_error>(&step.event)) {
      out.error = fmt::format("request {} on connection {} is malformed: {}", out.requests.size() + 1, index + 1,
                              http::make_error_code(e->code).message());
      out.error_bytes = bytes.substr(head_start);
      return false;
    }
    if (std::holds_alternative<http::head_complete>(step.event)) {
      out.requests.push_back({index,
                              bytes.substr(head_start, offset + step.consumed - head_start),
                              http::request_head(parser.head()),
                              {},
                              {},
                              {}});  // an owned copy: kept
    }
    if (std::holds_alternative<http::message_complete>(step.event)) head_start = bytes.size() - rest.size();
  }
  if (!rest.empty() && out.error.empty()) {
    out.error = fmt::format("connection {} ends inside a request", index + 1);
    out.error_bytes = bytes.substr(head_start);
    return false;
  }
  return true;
}

// Pairs the responses on one connection with its requests [first, end).
void match_responses(const std::string& bytes, std::size_t first, client_requests& out) {
  http::response_parser parser;
  for (std::size_t i = first; i < out.requests.size(); ++i) parser.expect(out.requests[i].head.method);
  netlib::byte_view rest = netlib::as_bytes(bytes);
  std::size_t next = first;
  for (int guard = 0; guard < 100000 && next < out.requests.size(); ++guard) {
    auto step = rest.empty() ? parser.receive_eof() : parser.next(rest);
    rest = rest.subspan(step.consumed);
    if (std::holds_alternative<http::parse_error>(step.event)) return;
    if (std::holds_alternative<http::need_more>(step.event) && rest.empty()) {
      step = parser.receive_eof();
      if (!std::holds_alternative<http::message_complete>(step.event)) return;
    }
    if (std::holds_alternative<http::head_complete>(step.event) && parser.head().status >= 200) {
      auto& r = out.requests[next++];
      r.status = parser.head().status;
      r.etag = std::string(parser.head().fields.get("ETag").value_or(""));
      r.last_modified = std::string(parser.head().fields.get("Last-Modified").value_or(""));
    }
  }
}

}  // namespace

client_requests parse_client_requests(const std::vector<conversation>& conversations) {
  client_requests out;
  for (std::size_t i = 0; i < conversations.size(); ++i) {
    const std::size_t first = out.requests.size();
    const bool ok = parse_requests(conversations[i].client_bytes(), i, out);
    match_responses(conversations[i].server_bytes(), first, out);
    if (!ok) break;
  }
  return out;
}

}  // namespace netlab::grade
