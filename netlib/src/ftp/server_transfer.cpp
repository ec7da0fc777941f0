// Theory of operation: data connections (RFC 959 §3.2, §3.3; RFC 2428; RFC 2577).
//   PORT/EPRT record an active target after the RFC 2577 §3 checks (the client's own address,
//   port >= 1024). PASV/EPSV ask the driver for a listener (open_passive) and wait in
//   awaiting_passive for passive_opened(). A transfer command checks its path first (550), then
//   needs a data channel (425), then sends 150 and start_transfer and waits in transferring for
//   transfer_finished(), which gives 226 (or 425/426/451/552). The channel is used up by one
//   transfer: the client sets up a new one before the next (as every current client does).
//   ABOR while transferring asks the driver to stop: 426 for the transfer, then 226 for ABOR
//   (RFC 959 §4.1.3); ABOR with no transfer is answered 226 at once.
#include <charconv>

#include <fmt/format.h>

#include "netlib/ftp/listing.hpp"
#include "netlib/ftp/server_session.hpp"

namespace netlib::ftp {

void server_session::reset_data_channel() {
  data_mode_ = data_mode::none;
  active_target_ = {};
}

void server_session::set_active(const data_address& target) {
  if (data_mode_ == data_mode::passive) emit(close_passive{});
  data_mode_ = data_mode::active;
  active_target_ = target;
}

// RFC 959 §4.1.2 PORT h1,h2,h3,h4,p1,p2; RFC 2577 §3 (bounce) and §4 (privileged ports).
void server_session::on_port(const std::string& arg) {
  if (epsv_all_) return reply(500, "PORT not allowed after EPSV ALL.");  // RFC 2428 §4
  const auto a = parse_port_argument(arg);
  if (!a) return reply(501, "PORT needs h1,h2,h3,h4,p1,p2.");
  if (config_.peer_is_ipv6 || a->host != config_.peer_address) {
    return reply(504, "PORT refused: the address is not the client's (RFC 2577).");
  }
  if (a->port < 1024) return reply(504, "PORT refused: privileged port (RFC 2577).");
  set_active(*a);
  reply(200, "PORT command successful.");
}

// RFC 2428 §2 EPRT |proto|address|port|; 522 names the protocols we support.
void server_session::on_eprt(const std::string& arg) {
  if (epsv_all_) return reply(500, "EPRT not allowed after EPSV ALL.");
  const auto a = parse_eprt_argument(arg);
  if (!a) return reply(501, "EPRT needs |proto|address|port|.");
  if ((a->family == 2) != config_.peer_is_ipv6) {
    return reply(522, config_.peer_is_ipv6 ? "Network protocol not supported, use (2)"
                                           : "Network protocol not supported, use (1)");
  }
  if (a->host != config_.peer_address) return reply(504, "EPRT refused: the address is not the client's (RFC 2577).");
  if (a->port < 1024) return reply(504, "EPRT refused: privileged port (RFC 2577).");
  set_active(*a);
  reply(200, "EPRT command successful.");
}

void server_session::on_pasv(const std::string&) {
  if (epsv_all_) return reply(500, "PASV not allowed after EPSV ALL.");
  if (config_.peer_is_ipv6) return reply(500, "PASV is IPv4 only; use EPSV.");  // RFC 2428 §3
  pending_extended_ = false;
  emit(open_passive{false});
  state_ = server_state::awaiting_passive;
}

// RFC 2428 §3 EPSV [proto|ALL].
void server_session::on_epsv(const std::string& arg) {
  if (arg == "ALL" || arg == "all") {
    epsv_all_ = true;
    return reply(200, "EPSV ALL ok.");
  }
  if (!arg.empty() && arg != "1" && arg != "2") return reply(501, "EPSV needs 1, 2 or ALL.");
  if (!arg.empty() && (arg == "2") != config_.peer_is_ipv6) {
    return reply(522, config_.peer_is_ipv6 ? "Network protocol not supported, use (2)"
                                           : "Network protocol not supported, use (1)");
  }
  pending_extended_ = true;
  emit(open_passive{true});
  state_ = server_state::awaiting_passive;
}

server_actions server_session::passive_opened(const std::string& host, std::uint16_t port) {
  if (state_ != server_state::awaiting_passive) return {};
  state_ = server_state::ready;
  data_mode_ = data_mode::passive;
  if (pending_extended_) {
    reply(229, fmt::format("Entering Extended Passive Mode (|||{}|)", port));  // RFC 2428 §3
  } else {
    reply(227, fmt::format("Entering Passive Mode ({}).", format_port_argument(data_address{1, host, port})));
  }
  return flush();
}

server_actions server_session::passive_failed() {
  if (state_ != server_state::awaiting_passive) return {};
  state_ = server_state::ready;
  data_mode_ = data_mode::none;
  reply(425, "Cannot open a passive data connection.");
  return flush();
}

// RFC 3659 §5.3 REST <offset> (stream mode): 350, applies to the next RETR/STOR/APPE.
void server_session::on_rest(const std::string& arg) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), v);
  if (arg.empty() || ec != std::errc{} || p != arg.data() + arg.size()) return reply(501, "REST needs a byte offset.");
  restart_ = v;
  restart_pending_ = true;
  reply(350, fmt::format("Restarting at {}. Send STOR or RETR.", v));
}

bool server_session::check_data_channel() {
  if (data_mode_ != data_mode::none) return true;
  reply(425, "Use PORT, PASV, EPRT or EPSV first.");
  return false;
}

