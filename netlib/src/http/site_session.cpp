// Theory of operation: receive() feeds server_session and passes its own answers on unchanged; a
// serve_request goes to static_site, which plans into the session's one plan_ (memory kept from
// response to response); server_session::finish_response adds Date, Server and Connection and
// decides persistence; the plan goes out as send_response (and close_connection when it is the
// last). A plan that says `wait` (the credentials guard's turn) becomes wake_at: the request's
// head is copied into the session (server_session::keep_request), receive() takes nothing until
// tick() at that time plans the response again with the credentials checked (respond_held).
// The credentials guard keys on the peer, or, for a request from a trusted proxy, on the client
// its last Forwarded element names (guarded(), per request: one proxy carries many clients).
#include "netlib/http/site_session.hpp"

#include <type_traits>
#include <utility>

#include "netlib/http/forwarded.hpp"

namespace netlib::http {

site_session::site_session(server_session_options options, static_site& site, std::string peer,
                           std::vector<std::string> trusted_proxies)
    : session_(std::move(options)), site_(site), peer_(std::move(peer)), trusted_(std::move(trusted_proxies)) {}

std::string_view site_session::guarded(const request_view& request) {
  if (peer_.empty() || trusted_.empty()) return peer_;  // no guard, or no proxy to believe
  client_ = client_address(request.fields, peer_, trusted_);
  return client_;
}

site_step site_session::receive(byte_view input, const clock_reading& now) {
  site_step step;
  receive(input, now, step);
  return step;
}

void site_session::receive(byte_view input, const clock_reading& now, site_step& step) {
  step.actions.clear();
  step.consumed = 0;
  if (held_ || closed_) return;  // nothing is taken while a request waits for its turn, or once closed
  session_.receive(input, now, inner_);
  step.consumed = inner_.consumed;
  for (auto& a : inner_.actions) {
    if (auto* req = std::get_if<serve_request>(&a)) {
      site_.respond(req->head(), now, guarded(req->head()), plan_);
      if (plan_.wait) {
        held_ = plan_.wait->when;
        session_.keep_request();
        step.actions.emplace_back(wake_at{*held_});
        return;
      }
      answer(req->head(), now, step.actions);
      continue;
    }
    std::visit(
        [this, &step](auto& x) {
          using A = std::remove_cvref_t<decltype(x)>;
          if constexpr (std::is_same_v<A, close_connection>) closed_ = true;
          if constexpr (!std::is_same_v<A, serve_request>) step.actions.emplace_back(std::move(x));
        },
        a);
  }
}

std::vector<site_action> site_session::tick(const clock_reading& now) {
  if (!held_) return {};
  if (now.mono < *held_) return {wake_at{*held_}};  // early: the deadline stands
  held_.reset();
  const request_view& r = session_.request();
  site_.respond_held(r, now, guarded(r), plan_);
  std::vector<action> out;
  answer(r, now, out);
  return out;
}

void site_session::answer(const request_view& request, const clock_reading& now, std::vector<action>& out) {
  const bool keep = session_.finish_response(request, plan_.head, now);
  out.emplace_back(send_response{&plan_, &request, !keep});
  if (!keep) {
    closed_ = true;
    out.emplace_back(close_connection{});
  }
}

}  // namespace netlib::http
