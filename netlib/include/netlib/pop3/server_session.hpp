#pragma once
// The POP3 server side of one connection (RFC 1939, CAPA and response codes RFC 2449, STLS
// RFC 2595), sans I/O, speaking the session contract (netlib/core/session.hpp) with no actions
// of its own. The maildrop comes from the injected mail store and stays locked for the session;
// deletions happen only in the UPDATE state, when QUIT arrives in TRANSACTION. Password guessing
// is throttled by the injected credentials guard (a held PASS answer waits for wake_at/tick()).
#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/core/command_line.hpp"
#include "netlib/core/credentials_guard.hpp"
#include "netlib/core/session.hpp"
#include "netlib/core/users_table.hpp"
#include "netlib/mail/mail_store.hpp"

namespace netlib::pop3 {

struct server_config {
  std::string hostname = "localhost";
  bool tls_available = false;         // advertise and accept STLS
  std::size_t max_errors = 20;        // then -ERR and close
  std::string peer_address;           // the client's address, for the credentials guard
  credentials_gate* guard = nullptr;  // PASS throttling shared by the server's sessions, or none
};

using server_action = session_action<>;
using server_step = session_step<server_action>;

enum class server_state {
  awaiting_user,  // AUTHORIZATION: USER (or CAPA, STLS, QUIT)
  awaiting_pass,  // AUTHORIZATION: USER accepted, PASS expected
  pass_delayed,   // AUTHORIZATION: PASS in; its check waits for its turn (wake_at, tick())
  transaction,    // maildrop open and locked
  awaiting_tls,   // "+OK Begin TLS" sent; nothing consumed until tls_established()
  closed,         // after QUIT (and UPDATE) or too many errors
};

class server_session {
 public:
  using action = server_action;
  server_session(server_config config, mail::mail_store& store, const users_table& users);

  [[nodiscard]] std::vector<server_action> start(const clock_reading& now);
  [[nodiscard]] server_step receive(byte_view input, const clock_reading& now);
  // Time passed: a held PASS answer whose turn has come is given.
  [[nodiscard]] std::vector<server_action> tick(const clock_reading& now);
  // The peer left without QUIT: no deletions (RFC 1939 §6), the maildrop is unlocked.
  [[nodiscard]] std::vector<server_action> receive_eof();
  // The STLS handshake is done: back to AUTHORIZATION over TLS, or closed when it failed.
  [[nodiscard]] std::vector<server_action> tls_established(bool ok);

  [[nodiscard]] server_state state() const noexcept { return state_; }
  [[nodiscard]] bool tls_active() const noexcept { return tls_active_; }

 private:
  void on_line(const command_line& c, server_step& step);
  void on_authorization(const std::string& verb, const std::string& arg, server_step& step);
  void on_transaction(const std::string& verb, const std::string& arg, server_step& step);
  void on_pass(const std::string& arg, server_step& step);
  void check_password(const std::string& password, server_step& step);
  void on_stat(const std::string& arg, server_step& step);
  void on_list(const std::string& arg, bool uidl, server_step& step);
  void on_retr(const std::string& arg, server_step& step);
  void on_top(const std::string& arg, server_step& step);
  void on_dele(const std::string& arg, server_step& step);
  void on_quit(server_step& step);
  void on_capa(server_step& step);
  // Parses a message number that names a live message; sends -ERR and returns false otherwise.
  bool message_number(std::string_view text, std::size_t& index, server_step& step);
  void ok(server_step& step, std::string_view text);
  void err(server_step& step, std::string_view text);
  void close(server_step& step);

  server_config config_;
  mail::mail_store& store_;
  const users_table& users_;
  server_state state_ = server_state::awaiting_user;
  command_reader reader_{{.max_length = 255, .strict = false}};  // RFC 2449 §4: 255 octets
  bool tls_active_ = false;
  std::string user_;
  std::string held_password_;  // pass_delayed: the password waiting for its turn
  time_point held_until_{};
  clock_reading now_{};
  std::unique_ptr<mail::mailbox> box_;
  std::vector<bool> deleted_;
  std::size_t errors_ = 0;
};

// The session contract (netlib/core/session.hpp): io::run_session and the tests' in-memory twin
// (tests/support/memory_session.hpp) drive this core.
static_assert(session_core<server_session>);

}  // namespace netlib::pop3
