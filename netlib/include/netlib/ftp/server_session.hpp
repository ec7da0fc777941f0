#pragma once
// The FTP server side of one control connection, without I/O (RFC 959, 2428, 3659, 2389, 2577),
// speaking the session contract (netlib/core/session.hpp).
//
//   ftp::server_session s(config, fs);
//   execute(s.start(now));                           // 220 greeting
//   s.tick(now); auto out = s.receive(bytes, now);   // consume out.consumed, execute out.actions
//   execute(s.passive_opened("127.0.0.1", 50000));   // after an open_passive action
//   execute(s.transfer_finished(transfer_outcome::completed, n));
//   call tick(now) at the time of the last wake_at   // login delay, idle timeout
//
// The session stops consuming input while it waits for its driver (a passive listener, a transfer
// in progress, a delayed login reply); the driver keeps the unconsumed bytes and feeds them again
// after reporting (pipelined commands are never lost).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/core/credentials_guard.hpp"
#include "netlib/core/session.hpp"
#include "netlib/ftp/command.hpp"
#include "netlib/ftp/file_system.hpp"
#include "netlib/ftp/server_action.hpp"
#include "netlib/ftp/user_table.hpp"

namespace netlib::ftp {

struct server_config {
  user_table users;
  bool writable = false;  // STOR APPE MKD RMD DELE RNFR/RNTO allowed
  // With writable, anonymous users (RFC 1635) may upload new files and make folders; deleting,
  // renaming, removing folders and replacing or appending to a file need a named user, unless
  // this is set (vsftpd's anon_upload_enable / anon_mkdir_write_enable split, and its
  // anon_other_write_enable for the rest).
  bool anonymous_full_write = false;
  std::string peer_address;  // the control connection's remote address (RFC 2577)
  bool peer_is_ipv6 = false;
  std::string greeting = "netlab FTP server ready";
  std::size_t max_failed_logins = 3;               // then 421 and close (RFC 2577 §5)
  duration login_delay = std::chrono::seconds(1);  // before each 530, growing with the count
  duration idle_timeout = std::chrono::seconds(300);
  std::size_t max_line = command_parser::default_max_line;
  bool tls_available = false;         // AUTH TLS offered
  credentials_gate* guard = nullptr;  // PASS throttling shared by the server's sessions, or none
};

enum class server_state {
  awaiting_user,     // before login: USER (or QUIT, FEAT, ...)
  awaiting_pass,     // after USER
  login_delayed,     // a PASS waits for tick(): its 530 (RFC 2577 §5), or its check (the guard's turn)
  ready,             // logged in
  awaiting_passive,  // open_passive emitted; waiting for passive_opened/passive_failed
  awaiting_tls,      // start_tls emitted; waiting for tls_established
  transferring,      // start_transfer emitted; only ABOR, STAT, NOOP are taken
  closed,
};

using server_output = session_step<server_action>;

class server_session {
 public:
  using action = server_action;
  server_session(server_config config, file_system& fs);

  // The 220 greeting; `now` starts the idle clock. The wall time of every time input dates LIST
  // lines: "HH:MM" for files modified in the six months before it, "YYYY" otherwise (as ls does).
  server_actions start(const clock_reading& now);
  // Time input; call before receive() and at every wake_at time.
  server_actions tick(const clock_reading& now);
  server_output receive(byte_view input, const clock_reading& now);
  server_actions receive_eof();
  server_actions passive_opened(const std::string& host, std::uint16_t port);
  server_actions passive_failed();
  server_actions transfer_finished(transfer_outcome outcome, std::uint64_t bytes);
  server_actions tls_established(bool ok);

  [[nodiscard]] server_state state() const noexcept { return state_; }
  [[nodiscard]] const std::string& cwd() const noexcept { return cwd_; }
  [[nodiscard]] const std::string& user() const noexcept { return user_; }
  [[nodiscard]] bool logged_in() const noexcept { return logged_in_; }
  // The time of the next tick() that may act (the deadline the last wake_at announced).
  [[nodiscard]] std::optional<time_point> next_deadline() const;

 private:
  using handler = void (server_session::*)(const std::string& arg);
  struct command_entry {
    std::string_view verb;
    handler fn;
    bool needs_login;
  };
  static const command_entry* find(std::string_view verb);
  static bool is_unimplemented(std::string_view verb);

