// Theory of operation: the SMTP server session (RFC 5321 §3, §4.1.4 command order).
//
// States (server_state): awaiting_helo -> awaiting_mail -> awaiting_rcpt -> awaiting_data ->
// in_data -> delivering -> awaiting_mail ...; awaiting_auth_response while an AUTH exchange runs
// (RFC 4954 §4), auth_delayed while its check waits for the credentials guard's turn; awaiting_tls
// after "220 Ready to start TLS" (RFC 3207 §4); closed after 221 or 421.
//
// Delivery: the end of an acceptable message emits deliver_message and enters `delivering`. The
// core consumes nothing there: commands the client pipelined after the message (RFC 2920 §3.1,
// e.g. QUIT or the next MAIL) stay in the driver's buffer until delivery_done() has produced the
// 250 (stored: RFC 5321 §6.1, the server now owns the message), 452 (no space) or 451, so replies
// keep command order and the 250 never precedes the store's durable write. The driver may run
// many sessions' deliveries together (group commit); the core does not know or care.
//
// Input: receive() frames lines with a strict line framer: 512 bytes for commands
// (§4.5.3.1.4), 1000 for text lines (§4.5.3.1.6); a bare LF or bare CR is never a line end
// (SMTP smuggling defence, §2.3.8). One call handles every complete line (PIPELINING, RFC 2920)
// and stops after STARTTLS or a closing reply, so the driver can discard the pipelined plaintext.
//
// Invariants: only a line that is exactly "." after CRLF ends DATA; a message with a bare line
// end, an over-long line or over the size limit is read to its end and refused whole; nothing is
// stored for a message unless its end arrived; replies come out in command order.
// Memory: with a spool (server_config::spool) the data goes to it in pieces of about 64 KiB as
// it arrives, so a session holds at most that much of a message; a message refused or abandoned
// drops its spooled data (the spool removes it).
#include "netlib/smtp/server_session.hpp"

#include <cerrno>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "netlib/smtp/reply.hpp"

