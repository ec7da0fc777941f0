#pragma once
// A passive observer of one POP3 conversation (for lab-pop3 analyze): fed both directions' bytes
// in capture order, it pairs every command with its response, reads multi-line responses
// (byte-stuffed, RFC 1939 §3) to their "." line, follows AUTH continuations (RFC 5034), and stops
// at an STLS that got +OK (RFC 2595): the rest is encrypted.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/line_framer.hpp"

namespace netlib::pop3 {

struct observed_command {
  std::string verb;                 // upper-cased; "<auth-continuation>" for AUTH responses
  std::string argument;             // PASS arguments are kept as "<hidden>"
  std::optional<std::string> status;  // "+OK", "-ERR" or "+" (continuation); none if not captured
  std::string text;
  std::optional<std::size_t> body_bytes;  // multi-line responses: unstuffed bytes before "."
};

struct observed_session {
  std::optional<std::string> greeting;
  std::vector<observed_command> commands;
  std::size_t garbage_lines = 0;    // server lines that were no response (skipped)
  bool encrypted = false;
  std::size_t encrypted_client_bytes = 0;
  std::size_t encrypted_server_bytes = 0;
  std::size_t gap_bytes = 0;
  std::string problem;
};

class session_analyzer {
 public:
  void client_bytes(byte_view bytes);
  void server_bytes(byte_view bytes);
  void gap(bool from_client, std::size_t size);
  [[nodiscard]] const observed_session& session() const noexcept { return session_; }

 private:
  void pump();
  bool server_line(std::string_view line, std::size_t consumed);
  void client_line(std::string_view line);
  [[nodiscard]] bool must_wait() const;
  [[nodiscard]] bool client_line_first() const;
  [[nodiscard]] bool multiline(const observed_command& c) const;

  observed_session session_;
  input_buffer client_;
  input_buffer server_;
  line_framer client_framer_{{.max_length = 4096, .strict = false}};
  line_framer server_framer_{{.max_length = 65536, .strict = false}};
  std::deque<std::size_t> pending_;  // indices into session_.commands
  std::optional<std::size_t> in_body_;  // the command whose multi-line body is being read
  bool auth_continuation_ = false;
  bool stopped_client_ = false;
  bool stopped_server_ = false;
};

}  // namespace netlib::pop3
