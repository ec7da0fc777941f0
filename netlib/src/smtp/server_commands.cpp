// Theory of operation: one handler per SMTP command of the mail transaction (RFC 5321 §4.1.1).
// Each checks the command order (§4.1.4, 503), its syntax (501/555), then the policy: local users
// only (550), no relaying unless authenticated (554 5.7.1), size (552, RFC 1870) and recipient
// count (452, §4.5.3.1.8), and moves server_state on.
#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "netlib/mail/message_text.hpp"
#include "netlib/smtp/reply.hpp"
#include "netlib/smtp/server_session.hpp"

#include <cerrno>

namespace netlib::smtp {

void server_session::on_helo(const command& c, bool extended, server_step& step) {
  // §4.1.1.1: the argument is the client's domain or address literal.
  if (c.argument.empty() || c.argument.find(' ') != std::string::npos)
    return error(step, 501, fmt::format("5.5.4 Syntax: {} <your-domain>", extended ? "EHLO" : "HELO"));
  reset_transaction();  // §4.1.4: EHLO/HELO clears a transaction
  helo_name_ = c.argument;
  extended_ = extended;
  state_ = server_state::awaiting_mail;
  if (!extended) return reply(step, 250, config_.hostname);
  std::vector<std::string> lines{config_.hostname + " greets " + helo_name_, "PIPELINING",
                                 fmt::format("SIZE {}", config_.max_message_bytes), "8BITMIME", "ENHANCEDSTATUSCODES"};
  if (config_.tls_available && !tls_active_) lines.emplace_back("STARTTLS");  // RFC 3207 §4
  if (tls_active_) lines.emplace_back("AUTH PLAIN LOGIN");                    // RFC 4954: only over TLS here
  lines.emplace_back("HELP");
  step.actions.emplace_back(send_bytes{format_reply(250, lines)});
}

bool server_session::blocked_by_require_tls(server_step& step) {
  if (!config_.require_tls || tls_active_) return false;
  error(step, 530, "5.7.0 Must issue a STARTTLS command first");  // RFC 3207 §4
  return true;
}

void server_session::on_mail(const command& c, server_step& step) {
  if (state_ == server_state::awaiting_helo) return error(step, 503, "5.5.1 Send EHLO or HELO first");
  if (state_ != server_state::awaiting_mail) return error(step, 503, "5.5.1 Nested MAIL command");
  if (blocked_by_require_tls(step)) return;
  std::string why;
  const auto path = parse_path(c.argument, "FROM:", why);
  if (!path) return error(step, 501, "5.5.4 " + why);
  for (const auto& [key, value] : path->params) {
    if (key == "SIZE") {  // RFC 1870 §6
      std::size_t size = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), size);
      if (ec != std::errc{} || p != value.data() + value.size() || value.empty())
        return error(step, 501, "5.5.4 Syntax: SIZE=<number of bytes>");
      if (size > config_.max_message_bytes)
        return error(step, 552, fmt::format("5.3.4 Message too big ({} bytes at most)", config_.max_message_bytes));
    } else if (key == "BODY") {  // RFC 6152
      if (!iequals(value, "7BIT") && !iequals(value, "8BITMIME"))
        return error(step, 501, "5.5.4 Syntax: BODY=7BIT or BODY=8BITMIME");
    } else if (key != "AUTH") {  // RFC 4954 §5: AUTH= is accepted and ignored
      return error(step, 555, "5.5.4 Unsupported MAIL parameter " + key);
    }
  }
  sender_ = path->address;
  state_ = server_state::awaiting_rcpt;
  reply(step, 250, "2.1.0 Sender <" + sender_ + "> OK");
}

bool server_session::is_local(std::string_view address) const {
  const std::string_view domain = domain_of(address);
  return iequals(domain, config_.domain) || iequals(domain, config_.hostname);
}

