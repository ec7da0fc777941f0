#pragma once
// One server connection's HTTP/1.1 rules (no I/O): parse requests in order, answer protocol errors
// itself (400/413/414/431/501/505 then close; 501/405 for methods after reading the body), hand
// complete requests to the application, and decide persistence (RFC 9112 §9.3).
//
// Driver loop:  step = session.next(buffer.data(), wall_s); buffer.consume(step.consumed);
//   need_more      -> read more (end of stream: close)
//   serve_request  -> ask the application for a response, call finish_response(), write, and
//                     close if it returned false
//   send_reply     -> write the bytes; close when `close` is set
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "netlib/http/message.hpp"
#include "netlib/http/request_parser.hpp"

namespace netlib::http {

struct server_session_options {
  parser_limits limits;
  std::vector<std::string> allowed_methods{"GET", "HEAD"};
  std::string server_name = "netlab-http";
};

struct serve_request {
  request_head head;
  std::string body;
};
struct send_reply {
  std::string bytes;
  int status = 0;
  bool close = false;
  std::string request_line;  // for the access log; empty when no request line was parsed
};
using server_action = std::variant<need_more, serve_request, send_reply>;

struct server_step {
  server_action action;
  std::size_t consumed = 0;
};

class server_session {
 public:
  explicit server_session(server_session_options options = {});
  server_step next(byte_view input, std::int64_t wall_s);
  // Sets Connection/Date/Server on the application's response to `request` and says whether the
  // connection stays open (RFC 9112 §9.3, §9.6).
  bool finish_response(const request_head& request, response_head& response, std::int64_t wall_s) const;
  // True while no byte of a next request has been consumed (the driver's idle period).
  [[nodiscard]] bool between_requests() const noexcept { return parser_.idle() && !in_message_; }
  [[nodiscard]] bool closed() const noexcept { return closed_; }

 private:
  send_reply error_reply(errc e, std::int64_t wall_s);
  server_step on_message_complete(std::int64_t wall_s);
  [[nodiscard]] bool known_method(std::string_view m) const;
  [[nodiscard]] bool allowed(std::string_view m) const;

  server_session_options options_;
  request_parser parser_;
  std::string body_;
  bool in_message_ = false;
  bool closed_ = false;
};

// A complete small response: head (with Content-Length, Content-Type) and body as one string.
std::string make_text_response(int status, std::string_view body, bool close, std::int64_t wall_s,
                               std::string_view server_name, const fields& extra = {});

}  // namespace netlib::http
