// `lab-ftp serve --root DIR`: options -> ftp_server_settings -> netlib::io::tcp_server, each
// control connection driven by netlib::io::ftp_handle_control.
#include "serve_command.hpp"

#include <iostream>
#include <mutex>
#include <sstream>

#include <fmt/format.h>

#include "netlib/app/program.hpp"
#include "netlib/ftp/user_table.hpp"
#include "netlib/io/ftp_control_driver.hpp"
#include "netlib/io/ftp_disk_file_system.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/server_cli/server_flags.hpp"
#include "netlib/server_cli/users_file.hpp"

namespace lab_ftp {
namespace {

struct serve_options {
  netlib::server_cli::server_flags server{.max_connections = 200, .idle_timeout_s = 300};
  netlib::server_cli::auth_flags auth;
  std::string users_file;
  bool anonymous = false;
  bool writable = false;
  bool anonymous_full_write = false;
  std::string pasv_ports;
  double data_timeout_s = 30, login_delay_s = 1;
  std::size_t max_failed_logins = 3;
  bool verbose = false;
};

// The named users come from the users file every server reads the same way; anonymous access is
// FTP's own layer on top.
netlib::ftp::user_table load_users(const serve_options& o) {
  if (o.users_file.empty() && !o.anonymous)
    throw netlib::app::usage_error("nobody can log in: give --users FILE or --anonymous");
  auto named = o.users_file.empty() ? netlib::users_table{} : netlib::server_cli::load_users(o.users_file, "--users");
  try {
    return netlib::ftp::user_table(std::move(named), o.anonymous);
  } catch (const netlib::users_error& e) {
    throw netlib::app::failure(fmt::format("--users {}: {}", o.users_file, e.what()));
  }
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

std::chrono::milliseconds ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

int run_serve(const serve_options& o) {
  auto so = netlib::server_cli::make_server_options(o.server);
  so.idle_timeout = std::chrono::milliseconds(0);  // the FTP session's own idle timeout answers 421
  so.busy_reply = "421 Too many sessions, try again later.\r\n";
  so.per_address_reply = "421 Too many sessions from your address, try again later.\r\n";
  netlib::io::ftp_server_settings settings;
  settings.session.users = load_users(o);
  settings.session.writable = o.writable;
  if (o.anonymous_full_write && !(o.anonymous && o.writable))
    throw netlib::app::usage_error("--anonymous-full-write needs --anonymous and --write");
  settings.session.anonymous_full_write = o.anonymous_full_write;
  settings.session.idle_timeout = std::chrono::duration_cast<netlib::duration>(ms(o.server.idle_timeout_s));
  settings.session.login_delay = std::chrono::duration_cast<netlib::duration>(ms(o.login_delay_s));
  settings.session.max_failed_logins = o.max_failed_logins;
  const auto guard = netlib::server_cli::make_credentials_guard(o.auth);
  settings.session.guard = guard.get();
  const auto [lo, hi] = parse_range(o.pasv_ports);
  settings.data.port_min = lo;
  settings.data.port_max = hi;
  settings.data.idle_timeout = ms(o.data_timeout_s);
  netlib::io::ftp_disk_file_system files(o.server.root);
  settings.files = &files;
  std::mutex log_mutex;
  if (o.verbose) {
    settings.log = [&log_mutex](const std::string& line) {
      std::lock_guard lock(log_mutex);
      std::cerr << line << '\n';
    };
  }
  settings.data.tls = so.tls;
  netlib::io::tcp_server server(
      so, [&settings](netlib::io::connection& c) { return netlib::io::ftp_handle_control(c, settings); });
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
  netlib::server_cli::add_server_flags(*cmd, o->server,
                                       {.root = "Folder served as / (nothing outside it is reachable)",
                                        .max_connections_flag = "--max-sessions",
                                        .max_connections = "Control connections at once (421 beyond)",
                                        .idle_timeout = "Seconds a control connection may stay idle",
                                        .tls_cert = "PEM certificate: offer AUTH TLS (explicit FTPS, RFC 4217)"});
  cmd->add_option("--users", o->users_file, "File of name:password lines")->check(netlib::app::input_file());
  cmd->add_flag("--anonymous", o->anonymous, "Admit 'anonymous' and 'ftp' with any password");
  cmd->add_flag("--write", o->writable,
                "Allow STOR APPE MKD RMD DELE RNFR/RNTO (read-only otherwise); anonymous users may only upload new "
                "files and make folders");
  cmd->add_flag("--anonymous-full-write", o->anonymous_full_write,
                "With --anonymous --write: anonymous users may also delete, rename, remove folders and overwrite (like "
                "named users)");
  cmd->add_option("--pasv-ports", o->pasv_ports, "Passive data ports A-B (default: any free port)");
  netlib::app::add_duration(*cmd, "--data-timeout", o->data_timeout_s,
                            "Time a data connection may stall (and wait to be opened; default 30s)", 0.001, 86400);
  netlib::app::add_duration(*cmd, "--login-delay", o->login_delay_s,
                            "Delay before the n-th failed login's 530, times n (default 1s)", 0, 60);
  cmd->add_option("--max-failed-logins", o->max_failed_logins, "Failed logins before 421 and close")
      ->capture_default_str();
  netlib::server_cli::add_auth_flags(*cmd, o->auth, "USER/PASS");
  cmd->add_flag("--verbose", o->verbose, "Log replies and transfers on stderr");
  netlib::app::set_action(*cmd, [o] { return run_serve(*o); });
}

}  // namespace lab_ftp