void server_session::on_rcpt(const command& c, server_step& step) {
  if (state_ != server_state::awaiting_rcpt && state_ != server_state::awaiting_data)
    return error(step, 503, "5.5.1 Need MAIL before RCPT");
  if (blocked_by_require_tls(step)) return;
  std::string why;
  const auto path = parse_path(c.argument, "TO:", why);
  if (!path || path->address.empty()) return error(step, 501, "5.5.4 " + (path ? "Syntax: RCPT TO:<address>" : why));
  if (!path->params.empty()) return error(step, 555, "5.5.4 Unsupported RCPT parameter " + path->params.front().first);
  if (all_recipients_.size() >= config_.max_recipients)  // §4.5.3.1.10
    return reply(step, 452, "4.5.3 Too many recipients");
  const std::string& address = path->address;
  if (is_local(address) || iequals(address, "postmaster")) {  // §4.1.1.3: "<Postmaster>" without a domain
    std::string user(local_part_of(address));
    if (iequals(user, "postmaster") && !users_.exists(user))  // §4.5.1: case-insensitive, always there
      user = users_.exists("postmaster") ? "postmaster" : config_.postmaster;
    if (user.empty() || !users_.exists(user)) return error(step, 550, "5.1.1 <" + address + ">: no such user here");
    if (std::find(local_recipients_.begin(), local_recipients_.end(), user) == local_recipients_.end())
      local_recipients_.push_back(user);
  } else if (authenticated()) {
    relay_recipients_.push_back(address);
  } else {
    return error(step, 554, "5.7.1 <" + address + ">: Relay access denied");  // no open relay
  }
  all_recipients_.push_back(address);
  state_ = server_state::awaiting_data;
  reply(step, 250, "2.1.5 Recipient <" + address + "> OK");
}

void server_session::on_data(const command& c, server_step& step) {
  if (!c.argument.empty()) return error(step, 501, "5.5.4 DATA takes no argument");
  if (blocked_by_require_tls(step)) return;
  if (state_ != server_state::awaiting_data)  // §4.1.1.4, §3.3
    return error(step, 503,
                 state_ == server_state::awaiting_rcpt ? "5.5.1 Need RCPT before DATA (no valid recipients)"
                                                       : "5.5.1 Need MAIL and RCPT before DATA");
  message_.clear();
  message_size_ = 0;
  data_problem_ = data_problem::none;
  after_bare_lf_ = false;
  if (config_.spool) {  // the data goes to the spool as it arrives, never held whole
    spool_id_ = fmt::format("{}.{}", info_.session_id, messages_ + 1);
    spool_received_ = received_header(spool_id_);
    const deliver_message envelope{spool_id_, sender_, local_recipients_, relay_recipients_, spool_received_, {}};
    int err = 0;
    spool_ = config_.spool->begin(envelope, err);
    if (!spool_) {  // RFC 5321 §4.2.2 452 (RFC 3463 X.3.1), or 451: nothing was accepted
      return err == ENOSPC || err == EDQUOT ? error(step, 452, "4.3.1 Insufficient system storage, try again later")
                                            : error(step, 451, "4.3.0 Local error in processing, try again later");
    }
  }
  data_framer_ = line_framer({.max_length = 1000, .strict = true});
  state_ = server_state::in_data;
  step.actions.emplace_back(send_bytes{format_reply(354, "Start mail input; end with <CRLF>.<CRLF>")});
}

void server_session::on_starttls(const command& c, server_step& step) {
  if (!c.argument.empty()) return error(step, 501, "5.5.4 STARTTLS takes no argument");  // RFC 3207 §4
  if (tls_active_) return error(step, 503, "5.5.1 TLS already active");
  if (!config_.tls_available) return error(step, 502, "5.5.1 STARTTLS not available (no certificate configured)");
  step.actions.emplace_back(send_bytes{format_reply(220, "2.0.0 Ready to start TLS")});
  step.actions.emplace_back(start_tls{});
  state_ = server_state::awaiting_tls;  // nothing after this line is consumed (RFC 3207 §4.2)
}

std::string server_session::received_header(const std::string& id) const {
  // RFC 5321 §4.4 trace field; "with" keywords from RFC 3848.
  std::string with = extended_ ? "ESMTP" : "SMTP";
  if (tls_active_) with += "S";
  if (authenticated()) with += "A";
  std::string h = fmt::format("Received: from {} ({})\r\n\tby {} (netlab lab-smtp) with {} id {}", helo_name_,
                              info_.peer, config_.hostname, with, id);
  if (all_recipients_.size() == 1) h += "\r\n\tfor <" + all_recipients_.front() + ">";
  return h + "; " + mail::rfc5322_date(now_.wall_seconds()) + "\r\n";
}

}  // namespace netlib::smtp
