// Theory of operation (the server side of an FTP control connection, RFC 959 §5.4 sequencing):
//   States: awaiting_user -> (USER) awaiting_pass -> (PASS ok) ready; a bad PASS goes to
//   login_delayed, where the 530 is held until tick() reaches held_until_ (RFC 2577 §5: delay
//   failed logins, growing with each failure), then back to awaiting_user; after
//   max_failed_logins the reply is 421 and the connection closes. With a credentials guard
//   (docs/architecture.md, "The credentials guard") a PASS first asks it: locked -> 421 and close;
//   a later turn -> login_delayed until then, and the password is checked at that tick(). In ready, PASV/EPSV go to
//   awaiting_passive until the driver reports its listener, and LIST/NLST/RETR/STOR/APPE go to
//   transferring until the driver reports transfer_finished(); AUTH TLS waits in awaiting_tls.
//   QUIT, too many failed logins or the idle timeout lead to closed.
// Invariants: receive() consumes only the lines it acted on; in a waiting state it consumes
//   nothing (except ABOR/STAT/NOOP while transferring), so the driver feeds those bytes again
//   after its report. Every command gets exactly one final reply (RFC 959 §4.2). RNFR is
//   remembered for the very next command only (RFC 959 §4.1.3, RNTO "immediately" follows).
// The core never reads a clock: tick(now) gives it time; every output ends with a wake_at when
//   next_deadline() moved, which tells the driver when to call tick() next.
#include "netlib/ftp/server_session.hpp"

#include <algorithm>
#include <array>
#include <chrono>

#include <fmt/format.h>

#include "netlib/core/ascii.hpp"

