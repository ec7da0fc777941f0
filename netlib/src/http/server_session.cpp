// Theory of operation: the session wraps a request_parser. States are the parser's plus one flag,
// in_message_ (a request head was consumed and its message is not complete yet).
//   head_complete     -> remember the head; collect the body (bounded by limits.max_body).
//   message_complete  -> unknown method: 501 (RFC 9110 §9.1); known but not allowed: 405 with
//                        Allow (RFC 9110 §15.5.6); else serve_request for the application.
//                        Answering only after the body was read keeps the framing in step, so
//                        the connection can stay open and the next pipelined request is next.
//   parse_error       -> the error's status (400, 413, 414, 431, 501, 505) with
//                        "Connection: close"; the session is closed (RFC 9112 §11.2: after a
//                        framing error nothing more on this connection can be trusted).
// Requests are handed out one at a time in arrival order, so answers are in order (§9.3.2).
#include "netlib/http/server_session.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "netlib/http/http_date.hpp"
#include "netlib/http/serializer.hpp"
#include "netlib/http/status.hpp"

namespace netlib::http {

std::string make_text_response(int status, std::string_view body, bool close, std::int64_t wall_s,
                               std::string_view server_name, const fields& extra) {
  response_head h;
  h.status = status;
  h.fields.add("Date", format_http_date(wall_s));
  h.fields.add("Server", server_name);
  for (const auto& f : extra.lines()) h.fields.add(f.name, f.value);
  h.fields.add("Content-Type", "text/plain; charset=utf-8");
  h.fields.add("Content-Length", std::to_string(body.size()));
  if (close) h.fields.add("Connection", "close");
  return serialize(h) + std::string(body);
}

server_session::server_session(server_session_options options)
    : options_(std::move(options)), parser_(options_.limits) {}

bool server_session::known_method(std::string_view m) const {
  static constexpr std::string_view methods[] = {"GET", "HEAD", "POST", "PUT", "DELETE",
                                                 "CONNECT", "OPTIONS", "TRACE", "PATCH"};
  return std::find(std::begin(methods), std::end(methods), m) != std::end(methods);
}

bool server_session::allowed(std::string_view m) const {
  return std::find(options_.allowed_methods.begin(), options_.allowed_methods.end(), m) !=
         options_.allowed_methods.end();
}

send_reply server_session::error_reply(errc e, std::int64_t wall_s) {
  closed_ = true;
  const int status = status_for(e);
  const std::string body = fmt::format("{}: {}\n", http::status{status}, make_error_code(e).message());
  send_reply r{make_text_response(status, body, true, wall_s, options_.server_name), status, true, {}};
  const auto& h = parser_.head();
  if (!parser_.refused_request_line().empty()) r.request_line = parser_.refused_request_line();
  else if (!h.method.empty()) r.request_line = fmt::format("{} {} HTTP/{}.{}", h.method, h.target, h.version.major, h.version.minor);
  return r;
}

server_step server_session::next(byte_view input, std::int64_t wall_s) {
  std::size_t used = 0;
  for (int round = 0; round < 1'000'000; ++round) {  // each round consumes or returns
    parse_step s = parser_.next(input.subspan(used));
    used += s.consumed;
    if (auto* e = std::get_if<parse_error>(&s.event)) return {error_reply(e->code, wall_s), used};
    if (std::holds_alternative<need_more>(s.event)) return {need_more{}, used};
    if (std::holds_alternative<head_complete>(s.event)) {
      in_message_ = true;
      body_.clear();
    } else if (auto* d = std::get_if<body_data>(&s.event)) {
      body_.append(as_chars(d->bytes));
    } else if (std::holds_alternative<message_complete>(s.event)) {
      server_step step = on_message_complete(wall_s);
      step.consumed = used;
      return step;
    }
  }
  return {need_more{}, used};
}

server_step server_session::on_message_complete(std::int64_t wall_s) {
  in_message_ = false;
  const request_head& h = parser_.head();
  if (!known_method(h.method) || !allowed(h.method)) {
    const std::string line = fmt::format("{} {} HTTP/{}.{}", h.method, h.target, h.version.major, h.version.minor);
    const bool keep = wants_keep_alive(h);
    if (!keep) closed_ = true;
    const int status = known_method(h.method) ? 405 : 501;
    fields extra;
    if (status == 405) {
      std::string allow;
      for (const auto& m : options_.allowed_methods) allow += (allow.empty() ? "" : ", ") + m;
      extra.add("Allow", allow);
    }
    const std::string body = fmt::format("{}: {}\n", http::status{status}, h.method);
    return {send_reply{make_text_response(status, body, !keep, wall_s, options_.server_name, extra), status, !keep, line}, 0};
  }
  return {serve_request{parser_.take_head(), std::move(body_)}, 0};
}

bool server_session::finish_response(const request_head& request, response_head& response, std::int64_t wall_s) const {
  const bool keep = !closed_ && wants_keep_alive(request);
  response.fields.set("Date", format_http_date(wall_s));
  if (!response.fields.contains("Server")) response.fields.add("Server", options_.server_name);
  response.fields.remove("Connection");
  if (!keep) response.fields.add("Connection", "close");
  else if (request.version.minor == 0) response.fields.add("Connection", "keep-alive");  // RFC 9112 §9.3
  return keep;
}

}  // namespace netlib::http
