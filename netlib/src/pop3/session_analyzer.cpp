// Theory of operation: like smtp::session_analyzer, with POP3 framing. The first server line is
// the greeting; each later status line ("+OK", "-ERR", or "+ " for an AUTH challenge) answers
// the oldest queued command. A +OK to RETR, TOP, CAPA, or to LIST/UIDL/AUTH without argument is
// followed by lines up to "." (RFC 1939 §3, §5, §7; RFC 2449 §5; RFC 5034 §4), sized after
// unstuffing. Lines that are not a status line are counted as garbage and skipped (real servers
// send such). AUTH and STLS hold the client side until their answer arrives.
#include "netlib/pop3/session_analyzer.hpp"

#include <cctype>

namespace netlib::pop3 {
namespace {

std::string upper(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
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
  if (auth_continuation_ || pending_.empty()) return false;
  const std::string& v = session_.commands[pending_.back()].verb;
  return v == "AUTH" || v == "<auth-continuation>" || v == "STLS";
}

bool session_analyzer::multiline(const observed_command& c) const {
  if (c.status != "+OK") return false;
  if (c.verb == "RETR" || c.verb == "TOP" || c.verb == "CAPA") return true;
  return (c.verb == "LIST" || c.verb == "UIDL" || c.verb == "AUTH") && c.argument.empty();
}

// A server line with no command waiting for it must wait while the client has a complete line
// not read yet: that line is the command it answers (both sides were fed in capture order).
bool session_analyzer::client_line_first() const {
  if (!session_.greeting || !pending_.empty() || stopped_client_ || must_wait()) return false;
  const std::string_view c = as_chars(client_.data());
  return c.find('\n') != std::string_view::npos;
}

void session_analyzer::pump() {
  for (int round = 0; round < 1000000; ++round) {
    bool progress = false;
    while (!stopped_server_ && !session_.encrypted && !client_line_first()) {
      const line_result l = server_framer_.next(server_.data());
      server_.consume(l.consumed);
      if (l.status == line_status::need_more) break;
      if (!server_line(l.text, l.consumed)) break;
      progress = true;
    }
    while (!stopped_client_ && !session_.encrypted && !must_wait()) {
      const line_result l = client_framer_.next(client_.data());
      client_.consume(l.consumed);
      if (l.status == line_status::need_more) break;
      client_line(l.text);
      progress = true;
    }
    if (!progress || session_.encrypted) return;
  }
}

void session_analyzer::client_line(std::string_view line) {
  observed_command c;
  if (auth_continuation_) {
    c.verb = "<auth-continuation>";
    c.argument = std::string(line);
    auth_continuation_ = false;
  } else {
    const auto sp = line.find(' ');
    c.verb = upper(line.substr(0, sp));
    c.argument = sp == std::string_view::npos ? std::string{} : std::string(line.substr(sp + 1));
    if (c.verb == "PASS") c.argument = "<hidden>";
  }
  session_.commands.push_back(std::move(c));
  pending_.push_back(session_.commands.size() - 1);
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
    session_.commands.push_back({"<unsolicited>", {}, std::string(line.substr(0, line.find(' '))), std::string(line), {}});
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
  if (c.verb == "STLS" && ok) {
    session_.encrypted = true;
    session_.encrypted_client_bytes += client_.size();
    session_.encrypted_server_bytes += server_.size();
    client_.clear();
    server_.clear();
  }
  return true;
}

}  // namespace netlib::pop3