namespace netlib::ftp {

namespace {
constexpr std::array<std::string_view, 9> unimplemented = {"ACCT", "SMNT", "REIN", "STOU", "SITE",
                                                           "MLSD", "MLST", "CCC",  "LANG"};
}  // namespace

const server_session::command_entry* server_session::find(std::string_view verb) {
  static const command_entry table[] = {
      {"USER", &server_session::on_user, false}, {"PASS", &server_session::on_pass, false},
      {"QUIT", &server_session::on_quit, false}, {"NOOP", &server_session::on_noop, false},
      {"SYST", &server_session::on_syst, false}, {"FEAT", &server_session::on_feat, false},
      {"HELP", &server_session::on_help, false}, {"OPTS", &server_session::on_opts, false},
      {"AUTH", &server_session::on_auth, false}, {"PBSZ", &server_session::on_pbsz, false},
      {"PROT", &server_session::on_prot, false}, {"ALLO", &server_session::on_allo, true},
      {"TYPE", &server_session::on_type, true},  {"MODE", &server_session::on_mode, true},
      {"STRU", &server_session::on_stru, true},  {"CWD", &server_session::on_cwd, true},
      {"XCWD", &server_session::on_cwd, true},   {"CDUP", &server_session::on_cdup, true},
      {"XCUP", &server_session::on_cdup, true},  {"PWD", &server_session::on_pwd, true},
      {"XPWD", &server_session::on_pwd, true},   {"MKD", &server_session::on_mkd, true},
      {"XMKD", &server_session::on_mkd, true},   {"RMD", &server_session::on_rmd, true},
      {"XRMD", &server_session::on_rmd, true},   {"DELE", &server_session::on_dele, true},
      {"RNFR", &server_session::on_rnfr, true},  {"RNTO", &server_session::on_rnto, true},
      {"SIZE", &server_session::on_size, true},  {"MDTM", &server_session::on_mdtm, true},
      {"STAT", &server_session::on_stat, true},  {"PORT", &server_session::on_port, true},
      {"EPRT", &server_session::on_eprt, true},  {"PASV", &server_session::on_pasv, true},
      {"EPSV", &server_session::on_epsv, true},  {"REST", &server_session::on_rest, true},
      {"LIST", &server_session::on_list, true},  {"NLST", &server_session::on_nlst, true},
      {"RETR", &server_session::on_retr, true},  {"STOR", &server_session::on_stor, true},
      {"APPE", &server_session::on_appe, true},  {"ABOR", &server_session::on_abor, true},
  };
  for (const auto& e : table) {
    if (e.verb == verb) return &e;
  }
  return nullptr;
}

bool server_session::is_unimplemented(std::string_view verb) {
  return std::find(unimplemented.begin(), unimplemented.end(), verb) != unimplemented.end();
}

server_session::server_session(server_config config, file_system& fs)
    : config_(std::move(config)), fs_(fs), parser_(config_.max_line) {}

void server_session::reply(int code, std::string text) {
  reply(ftp::reply(code, std::move(text)));
}
void server_session::reply(ftp::reply r) {
  emit(send_bytes{serialize(r)});
}

server_actions server_session::flush() {
  const auto deadline = next_deadline();
  if (deadline != announced_) {
    announced_ = deadline;
    if (deadline) emit(wake_at{*deadline});
  }
  return std::exchange(out_, {});
}

server_actions server_session::start(const clock_reading& now) {
  now_ = now;
  last_activity_ = now.mono;
  reply(220, config_.greeting);  // RFC 959 §5.4: the connection opens with 220
  return flush();
}

std::optional<time_point> server_session::next_deadline() const {
  if (state_ == server_state::closed) return std::nullopt;
  if (state_ == server_state::login_delayed) return held_until_;
  if (state_ == server_state::transferring) return std::nullopt;  // the data timeout is the driver's
  return last_activity_ + config_.idle_timeout;
}

server_actions server_session::tick(const clock_reading& now) {
  now_ = now;
  if (state_ == server_state::login_delayed && now.mono >= held_until_) {
    if (check_held_) {  // the guard's turn has come: check the password now
      check_held_ = false;
      state_ = server_state::awaiting_pass;
      check_password(std::exchange(held_password_, {}));
    } else if (failed_logins_ >= config_.max_failed_logins) {
      reply(421, "Too many failed logins, closing control connection.");  // RFC 2577 §5
      emit(close_connection{});
      state_ = server_state::closed;
    } else {
      reply(530, "Login incorrect.");
      state_ = server_state::awaiting_user;
    }
    last_activity_ = now.mono;
  } else if (state_ != server_state::closed && state_ != server_state::transferring &&
             state_ != server_state::login_delayed && now.mono - last_activity_ >= config_.idle_timeout) {
    reply(421, "Idle timeout, closing control connection.");  // RFC 959 §4.2: 421 service closing
    emit(close_connection{});
    state_ = server_state::closed;
  }
  return flush();
}

bool server_session::busy() const {
  return state_ == server_state::login_delayed || state_ == server_state::awaiting_passive ||
         state_ == server_state::awaiting_tls || state_ == server_state::transferring || state_ == server_state::closed;
}

bool server_session::accepts_while_busy(std::string_view verb) const {
  return state_ == server_state::transferring && (verb == "ABOR" || verb == "STAT" || verb == "NOOP");
}

server_output server_session::receive(byte_view input, const clock_reading& now) {
  now_ = now;
  server_output result;
  while (state_ != server_state::closed && result.consumed < input.size()) {
    const command_result r = parser_.next(input.subspan(result.consumed));
    if (r.status == command_status::need_more) {
      if (busy()) break;
      result.consumed += r.consumed;  // bytes of an over-long line being skipped
      break;
    }
    if (busy() && (r.status != command_status::complete || !accepts_while_busy(r.value.verb))) break;
    result.consumed += r.consumed;
    last_activity_ = now_.mono;
    if (r.status == command_status::bad_line) {
      reply(500, fmt::format("Syntax error: {}.", r.error));  // RFC 959 §4.2.1 500
      continue;
    }
    on_command(r.value);
  }
  result.actions = flush();
  return result;
}

server_actions server_session::receive_eof() {
  if (check_held_ && config_.guard) config_.guard->report(config_.peer_address, user_, false, now_.mono);
  check_held_ = false;  // a guess that left early still counts
  held_password_.clear();
  if (state_ == server_state::transferring) emit(abort_transfer{});
  if (state_ != server_state::closed) emit(close_connection{});
  state_ = server_state::closed;
  return flush();
}

void server_session::on_command(const command& c) {
  const bool renaming = rename_pending_;
  const bool restarting = restart_pending_;
  rename_pending_ = false;
  restart_pending_ = false;
  const command_entry* e = find(c.verb);
  if (e == nullptr) {
    if (is_unimplemented(c.verb)) return reply(502, fmt::format("{} not implemented.", c.verb));  // RFC 959 502
    return reply(500, fmt::format("'{}': command not understood.", c.verb));                      // RFC 959 500
  }
  if (e->needs_login && !logged_in_) return reply(530, "Please login with USER and PASS.");  // RFC 959 §5.4
  if (c.verb == "RNTO") rename_pending_ = renaming;                                          // consumed by on_rnto
  const bool transfer = c.verb == "RETR" || c.verb == "STOR" || c.verb == "APPE";
  if (!(transfer && restarting)) restart_ = 0;  // RFC 3659 §5.3: REST applies to the next transfer only
  (this->*(e->fn))(c.argument);
}

// RFC 959 §4.1.1 USER: 331 asks for the password (also for unknown names, so names cannot be
// probed); 530 is given only after PASS.
void server_session::on_user(const std::string& arg) {
  if (arg.empty()) return reply(501, "USER needs a user name.");
  user_ = arg;
  user_given_ = true;
  logged_in_ = false;
  state_ = server_state::awaiting_pass;
  if (user_table::is_anonymous_name(arg) && config_.users.anonymous()) {
    return reply(331, "Anonymous login ok, send your e-mail address as password.");
  }
  reply(331, fmt::format("Password required for {}.", arg));
}

// RFC 959 §4.1.1 PASS: only right after USER (503 otherwise, RFC 959 §5.4).
void server_session::on_pass(const std::string& arg) {
  if (!user_given_ || state_ != server_state::awaiting_pass) {
    return reply(503, logged_in_ ? "Already logged in." : "Login with USER first.");
  }
  user_given_ = false;
  if (config_.guard && !anonymous_login()) {
    const admission a = config_.guard->admit(config_.peer_address, user_, now_.mono);
    if (a.locked) {  // RFC 959 §4.2: 421, service not available, closing control connection
      reply(421, fmt::format("Too many failed logins for this user or address, try again in {} s.",
                             std::chrono::ceil<std::chrono::seconds>(a.retry_after).count()));
      emit(close_connection{});
      state_ = server_state::closed;
      return;
    }
    if (a.turn > now_.mono) {  // the check waits for its turn (wake_at from flush())
      check_held_ = true;
      held_password_ = arg;
      held_until_ = a.turn;
      state_ = server_state::login_delayed;
      return;
    }
  }
  check_password(arg);
}

bool server_session::anonymous_login() const {
  return user_table::is_anonymous_name(user_) && config_.users.anonymous();  // any password: nothing to guess
}

void server_session::check_password(const std::string& password) {
  const bool right = config_.users.check(user_, password);
  if (config_.guard && !anonymous_login()) config_.guard->report(config_.peer_address, user_, right, now_.mono);
  if (right) {
    logged_in_ = true;
    anonymous_ = config_.users.anonymous() && user_table::is_anonymous_name(user_);
    failed_logins_ = 0;
    state_ = server_state::ready;
    return reply(230, fmt::format("User {} logged in.", user_));
  }
  ++failed_logins_;  // RFC 2577 §5: delay the answer, more after each failure
  held_until_ = now_.mono + config_.login_delay * static_cast<std::int64_t>(failed_logins_);
  state_ = server_state::login_delayed;  // the wake_at comes from flush()
}

void server_session::on_quit(const std::string&) {
  reply(221, "Goodbye.");  // RFC 959 §4.1.1 QUIT
  emit(close_connection{});
  state_ = server_state::closed;
}

void server_session::on_noop(const std::string&) {
  reply(200, "NOOP ok.");
}
void server_session::on_syst(const std::string&) {
  reply(215, "UNIX Type: L8");
}  // RFC 959 §4.1.3

// RFC 2389 §3.2: 211- then one feature per line, each starting with a space, then 211 End.
void server_session::on_feat(const std::string&) {
  std::vector<std::string> lines{"Features:"};
  if (config_.tls_available) lines.insert(lines.end(), {" AUTH TLS", " PBSZ", " PROT"});
  lines.insert(lines.end(), {" EPRT", " EPSV", " MDTM", " PASV", " REST STREAM", " SIZE", " TVFS", " UTF8", "End"});
  reply(ftp::reply(211, std::move(lines)));
}

void server_session::on_help(const std::string&) {
  reply(ftp::reply(214, {"The following commands are recognized:",
                         " ABOR APPE CDUP CWD DELE EPRT EPSV FEAT HELP LIST MDTM MKD MODE NLST NOOP",
                         " OPTS PASS PASV PORT PWD QUIT REST RETR RMD RNFR RNTO SIZE STAT STOR STRU", " SYST TYPE USER",
                         "Help OK."}));
}

// RFC 2389 §4 OPTS; only UTF8 ON is known (RFC 2640 §3.1), paths are passed through as bytes.
void server_session::on_opts(const std::string& arg) {
  const std::string upper = ascii::to_upper(arg);
  if (upper == "UTF8 ON" || upper == "UTF8") return reply(200, "UTF8 mode always on.");
  reply(501, "Option not understood.");
}

void server_session::on_allo(const std::string&) {
  reply(202, "ALLO not needed.");
}  // RFC 959 §4.1.3

}  // namespace netlib::ftp
