#pragma once
// The SMTP client side (the textbook's mail client, RFC 5321 §3.3), sans I/O: it reads replies,
// sends one command at a time (EHLO, STARTTLS, AUTH PLAIN, MAIL, RCPT..., DATA, the message, QUIT)
// and reports exactly which reply refused what.
//
//   client_session c(options, envelope, message);
//   auto step = c.receive(buffer.data());   // replies in, commands out
//   on start_tls: handshake, then execute(c.tls_started());
//   when c.finished(): c.result() says what was delivered and what failed.
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/session.hpp"
#include "netlib/smtp/reply.hpp"

namespace netlib::smtp {

struct client_options {
  std::string ehlo_name = "localhost";
  bool starttls = false;                                    // RFC 3207
  std::optional<std::pair<std::string, std::string>> auth;  // user, password: AUTH PLAIN (RFC 4616)
};

struct envelope {
  std::string from;             // reverse-path, may be empty for "<>"
  std::vector<std::string> to;  // forward-paths, at least one
};

// send_command, start_tls and close_connection: the client side of the session contract.
using client_action = client_session_action<>;

struct client_step {
  std::size_t consumed = 0;
  std::vector<reply> replies;  // replies read in this step, for a trace
  std::vector<client_action> actions;
};

struct client_result {
  bool delivered = false;                               // the final 250 after the data
  std::vector<std::string> accepted;                    // recipients with 250/251
  std::vector<std::pair<std::string, reply>> rejected;  // recipient and its reply
  std::string error;        // empty on full success: "server refused MAIL FROM:<a@b>: 550 ..."
  std::string queue_reply;  // text of the final 250
};

enum class client_state {
  awaiting_greeting,
  awaiting_ehlo,
  awaiting_helo,
  awaiting_starttls,
  awaiting_tls,
  awaiting_auth,
  awaiting_mail,
  awaiting_rcpt,
  awaiting_data,
  awaiting_data_end,
  awaiting_quit,
  finished,
};

class client_session {
 public:
  // `message` is the whole message with CRLF line ends (it is dot-stuffed here).
  client_session(client_options options, envelope env, std::string message);

  [[nodiscard]] client_step receive(byte_view input);
  [[nodiscard]] std::vector<client_action> tls_started();
  // The server closed: finished, with an error unless QUIT was answered.
  [[nodiscard]] std::vector<client_action> receive_eof();
  [[nodiscard]] bool finished() const noexcept { return state_ == client_state::finished; }
  [[nodiscard]] client_state state() const noexcept { return state_; }
  [[nodiscard]] const client_result& result() const noexcept { return result_; }
  [[nodiscard]] const std::set<std::string>& capabilities() const noexcept { return caps_; }

 private:
  void on_reply(const reply& r, client_step& step);
  void on_ehlo(const reply& r, client_step& step);
  void on_rcpt(const reply& r, client_step& step);
  void after_hello(client_step& step);
  void send(client_step& step, std::string line, std::string shown = {});
  void fail(client_step& step, const std::string& what, const reply& r);
  void fail(client_step& step, const std::string& message);

  client_options options_;
  envelope env_;
  std::string message_;
  reply_parser parser_;
  client_state state_ = client_state::awaiting_greeting;
  std::set<std::string> caps_;  // EHLO keywords, upper-cased, with parameters ("AUTH PLAIN LOGIN")
  bool tls_active_ = false;
  std::size_t next_rcpt_ = 0;
  client_result result_;
};

}  // namespace netlib::smtp
