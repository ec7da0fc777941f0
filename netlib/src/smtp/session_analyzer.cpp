// Theory of operation: netlib::dialogue_observer keeps the two directions' buffers and drains them
// after every feed (docs/architecture.md, "The capture feed"). Client lines become commands
// queued for replies; server replies are parsed with reply_parser and paired with the oldest
// queued command (RFC 2920: replies come back in command order).
// A command whose reply changes how the client's next bytes must be read (DATA, AUTH and its
// continuations, STARTTLS) holds the client side until its reply arrives; then:
//   DATA 354      -> the client's lines are message text up to "." (RFC 5321 §4.1.1.4), sized
//                    after unstuffing (§4.5.2); the reply to "." is the message's reply
//   AUTH ... 334  -> the next client line is an AUTH continuation (RFC 4954 §4)
//   STARTTLS 220  -> everything after is TLS (RFC 3207 §4); bytes are only counted
// The envelope follows the replies: MAIL 2xx sets the sender, RCPT 2xx adds a recipient, RSET,
// HELO/EHLO and the end of data clear it.
#include "netlib/smtp/session_analyzer.hpp"

#include <algorithm>

#include "netlib/smtp/command.hpp"

namespace netlib::smtp {
namespace {

std::string path_of(std::string_view argument, std::string_view prefix) {
  std::string why;
  if (auto p = parse_path(argument, prefix, why)) return p->address;
  const auto open = argument.find('<');  // lenient: whatever is in the angle brackets
  const auto close = argument.find('>', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) return std::string(argument);
  return std::string(argument.substr(open + 1, close - open - 1));
}

}  // namespace

bool session_analyzer::client_waits() const {
  if (mode_ != client_mode::commands || pending_.empty() || pending_.back().data_end) return false;
  const std::string& verb = session_.commands[pending_.back().index].verb;
  return verb == "DATA" || verb == "AUTH" || verb == "<auth-continuation>" || verb == "STARTTLS";
}

bool session_analyzer::server_unit(input_buffer& server) {
  const reply_result r = replies_.next(server.data());
  server.consume(r.consumed);
  if (r.status == reply_status::need_more) return false;
  if (r.status == reply_status::malformed) {
    stop_server("malformed server reply (no 3-digit code)");
    return false;
  }
  on_reply(r.value.code, r.value.text());
  return true;
}

bool session_analyzer::client_line(const line_result& l) {
  if (mode_ == client_mode::data) {
    if (l.status == line_status::line && l.text == ".") {
      finish_message();
      return true;
    }
    data_bytes_ += l.consumed - (!l.text.empty() && l.text.front() == '.' ? 1 : 0);
    return true;
  }
  const std::size_t end = client_offset(), begin = end - l.consumed;
  if (mode_ == client_mode::auth_response) {
    session_.commands.push_back({"<auth-continuation>", std::string(l.text), std::nullopt, {}, begin, end});
    mode_ = client_mode::commands;
  } else {
    command c = split_command(l.text);
    session_.commands.push_back({std::move(c.verb), std::move(c.argument), std::nullopt, {}, begin, end});
  }
  pending_.push_back({false, session_.commands.size() - 1});
  return true;
}

void session_analyzer::finish_message() {
  observed_message m = current_;
  m.bytes = data_bytes_;
  m.client_begin = data_begin_;
  m.client_end = client_offset();
  session_.messages.push_back(std::move(m));
  pending_.push_back({true, session_.messages.size() - 1});
  current_ = {};  // the transaction ends with its data (§4.1.1.4)
  mode_ = client_mode::commands;
}

void session_analyzer::on_reply(int code, const std::string& text) {
  if (!session_.greeting_code) {  // the server speaks first (RFC 5321 §3.1), even if a client didn't wait
    session_.greeting_code = code;
    session_.greeting_text = text;
    return;
  }
  if (pending_.empty()) {
    session_.commands.push_back({"<unsolicited>", {}, code, text, 0, 0});
    return;
  }
  const pending_reply p = pending_.front();
  pending_.pop_front();
  if (p.data_end) {
    session_.messages[p.index].reply_code = code;
    return;
  }
  observed_command& c = session_.commands[p.index];
  c.reply_code = code;
  c.reply_text = text;
  const bool ok = code >= 200 && code < 300;
  if (c.verb == "MAIL" && ok) current_ = {path_of(c.argument, "FROM:"), {}, 0, std::nullopt, 0, 0};
  if (c.verb == "RCPT" && ok) current_.to.push_back(path_of(c.argument, "TO:"));
  if ((c.verb == "RSET" || c.verb == "HELO" || c.verb == "EHLO") && ok) current_ = {};
  if (c.verb == "DATA" && code == 354) {
    mode_ = client_mode::data;
    data_bytes_ = 0;
    data_begin_ = client_offset();  // the client waited for this reply: its next line is the text's first
  }
  if ((c.verb == "AUTH" || c.verb == "<auth-continuation>") && code == 334) mode_ = client_mode::auth_response;
  if (c.verb == "STARTTLS" && code == 220) stop_encrypted();
}

std::vector<observed_unit> units_in_client_order(const observed_session& s) {
  std::vector<observed_unit> out;
  for (const auto& c : s.commands) {
    if (c.client_end > c.client_begin) out.push_back({c.client_begin, c.client_end, false, c.reply_code});
  }
  for (const auto& m : s.messages) out.push_back({m.client_begin, m.client_end, true, m.reply_code});
  std::sort(out.begin(), out.end(), [](const observed_unit& a, const observed_unit& b) { return a.begin < b.begin; });
  return out;
}

}  // namespace netlib::smtp
