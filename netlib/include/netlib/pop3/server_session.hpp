#pragma once
// The POP3 server side of one connection (RFC 1939, CAPA and response codes RFC 2449, STLS
// RFC 2595), sans I/O. The maildrop comes from the injected mail store and stays locked for the
// session; deletions happen only in the UPDATE state, when QUIT arrives in TRANSACTION.
#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/line_framer.hpp"
#include "netlib/mail/mail_store.hpp"
#include "netlib/mail/users_table.hpp"

namespace netlib::pop3 {

struct server_config {
  std::string hostname = "localhost";
  bool tls_available = false;  // advertise and accept STLS
  std::size_t max_errors = 20; // then -ERR and close
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
  awaiting_user,  // AUTHORIZATION: USER (or CAPA, STLS, QUIT)
  awaiting_pass,  // AUTHORIZATION: USER accepted, PASS expected
  transaction,    // maildrop open and locked
  awaiting_tls,   // "+OK Begin TLS" sent; nothing consumed until tls_started()
  closed,         // after QUIT (and UPDATE) or too many errors
};

class server_session {
 public:
  server_session(server_config config, mail::mail_store& store, const mail::users_table& users);

  [[nodiscard]] std::vector<server_action> start();
  [[nodiscard]] server_step receive(byte_view input);
  // The peer left without QUIT: no deletions (RFC 1939 §6), the maildrop is unlocked.
  [[nodiscard]] std::vector<server_action> receive_eof();
  void tls_started();

  [[nodiscard]] server_state state() const noexcept { return state_; }
  [[nodiscard]] bool tls_active() const noexcept { return tls_active_; }

 private:
  void on_line(std::string_view line, server_step& step);
  void on_authorization(const std::string& verb, const std::string& arg, server_step& step);
  void on_transaction(const std::string& verb, const std::string& arg, server_step& step);
  void on_pass(const std::string& arg, server_step& step);
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
  const mail::users_table& users_;
  server_state state_ = server_state::awaiting_user;
  line_framer framer_{{.max_length = 255, .strict = false}};  // RFC 2449 §4: 255 octets
  bool tls_active_ = false;
  std::string user_;
  std::unique_ptr<mail::mailbox> box_;
  std::vector<bool> deleted_;
  std::size_t errors_ = 0;
};

}  // namespace netlib::pop3
