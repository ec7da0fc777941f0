// lab-smtp serve: the SMTP server core on the live tcp_server, delivering into Maildir folders.
#include <memory>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/io/maildir_store.hpp"
#include "netlib/io/smtp_driver.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/server_cli/server_flags.hpp"
#include "netlib/server_cli/users_file.hpp"

namespace lab_smtp {
namespace {

struct serve_options {
  std::string maildir;
  std::string domain;
  std::string users;
  std::string hostname;
  netlib::server_cli::server_flags server{.max_connections = 100, .max_per_address = 50, .idle_timeout_s = 300};
  netlib::server_cli::auth_flags auth;
  bool require_tls = false;
  std::uint64_t max_size = 10 * 1024 * 1024;
  std::string postmaster;
  bool json = false;
};

int serve(const serve_options& o) {
  auto opts = netlib::server_cli::make_server_options(o.server);
  if (o.require_tls && !opts.tls) throw netlib::app::usage_error("--require-tls needs --tls-cert and --tls-key");
  const auto users = netlib::server_cli::load_users(o.users, "--users");
  for (const char* bad : {"@", " ", "/"})
    if (o.domain.empty() || o.domain.find(bad) != std::string::npos)
      throw netlib::app::usage_error("--domain must be a domain name like example.org");
  netlib::io::maildir_store store(o.maildir);
  // Before the server: its run() returns only once every pending delivery was completed.
  netlib::io::smtp_delivery_queue deliveries(store, o.domain);
  const auto guard = netlib::server_cli::make_credentials_guard(o.auth);
  netlib::io::smtp_service service{{}, deliveries, users};
  service.config.guard = guard.get();
  service.config.spool = &deliveries;  // message data goes to tmp/ as it arrives, never held whole
  service.config.domain = o.domain;
  service.config.hostname = o.hostname.empty() ? o.domain : o.hostname;
  service.config.max_message_bytes = o.max_size;
  service.config.require_tls = o.require_tls;
  service.config.postmaster = o.postmaster.empty() ? users.first() : o.postmaster;
  if (!users.exists(service.config.postmaster))
    throw netlib::app::usage_error("--postmaster " + o.postmaster + ": not a user in the users file");
  opts.listening_on_stderr = o.json;  // stdout: the JSON document only
  opts.busy_reply = "421 4.3.2 Too many connections, try again later\r\n";
  opts.per_address_reply = "421 4.7.0 Too many connections from your address, try again later\r\n";
  netlib::io::tcp_server server(opts,
                                [&service](netlib::io::connection& c) { return netlib::io::serve_smtp(c, service); });
  server.run();
  if (o.json)
    netlib::app::print_json({{"connections_accepted", server.total_accepted()},
                             {"messages_stored", deliveries.messages_stored()},
                             {"delivery_batches", deliveries.batches()},
                             {"largest_batch", deliveries.largest_batch()}});
  return netlib::app::exit_ok;
}

}  // namespace

void add_serve(CLI::App& app) {
  auto o = std::make_shared<serve_options>();
  auto* cmd = netlib::app::add_command(
      app, "serve", "Run an SMTP server that delivers mail for USER@DOMAIN into DIR/USER/new (Maildir)",
      "lab-smtp serve --maildir mail --domain example.org --users users.txt --listen 127.0.0.1:2525",
      [o] { return serve(*o); });
  cmd->add_option("--maildir", o->maildir, "Mail folder: user NAME's Maildir is DIR/NAME/{tmp,new,cur}")->required();
  cmd->add_option("--domain", o->domain, "Local mail domain: mail to NAME@DOMAIN is delivered")->required();
  cmd->add_option("--users", o->users, "Users file, one name:password per line")
      ->required()
      ->check(netlib::app::input_file());
  cmd->add_option("--hostname", o->hostname, "Server name in the greeting and Received: (default: the domain)");
  netlib::server_cli::add_server_flags(*cmd, o->server,
                                       {.max_connections = "Connection cap (421 above it)",
                                        .idle_timeout = "Seconds a client may stay silent (RFC 5321: 300)",
                                        .tls_cert = "PEM certificate: enables STARTTLS (and AUTH over TLS)"});
  netlib::server_cli::add_auth_flags(*cmd, o->auth, "AUTH");
  cmd->add_flag("--require-tls", o->require_tls, "Refuse MAIL/RCPT/DATA until the client used STARTTLS (530)");
  netlib::app::add_byte_count(*cmd, "--max-size", o->max_size, "Largest message (SIZE, 552 above it; default 10MiB)");
  cmd->add_option("--postmaster", o->postmaster,
                  "User who receives mail for postmaster@DOMAIN when no user is called postmaster (default: the first "
                  "user of the users file)");
  netlib::app::add_json_flag(*cmd, o->json);
}

}  // namespace lab_smtp
