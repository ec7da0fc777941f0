// Theory of operation: the client sends one command and waits for its response. States
// (client_state) name the response awaited:
//   greeting +OK -> [STLS +OK -> TLS, RFC 2595 §4] -> USER +OK -> PASS +OK -> UIDL (multi-line)
//   -> LIST (multi-line) -> for each message: RETR (multi-line) [-> DELE] -> QUIT +OK.
// LIST and UIDL with no argument, and RETR, have multi-line answers (RFC 1939 §5, §7); the
// parser is told so. A -ERR records "server refused <command>: <text>" and sends QUIT.
#include "netlib/pop3/client_session.hpp"

#include <charconv>
#include <map>

#include <fmt/format.h>

namespace netlib::pop3 {

client_session::client_session(client_options options) : options_(std::move(options)) {}

bool client_session::multiline() const noexcept {
  return state_ == client_state::awaiting_uidl || state_ == client_state::awaiting_list ||
         state_ == client_state::awaiting_retr;
}

client_step client_session::receive(byte_view input) {
  client_step step;
  for (int n = 0; n < 100000 && state_ != client_state::finished && state_ != client_state::awaiting_tls; ++n) {
    response_result r = parser_.next(input.subspan(step.consumed), multiline());
    step.consumed += r.consumed;
    if (r.status == response_status::need_more) break;
    if (r.status == response_status::malformed) {
      error_ = "malformed response from the server (expected +OK or -ERR)";
      state_ = client_state::finished;
      step.actions.emplace_back(close_connection{});
      break;
    }
    step.responses.push_back((r.value.ok ? "+OK " : "-ERR ") + r.value.text);
    on_response(r.value, step);
  }
  return step;
}

void client_session::send(client_step& step, const std::string& line, const std::string& shown) {
  step.actions.emplace_back(send_command{line + "\r\n", shown.empty() ? line : shown});
}

void client_session::fail(client_step& step, const std::string& what, const response& r, std::string_view outcome) {
  if (error_.empty()) error_ = fmt::format("{}server refused {}: -ERR {}", outcome, what, r.text);
  state_ = client_state::awaiting_quit;
  send(step, "QUIT");
}

void client_session::on_response(const response& r, client_step& step) {
  switch (state_) {
    case client_state::awaiting_greeting:
      if (!r.ok) return fail(step, "the connection (greeting)", r);
      if (options_.stls) {
        state_ = client_state::awaiting_stls;
        return send(step, "STLS");
      }
      state_ = client_state::awaiting_user;
      return send(step, "USER " + options_.user);
    case client_state::awaiting_stls:
      if (!r.ok) return fail(step, "STLS", r);
      state_ = client_state::awaiting_tls;
      step.actions.emplace_back(start_tls{});
      return;
    case client_state::awaiting_user:
      if (!r.ok) return fail(step, "USER " + options_.user, r, "login failed: ");
      state_ = client_state::awaiting_pass;
      return send(step, "PASS " + options_.password, "PASS <hidden>");
    case client_state::awaiting_pass:
      if (!r.ok) return fail(step, "PASS (user " + options_.user + ")", r, "login failed: ");
      state_ = client_state::awaiting_uidl;
      return send(step, "UIDL");
    case client_state::awaiting_uidl:
    case client_state::awaiting_list:
      return on_listing(r, step);
    case client_state::awaiting_retr: {
      if (!r.ok) return fail(step, fmt::format("RETR {}", listing_[current_].number), r);
      const listing& l = listing_[current_];
      step.messages.push_back({l.number, l.uid, l.size, r.body});
      ++retrieved_;
      if (options_.remove) {
        state_ = client_state::awaiting_dele;
        return send(step, fmt::format("DELE {}", l.number));
      }
      ++current_;
      return next_message(step);
    }
    case client_state::awaiting_dele:
      if (!r.ok) return fail(step, fmt::format("DELE {}", listing_[current_].number), r);
      ++deleted_;
      ++current_;
      return next_message(step);
    case client_state::awaiting_quit:
      state_ = client_state::finished;
      step.actions.emplace_back(close_connection{});
      return;
    default:
      return;
  }
}

void client_session::on_listing(const response& r, client_step& step) {
  const bool uidl = state_ == client_state::awaiting_uidl;
  if (!r.ok) return fail(step, uidl ? "UIDL" : "LIST", r);
  std::map<std::size_t, std::string> items;  // number -> uid or size
  std::string_view body = r.body;
  while (!body.empty()) {
    const auto eol = body.find("\r\n");
    const std::string_view line = body.substr(0, eol);
    body = eol == std::string_view::npos ? std::string_view{} : body.substr(eol + 2);
    const auto sp = line.find(' ');
    std::size_t n = 0;
    std::from_chars(line.data(), line.data() + line.size(), n);
    if (sp != std::string_view::npos && n > 0) items[n] = std::string(line.substr(sp + 1));
  }
  if (uidl) {
    for (const auto& [n, uid] : items) listing_.push_back({n, uid, 0});
    state_ = client_state::awaiting_list;
    return send(step, "LIST");
  }
  for (auto& l : listing_) {
    const auto it = items.find(l.number);
    if (it != items.end()) std::from_chars(it->second.data(), it->second.data() + it->second.size(), l.size);
  }
  current_ = 0;
  next_message(step);
}

void client_session::next_message(client_step& step) {
  if (current_ < listing_.size()) {
    state_ = client_state::awaiting_retr;
    return send(step, fmt::format("RETR {}", listing_[current_].number));
  }
  state_ = client_state::awaiting_quit;
  send(step, "QUIT");
}

std::vector<client_action> client_session::tls_started() {
  if (state_ != client_state::awaiting_tls) throw std::logic_error("tls_started() without STLS");
  parser_ = response_parser{};
  state_ = client_state::awaiting_user;
  return {send_command{"USER " + options_.user + "\r\n", "USER " + options_.user}};
}

std::vector<client_action> client_session::receive_eof() {
  if (state_ == client_state::finished) return {};
  if (error_.empty() && state_ != client_state::awaiting_quit) error_ = "the server closed the connection unexpectedly";
  state_ = client_state::finished;
  return {close_connection{}};
}

}  // namespace netlib::pop3