void server_session::begin_transfer(start_transfer t, std::string opening) {
  t.ascii = ascii_;
  t.passive = data_mode_ == data_mode::passive;
  t.active_target = active_target_;
  t.expected_peer = config_.peer_address;
  t.tls = protect_data_;
  restart_ = 0;
  reset_data_channel();
  abort_requested_ = false;
  reply(150, std::move(opening));  // RFC 959 §4.2: 150 before the data connection opens
  emit(std::move(t));
  state_ = server_state::transferring;
}

void server_session::send_listing(const std::string& arg, bool names_only) {
  std::string a = arg;
  while (!a.empty() && a[0] == '-') {  // "LIST -la": ls options some clients send
    const std::size_t sp = a.find(' ');
    a = sp == std::string::npos ? std::string{} : a.substr(sp + 1);
  }
  const std::string path = normalize_path(cwd_, a);
  file_info info;
  std::vector<file_info> entries;
  fs_status s = fs_.stat(path, info);
  if (s == fs_status::ok && info.is_directory)
    s = fs_.list(path, entries);
  else if (s == fs_status::ok)
    entries.push_back(info);
  if (s != fs_status::ok) return reply_fs_error(s, a.empty() ? path : a);
  if (!check_data_channel()) return;
  start_transfer t;
  t.kind = transfer_kind::send_listing;
  t.listing = names_only ? format_nlst(entries) : format_list(entries, now_.wall_seconds());
  begin_transfer(std::move(t), "Here comes the directory listing.");
}

void server_session::on_list(const std::string& arg) {
  send_listing(arg, false);
}
void server_session::on_nlst(const std::string& arg) {
  send_listing(arg, true);
}

// RFC 959 §4.1.3 RETR.
void server_session::on_retr(const std::string& arg) {
  if (arg.empty()) return reply(501, "RETR needs a file name.");
  const std::string path = normalize_path(cwd_, arg);
  file_info info;
  fs_status s = fs_.stat(path, info);
  if (s == fs_status::ok && info.is_directory) s = fs_status::is_a_directory;
  if (s != fs_status::ok) return reply_fs_error(s, arg);
  if (!check_data_channel()) return;
  start_transfer t;
  t.kind = transfer_kind::send_file;
  t.path = path;
  t.offset = restart_;
  begin_transfer(std::move(t), fmt::format("Opening {} mode data connection for {} ({} bytes).",
                                           ascii_ ? "ASCII" : "BINARY", arg, info.size));
}

// Anonymous users (without anonymous_full_write) may only create: a name that exists is 553
// (RFC 959 §4.2: file name not allowed; vsftpd's answer), and the transfer carries
// existing_file::keep so that the store refuses to replace a file that appears meanwhile.
void server_session::upload(const std::string& arg, bool append) {
  if (arg.empty()) return reply(501, "A file name is needed.");
  if (!require_writable(write_kind::create)) return;
  const std::string path = normalize_path(cwd_, arg);
  file_info info;
  fs_status s = fs_.stat(parent_path(path), info);
  if (s == fs_status::ok && !info.is_directory) s = fs_status::not_a_directory;
  const bool exists = s == fs_status::ok && fs_.stat(path, info) == fs_status::ok;
  if (exists && info.is_directory) s = fs_status::is_a_directory;
  if (s != fs_status::ok) return reply_fs_error(s, arg);
  if (exists && limited_anonymous())
    return reply(553, "Could not create file: anonymous users may not replace or append to an existing file.");
  if (!check_data_channel()) return;
  start_transfer t;
  t.kind = transfer_kind::receive_file;
  t.path = path;
  t.offset = restart_;
  t.append = append;
  if (limited_anonymous()) t.existing = existing_file::keep;
  begin_transfer(std::move(t), fmt::format("Ok to send data for {}.", arg));
}

void server_session::on_stor(const std::string& arg) {
  upload(arg, false);
}
void server_session::on_appe(const std::string& arg) {
  upload(arg, true);
}

void server_session::on_abor(const std::string&) {
  if (state_ != server_state::transferring) return reply(226, "No transfer to abort.");
  abort_requested_ = true;
  emit(abort_transfer{});
}

server_actions server_session::transfer_finished(transfer_outcome outcome, std::uint64_t bytes) {
  if (state_ != server_state::transferring) return {};
  state_ = server_state::ready;
  last_activity_ = now_.mono;
  if (abort_requested_ || outcome == transfer_outcome::aborted) {
    reply(426, "Connection closed; transfer aborted.");
    reply(226, "Abort successful.");  // RFC 959 §4.1.3 ABOR
    abort_requested_ = false;
    return flush();
  }
  switch (outcome) {
    case transfer_outcome::completed:
      reply(226, fmt::format("Transfer complete ({} bytes).", bytes));
      break;
    case transfer_outcome::connect_failed:
      reply(425, "Cannot open data connection.");
      break;
    case transfer_outcome::connection_lost:
      reply(426, "Data connection lost; transfer aborted.");
      break;
    case transfer_outcome::local_error:
      reply(451, "Local error in processing; transfer aborted.");
      break;
    case transfer_outcome::storage_error:
      reply(552, "Could not store the file; transfer aborted.");
      break;
    case transfer_outcome::tls_not_resumed:  // as vsftpd (require_ssl_reuse)
      reply(522, "Data connection refused: its TLS session must resume the control connection's.");
      break;
    case transfer_outcome::aborted:
      break;
  }
  return flush();
}

}  // namespace netlib::ftp
