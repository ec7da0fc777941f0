// Theory of operation: two input buffers, one per direction, drained by pump() after every feed.
// Client lines become commands queued for replies; server replies are parsed with reply_parser
// and paired with the oldest queued command (RFC 2920: replies come back in command order).
// A command whose reply changes how the client's next bytes must be read (DATA, AUTH and its
// continuations, STARTTLS) holds the client side until its reply arrives; then:
//   DATA 354      -> the client's lines are message text up to "." (RFC 5321 §4.1.1.4), sized
//                    after unstuffing (§4.5.2); the reply to "." is the message's reply
//   AUTH ... 334  -> the next client line is an AUTH continuation (RFC 4954 §4)
//   STARTTLS 220  -> everything after is TLS (RFC 3207 §4); bytes are only counted
// The envelope follows the replies: MAIL 2xx sets the sender, RCPT 2xx adds a recipient, RSET,
// HELO/EHLO and the end of data clear it.
#include "netlib/smtp/session_analyzer.hpp"

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

void session_analyzer::client_bytes(byte_view bytes) {
  if (session_.encrypted) {
    session_.encrypted_client_bytes += bytes.size();
    return;
  }
  if (!stopped_client_) client_.append(bytes);
  pump();
}

void session_analyzer::server_bytes(byte_view bytes) {
  if (session_.encrypted) {
    session_.encrypted_server_bytes += bytes.size();
    return;
  }
  if (!stopped_server_) server_.append(bytes);
  pump();
}

void session_analyzer::gap(bool from_client, std::size_t size) {
  session_.gap_bytes += size;
  if (session_.problem.empty())
    session_.problem = std::string(from_client ? "client" : "server") + " bytes missing from the capture";
  (from_client ? stopped_client_ : stopped_server_) = true;
  (from_client ? client_ : server_).clear();
}

bool session_analyzer::must_wait() const {
  if (mode_ != client_mode::commands || pending_.empty() || pending_.back().data_end) return false;
  const std::string& verb = session_.commands[pending_.back().index].verb;
  return verb == "DATA" || verb == "AUTH" || verb == "<auth-continuation>" || verb == "STARTTLS";
}

// A server line with no command waiting for it must wait while the client has a complete line
// not read yet: that line is the command it answers (both sides were fed in capture order).
bool session_analyzer::client_line_first() const {
  if (!session_.greeting_code || !pending_.empty() || stopped_client_ || must_wait()) return false;
  const std::string_view c = as_chars(client_.data());
  return c.find('\n') != std::string_view::npos;
}

void session_analyzer::pump() {
  for (int round = 0; round < 1000000; ++round) {
    bool progress = false;
    while (!stopped_server_ && !session_.encrypted && !client_line_first()) {
      const reply_result r = replies_.next(server_.data());
      server_.consume(r.consumed);
      if (r.status == reply_status::need_more) break;
      if (r.status == reply_status::malformed) {
        if (session_.problem.empty()) session_.problem = "malformed server reply (no 3-digit code)";
        stopped_server_ = true;
        break;
      }
      on_reply(r.value.code, r.value.text());
      progress = true;
    }
    while (!stopped_client_ && !session_.encrypted && !must_wait()) {
      const line_result l = client_framer_.next(client_.data());
      client_.consume(l.consumed);
      if (l.status == line_status::need_more) break;
      progress = client_line(l) || progress;
    }
    if (!progress || session_.encrypted) return;
  }
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
  if (mode_ == client_mode::auth_response) {
    session_.commands.push_back({"<auth-continuation>", std::string(l.text), std::nullopt, {}});
    mode_ = client_mode::commands;
  } else {
    command c = split_command(l.text);
    session_.commands.push_back({std::move(c.verb), std::move(c.argument), std::nullopt, {}});
  }
  pending_.push_back({false, session_.commands.size() - 1});
  return true;
}

void session_analyzer::finish_message() {
  observed_message m = current_;
  m.bytes = data_bytes_;
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
    session_.commands.push_back({"<unsolicited>", {}, code, text});
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
  if (c.verb == "MAIL" && ok) current_ = {path_of(c.argument, "FROM:"), {}, 0, std::nullopt};
  if (c.verb == "RCPT" && ok) current_.to.push_back(path_of(c.argument, "TO:"));
  if ((c.verb == "RSET" || c.verb == "HELO" || c.verb == "EHLO") && ok) current_ = {};
  if (c.verb == "DATA" && code == 354) {
    mode_ = client_mode::data;
    data_bytes_ = 0;
  }
  if ((c.verb == "AUTH" || c.verb == "<auth-continuation>") && code == 334) mode_ = client_mode::auth_response;
  if (c.verb == "STARTTLS" && code == 220) stop_encrypted();
}

void session_analyzer::stop_encrypted() {
  session_.encrypted = true;
  session_.encrypted_client_bytes += client_.size();
  session_.encrypted_server_bytes += server_.size();
  client_.clear();
  server_.clear();
}

}  // namespace netlib::smtp
