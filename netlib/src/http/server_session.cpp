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

std::string make_text_response(int status, std::string_view body, bool close, const clock_reading& now,
                               std::string_view server_name, const fields& extra) {
  response_head h;
  h.status = status;
  h.fields.add("Date", format_http_date(now.wall_seconds()));
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
  static constexpr std::string_view methods[] = {"GET",     "HEAD",    "POST",  "PUT",  "DELETE",
                                                 "CONNECT", "OPTIONS", "TRACE", "PATCH"};
  return std::find(std::begin(methods), std::end(methods), m) != std::end(methods);
}

bool server_session::allowed(std::string_view m) const {
  return std::find(options_.allowed_methods.begin(), options_.allowed_methods.end(), m) !=
         options_.allowed_methods.end();
}

void server_session::answer(int status, std::string bytes, bool close, std::string request_line, server_step& step) {
  step.actions.emplace_back(send_bytes{std::move(bytes)});
  step.actions.emplace_back(response_sent{status, std::move(request_line)});
  if (close) step.actions.emplace_back(close_connection{});
}

void server_session::error_reply(errc e, const clock_reading& now, server_step& step) {
  closed_ = true;
  const int status = status_for(e);
  const std::string body = fmt::format("{}: {}\n", http::status{status}, make_error_code(e).message());
  const auto& h = parser_.head();
  std::string request_line;
  if (!parser_.refused_request_line().empty())
    request_line = parser_.refused_request_line();
  else if (!h.method.empty())
    request_line = fmt::format("{} {} HTTP/{}.{}", h.method, h.target, h.version.major, h.version.minor);
  answer(status, make_text_response(status, body, true, now, options_.server_name), true, std::move(request_line),
         step);
}

server_step server_session::receive(byte_view input, const clock_reading& now) {
  server_step step;
  receive(input, now, step);
  return step;
}

void server_session::receive(byte_view input, const clock_reading& now, server_step& step) {
  step.actions.clear();
  step.consumed = 0;
  std::size_t& used = step.consumed;
  for (int round = 0; round < 1'000'000; ++round) {  // each round consumes or returns
    parse_step s = parser_.next(input.subspan(used));
    used += s.consumed;
    if (auto* e = std::get_if<parse_error>(&s.event)) return error_reply(e->code, now, step);
    if (std::holds_alternative<need_more>(s.event)) {
      // The body goes on in the next read: the caller drops what was consumed, the head with it.
      if (in_message_) parser_.keep_head();
      return;
    }
    if (std::holds_alternative<head_complete>(s.event)) {
      in_message_ = true;
      body_.clear();
    } else if (auto* d = std::get_if<body_data>(&s.event)) {
      body_.append(as_chars(d->bytes));
    } else if (std::holds_alternative<message_complete>(s.event)) {
      return on_message_complete(now, step);
    }
  }
}

void server_session::on_message_complete(const clock_reading& now, server_step& step) {
  in_message_ = false;
  const request_view& h = parser_.head();
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
    return answer(status, make_text_response(status, body, !keep, now, options_.server_name, extra), !keep, line, step);
  }
  step.actions.emplace_back(serve_request{&parser_.head(), body_});
}

// One pass finds which of the three fields the response has already (usually none).
bool server_session::finish_response(const request_view& request, response_head& response,
                                     const clock_reading& now) const {
  const bool keep = !closed_ && wants_keep_alive(request);
  bool date = false, server = false, connection = false;
  for (const field_view f : response.fields.lines()) {
    switch (f.name.size()) {
      case 4:
        date = date || iequals(f.name, "Date");
        break;
      case 6:
        server = server || iequals(f.name, "Server");
        break;
      case 10:
        connection = connection || iequals(f.name, "Connection");
        break;
      default:
        break;
    }
  }
  if (date) response.fields.remove("Date");
  if (connection) response.fields.remove("Connection");
  http_date_buffer text;
  response.fields.add("Date", format_http_date(now.wall_seconds(), text));
  if (!server) response.fields.add("Server", options_.server_name);
  if (!keep)
    response.fields.add("Connection", "close");
  else if (request.version.minor == 0)
    response.fields.add("Connection", "keep-alive");  // RFC 9112 §9.3
  return keep;
}

}  // namespace netlib::http
