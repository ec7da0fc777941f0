#pragma once
// A passive observer of one POP3 conversation (for lab-pop3 analyze and netlab-grade): fed both directions' bytes
// in capture order, it pairs every command with its response, reads multi-line responses
// (byte-stuffed, RFC 1939 §3) to their "." line, follows AUTH continuations (RFC 5034), and stops
// at an STLS that got +OK (RFC 2595): the rest is encrypted. The two-way plumbing is
// netlib::dialogue_observer's.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/dialogue_observer.hpp"
#include "netlib/core/line_framer.hpp"

namespace netlib::pop3 {

struct observed_command {
  std::string verb;                   // upper-cased; "<auth-continuation>" for AUTH responses
  std::string argument;               // PASS arguments are kept as "<hidden>"
  std::optional<std::string> status;  // "+OK", "-ERR" or "+" (continuation); none if not captured
  std::string text;
  std::optional<std::size_t> body_bytes;  // multi-line responses: unstuffed bytes before "."
  // Where the command line stands in the client's stream, its line end included.
  std::size_t client_begin = 0;
  std::size_t client_end = 0;
};

// encrypted (STLS succeeded), gap_bytes and problem: observed_transport.
struct observed_session : observed_transport {
  std::optional<std::string> greeting;
  std::vector<observed_command> commands;
  std::size_t garbage_lines = 0;  // server lines that were no response (skipped)
};

class session_analyzer : public dialogue_observer<session_analyzer> {
 public:
  session_analyzer() : dialogue_observer(4096) {}
  [[nodiscard]] const observed_session& session() const noexcept { return session_; }

 private:
  friend dialogue_observer;
  observed_transport& transport() noexcept { return session_; }
  [[nodiscard]] bool greeted() const noexcept { return session_.greeting.has_value(); }
  [[nodiscard]] bool awaiting_answer() const noexcept { return !pending_.empty(); }
  [[nodiscard]] bool client_waits() const;
  bool server_unit(input_buffer& server);
  bool client_line(const line_result& l);
  bool server_line(std::string_view line, std::size_t consumed);
  [[nodiscard]] bool multiline(const observed_command& c) const;

  observed_session session_;
  line_framer server_framer_{{.max_length = 65536, .strict = false}};
  std::deque<std::size_t> pending_;     // indices into session_.commands
  std::optional<std::size_t> in_body_;  // the command whose multi-line body is being read
  bool auth_continuation_ = false;
};

}  // namespace netlib::pop3
