// Theory of operation: SMTP AUTH (RFC 4954) with the PLAIN (RFC 4616) and LOGIN mechanisms, offered
// only over TLS. AUTH with an initial response finishes at once; without one the session sends a
// 334 challenge and waits in awaiting_auth_response for one base64 line ("*" cancels, §4).
// Finished credentials go to the credentials guard first (docs/architecture.md, "The credentials
// guard"): refused at once while the address or account is locked (454 4.7.0, RFC 4954 §6), or
// held in auth_delayed until their turn (wake_at; tick() checks them), or checked now.
#include <fmt/format.h>

#include <chrono>
#include <utility>

#include "netlib/mail/base64.hpp"
#include "netlib/smtp/reply.hpp"
#include "netlib/smtp/server_session.hpp"

namespace netlib::smtp {

void server_session::on_auth(const command& c, server_step& step) {
  if (state_ == server_state::awaiting_helo) return error(step, 503, "5.5.1 Send EHLO first");
  if (state_ != server_state::awaiting_mail)
    return error(step, 503, "5.5.1 AUTH not allowed during a mail transaction");
  if (authenticated()) return error(step, 503, "5.5.1 Already authenticated");
  if (!tls_active_) return error(step, 538, "5.7.11 Encryption required for authentication: use STARTTLS first");
  const command mech = split_command(c.argument);
  if (mech.verb == "PLAIN") {
    auth_step_ = auth_step::plain;
  } else if (mech.verb == "LOGIN") {
    auth_step_ = auth_step::login_user;
  } else {
    return error(step, 504, "5.5.4 Unrecognized authentication mechanism (use PLAIN or LOGIN)");
  }
  state_ = server_state::awaiting_auth_response;
  if (!mech.argument.empty()) return on_auth_response(mech.argument == "=" ? "" : mech.argument, step);
  // LOGIN prompts are "Username:" and "Password:" in base64.
  step.actions.emplace_back(send_bytes{format_reply(334, auth_step_ == auth_step::plain ? "" : "VXNlcm5hbWU6")});
}

void server_session::on_auth_response(std::string_view line, server_step& step) {
  state_ = server_state::awaiting_mail;
  if (line == "*") return error(step, 501, "5.0.0 Authentication cancelled");
  const auto decoded = mail::base64_decode(line);
  if (!decoded) return error(step, 501, "5.5.2 Cannot decode the base64 response");
  if (auth_step_ == auth_step::plain) {
    // authzid NUL authcid NUL passwd (RFC 4616 §2)
    const auto first = decoded->find('\0');
    const auto second = first == std::string::npos ? first : decoded->find('\0', first + 1);
    if (second == std::string::npos) return error(step, 501, "5.5.2 Bad PLAIN response");
    const std::string authzid = decoded->substr(0, first);
    const std::string user = decoded->substr(first + 1, second - first - 1);
    if (!authzid.empty() && authzid != user) return error(step, 535, "5.7.8 Authentication credentials invalid");
    return finish_auth(user, decoded->substr(second + 1), step);
  }
  if (auth_step_ == auth_step::login_user) {
    auth_login_user_ = *decoded;
    auth_step_ = auth_step::login_password;
    state_ = server_state::awaiting_auth_response;
    step.actions.emplace_back(send_bytes{format_reply(334, "UGFzc3dvcmQ6")});
    return;
  }
  const std::string user = std::exchange(auth_login_user_, {});
  finish_auth(user, *decoded, step);
}

void server_session::finish_auth(std::string_view user, std::string_view password, server_step& step) {
  if (config_.guard) {
    const admission a = config_.guard->admit(info_.peer, user, now_.mono);
    if (a.locked) {
      const auto seconds = std::chrono::ceil<std::chrono::seconds>(a.retry_after).count();
      return error(step, 454,
                   fmt::format("4.7.0 Temporary authentication failure: too many failed attempts, try "
                               "again in {} s",
                               seconds));
    }
    if (a.turn > now_.mono) {  // the answer waits for its turn
      held_user_ = std::string(user);
      held_password_ = std::string(password);
      held_until_ = a.turn;
      state_ = server_state::auth_delayed;
      step.actions.emplace_back(wake_at{a.turn});
      return;
    }
  }
  check_credentials(user, password, step);
}

void server_session::check_credentials(std::string_view user, std::string_view password, server_step& step) {
  const bool ok = users_.check(user, password);
  if (config_.guard) config_.guard->report(info_.peer, user, ok, now_.mono);
  if (!ok) return error(step, 535, "5.7.8 Authentication credentials invalid");
  auth_user_ = std::string(user);
  reply(step, 235, "2.7.0 Authentication successful");
}

}  // namespace netlib::smtp
