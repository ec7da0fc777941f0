// lab-pop3 serve: the POP3 server core on the live tcp_server, over the Maildir store.
#include <memory>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/io/maildir_store.hpp"
#include "netlib/io/pop3_driver.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/server_cli/server_flags.hpp"
#include "netlib/server_cli/users_file.hpp"

namespace lab_pop3 {
namespace {

struct serve_options {
  std::string maildir;
  std::string users;
  std::string hostname = "localhost";
  netlib::server_cli::server_flags server{.max_connections = 100, .idle_timeout_s = 600};
  netlib::server_cli::auth_flags auth;
  bool json = false;
};

int serve(const serve_options& o) {
  auto opts = netlib::server_cli::make_server_options(o.server);
  const auto users = netlib::server_cli::load_users(o.users, "--users");
  netlib::io::maildir_store store(o.maildir);
  const auto guard = netlib::server_cli::make_credentials_guard(o.auth);
  netlib::io::pop3_service service{{}, store, users};
  service.config.hostname = o.hostname;
  service.config.guard = guard.get();
  opts.listening_on_stderr = o.json;  // stdout: the JSON document only
  opts.busy_reply = "-ERR [SYS/TEMP] too many connections, try again later\r\n";
  opts.per_address_reply = "-ERR [SYS/TEMP] too many connections from your address, try again later\r\n";
  netlib::io::tcp_server server(opts,
                                [&service](netlib::io::connection& c) { return netlib::io::serve_pop3(c, service); });
  server.run();
  if (o.json) netlib::app::print_json({{"connections_accepted", server.total_accepted()}});
  return netlib::app::exit_ok;
}

}  // namespace

void add_serve(CLI::App& app) {
  auto o = std::make_shared<serve_options>();
  auto* cmd = netlib::app::add_command(app, "serve", "Run a POP3 server on the Maildir folders DIR/USER/{new,cur}",
                                       "lab-pop3 serve --maildir mail --users users.txt --listen 127.0.0.1:1110",
                                       [o] { return serve(*o); });
  cmd->add_option("--maildir", o->maildir, "Mail folder: user NAME's Maildir is DIR/NAME")->required();
  cmd->add_option("--users", o->users, "Users file, one name:password per line")
      ->required()
      ->check(netlib::app::input_file());
  cmd->add_option("--hostname", o->hostname, "Server name in the greeting")->capture_default_str();
  netlib::server_cli::add_server_flags(*cmd, o->server,
                                       {.max_connections = "Connection cap",
                                        .idle_timeout = "Seconds a client may stay silent (RFC 1939: 600)",
                                        .tls_cert = "PEM certificate: enables STLS (RFC 2595)"});
  netlib::server_cli::add_auth_flags(*cmd, o->auth, "USER/PASS");
  netlib::app::add_json_flag(*cmd, o->json);
}

}  // namespace lab_pop3
