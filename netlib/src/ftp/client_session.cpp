// Theory of operation: states awaiting_greeting -> ready <-> awaiting_reply (<-> awaiting_final
// after a 1yz) -> closed/failed. on_reply() is the transition function: a 1yz keeps the command
// outstanding (RFC 959 §4.2: preliminary), anything else completes it; 421 at any time and 221
// for QUIT close the session (RFC 959 §4.2.1, §5.4). A greeting of 120 waits for the 220.
// Invariant: at most one command is outstanding; receive() stops after the reply that completes
// it, so bytes after it are answered in the context of the next command.
#include "netlib/ftp/client_session.hpp"

#include <stdexcept>

namespace netlib::ftp {

std::string client_session::send(const command& c) {
  if (state_ != client_state::ready) throw std::logic_error("ftp::client_session::send while a reply is outstanding");
  outstanding_ = c.verb;
  state_ = client_state::awaiting_reply;
  return serialize(c);
}

void client_session::on_reply(ftp::reply r, client_output& out) {
  client_event e{std::move(r), outstanding_, true};
  const int code = e.value.code;
  switch (state_) {
    case client_state::awaiting_greeting:
      e.verb.clear();
      e.final = code != 120;
      if (code == 220)
        state_ = client_state::ready;
      else if (code != 120)
        state_ = client_state::closed;  // 421 or 5yz: service not available
      break;
    case client_state::awaiting_reply:
    case client_state::awaiting_final:
      e.final = !e.value.preliminary();
      state_ = e.final ? client_state::ready : client_state::awaiting_final;
      if (e.final) outstanding_.clear();
      if (code == 421 || (code == 221 && e.verb == "QUIT")) state_ = client_state::closed;
      break;
    case client_state::ready:  // unsolicited, e.g. 421 idle timeout
      e.verb.clear();
      if (code == 421) state_ = client_state::closed;
      break;
    case client_state::closed:
    case client_state::failed:
      return;
  }
  out.events.push_back(std::move(e));
}

client_output client_session::receive(byte_view input) {
  client_output out;
  while (state_ != client_state::failed && state_ != client_state::closed && out.consumed < input.size()) {
    reply_result r = parser_.next(input.subspan(out.consumed));
    if (r.status == reply_status::error) {
      state_ = client_state::failed;
      out.error = r.error;
      break;
    }
    out.consumed += r.consumed;
    if (r.status == reply_status::need_more) break;
    const client_state before = state_;
    on_reply(std::move(r.value), out);
    // A command (or the greeting) is complete: leave what follows for after the next send().
    if (state_ == client_state::ready && before != client_state::ready) break;
  }
  return out;
}

void client_session::receive_eof() {
  if (state_ != client_state::failed) state_ = client_state::closed;
}

}  // namespace netlib::ftp
