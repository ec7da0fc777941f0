#pragma once
// The POP3 client side (lab-pop3 fetch), sans I/O: greeting, [STLS], USER, PASS, UIDL, LIST, RETR
// for each message, [DELE for each], QUIT. Retrieved messages come out as events.
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/session.hpp"
#include "netlib/pop3/response.hpp"

namespace netlib::pop3 {

struct client_options {
  std::string user;
  std::string password;
  bool stls = false;    // RFC 2595 §4
  bool remove = false;  // DELE every retrieved message (applied by the server at QUIT)
};

// send_command, start_tls and close_connection: the client side of the session contract.
using client_action = client_session_action<>;

struct fetched_message {
  std::size_t number = 0;
  std::string uid;
  std::size_t size = 0;  // as LIST reported it
  std::string bytes;     // unstuffed, CRLF line ends
};

struct client_step {
  std::size_t consumed = 0;
  std::vector<std::string> responses;  // status lines read, for a trace
  std::vector<client_action> actions;
  std::vector<fetched_message> messages;
};

enum class client_state {
  awaiting_greeting,
  awaiting_stls,
  awaiting_tls,
  awaiting_user,
  awaiting_pass,
  awaiting_uidl,
  awaiting_list,
  awaiting_retr,
  awaiting_dele,
  awaiting_quit,
  finished,
};

class client_session {
 public:
  explicit client_session(client_options options);
  [[nodiscard]] client_step receive(byte_view input);
  [[nodiscard]] std::vector<client_action> tls_started();
  [[nodiscard]] std::vector<client_action> receive_eof();
  [[nodiscard]] bool finished() const noexcept { return state_ == client_state::finished; }
  [[nodiscard]] const std::string& error() const noexcept { return error_; }
  [[nodiscard]] std::size_t retrieved() const noexcept { return retrieved_; }
  [[nodiscard]] std::size_t deleted() const noexcept { return deleted_; }

 private:
  [[nodiscard]] bool multiline() const noexcept;
  void on_response(const response& r, client_step& step);
  void on_listing(const response& r, client_step& step);
  void next_message(client_step& step);
  void send(client_step& step, const std::string& line, const std::string& shown = {});
  // Records the first error ("<outcome>server refused <what>: -ERR <text>") and says QUIT.
  void fail(client_step& step, const std::string& what, const response& r, std::string_view outcome = {});

  client_options options_;
  response_parser parser_;
  client_state state_ = client_state::awaiting_greeting;
  struct listing {
    std::size_t number = 0;
    std::string uid;
    std::size_t size = 0;
  };
  std::vector<listing> listing_;
  std::size_t current_ = 0;  // index into listing_
  std::size_t retrieved_ = 0;
  std::size_t deleted_ = 0;
  std::string error_;
};

}  // namespace netlib::pop3
