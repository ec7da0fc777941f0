#pragma once
// The SMTP server side of one connection (RFC 5321 with PIPELINING RFC 2920, SIZE RFC 1870,
// 8BITMIME RFC 6152, ENHANCEDSTATUSCODES RFC 2034/3463, STARTTLS RFC 3207, AUTH RFC 4954), sans
// I/O: the driver feeds bytes and executes the returned actions. Deliveries go to the injected
// mail store; users come from the injected users table.
//
//   server_session s(config, info, store, users);
//   execute(s.start());                        // 220 greeting
//   auto step = s.receive(buffer.data(), now); // replies for every complete line
//   buffer.consume(step.consumed); execute(step.actions);
//   on start_tls: discard the buffer, handshake, then s.tls_started().
#include <chrono>
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/line_framer.hpp"
#include "netlib/mail/mail_store.hpp"
#include "netlib/mail/users_table.hpp"
#include "netlib/smtp/command.hpp"

namespace netlib::smtp {

struct server_config {
  std::string hostname = "localhost";   // our name in the greeting and the Received: header
  std::string domain = "localhost";     // mail for user@domain is local
  std::size_t max_message_bytes = 10 * 1024 * 1024;  // SIZE (RFC 1870)
  std::size_t max_recipients = 100;     // RFC 5321 §4.5.3.1.8: at least 100
  std::size_t max_errors = 20;          // then 421 and close
  bool tls_available = false;           // advertise STARTTLS
  bool require_tls = false;             // refuse mail transactions before STARTTLS (530)
};

struct session_info {
  std::string peer = "unknown";    // "[127.0.0.1]:5000"-like text for the Received: header
  std::string session_id = "0";    // unique per connection, used in queue ids
};

struct send_reply {
  std::string bytes;
};
struct start_tls {};
struct close_connection {};
using server_action = std::variant<send_reply, start_tls, close_connection>;

struct server_step {
  std::size_t consumed = 0;
  std::vector<server_action> actions;
};

enum class server_state {
  awaiting_helo,          // greeting sent; EHLO/HELO expected
  awaiting_mail,          // no transaction open
  awaiting_rcpt,          // MAIL accepted, no recipient yet
  awaiting_data,          // at least one recipient accepted
  in_data,                // 354 sent; reading lines until CRLF.CRLF
  awaiting_auth_response, // 334 sent; a base64 line expected
  awaiting_tls,           // 220 to STARTTLS sent; nothing consumed until tls_started()
  closed,                 // 221/421 sent; nothing consumed
};

class server_session {
 public:
  server_session(server_config config, session_info info, mail::mail_store& store,
                 const mail::users_table& users);

  [[nodiscard]] std::vector<server_action> start();
  // Consumes complete lines; stops after a line that starts TLS or closes.
  [[nodiscard]] server_step receive(byte_view input, std::chrono::sys_seconds now);
  // The peer closed: a message in progress is dropped (nothing is stored).
  [[nodiscard]] std::vector<server_action> receive_eof();
  // The TLS handshake succeeded: the session starts over (RFC 3207 §4.2).
  void tls_started();

  [[nodiscard]] server_state state() const noexcept { return state_; }
  [[nodiscard]] bool tls_active() const noexcept { return tls_active_; }
  [[nodiscard]] bool authenticated() const noexcept { return !auth_user_.empty(); }
  [[nodiscard]] std::size_t messages_accepted() const noexcept { return messages_; }

 private:
  enum class auth_step { plain, login_user, login_password };
  enum class data_problem { none, bare_line_end, line_too_long, too_big };

  void on_line(line_result line, std::chrono::sys_seconds now, server_step& step);
  void on_command(std::string_view line, server_step& step);
  void on_data_line(line_result line, std::chrono::sys_seconds now, server_step& step);
  void on_helo(const command& c, bool extended, server_step& step);
  void on_mail(const command& c, server_step& step);
  void on_rcpt(const command& c, server_step& step);
  void on_data(const command& c, server_step& step);
  void on_starttls(const command& c, server_step& step);
  void on_auth(const command& c, server_step& step);
  void on_auth_response(std::string_view line, server_step& step);
  void finish_auth(std::string_view user, std::string_view password, server_step& step);
  void end_of_data(std::chrono::sys_seconds now, server_step& step);
  [[nodiscard]] std::string received_header(std::chrono::sys_seconds now, const std::string& id) const;
  [[nodiscard]] bool blocked_by_require_tls(server_step& step);
  void reply(server_step& step, int code, std::string_view text);
  void error(server_step& step, int code, std::string_view text);
  void reset_transaction();
  [[nodiscard]] bool is_local(std::string_view address) const;

  server_config config_;
  session_info info_;
  mail::mail_store& store_;
  const mail::users_table& users_;
  server_state state_ = server_state::awaiting_helo;
  line_framer command_framer_{{.max_length = 512, .strict = true}};   // RFC 5321 §4.5.3.1.4
  line_framer data_framer_{{.max_length = 1000, .strict = true}};     // RFC 5321 §4.5.3.1.6
  std::string helo_name_;
  bool extended_ = false;
  bool tls_active_ = false;
  std::string auth_user_;
  std::string auth_login_user_;
  auth_step auth_step_ = auth_step::plain;
  std::string sender_;
  std::vector<std::string> local_recipients_;   // user names
  std::vector<std::string> relay_recipients_;   // full addresses
  std::vector<std::string> all_recipients_;     // as accepted, for the Received: header
  std::string message_;
  std::size_t message_size_ = 0;
  data_problem data_problem_ = data_problem::none;
  bool after_bare_lf_ = false;  // the previous data line ended with a LF alone
  std::size_t errors_ = 0;
  std::size_t messages_ = 0;
};

}  // namespace netlib::smtp
