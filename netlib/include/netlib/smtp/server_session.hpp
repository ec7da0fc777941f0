#pragma once
// The SMTP server side of one connection (RFC 5321 with PIPELINING RFC 2920, SIZE RFC 1870,
// 8BITMIME RFC 6152, ENHANCEDSTATUSCODES RFC 2034/3463, STARTTLS RFC 3207, AUTH RFC 4954), sans
// I/O: it speaks the session contract (netlib/core/session.hpp), and the driver feeds bytes and
// executes the returned actions. Users come from the injected users table, password guessing is
// throttled by the injected credentials guard; storing a message is the driver's job (the
// deliver_message action, SMTP's own).
//
//   server_session s(config, info, users);
//   execute(s.start(now));                     // 220 greeting
//   auto step = s.receive(buffer.data(), now); // replies for every complete line
//   buffer.consume(step.consumed); execute(step.actions);
//   on start_tls: discard the buffer, handshake, then execute(s.tls_established(ok)).
//   on wake_at: execute(s.tick(now)) at that time (a held AUTH answer), then receive() again.
//   on deliver_message: store it (in the background if you like), then
//     execute(s.delivery_done(result)) and call receive() again on the buffer: commands pipelined
//     after the message wait there, unconsumed, until the 250/451 is out (RFC 2920 §3.1).
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/core/credentials_guard.hpp"
#include "netlib/core/line_framer.hpp"
#include "netlib/core/session.hpp"
#include "netlib/core/users_table.hpp"
#include "netlib/mail/message_spool.hpp"
#include "netlib/smtp/command.hpp"

namespace netlib::smtp {

class message_spool;  // below

struct server_config {
  std::string hostname = "localhost";                // our name in the greeting and the Received: header
  std::string domain = "localhost";                  // mail for user@domain is local
  std::size_t max_message_bytes = 10 * 1024 * 1024;  // SIZE (RFC 1870)
  std::size_t max_recipients = 100;                  // RFC 5321 §4.5.3.1.8: at least 100
  std::size_t max_errors = 20;                       // then 421 and close
  bool tls_available = false;                        // advertise STARTTLS
  bool require_tls = false;                          // refuse mail transactions before STARTTLS (530)
  credentials_gate* guard = nullptr;                 // AUTH throttling shared by the server's sessions, or none
  // Message data goes here as it arrives (no session holds a whole message); none: it is kept in
  // deliver_message::message (tests, simulations).
  message_spool* spool = nullptr;
  // RFC 5321 §4.5.1: mail for postmaster (any case, @domain or bare, §4.1.1.3) must be accepted.
  // It goes to the user called postmaster when there is one, else to this user; empty: refused
  // like any unknown user.
  std::string postmaster;
};

struct session_info {
  std::string peer = "unknown";  // "[127.0.0.1]"-like text for the Received: header; the
                                 // client's address for the credentials guard
  std::string session_id = "0";  // unique per connection, used in queue ids
};

// Store this message whole, then report with delivery_done(). RFC 5321 §6.1: the 250 that
// follows promises the message is safe, so a store reports `stored` only once it is durable.
struct deliver_message {
  std::string queue_id;                       // "<session id>.<n>", also in the Received: header
  std::string sender;                         // envelope sender ("" for the null path <>)
  std::vector<std::string> local_users;       // user names, each once
  std::vector<std::string> relay_recipients;  // full addresses, accepted for relay (authenticated)
  // Received: header + the data after dot-unstuffing; with a spool (server_config::spool) the
  // Received: header only, and the data is in `spooled`.
  std::string message;
  std::shared_ptr<mail::spooled_message> spooled;
};

// Where messages go as they arrive (the live server: netlib::io::smtp_delivery_queue, into the
// Maildir's tmp/). begin() is given the envelope (`message` holds the Received: header) when DATA
// is accepted; nullptr when the message cannot be spooled (the errno in `error`: 452 or 451).
class message_spool {
 public:
  virtual ~message_spool() = default;
  virtual std::shared_ptr<mail::spooled_message> begin(const deliver_message& envelope, int& error) = 0;
};
using server_action = session_action<deliver_message>;
using server_step = session_step<server_action>;

// What became of a deliver_message: every copy stored durably, or none promised.
enum class delivery_status {
  stored,    // 250 2.0.0
  no_space,  // 452 4.3.1 (RFC 3463: mail system full)
  failed,    // 451 4.3.0
};
struct delivery_result {
  delivery_status status = delivery_status::stored;
  std::string detail;  // a short reason shown in the 451/452 text, e.g. "Read-only file system"
};

enum class server_state {
  awaiting_helo,           // greeting sent; EHLO/HELO expected
  awaiting_mail,           // no transaction open
  awaiting_rcpt,           // MAIL accepted, no recipient yet
  awaiting_data,           // at least one recipient accepted
  in_data,                 // 354 sent; reading lines until CRLF.CRLF
  delivering,              // deliver_message emitted; nothing consumed until delivery_done()
  awaiting_auth_response,  // 334 sent; a base64 line expected
  auth_delayed,            // credentials in; their check waits for its turn (wake_at, tick())
  awaiting_tls,            // 220 to STARTTLS sent; nothing consumed until tls_established()
  closed,                  // 221/421 sent; nothing consumed
};

class server_session {
 public:
  using action = server_action;
  server_session(server_config config, session_info info, const users_table& users);

