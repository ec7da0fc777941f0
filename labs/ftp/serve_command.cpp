// `lab-ftp serve --root DIR`: options -> ftp_server_settings -> netlib::io::tcp_server, each
// control connection driven by netlib::io::ftp_handle_control.
#include "serve_command.hpp"

#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>

#include <fmt/format.h>

#include "netlib/app/program.hpp"
#include "netlib/ftp/user_table.hpp"
#include "netlib/io/ftp_control_driver.hpp"
#include "netlib/io/ftp_disk_file_system.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/io/tls.hpp"

namespace lab_ftp {
namespace {

struct serve_options {
  std::string root;
  netlib::app::host_port listen{"127.0.0.1", 0};
  std::string users_file;
  bool anonymous = false;
  bool writable = false;
  std::string pasv_ports;
  std::string tls_cert, tls_key;
  std::size_t max_sessions = 200;
  double idle_timeout_s = 300, data_timeout_s = 30, login_delay_s = 1;
  std::size_t max_failed_logins = 3;
  unsigned threads = 1;
  bool verbose = false;
};

netlib::ftp::user_table load_users(const serve_options& o) {
  netlib::ftp::user_table users;
  if (!o.users_file.empty()) {
    std::ifstream in(o.users_file);
    if (!in) throw netlib::app::usage_error(fmt::format("--users {}: cannot read the file", o.users_file));
    std::ostringstream s;
    s << in.rdbuf();
    try {
      users = netlib::ftp::user_table::parse(s.str());
    } catch (const std::invalid_argument& e) {
      throw netlib::app::usage_error(fmt::format("--users {}: {}", o.users_file, e.what()));
    }
  }
  users.set_anonymous(o.anonymous);
  if (users.size() == 0 && !o.anonymous) throw netlib::app::usage_error("nobody can log in: give --users FILE or --anonymous");
  return users;
}

std::pair<unsigned short, unsigned short> parse_range(const std::string& text) {
  if (text.empty()) return {0, 0};
  unsigned a = 0, b = 0;
  char dash = 0;
  std::istringstream in(text);
  if (!(in >> a >> dash >> b) || dash != '-' || a < 1024 || b > 65535 || a > b || !in.eof()) {
    throw netlib::app::usage_error(fmt::format("--pasv-ports {}: expected A-B with 1024 <= A <= B <= 65535", text));
  }
  return {static_cast<unsigned short>(a), static_cast<unsigned short>(b)};
}

std::chrono::milliseconds ms(double seconds) { return std::chrono::milliseconds(static_cast<long long>(seconds * 1000)); }

int run_serve(const serve_options& o) {
  if (o.tls_cert.empty() != o.tls_key.empty()) throw netlib::app::usage_error("--tls-cert and --tls-key go together");
  if (o.threads == 0 || o.threads > 64) throw netlib::app::usage_error("--threads must be 1..64");
  netlib::io::ftp_server_settings settings;
  settings.session.users = load_users(o);
  settings.session.writable = o.writable;
  settings.session.idle_timeout = std::chrono::duration_cast<netlib::duration>(ms(o.idle_timeout_s));
  settings.session.login_delay = std::chrono::duration_cast<netlib::duration>(ms(o.login_delay_s));
  settings.session.max_failed_logins = o.max_failed_logins;
  const auto [lo, hi] = parse_range(o.pasv_ports);
  settings.data.port_min = lo;
  settings.data.port_max = hi;
  settings.data.idle_timeout = ms(o.data_timeout_s);
  netlib::io::ftp_disk_file_system files(o.root);
  settings.files = &files;
  std::mutex log_mutex;
  if (o.verbose) {
    settings.log = [&log_mutex](const std::string& line) {
      std::lock_guard lock(log_mutex);
      std::cerr << line << '\n';
    };
  }
  netlib::io::server_options so;
  so.host = o.listen.host;
  so.port = o.listen.port;
  so.threads = o.threads;
  so.max_connections = o.max_sessions;
  so.idle_timeout = std::chrono::milliseconds(0);  // the FTP session's own idle timeout answers 421
  so.busy_reply = "421 Too many sessions, try again later.\r\n";
  if (!o.tls_cert.empty()) {
    so.tls = netlib::io::make_server_tls(o.tls_cert, o.tls_key);
    settings.data.tls = so.tls;
  }
  netlib::io::tcp_server server(so, [&settings](netlib::io::connection& c) {
    return netlib::io::ftp_handle_control(c, settings);
  });
  server.run();
  return netlib::app::exit_ok;
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto o = std::make_shared<serve_options>();
  auto* cmd = netlib::app::add_command(
      app, "serve", "FTP server over a folder (RFC 959/2428/3659/2389, RFC 2577 checks, explicit FTPS)",
      "lab-ftp serve --root ./files --anonymous\n"
      "  lab-ftp serve --root ./files --users users.txt --write --listen 127.0.0.1:2121 --pasv-ports 50000-50100");
  cmd->add_option("--root", o->root, "Folder served as / (nothing outside it is reachable)")->required();
  netlib::app::add_listen_option(*cmd, o->listen);
  cmd->add_option("--users", o->users_file, "File of name:password lines");
  cmd->add_flag("--anonymous", o->anonymous, "Admit 'anonymous' and 'ftp' with any password");
  cmd->add_flag("--write", o->writable, "Allow STOR APPE MKD RMD DELE RNFR/RNTO (read-only otherwise)");
  cmd->add_option("--pasv-ports", o->pasv_ports, "Passive data ports A-B (default: any free port)");
  cmd->add_option("--tls-cert", o->tls_cert, "PEM certificate: offer AUTH TLS (explicit FTPS, RFC 4217)");
  cmd->add_option("--tls-key", o->tls_key, "PEM private key for --tls-cert");
  cmd->add_option("--max-sessions", o->max_sessions, "Control connections at once (421 beyond)")->capture_default_str();
  cmd->add_option("--idle-timeout", o->idle_timeout_s, "Seconds a control connection may stay idle")->capture_default_str();
  cmd->add_option("--data-timeout", o->data_timeout_s, "Seconds a data connection may stall (and wait to be opened)")->capture_default_str();
  cmd->add_option("--login-delay", o->login_delay_s, "Seconds before the n-th failed login's 530, times n")->capture_default_str();
  cmd->add_option("--max-failed-logins", o->max_failed_logins, "Failed logins before 421 and close")->capture_default_str();
  cmd->add_option("--threads", o->threads, "Threads, each with its own event loop")->capture_default_str();
  cmd->add_flag("--verbose", o->verbose, "Log replies and transfers on stderr");
  netlib::app::set_action(*cmd, [o] { return run_serve(*o); });
}

}  // namespace lab_ftp
