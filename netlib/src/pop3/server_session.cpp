// Theory of operation: the POP3 server session (RFC 1939 §3-§6).
//
// States (server_state): awaiting_user -> awaiting_pass -> transaction -> closed, the first two
// being the AUTHORIZATION state; awaiting_tls after "+OK Begin TLS negotiation" (RFC 2595 §4),
// which returns to awaiting_user with TLS on; pass_delayed while a PASS waits for the credentials
// guard's turn (docs/architecture.md, "The credentials guard"). The UPDATE state is the QUIT handler in
// transaction: only there are messages marked with DELE removed (§6); a connection that ends
// any other way removes nothing. The maildrop is locked from PASS until the session ends (§8),
// because the mailbox object from the store holds the lock.
//
// Input: lines of at most 255 octets (RFC 2449 §4); every complete line is answered in order
// (PIPELINING, RFC 2449 §6.6), stopping after STLS or a closing response.
#include "netlib/pop3/server_session.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace netlib::pop3 {

server_session::server_session(server_config config, mail::mail_store& store, const users_table& users)
    : config_(std::move(config)), store_(store), users_(users) {}

std::vector<server_action> server_session::start(const clock_reading& now) {
  now_ = now;
  return {send_bytes{"+OK " + config_.hostname + " netlab lab-pop3 ready\r\n"}};
}

server_step server_session::receive(byte_view input, const clock_reading& now) {
  now_ = now;
  server_step step;
  while (state_ != server_state::awaiting_tls && state_ != server_state::closed &&
         state_ != server_state::pass_delayed) {
    const command_read r = reader_.next(input.subspan(step.consumed));
    step.consumed += r.consumed;
    if (r.status == read_status::need_more) break;
    if (r.status == read_status::too_long)
      err(step, "line too long (255 octets at most, RFC 2449)");
    else
      on_line(r.value, step);
  }
  return step;
}

std::vector<server_action> server_session::tick(const clock_reading& now) {
  now_ = now;
  server_step step;
  if (state_ == server_state::pass_delayed && now.mono >= held_until_) {
    state_ = server_state::awaiting_user;
    check_password(std::exchange(held_password_, {}), step);
  }
  return std::move(step.actions);
}

void server_session::on_line(const command_line& c, server_step& step) {
  if (c.verb == "CAPA") return on_capa(step);  // RFC 2449 §5: any state
  if (state_ == server_state::transaction) return on_transaction(c.verb, c.argument, step);
  on_authorization(c.verb, c.argument, step);
}

void server_session::on_authorization(const std::string& verb, const std::string& arg, server_step& step) {
  if (verb == "USER") {  // §7: any name is taken here; PASS says whether the pair is right
    if (arg.empty()) return err(step, "USER needs a name");
    user_ = arg;
    state_ = server_state::awaiting_pass;
    return ok(step, "send PASS");
  }
  if (verb == "PASS") return on_pass(arg, step);
  if (verb == "QUIT") {  // §4: no UPDATE from AUTHORIZATION
    ok(step, config_.hostname + " signing off");
    return close(step);
  }
  if (verb == "STLS") {  // RFC 2595 §4
    if (tls_active_) return err(step, "TLS already active");
    if (!config_.tls_available) return err(step, "STLS not available (no certificate configured)");
    if (state_ != server_state::awaiting_user) return err(step, "STLS only before USER");
    ok(step, "Begin TLS negotiation");
    step.actions.emplace_back(start_tls{});
    state_ = server_state::awaiting_tls;
    return;
  }
  if (verb == "NOOP" || verb == "STAT" || verb == "LIST" || verb == "RETR" || verb == "DELE" || verb == "RSET" ||
      verb == "TOP" || verb == "UIDL")
    return err(step, verb + " is allowed only after USER and PASS");
  err(step, "unknown command");
}

void server_session::on_pass(const std::string& arg, server_step& step) {
  if (state_ != server_state::awaiting_pass) return err(step, "send USER first");
  state_ = server_state::awaiting_user;  // §7: a failed PASS goes back to USER
  if (config_.guard) {
    const admission a = config_.guard->admit(config_.peer_address, user_, now_.mono);
    if (a.locked)  // RFC 3206 §4: [AUTH], a problem with the credentials; temporary (RFC 2449 §8)
      return err(step, fmt::format("[AUTH] too many failed logins for this user or address, try again in {} s",
                                   std::chrono::ceil<std::chrono::seconds>(a.retry_after).count()));
    if (a.turn > now_.mono) {  // the answer waits for its turn
      held_password_ = arg;
      held_until_ = a.turn;
      state_ = server_state::pass_delayed;
      step.actions.emplace_back(wake_at{a.turn});
      return;
    }
  }
  check_password(arg, step);
}

void server_session::check_password(const std::string& password, server_step& step) {
  const bool right = users_.check(user_, password);
  if (config_.guard) config_.guard->report(config_.peer_address, user_, right, now_.mono);
  if (!right) return err(step, "[AUTH] invalid user name or password");
  mail::open_result opened = store_.open(user_);
  switch (opened.status) {
    case mail::open_status::opened:
      break;
    case mail::open_status::locked:
      return err(step, "[IN-USE] maildrop already locked by another session");
    case mail::open_status::no_such_user:
    case mail::open_status::failed:
      return err(step, "[SYS/TEMP] cannot open the maildrop");
  }
  box_ = std::move(opened.box);
  deleted_.assign(box_->messages().size(), false);
  std::size_t octets = 0;
  for (const auto& m : box_->messages()) octets += m.size;
  state_ = server_state::transaction;
  ok(step, fmt::format("{} has {} messages ({} octets)", user_, box_->messages().size(), octets));
}

void server_session::on_capa(server_step& step) {
  std::string text =
      "+OK Capability list follows\r\nUSER\r\nUIDL\r\nTOP\r\nPIPELINING\r\nRESP-CODES\r\nAUTH-RESP-CODE\r\n";
  if (config_.tls_available && !tls_active_ && state_ != server_state::transaction) text += "STLS\r\n";
  text += "IMPLEMENTATION netlab-lab-pop3\r\n.\r\n";
  step.actions.emplace_back(send_bytes{std::move(text)});
}

std::vector<server_action> server_session::receive_eof() {
  if (state_ == server_state::closed) return {};
  if (state_ == server_state::pass_delayed && config_.guard)  // a guess that left early still counts
    config_.guard->report(config_.peer_address, user_, false, now_.mono);
  held_password_.clear();
  box_.reset();  // unlock without UPDATE
  state_ = server_state::closed;
  return {close_connection{}};
}

std::vector<server_action> server_session::tls_established(bool ok) {
  if (state_ != server_state::awaiting_tls) throw std::logic_error("tls_established() without STLS");
  if (!ok) {
    state_ = server_state::closed;
    return {close_connection{}};
  }
  tls_active_ = true;
  user_.clear();
  reader_.reset();
  state_ = server_state::awaiting_user;
  return {};
}

void server_session::ok(server_step& step, std::string_view text) {
  step.actions.emplace_back(send_bytes{fmt::format("+OK {}\r\n", text)});
}

void server_session::err(server_step& step, std::string_view text) {
  step.actions.emplace_back(send_bytes{fmt::format("-ERR {}\r\n", text)});
  if (++errors_ < config_.max_errors) return;
  step.actions.emplace_back(send_bytes{"-ERR too many errors, closing connection\r\n"});
  close(step);
}

void server_session::close(server_step& step) {
  box_.reset();
  state_ = server_state::closed;
  step.actions.emplace_back(close_connection{});
}

}  // namespace netlib::pop3
