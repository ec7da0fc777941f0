// Theory of operation: FTP is lock-step (RFC 959 §5.4): every command gets zero or more 1yz
// replies and then exactly one final reply, in order. The analyzer queues commands as they are
// parsed from the client stream and gives each server reply to the oldest command without a final
// reply (next_unanswered_); the first reply is the greeting when it is 120/220/421, and a reply
// with no command waiting is unsolicited (e.g. a 421). Data set-ups: a PORT/EPRT command is recorded when its 200
// arrives (the server accepted the address); a 227/229 reply records the passive address. Over-long or malformed lines
// are counted and skipped. After a capture gap the direction resumes at the next line start. Pairing uses capture
// times, not delivery order (a reassembler may hold one direction back behind a hole): a client waits for each reply
// before its next command (lock-step), so a reply answers the latest command sent before it; see on_reply().
#include "netlib/ftp/control_analyzer.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace netlib::ftp {

bool control_analyzer::is_transfer_verb(std::string_view verb) {
  static constexpr std::array<std::string_view, 4> verbs = {"RETR", "LIST", "NLST", "MLSD"};
  return std::find(verbs.begin(), verbs.end(), verb) != verbs.end() || is_upload_verb(verb);
}

bool control_analyzer::is_upload_verb(std::string_view verb) {
  return verb == "STOR" || verb == "STOU" || verb == "APPE";
}

namespace {
// After a gap, bytes that already look like the start of a reply ("123 " or "123-") or of an
// upper-case command ("CWD x", "PASV") are taken as a line start.
bool looks_like_line_start(std::string_view s) {
  if (s.size() >= 4 && std::isdigit(static_cast<unsigned char>(s[0])) &&
      std::isdigit(static_cast<unsigned char>(s[1])) && std::isdigit(static_cast<unsigned char>(s[2])) &&
      (s[3] == ' ' || s[3] == '-')) {
    return true;
  }
  std::size_t n = 0;
  while (n < s.size() && n < 5 && std::isupper(static_cast<unsigned char>(s[n]))) ++n;
  return n >= 3 && n <= 4 && n < s.size() && (s[n] == ' ' || s[n] == '\r' || s[n] == '\n');
}
}  // namespace

bool control_analyzer::skip_to_line_start(input_buffer& in, bool& resync) {
  if (!resync) return true;
  const std::string_view s = as_chars(in.data());
  if (looks_like_line_start(s)) {
    resync = false;
    return true;
  }
  const std::size_t lf = s.find('\n');
  if (lf == std::string_view::npos) {
    in.clear();
    return false;
  }
  in.consume(lf + 1);
  resync = false;
  return true;
}

void control_analyzer::client_gap() {
  ++gaps_;
  client_in_.clear();
  client_resync_ = true;
  commands_parser_ = command_parser(4096);
}

void control_analyzer::server_gap() {
  ++gaps_;
  server_in_.clear();
  server_resync_ = true;
  replies_parser_ = reply_parser();
}

void control_analyzer::client_bytes(byte_view bytes, time_point ts) {
  client_in_.append(bytes);
  client_fed_ += bytes.size();
  if (!skip_to_line_start(client_in_, client_resync_)) return;
  for (int i = 0; i < 1000000 && !client_in_.empty(); ++i) {
    const std::size_t begin = client_fed_ - client_in_.size();
    const command_result r = commands_parser_.next(client_in_.data());
    client_in_.consume(r.consumed);
    if (r.status == command_status::need_more) break;
    if (r.status == command_status::bad_line) {
      ++malformed_;
      continue;
    }
    commands_.push_back(command_record{
        r.value.verb, r.value.argument, std::nullopt, {}, ts, {}, begin, client_fed_ - client_in_.size()});
  }
}

void control_analyzer::server_bytes(byte_view bytes, time_point ts) {
  server_in_.append(bytes);
  if (!skip_to_line_start(server_in_, server_resync_)) return;
  for (int i = 0; i < 1000000 && !server_in_.empty(); ++i) {
    reply_result r = replies_parser_.next(server_in_.data());
    if (r.status == reply_status::error) {  // sticky in the parser: start over at the next line
      ++malformed_;
      replies_parser_ = reply_parser();
      // Skip the bad line itself, even when it looks like a line start ("939 ..."): parsing it
      // again would fail again without consuming anything.
      const std::size_t lf = as_chars(server_in_.data()).find('\n');
      if (lf == std::string_view::npos) {  // the rest of the bad line has not arrived yet
        server_in_.clear();
        server_resync_ = true;
        return;
      }
      server_in_.consume(lf + 1);
      continue;
    }
    server_in_.consume(r.consumed);
    if (r.status == reply_status::need_more) break;
    on_reply(r.value, ts);
  }
}

void control_analyzer::on_reply(const reply& r, time_point ts) {
  // RFC 959 §5.4: the connection opens with 120 (then 220), 220 or 421, before any command's reply.
  if (!greeting_done_ && (r.code == 120 || r.code == 220 || r.code == 421)) {
    greeting_ = r;
    greeting_done_ = r.code != 120;
    return;
  }
  greeting_done_ = true;
  // Lock-step with capture times: a reply older than the oldest waiting command answers a command
  // lost in a gap; a waiting command followed by another command sent before this reply had its
  // reply lost (the client moved on), except ABOR/STAT/NOOP sent during a transfer.
  while (next_unanswered_ < commands_.size()) {
    const command_record& c = commands_[next_unanswered_];
    if (ts < c.sent) return;
    const command_record* next = next_unanswered_ + 1 < commands_.size() ? &commands_[next_unanswered_ + 1] : nullptr;
    const bool during_transfer =
        next && !c.preliminary_codes.empty() && (next->verb == "ABOR" || next->verb == "STAT" || next->verb == "NOOP");
    if (!next || next->sent >= ts || during_transfer) break;
    ++next_unanswered_;
  }
  if (next_unanswered_ >= commands_.size()) return;  // unsolicited (e.g. 421 before closing)
  command_record& c = commands_[next_unanswered_];
  if (r.preliminary()) {
    c.preliminary_codes.push_back(r.code);
    return;
  }
  c.reply_code = r.code;
  c.answered = ts;
  const std::size_t index = next_unanswered_++;
  if (c.verb == "PASV" && r.code == 227) {  // RFC 959 §4.1.2
    if (auto a = parse_pasv_reply(r.text())) setups_.push_back({index, true, *a, ts});
  } else if (c.verb == "EPSV" && r.code == 229) {  // RFC 2428 §3
    if (auto a = parse_epsv_reply(r.text())) setups_.push_back({index, true, *a, ts});
  } else if (c.verb == "PORT" && r.completion()) {
    if (auto a = parse_port_argument(c.argument)) setups_.push_back({index, false, *a, c.sent});
  } else if (c.verb == "EPRT" && r.completion()) {  // RFC 2428 §2
    if (auto a = parse_eprt_argument(c.argument)) setups_.push_back({index, false, *a, c.sent});
  }
}

}  // namespace netlib::ftp
