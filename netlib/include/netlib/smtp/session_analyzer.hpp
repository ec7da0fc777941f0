#pragma once
// A passive observer of one SMTP conversation (for lab-smtp analyze, netlab-replay and
// netlab-grade's SMTP questions): fed both directions' bytes
// in capture order, it pairs every command with its reply (pipelined commands too, RFC 2920),
// follows DATA into the message text (dot-unstuffing, RFC 5321 §4.5.2) and AUTH exchanges, and
// stops at a STARTTLS that got 220: the rest of the conversation is encrypted. The two-way plumbing
// is netlib::dialogue_observer's.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/dialogue_observer.hpp"
#include "netlib/core/line_framer.hpp"
#include "netlib/smtp/reply.hpp"

namespace netlib::smtp {

struct observed_command {
  std::string verb;  // upper-cased; "<auth-continuation>" for AUTH responses
  std::string argument;
  std::optional<int> reply_code;  // none when the capture ended first
  std::string reply_text;
  // Where the command line stands in the client's stream, its CRLF included (netlab-replay
  // re-sends exactly those bytes); both 0 for an unsolicited reply.
  std::size_t client_begin = 0;
  std::size_t client_end = 0;
};

struct observed_message {
  std::string from;
  std::vector<std::string> to;    // recipients whose RCPT was accepted
  std::size_t bytes = 0;          // after dot-unstuffing, with the last CRLF, without "."
  std::optional<int> reply_code;  // the reply to the end of data
  // Where the message text stands in the client's stream, from its first line to the end of
  // the "." line.
  std::size_t client_begin = 0;
  std::size_t client_end = 0;
};

// encrypted (STARTTLS succeeded), gap_bytes and problem: observed_transport.
struct observed_session : observed_transport {
  std::optional<int> greeting_code;
  std::string greeting_text;
  std::vector<observed_command> commands;
  std::vector<observed_message> messages;
};

// One thing the client sent, a command line or a message's text, with the bytes of the client's
// stream it was ([begin, end)) and the reply that answered it.
struct observed_unit {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool message = false;  // a message's text, up to and including its "." line
  std::optional<int> reply_code;
};
// The session's commands and message texts in the order the client sent them (netlab-replay
// re-sends them, netlab-grade's client suite checks them). Left out: unsolicited replies, which
// have no client bytes, and a line over the analyzer's limit (64 KiB), which it did not keep whole.
std::vector<observed_unit> units_in_client_order(const observed_session& s);

class session_analyzer : public dialogue_observer<session_analyzer> {
 public:
  session_analyzer() : dialogue_observer(65536) {}
  [[nodiscard]] const observed_session& session() const noexcept { return session_; }

 private:
  friend dialogue_observer;
  enum class client_mode { commands, data, auth_response };
  observed_transport& transport() noexcept { return session_; }
  [[nodiscard]] bool greeted() const noexcept { return session_.greeting_code.has_value(); }
  [[nodiscard]] bool awaiting_answer() const noexcept { return !pending_.empty(); }
  [[nodiscard]] bool client_waits() const;
  bool server_unit(input_buffer& server);
  bool client_line(const line_result& l);
  void on_reply(int code, const std::string& text);
  void finish_message();

  observed_session session_;
  reply_parser replies_;
  struct pending_reply {
    bool data_end = false;  // the reply to the end of a message's data, else to a command
    std::size_t index = 0;  // into session_.messages or session_.commands
  };
  std::deque<pending_reply> pending_;
  client_mode mode_ = client_mode::commands;
  observed_message current_;  // envelope of the open transaction
  std::size_t data_bytes_ = 0;
  std::size_t data_begin_ = 0;  // where the open message's text begins in the client's stream
};

}  // namespace netlib::smtp