  void on_command(const command& c);  // the transition function
  void reply(int code, std::string text);
  void reply(ftp::reply r);
  // The action is built in place in out_ (no variant temporary to move: GCC 12 then warned of an
  // uninitialized alternative, -Wmaybe-uninitialized).
  template <class Action>
  void emit(Action a) {
    out_.emplace_back(std::move(a));
  }
  server_actions flush();  // out_, with a wake_at first when the next deadline moved
  bool busy() const;
  bool accepts_while_busy(std::string_view verb) const;

  // Login and session (server_session.cpp).
  void on_user(const std::string& arg);
  void on_pass(const std::string& arg);
  void check_password(const std::string& password);
  [[nodiscard]] bool anonymous_login() const;
  void on_quit(const std::string& arg);
  void on_noop(const std::string& arg);
  void on_syst(const std::string& arg);
  void on_feat(const std::string& arg);
  void on_help(const std::string& arg);
  void on_opts(const std::string& arg);
  void on_allo(const std::string& arg);
  void on_auth(const std::string& arg);
  void on_pbsz(const std::string& arg);
  void on_prot(const std::string& arg);
  void on_type(const std::string& arg);
  void on_mode(const std::string& arg);
  void on_stru(const std::string& arg);
  // Files and directories (server_files.cpp).
  void on_cwd(const std::string& arg);
  void on_cdup(const std::string& arg);
  void on_pwd(const std::string& arg);
  void on_mkd(const std::string& arg);
  void on_rmd(const std::string& arg);
  void on_dele(const std::string& arg);
  void on_rnfr(const std::string& arg);
  void on_rnto(const std::string& arg);
  void on_size(const std::string& arg);
  void on_mdtm(const std::string& arg);
  void on_stat(const std::string& arg);
  // What a write command does: make something new (STOR/APPE of a new name, MKD), or change or
  // remove what is there (DELE, RMD, RNFR, replacing or appending to a file).
  enum class write_kind { create, change };
  bool require_writable(write_kind kind);
  [[nodiscard]] bool limited_anonymous() const noexcept { return anonymous_ && !config_.anonymous_full_write; }
  void reply_fs_error(fs_status s, std::string_view path);
  // Data connections and transfers (server_transfer.cpp).
  void on_port(const std::string& arg);
  void on_eprt(const std::string& arg);
  void on_pasv(const std::string& arg);
  void on_epsv(const std::string& arg);
  void on_rest(const std::string& arg);
  void on_list(const std::string& arg);
  void on_nlst(const std::string& arg);
  void on_retr(const std::string& arg);
  void on_stor(const std::string& arg);
  void on_appe(const std::string& arg);
  void on_abor(const std::string& arg);
  void set_active(const data_address& target);
  bool check_data_channel();
  void begin_transfer(start_transfer t, std::string opening);
  void send_listing(const std::string& arg, bool names_only);
  void upload(const std::string& arg, bool append);
  void reset_data_channel();

  server_config config_;
  file_system& fs_;
  command_parser parser_;
  server_state state_ = server_state::awaiting_user;
  server_actions out_;
  clock_reading now_{};
  time_point last_activity_{};
  time_point held_until_{};
  std::optional<time_point> announced_;  // the deadline of the last wake_at
  bool check_held_ = false;              // login_delayed: a password waits for the guard's turn
  std::string held_password_;
  std::string user_;
  bool logged_in_ = false;
  bool anonymous_ = false;  // logged in as anonymous/ftp (RFC 1635)
  bool user_given_ = false;
  std::size_t failed_logins_ = 0;
  std::string cwd_ = "/";
  std::string rename_from_;  // set by RNFR for the very next command only (RFC 959 §4.1.3)
  bool rename_pending_ = false;
  bool ascii_ = true;  // TYPE A is the default (RFC 959 §3.1.1.1)
  std::uint64_t restart_ = 0;
  bool restart_pending_ = false;
  enum class data_mode { none, passive, active } data_mode_ = data_mode::none;
  bool pending_extended_ = false;
  bool epsv_all_ = false;
  data_address active_target_;
  bool abort_requested_ = false;
  bool tls_active_ = false;
  bool pbsz_given_ = false;
  bool protect_data_ = false;
};

// The session contract (netlib/core/session.hpp): io::run_session and the tests' in-memory twin
// (tests/support/memory_session.hpp) drive this core.
static_assert(session_core<server_session>);

}  // namespace netlib::ftp
