#pragma once
// One connection of the static web server (`lab-http serve`) as a core (no I/O): the HTTP/1.1
// rules of server_session and the responses static_site plans, speaking the session contract
// (netlib/core/session.hpp, session_core) with two actions of its own. docs/architecture.md, "The
// session contract".
//
//   receive(input, now, step)  one request at a time:
//     send_bytes, response_sent[, close_connection]   the session's own answer (400, 405, ...)
//     send_response[, close_connection]               a planned response: write plan->head, then
//                                                     its body (a string or a part of plan->path)
//     wake_at                                         Basic-auth credentials wait for the
//                                                     credentials guard's turn: call tick(now)
//                                                     then; nothing is consumed meanwhile
//   tick(now)                  the held request's response once its time has come
// After a close_connection the session takes nothing more (receive returns no action).
//
// What a send_response points to (the plan, the request) is valid until the next call to the
// session and while the input given to receive() is unchanged: the driver writes the response,
// then drops the consumed bytes. The plan is one per connection and keeps its memory, so a file
// response allocates nothing once the connection is warm (docs/performance.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/core/clock.hpp"
#include "netlib/core/session.hpp"
#include "netlib/http/server_session.hpp"
#include "netlib/http/static_site.hpp"

namespace netlib::http {

// Write the planned response: the head (serialize plan->head), then the body. `last`: the
// request asked to be the last (Connection: close, HTTP/1.0), and a close_connection follows.
struct send_response {
  const response_plan* plan = nullptr;
  const request_view* request = nullptr;  // what was answered (the access log's request line)
  bool last = false;
};

using site_action = session_action<send_response, response_sent>;
using site_step = session_step<site_action>;

class site_session {
 public:
  using action = site_action;
  // `peer`: the client's address, for the credentials guard (empty when the site has none).
  // `trusted_proxies`: peers whose last Forwarded for= names the client the guard keys on
  // instead, request by request (http/forwarded.hpp, client_address).
  site_session(server_session_options options, static_site& site, std::string peer = {},
               std::vector<std::string> trusted_proxies = {});

  std::vector<action> start(const clock_reading&) { return {}; }
  site_step receive(byte_view input, const clock_reading& now);
  // The same into `step` (its actions cleared first), so a driver reuses one step's memory.
  void receive(byte_view input, const clock_reading& now, site_step& step);
  std::vector<action> tick(const clock_reading& now);
  std::vector<action> tls_established(bool) { return {}; }
  std::vector<action> receive_eof() { return {}; }

  // True while no byte of a next request has been consumed (the driver's idle period).
  [[nodiscard]] bool between_requests() const noexcept { return session_.between_requests() && !held_; }
  // A request waits for its turn (a wake_at was returned and tick has not answered it yet).
  [[nodiscard]] bool holding() const noexcept { return held_.has_value(); }

 private:
  void answer(const request_view& request, const clock_reading& now, std::vector<action>& out);
  // The address the credentials guard keys on for this request (empty without a guard).
  std::string_view guarded(const request_view& request);

  server_session session_;
  static_site& site_;
  std::string peer_;
  std::vector<std::string> trusted_;
  std::string client_;  // guarded()'s answer when a trusted proxy names the client
  server_step inner_;
  response_plan plan_;
  std::optional<time_point> held_;  // the turn of the held request
  bool closed_ = false;             // close_connection was returned: nothing more is taken
};

static_assert(session_core<site_session>);

}  // namespace netlib::http
