// lab-pop3 serve: the POP3 server core on the live tcp_server, over the Maildir store.
#include <memory>

#include "commands.hpp"
#include "mail_files.hpp"
#include "netlib/app/program.hpp"
#include "netlib/io/maildir_store.hpp"
#include "netlib/io/pop3_driver.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/io/tls.hpp"

namespace lab_pop3 {
namespace {

struct serve_options {
  std::string maildir;
  std::string users;
  std::string hostname = "localhost";
  netlib::app::host_port listen;
  std::string tls_cert;
  std::string tls_key;
  std::size_t max_connections = 100;
  double idle_timeout_s = 600;
  bool json = false;
};

int serve(const serve_options& o) {
  lab_mail::check_tls_pair(o.tls_cert, o.tls_key);
  const auto users = lab_mail::load_users(o.users);
  netlib::io::maildir_store store(o.maildir);
  netlib::io::pop3_service service{{}, store, users};
  service.config.hostname = o.hostname;
  netlib::io::server_options opts;
  opts.host = o.listen.host;
  opts.port = o.listen.port;
  opts.max_connections = o.max_connections;
  opts.idle_timeout = std::chrono::milliseconds(static_cast<long long>(o.idle_timeout_s * 1000));
  opts.busy_reply = "-ERR [SYS/TEMP] too many connections, try again later\r\n";
  if (!o.tls_cert.empty()) opts.tls = netlib::io::make_server_tls(o.tls_cert, o.tls_key);
  netlib::io::tcp_server server(opts, [&service](netlib::io::connection& c) { return netlib::io::serve_pop3(c, service); });
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
  cmd->add_option("--users", o->users, "Users file, one name:password per line")->required();
  cmd->add_option("--hostname", o->hostname, "Server name in the greeting")->capture_default_str();
  netlib::app::add_listen_option(*cmd, o->listen);
  cmd->add_option("--tls-cert", o->tls_cert, "PEM certificate: enables STLS (RFC 2595)");
  cmd->add_option("--tls-key", o->tls_key, "PEM private key for --tls-cert");
  cmd->add_option("--max-connections", o->max_connections, "Connection cap")->capture_default_str();
  cmd->add_option("--idle-timeout", o->idle_timeout_s, "Seconds a client may stay silent (RFC 1939: 600)")
      ->capture_default_str();
  netlib::app::add_json_flag(*cmd, o->json);
}

}  // namespace lab_pop3
