// Theory of operation: the TRANSACTION state commands of RFC 1939 §5 and the UPDATE state (§6).
// Message numbers are 1-based positions in the snapshot taken at PASS; a message marked deleted
// may not be referred to again (§5 DELE) until RSET unmarks it. Sizes count CRLF line ends; RETR
// and TOP send the message byte-stuffed (§3) and end with ".".
#include <charconv>

#include <fmt/format.h>

#include "netlib/mail/message_text.hpp"
#include "netlib/pop3/server_session.hpp"

namespace netlib::pop3 {

void server_session::on_transaction(const std::string& verb, const std::string& arg, server_step& step) {
  if (verb == "STAT") return on_stat(arg, step);
  if (verb == "LIST") return on_list(arg, false, step);
  if (verb == "UIDL") return on_list(arg, true, step);
  if (verb == "RETR") return on_retr(arg, step);
  if (verb == "TOP") return on_top(arg, step);
  if (verb == "DELE") return on_dele(arg, step);
  if (verb == "NOOP") return ok(step, "");
  if (verb == "RSET") {
    deleted_.assign(deleted_.size(), false);
    return ok(step, fmt::format("maildrop has {} messages", deleted_.size()));
  }
  if (verb == "QUIT") return on_quit(step);
  if (verb == "USER" || verb == "PASS" || verb == "STLS") return err(step, verb + " is not allowed after login");
  err(step, "unknown command");
}

bool server_session::message_number(std::string_view text, std::size_t& index, server_step& step) {
  std::size_t n = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc{} || p != text.data() + text.size()) {
    err(step, "message number required");
    return false;
  }
  if (n == 0 || n > deleted_.size()) {
    err(step, fmt::format("no such message, only {} messages in maildrop", deleted_.size()));
    return false;
  }
  if (deleted_[n - 1]) {
    err(step, fmt::format("message {} already deleted", n));
    return false;
  }
  index = n - 1;
  return true;
}

void server_session::on_stat(const std::string& arg, server_step& step) {
  if (!arg.empty()) return err(step, "STAT takes no argument");
  std::size_t count = 0;
  std::size_t octets = 0;
  for (std::size_t i = 0; i < deleted_.size(); ++i) {
    if (deleted_[i]) continue;
    ++count;
    octets += box_->messages()[i].size;
  }
  ok(step, fmt::format("{} {}", count, octets));
}

void server_session::on_list(const std::string& arg, bool uidl, server_step& step) {
  const auto& msgs = box_->messages();
  const auto item = [&](std::size_t i) {
    return uidl ? fmt::format("{} {}", i + 1, msgs[i].uid) : fmt::format("{} {}", i + 1, msgs[i].size);
  };
  if (!arg.empty()) {
    std::size_t i = 0;
    if (message_number(arg, i, step)) ok(step, item(i));
    return;
  }
  std::string text = uidl ? "+OK unique-id listing follows\r\n" : "+OK scan listing follows\r\n";
  for (std::size_t i = 0; i < msgs.size(); ++i)
    if (!deleted_[i]) text += item(i) + "\r\n";
  text += ".\r\n";
  step.actions.emplace_back(send_bytes{std::move(text)});
}

void server_session::on_retr(const std::string& arg, server_step& step) {
  std::size_t i = 0;
  if (!message_number(arg, i, step)) return;
  const auto bytes = box_->read(i);
  if (!bytes) return err(step, "[SYS/TEMP] the message cannot be read");
  const std::string crlf = mail::to_crlf(*bytes);
  step.actions.emplace_back(
      send_bytes{fmt::format("+OK {} octets\r\n", crlf.size()) + mail::dot_stuff(crlf) + ".\r\n"});
}

void server_session::on_top(const std::string& arg, server_step& step) {
  const auto sp = arg.find(' ');
  std::size_t lines = 0;
  const std::string count = sp == std::string::npos ? std::string{} : arg.substr(sp + 1);
  const auto [p, ec] = std::from_chars(count.data(), count.data() + count.size(), lines);
  if (count.empty() || ec != std::errc{} || p != count.data() + count.size())
    return err(step, "Syntax: TOP <message> <lines>");
  std::size_t i = 0;
  if (!message_number(arg.substr(0, sp), i, step)) return;
  const auto bytes = box_->read(i);
  if (!bytes) return err(step, "[SYS/TEMP] the message cannot be read");
  const std::string crlf = mail::to_crlf(*bytes);
  // §7 TOP: the header, the blank line, then `lines` lines of the body.
  std::size_t end = crlf.find("\r\n\r\n");
  end = end == std::string::npos ? crlf.size() : end + 4;
  for (std::size_t n = 0; n < lines && end < crlf.size(); ++n) {
    const auto next = crlf.find("\r\n", end);
    end = next == std::string::npos ? crlf.size() : next + 2;
  }
  step.actions.emplace_back(
      send_bytes{"+OK top of message follows\r\n" + mail::dot_stuff(crlf.substr(0, end)) + ".\r\n"});
}

void server_session::on_dele(const std::string& arg, server_step& step) {
  std::size_t i = 0;
  if (!message_number(arg, i, step)) return;
  deleted_[i] = true;  // removed only in UPDATE (§6)
  ok(step, fmt::format("message {} deleted", i + 1));
}

void server_session::on_quit(server_step& step) {
  // §6 UPDATE state.
  std::vector<std::size_t> doomed;
  for (std::size_t i = 0; i < deleted_.size(); ++i)
    if (deleted_[i]) doomed.push_back(i);
  const std::size_t failed = doomed.empty() ? 0 : box_->remove(doomed);
  const std::size_t left = deleted_.size() - doomed.size() + failed;
  if (failed > 0)
    err(step, fmt::format("[SYS/TEMP] {} deleted messages not removed", failed));
  else
    ok(step, fmt::format("{} signing off ({} messages left)", config_.hostname, left));
  close(step);
}

}  // namespace netlib::pop3
