// Theory of operation: the client sends one command and waits for its reply (no pipelining, so a
// trace reads like the textbook's dialogue). States (client_state) name the reply awaited:
//   greeting 220 -> EHLO 250 (HELO if EHLO is refused, RFC 5321 §3.2) -> [STARTTLS 220 -> TLS ->
//   EHLO again, RFC 3207 §4.2] -> [AUTH PLAIN 235] -> MAIL 250 -> RCPT 250/251 for each recipient ->
//   DATA 354 -> message + "." 250 -> QUIT 221.
// Any refusal records "server refused <command>: <reply>" and sends QUIT; a refused recipient is
// recorded and the others go on (§3.3); with no recipient left the transaction is abandoned.
#include "netlib/smtp/client_session.hpp"
#include "netlib/core/ascii.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "netlib/mail/base64.hpp"
#include "netlib/mail/message_text.hpp"
#include "netlib/smtp/command.hpp"

namespace netlib::smtp {
namespace {

bool positive(const reply& r) {
  return r.code >= 200 && r.code < 300;
}

}  // namespace

client_session::client_session(client_options options, envelope env, std::string message)
    : options_(std::move(options)), env_(std::move(env)), message_(std::move(message)) {
  if (env_.to.empty()) throw std::logic_error("client_session needs at least one recipient");
}

client_step client_session::receive(byte_view input) {
  client_step step;
  for (int n = 0; n < 1000 && state_ != client_state::finished && state_ != client_state::awaiting_tls; ++n) {
    reply_result r = parser_.next(input.subspan(step.consumed));
    step.consumed += r.consumed;
    if (r.status == reply_status::need_more) break;
    if (r.status == reply_status::malformed) {
      fail(step, "malformed reply from the server (expected a 3-digit code)");
      state_ = client_state::finished;
      step.actions.emplace_back(close_connection{});
      break;
    }
    step.replies.push_back(r.value);
    on_reply(r.value, step);
  }
  return step;
}

void client_session::send(client_step& step, std::string line, std::string shown) {
  if (shown.empty()) shown = line;
  step.actions.emplace_back(send_command{line + "\r\n", shown});
}

void client_session::fail(client_step& step, const std::string& what, const reply& r) {
  fail(step, fmt::format("server refused {}: {}", what, r));
}

void client_session::fail(client_step& step, const std::string& message) {
  result_.error += (result_.error.empty() ? "" : "; ") + message;
  state_ = client_state::awaiting_quit;
  send(step, "QUIT");
}

void client_session::on_reply(const reply& r, client_step& step) {
  switch (state_) {
    case client_state::awaiting_greeting:
      if (r.code != 220) return fail(step, "the connection (greeting)", r);
      state_ = client_state::awaiting_ehlo;
      return send(step, "EHLO " + options_.ehlo_name);
    case client_state::awaiting_ehlo:
      return on_ehlo(r, step);
    case client_state::awaiting_helo:
      if (!positive(r)) return fail(step, "HELO " + options_.ehlo_name, r);
      return after_hello(step);
    case client_state::awaiting_starttls:
      if (r.code != 220) return fail(step, "STARTTLS", r);
      state_ = client_state::awaiting_tls;
      step.actions.emplace_back(start_tls{});
      return;
    case client_state::awaiting_auth:
      if (r.code != 235) return fail(step, "AUTH PLAIN (user " + options_.auth->first + ")", r);
      state_ = client_state::awaiting_mail;
      return send(step, "MAIL FROM:<" + env_.from + ">");
    case client_state::awaiting_mail:
      if (!positive(r)) return fail(step, "MAIL FROM:<" + env_.from + ">", r);
      state_ = client_state::awaiting_rcpt;
      return send(step, "RCPT TO:<" + env_.to[next_rcpt_] + ">");
    case client_state::awaiting_rcpt:
      return on_rcpt(r, step);
    case client_state::awaiting_data:
      if (r.code != 354) return fail(step, "DATA", r);
      state_ = client_state::awaiting_data_end;
      step.actions.emplace_back(send_command{mail::dot_stuff(mail::to_crlf(message_)) + ".\r\n",
                                             fmt::format("<message, {} bytes>\r\n.", mail::crlf_size(message_))});
      return;
    case client_state::awaiting_data_end:
      if (!positive(r)) return fail(step, "the message (after DATA)", r);
      result_.delivered = true;
      result_.queue_reply = r.text();
      state_ = client_state::awaiting_quit;
      return send(step, "QUIT");
    case client_state::awaiting_quit:
      state_ = client_state::finished;
      step.actions.emplace_back(close_connection{});
      return;
    default:
      return;
  }
}

void client_session::on_ehlo(const reply& r, client_step& step) {
  if (!positive(r)) {
    if (options_.starttls || options_.auth)
      return fail(step, "EHLO " + options_.ehlo_name + " (needed for STARTTLS/AUTH)", r);
    state_ = client_state::awaiting_helo;
    return send(step, "HELO " + options_.ehlo_name);
  }
  caps_.clear();
  for (std::size_t i = 1; i < r.lines.size(); ++i) caps_.insert(ascii::to_upper(r.lines[i]));
  after_hello(step);
}

void client_session::after_hello(client_step& step) {
  if (options_.starttls && !tls_active_) {
    if (caps_.count("STARTTLS") == 0) return fail(step, "the server does not offer STARTTLS (not in its EHLO reply)");
    state_ = client_state::awaiting_starttls;
    return send(step, "STARTTLS");
  }
  if (options_.auth) {
    const bool plain = std::any_of(caps_.begin(), caps_.end(), [](const std::string& c) {
      return c.rfind("AUTH ", 0) == 0 && (c + " ").find(" PLAIN ") != std::string::npos;
    });
    if (!plain) return fail(step, "the server does not offer AUTH PLAIN (try --starttls)");
    const auto& [user, password] = *options_.auth;
    state_ = client_state::awaiting_auth;
    return send(step, "AUTH PLAIN " + mail::base64_encode(std::string(1, '\0') + user + '\0' + password),
                "AUTH PLAIN <credentials of " + user + ">");
  }
  state_ = client_state::awaiting_mail;
  send(step, "MAIL FROM:<" + env_.from + ">");
}

void client_session::on_rcpt(const reply& r, client_step& step) {
  const std::string& rcpt = env_.to[next_rcpt_];
  if (positive(r))
    result_.accepted.push_back(rcpt);
  else
    result_.rejected.emplace_back(rcpt, r);
  if (++next_rcpt_ < env_.to.size()) return send(step, "RCPT TO:<" + env_.to[next_rcpt_] + ">");
  if (result_.accepted.empty()) {
    const auto& [who, why] = result_.rejected.front();
    return fail(step, "RCPT TO:<" + who + ">", why);
  }
  if (!result_.rejected.empty()) {
    const auto& [who, why] = result_.rejected.front();
    result_.error = fmt::format("server refused RCPT TO:<{}>: {}", who, why);
  }
  state_ = client_state::awaiting_data;
  send(step, "DATA");
}

std::vector<client_action> client_session::tls_started() {
  if (state_ != client_state::awaiting_tls) throw std::logic_error("tls_started() without STARTTLS");
  tls_active_ = true;
  parser_ = reply_parser{};
  state_ = client_state::awaiting_ehlo;  // RFC 3207 §4.2: EHLO again
  return {send_command{"EHLO " + options_.ehlo_name + "\r\n", "EHLO " + options_.ehlo_name}};
}

std::vector<client_action> client_session::receive_eof() {
  if (state_ == client_state::finished) return {};
  if (result_.error.empty() && state_ != client_state::awaiting_quit)
    result_.error = "the server closed the connection unexpectedly";
  state_ = client_state::finished;
  return {close_connection{}};
}

}  // namespace netlib::smtp
