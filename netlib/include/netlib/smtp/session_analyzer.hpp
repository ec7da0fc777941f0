#pragma once
// A passive observer of one SMTP conversation (for lab-smtp analyze): fed both directions' bytes
// in capture order, it pairs every command with its reply (pipelined commands too, RFC 2920),
// follows DATA into the message text (dot-unstuffing, RFC 5321 §4.5.2) and AUTH exchanges, and
// stops at a STARTTLS that got 220: the rest of the conversation is encrypted.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/line_framer.hpp"
#include "netlib/smtp/reply.hpp"

namespace netlib::smtp {

struct observed_command {
  std::string verb;              // upper-cased; "<auth-continuation>" for AUTH responses
  std::string argument;
  std::optional<int> reply_code; // none when the capture ended first
  std::string reply_text;
};

struct observed_message {
  std::string from;
  std::vector<std::string> to;     // recipients whose RCPT was accepted
  std::size_t bytes = 0;           // after dot-unstuffing, with the last CRLF, without "."
  std::optional<int> reply_code;   // the reply to the end of data
};

struct observed_session {
  std::optional<int> greeting_code;
  std::string greeting_text;
  std::vector<observed_command> commands;
  std::vector<observed_message> messages;
  bool encrypted = false;          // STARTTLS succeeded: the rest was not analysed
  std::size_t encrypted_client_bytes = 0;
  std::size_t encrypted_server_bytes = 0;
  std::size_t gap_bytes = 0;       // bytes missing from the capture; analysis of that side stopped
  std::string problem;             // first thing that could not be parsed, if any
};

class session_analyzer {
 public:
  void client_bytes(byte_view bytes);
  void server_bytes(byte_view bytes);
  void gap(bool from_client, std::size_t size);
  [[nodiscard]] const observed_session& session() const noexcept { return session_; }

 private:
  enum class client_mode { commands, data, auth_response };
  void pump();
  bool client_line(const line_result& l);
  void on_reply(int code, const std::string& text);
  [[nodiscard]] bool must_wait() const;
  [[nodiscard]] bool client_line_first() const;
  void finish_message();
  void stop_encrypted();

  observed_session session_;
  input_buffer client_;
  input_buffer server_;
  line_framer client_framer_{{.max_length = 65536, .strict = false}};
  reply_parser replies_;
  struct pending_reply {
    bool data_end = false;  // the reply to the end of a message's data, else to a command
    std::size_t index = 0;  // into session_.messages or session_.commands
  };
  std::deque<pending_reply> pending_;
  client_mode mode_ = client_mode::commands;
  observed_message current_;         // envelope of the open transaction
  std::size_t data_bytes_ = 0;
  bool stopped_client_ = false;
  bool stopped_server_ = false;
};

}  // namespace netlib::smtp
