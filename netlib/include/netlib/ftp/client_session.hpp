#pragma once
// The FTP client side of a control connection, without I/O: it serializes commands, parses the
// replies (multi-line included) and pairs each reply with the command it answers (RFC 959 §5.4:
// one or more preliminary 1yz replies, then exactly one final reply per command).
//
//   ftp::client_session c;
//   auto out = c.receive(bytes);            // the 220 greeting: c.state() becomes ready
//   write(c.send({"USER", "anonymous"}));   // then receive() until a final reply for USER
#include <cstddef>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/ftp/command.hpp"
#include "netlib/ftp/reply.hpp"

namespace netlib::ftp {

enum class client_state {
  awaiting_greeting,  // connected, before the 220 (a 120 "ready in n minutes" may come first)
  ready,              // no command outstanding
  awaiting_reply,     // a command was sent; its reply has not come
  awaiting_final,     // a 1yz came (e.g. 150 before a transfer); the final reply has not come
  closed,             // 221 after QUIT, a 421, or end of stream
  failed,             // the server broke the protocol (malformed reply); sticky
};

struct client_event {
  ftp::reply value;
  std::string verb;   // the command it answers ("" for the greeting or an unsolicited reply)
  bool final = true;  // false for a preliminary 1yz reply
};

struct client_output {
  std::size_t consumed = 0;
  std::vector<client_event> events;
  std::string error;  // set when the state became failed
};

class client_session {
 public:
  // Throws std::logic_error when a command is already outstanding (FTP has no pipelining of
  // commands whose replies decide what to send next; a driver sends one at a time).
  std::string send(const command& c);
  client_output receive(byte_view input);
  void receive_eof();
  [[nodiscard]] client_state state() const noexcept { return state_; }
  [[nodiscard]] const std::string& outstanding() const noexcept { return outstanding_; }

 private:
  void on_reply(ftp::reply r, client_output& out);
  reply_parser parser_;
  client_state state_ = client_state::awaiting_greeting;
  std::string outstanding_;
};

}  // namespace netlib::ftp