namespace netlib::smtp {

server_session::server_session(server_config config, session_info info, const users_table& users)
    : config_(std::move(config)), info_(std::move(info)), users_(users) {}

std::vector<server_action> server_session::start(const clock_reading& now) {
  now_ = now;
  // RFC 5321 §4.3.1 / §3.1: the greeting.
  return {send_bytes{format_reply(220, config_.hostname + " ESMTP netlab lab-smtp ready")}};
}

server_step server_session::receive(byte_view input, const clock_reading& now) {
  now_ = now;
  server_step step;
  // Bounded: every iteration consumes at least one byte or returns.
  while (state_ != server_state::awaiting_tls && state_ != server_state::closed && state_ != server_state::delivering &&
         state_ != server_state::auth_delayed) {
    auto& framer = state_ == server_state::in_data ? data_framer_ : command_framer_;
    const line_result line = framer.next(input.subspan(step.consumed));
    step.consumed += line.consumed;
    if (line.status == line_status::need_more) break;
    on_line(line, step);
  }
  return step;
}

std::vector<server_action> server_session::tick(const clock_reading& now) {
  now_ = now;
  server_step step;
  if (state_ == server_state::auth_delayed && now.mono >= held_until_) {
    state_ = server_state::awaiting_mail;
    const std::string user = std::exchange(held_user_, {});
    const std::string password = std::exchange(held_password_, {});
    check_credentials(user, password, step);
  }
  return std::move(step.actions);
}

void server_session::on_line(line_result line, server_step& step) {
  if (state_ == server_state::in_data) return on_data_line(line, step);
  switch (line.status) {
    case line_status::too_long:
      return error(step, 500, "5.5.2 Line too long (512 bytes at most, RFC 5321 4.5.3.1.4)");
    case line_status::bare_lf:
    case line_status::bare_cr:
      return error(step, 500, "5.5.2 Bare LF or CR: lines must end with CRLF (RFC 5321 2.3.8)");
    default:
      break;
  }
  if (state_ == server_state::awaiting_auth_response) return on_auth_response(line.text, step);
  on_command(line.text, step);
}

void server_session::on_command(std::string_view line, server_step& step) {
  const command c = split_command(line);
  const std::string& v = c.verb;
  if (v == "EHLO" || v == "HELO") return on_helo(c, v == "EHLO", step);
  if (v == "MAIL") return on_mail(c, step);
  if (v == "RCPT") return on_rcpt(c, step);
  if (v == "DATA") return on_data(c, step);
  if (v == "STARTTLS") return on_starttls(c, step);
  if (v == "AUTH") return on_auth(c, step);
  if (v == "RSET") {  // §4.1.1.5
    if (!c.argument.empty()) return error(step, 501, "5.5.4 RSET takes no argument");
    reset_transaction();
    return reply(step, 250, "2.0.0 OK");
  }
  if (v == "NOOP") return reply(step, 250, "2.0.0 OK");  // §4.1.1.9: a parameter is ignored
  if (v == "VRFY") {                                     // §4.1.1.6, §7.3: do not reveal users
    if (c.argument.empty()) return error(step, 501, "5.5.4 Syntax: VRFY <address>");
    if (blocked_by_require_tls(step)) return;
    return reply(step, 252, "2.5.2 Cannot VRFY user, but will accept message and attempt delivery");
  }
  if (v == "HELP")
    return reply(step, 214, "2.0.0 Commands: EHLO HELO MAIL RCPT DATA RSET NOOP VRFY STARTTLS AUTH QUIT");
  if (v == "QUIT") {  // §4.1.1.10
    reply(step, 221, "2.0.0 " + config_.hostname + " closing connection");
    state_ = server_state::closed;
    step.actions.emplace_back(close_connection{});
    return;
  }
  error(step, 500, "5.5.2 Command not recognized");
}

void server_session::on_data_line(line_result line, server_step& step) {
  // §4.1.1.4: only CRLF "." CRLF ends the data, so a "." line after a bare LF is data (smuggling).
  const bool after_bare_lf = std::exchange(after_bare_lf_, line.status == line_status::bare_lf);
  if (line.status == line_status::line && line.text == "." && !after_bare_lf) return end_of_data(step);
  if (line.status == line_status::too_long) {
    data_problem_ = data_problem::line_too_long;
    return;
  }
  if (line.status != line_status::line) {  // bare LF / bare CR: never a line end (§2.3.8)
    if (data_problem_ == data_problem::none) data_problem_ = data_problem::bare_line_end;
    return;
  }
  std::string_view text = line.text;
  if (!text.empty() && text.front() == '.') text.remove_prefix(1);  // dot-unstuffing, §4.5.2
  message_size_ += text.size() + 2;
  if (message_size_ > config_.max_message_bytes) {
    if (data_problem_ == data_problem::none) data_problem_ = data_problem::too_big;
    message_.clear();
    spool_.reset();  // what was spooled goes at once
    spool_chunk_.clear();
    return;
  }
  if (data_problem_ != data_problem::none) return;
  keep_data(text);
}

// One data line, kept: in the message, or gathered into the next append to the spool.
void server_session::keep_data(std::string_view text) {
  std::string& to = spool_ ? spool_chunk_ : message_;
  to.append(text);
  to.append("\r\n");
  if (spool_ && spool_chunk_.size() >= 64 * 1024) flush_spool();
}

void server_session::flush_spool() {
  if (!spool_ || spool_chunk_.empty()) return;
  if (!spool_->append(spool_chunk_) && data_problem_ == data_problem::none) data_problem_ = data_problem::not_stored;
  spool_chunk_.clear();
}

void server_session::end_of_data(server_step& step) {
  flush_spool();
  const data_problem problem = data_problem_;
  state_ = server_state::awaiting_mail;
  if (problem == data_problem::bare_line_end) {
    reset_transaction();
    return error(step, 550, "5.6.11 Message refused: bare LF or CR in the data (RFC 5321 2.3.8)");
  }
  if (problem == data_problem::line_too_long) {
    reset_transaction();
    return error(step, 500, "5.5.2 Message refused: a text line over 1000 bytes (RFC 5321 4.5.3.1.6)");
  }
  if (problem == data_problem::too_big) {
    reset_transaction();
    return error(step, 552, fmt::format("5.3.4 Message too big ({} bytes at most)", config_.max_message_bytes));
  }
  if (problem == data_problem::not_stored) {  // the spool could not take the data (RFC 3463 X.3.1)
    const bool full = spool_ && (spool_->error() == ENOSPC || spool_->error() == EDQUOT);
    reset_transaction();
    return full ? error(step, 452, "4.3.1 Insufficient system storage: the message was not stored")
                : error(step, 451, "4.3.0 Local error in processing: the message could not be stored");
  }
  delivering_id_ = spool_ ? spool_id_ : fmt::format("{}.{}", info_.session_id, messages_ + 1);
  deliver_message d{delivering_id_,
                    std::move(sender_),
                    std::move(local_recipients_),
                    std::move(relay_recipients_),
                    spool_ ? std::move(spool_received_) : received_header(delivering_id_),
                    std::move(spool_)};
  if (!d.spooled) d.message.append(message_);
  reset_transaction();
  state_ = server_state::delivering;
  step.actions.emplace_back(std::move(d));
}

std::vector<server_action> server_session::delivery_done(const delivery_result& result) {
  if (state_ != server_state::delivering) return {};  // closed meanwhile: nobody to tell
  state_ = server_state::awaiting_mail;
  server_step step;
  const std::string why = result.detail.empty() ? "" : " (" + result.detail + ")";
  switch (result.status) {
    case delivery_status::stored:
      ++messages_;
      reply(step, 250, "2.0.0 OK: queued as " + delivering_id_);  // RFC 5321 §6.1: now ours
      break;
    case delivery_status::no_space:  // RFC 5321 §4.2.2 452, RFC 3463 X.3.1
      reply(step, 452, "4.3.1 Insufficient system storage: the message was not stored" + why);
      break;
    case delivery_status::failed:
      reply(step, 451, "4.3.0 Local error in processing: the message could not be stored" + why);
      break;
  }
  return std::move(step.actions);
}

std::vector<server_action> server_session::receive_eof() {
  if (state_ == server_state::closed) return {};
  if (state_ == server_state::auth_delayed && config_.guard)  // a guess that left early still counts
    config_.guard->report(info_.peer, held_user_, false, now_.mono);
  held_password_.clear();
  reset_transaction();            // a message whose end never came is dropped whole
  state_ = server_state::closed;  // a delivery under way finishes; its reply is never sent
  return {close_connection{}};
}

std::vector<server_action> server_session::tls_established(bool ok) {
  if (state_ != server_state::awaiting_tls) throw std::logic_error("tls_established() without STARTTLS");
  if (!ok) {
    state_ = server_state::closed;
    return {close_connection{}};
  }
  // RFC 3207 §4.2: discard all knowledge obtained from the client, start over at EHLO.
  tls_active_ = true;
  helo_name_.clear();
  extended_ = false;
  auth_user_.clear();
  reset_transaction();
  command_framer_ = line_framer({.max_length = 512, .strict = true});
  data_framer_ = line_framer({.max_length = 1000, .strict = true});
  state_ = server_state::awaiting_helo;
  return {};
}

void server_session::reply(server_step& step, int code, std::string_view text) {
  step.actions.emplace_back(send_bytes{format_reply(code, text)});
}

void server_session::error(server_step& step, int code, std::string_view text) {
  reply(step, code, text);
  if (++errors_ < config_.max_errors) return;
  reply(step, 421, "4.7.0 " + config_.hostname + " too many errors, closing connection");
  state_ = server_state::closed;
  step.actions.emplace_back(close_connection{});
}

void server_session::reset_transaction() {
  sender_.clear();
  local_recipients_.clear();
  relay_recipients_.clear();
  all_recipients_.clear();
  message_.clear();
  spool_.reset();  // a message not handed on for delivery leaves nothing behind
  spool_chunk_.clear();
  message_size_ = 0;
  data_problem_ = data_problem::none;
  after_bare_lf_ = false;
  if (state_ == server_state::awaiting_rcpt || state_ == server_state::awaiting_data || state_ == server_state::in_data)
    state_ = server_state::awaiting_mail;
}

}  // namespace netlib::smtp
