#pragma once
// One server connection's HTTP/1.1 rules (no I/O): parse requests in order, answer protocol errors
// itself (400/413/414/431/501/505 then close; 501/405 for methods after reading the body), hand
// complete requests to the application, and decide persistence (RFC 9112 §9.3). It speaks the
// session contract (netlib/core/session.hpp) with two actions of its own.
//
// Driver loop:  step = session.receive(buffer.data(), now); buffer.consume(step.consumed);
//   no actions       -> read more (end of stream: close)
//   serve_request    -> ask the application for a response, call finish_response(), write, and
//                       close if it returned false
//   send_bytes, response_sent[, close_connection]
//                    -> an answer of the session's own: write it, log it, close when asked
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "netlib/core/clock.hpp"
#include "netlib/core/session.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/request_parser.hpp"

namespace netlib::http {

struct server_session_options {
  parser_limits limits;
  std::vector<std::string> allowed_methods{"GET", "HEAD"};
  std::string server_name = "netlab-http";
};

// A complete request for the application: the parsed head (views of the input given to
// receive(), see request_parser.hpp) and the body. Both are valid until the next call to the
// session, as long as the caller keeps the input it passed unchanged (it drops the consumed bytes
// after answering); a caller that keeps the request longer copies it (request_head(req.head())).
struct serve_request {
  const request_view* request = nullptr;
  std::string_view body;
  [[nodiscard]] const request_view& head() const noexcept { return *request; }
};
// The session answered by itself (the send_bytes before this action): what the access log says.
struct response_sent {
  int status = 0;
  std::string request_line;  // empty when no request line was parsed
};
using server_action = session_action<serve_request, response_sent>;
using server_step = session_step<server_action>;

// It satisfies netlib::session_core: no greeting (start), no timers of its own (tick), no
// STARTTLS (HTTPS is TLS from the first byte, set up by the driver), and nothing to say at the end
// of the stream.
class server_session {
 public:
  using action = server_action;
  explicit server_session(server_session_options options = {});
  std::vector<action> start(const clock_reading&) { return {}; }
  // One request at a time: returns no actions (read more), serve_request, or the session's own
  // answer. Call again after the answer was written. A request whose body takes more than this
  // input is kept by the session (request_parser::keep_head), so the caller may drop what was
  // consumed and read on.
  server_step receive(byte_view input, const clock_reading& now);
  // The same into `step` (its actions cleared first), so a driver reuses one step's memory.
  void receive(byte_view input, const clock_reading& now, server_step& step);
  std::vector<action> tick(const clock_reading&) { return {}; }
  std::vector<action> tls_established(bool) { return {}; }
  std::vector<action> receive_eof() { return {}; }
  // Sets Connection/Date/Server on the application's response to `request` and says whether the
  // connection stays open (RFC 9112 §9.3, §9.6). Reuses the memory of the fields it replaces.
  bool finish_response(const request_view& request, response_head& response, const clock_reading& now) const;
  // The last serve_request's head (request_parser::head()).
  [[nodiscard]] const request_view& request() const noexcept { return parser_.head(); }
  // Copies that head into the session, so it outlives the input (an application that holds the
  // request while the caller reads on).
  void keep_request() { parser_.keep_head(); }
  // True while no byte of a next request has been consumed (the driver's idle period).
  [[nodiscard]] bool between_requests() const noexcept { return parser_.idle() && !in_message_; }
  [[nodiscard]] bool closed() const noexcept { return closed_; }

 private:
  void error_reply(errc e, const clock_reading& now, server_step& step);
  void on_message_complete(const clock_reading& now, server_step& step);
  void answer(int status, std::string bytes, bool close, std::string request_line, server_step& step);
  [[nodiscard]] bool known_method(std::string_view m) const;
  [[nodiscard]] bool allowed(std::string_view m) const;

  server_session_options options_;
  request_parser parser_;
  std::string body_;
  bool in_message_ = false;
  bool closed_ = false;
};

// A complete small response: head (with Content-Length, Content-Type) and body as one string.
std::string make_text_response(int status, std::string_view body, bool close, const clock_reading& now,
                               std::string_view server_name, const fields& extra = {});

static_assert(session_core<server_session>);

}  // namespace netlib::http