  [[nodiscard]] std::vector<server_action> start(const clock_reading& now);
  // Consumes complete lines; stops after a line that starts TLS, closes, or ends a message
  // (deliver_message is then the last action of the step), and while an AUTH answer is held.
  [[nodiscard]] server_step receive(byte_view input, const clock_reading& now);
  // Time passed: a held AUTH answer whose turn has come is given.
  [[nodiscard]] std::vector<server_action> tick(const clock_reading& now);
  // The peer closed: a message whose end never came is dropped (nothing is stored). While
  // delivering, the delivery goes on but its reply has nowhere to go.
  [[nodiscard]] std::vector<server_action> receive_eof();
  // The store's answer to the last deliver_message: the 250, 451 or 452 (nothing once closed).
  [[nodiscard]] std::vector<server_action> delivery_done(const delivery_result& result);
  // The TLS handshake is done: the session starts over (RFC 3207 §4.2), or closes when it failed.
  [[nodiscard]] std::vector<server_action> tls_established(bool ok);

  [[nodiscard]] server_state state() const noexcept { return state_; }
  [[nodiscard]] bool tls_active() const noexcept { return tls_active_; }
  [[nodiscard]] bool authenticated() const noexcept { return !auth_user_.empty(); }
  [[nodiscard]] std::size_t messages_accepted() const noexcept { return messages_; }

 private:
  enum class auth_step { plain, login_user, login_password };
  enum class data_problem { none, bare_line_end, line_too_long, too_big, not_stored };

  void on_line(line_result line, server_step& step);
  void on_command(std::string_view line, server_step& step);
  void on_data_line(line_result line, server_step& step);
  void on_helo(const command& c, bool extended, server_step& step);
  void on_mail(const command& c, server_step& step);
  void on_rcpt(const command& c, server_step& step);
  void on_data(const command& c, server_step& step);
  void on_starttls(const command& c, server_step& step);
  void on_auth(const command& c, server_step& step);
  void on_auth_response(std::string_view line, server_step& step);
  void finish_auth(std::string_view user, std::string_view password, server_step& step);
  void check_credentials(std::string_view user, std::string_view password, server_step& step);
  void end_of_data(server_step& step);
  void keep_data(std::string_view text);
  void flush_spool();
  [[nodiscard]] std::string received_header(const std::string& id) const;
  [[nodiscard]] bool blocked_by_require_tls(server_step& step);
  void reply(server_step& step, int code, std::string_view text);
  void error(server_step& step, int code, std::string_view text);
  void reset_transaction();
  [[nodiscard]] bool is_local(std::string_view address) const;

  server_config config_;
  session_info info_;
  const users_table& users_;
  server_state state_ = server_state::awaiting_helo;
  line_framer command_framer_{{.max_length = 512, .strict = true}};  // RFC 5321 §4.5.3.1.4
  line_framer data_framer_{{.max_length = 1000, .strict = true}};    // RFC 5321 §4.5.3.1.6
  std::string helo_name_;
  bool extended_ = false;
  bool tls_active_ = false;
  std::string auth_user_;
  std::string auth_login_user_;
  auth_step auth_step_ = auth_step::plain;
  std::string held_user_;  // auth_delayed: the credentials waiting for their turn
  std::string held_password_;
  time_point held_until_{};
  clock_reading now_{};  // the latest time input
  std::string sender_;
  std::vector<std::string> local_recipients_;     // user names
  std::vector<std::string> relay_recipients_;     // full addresses
  std::vector<std::string> all_recipients_;       // as accepted, for the Received: header
  std::string message_;                           // without a spool: the data so far
  std::shared_ptr<mail::spooled_message> spool_;  // with one: where the data goes
  std::string spool_chunk_;                       // data not yet appended to spool_ (at most about 64 KiB)
  std::string spool_id_;                          // the queue id given at DATA
  std::string spool_received_;                    // the Received: header made at DATA
  std::size_t message_size_ = 0;
  data_problem data_problem_ = data_problem::none;
  bool after_bare_lf_ = false;  // the previous data line ended with a LF alone
  std::string delivering_id_;   // queue id of the message being delivered
  std::size_t errors_ = 0;
  std::size_t messages_ = 0;
};

// The session contract (netlib/core/session.hpp): io::run_session and the tests' in-memory twin
// (tests/support/memory_session.hpp) drive this core.
static_assert(session_core<server_session>);

}  // namespace netlib::smtp
