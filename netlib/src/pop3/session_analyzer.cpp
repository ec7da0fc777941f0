// Theory of operation: like smtp::session_analyzer, on the same netlib::dialogue_observer, with
// POP3 framing. The first server line is the greeting; each later status line ("+OK", "-ERR", or "+ " for an AUTH
// challenge) answers the oldest queued command. A +OK to RETR, TOP, CAPA, or to LIST/UIDL/AUTH without argument is
// followed by lines up to "." (RFC 1939 §3, §5, §7; RFC 2449 §5; RFC 5034 §4), sized after
// unstuffing. Lines that are not a status line are counted as garbage and skipped (real servers
// send such). AUTH and STLS hold the client side until their answer arrives.
#include "netlib/pop3/session_analyzer.hpp"

#include "netlib/pop3/response.hpp"

#include "netlib/core/command_line.hpp"

namespace netlib::pop3 {

bool session_analyzer::client_waits() const {
  if (auth_continuation_ || pending_.empty()) return false;
  const std::string& v = session_.commands[pending_.back()].verb;
  return v == "AUTH" || v == "<auth-continuation>" || v == "STLS";
}

bool session_analyzer::multiline(const observed_command& c) const {
  return c.status == "+OK" && multiline_response(c.verb, c.argument);
}

bool session_analyzer::server_unit(input_buffer& server) {
  const line_result l = server_framer_.next(server.data());
  server.consume(l.consumed);
  if (l.status == line_status::need_more) return false;
  return server_line(l.text, l.consumed);
}

bool session_analyzer::client_line(const line_result& l) {
  observed_command c;
  c.client_end = client_offset();
  c.client_begin = c.client_end - l.consumed;
  if (auth_continuation_) {
    c.verb = "<auth-continuation>";
    c.argument = std::string(l.text);
    auth_continuation_ = false;
  } else {
    command_line split = split_command_line(l.text);
    c.verb = std::move(split.verb);
    c.argument = c.verb == "PASS" ? "<hidden>" : std::move(split.argument);
  }
  session_.commands.push_back(std::move(c));
  pending_.push_back(session_.commands.size() - 1);
  return true;
}

// Returns false when the line must wait for a command that has not been read yet.
bool session_analyzer::server_line(std::string_view line, std::size_t consumed) {
  if (in_body_) {
    auto& c = session_.commands[*in_body_];
    if (line == ".") {
      in_body_.reset();
      return true;
    }
    *c.body_bytes += consumed - (!line.empty() && line.front() == '.' ? 1 : 0);
    return true;
  }
  const bool ok = line.rfind("+OK", 0) == 0;
  const bool err = line.rfind("-ERR", 0) == 0;
  const bool challenge = line == "+" || line.rfind("+ ", 0) == 0;
  if (!ok && !err && !challenge) {
    ++session_.garbage_lines;
    return true;
  }
  if (!session_.greeting) {
    session_.greeting = std::string(line);
    return true;
  }
  if (pending_.empty()) {
    session_.commands.push_back(
        {"<unsolicited>", {}, std::string(line.substr(0, line.find(' '))), std::string(line), {}});
    return true;
  }
  auto& c = session_.commands[pending_.front()];
  pending_.pop_front();
  c.status = ok ? "+OK" : err ? "-ERR" : "+";
  const auto sp = line.find(' ');
  c.text = sp == std::string_view::npos ? std::string{} : std::string(line.substr(sp + 1));
  if (challenge && (c.verb == "AUTH" || c.verb == "<auth-continuation>")) auth_continuation_ = true;
  if (multiline(c)) {
    c.body_bytes = 0;
    in_body_ = &c - session_.commands.data();
  }
  if (c.verb == "STLS" && ok) stop_encrypted();
  return true;
}

}  // namespace netlib::pop3
