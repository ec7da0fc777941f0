// The command-line flags every lab server shares, declared once: --listen, --threads,
// --thread-model, the connection cap, --max-per-address, --idle-timeout and --tls-cert/--tls-key
// (and --root for the servers that serve a folder), and their translation to
// netlib::io::server_options. Each server keeps its own defaults and help wording
// (RFC 5321's 300 s idle time for SMTP, 600 s for POP3, ...), and adds its protocol's own flags.
// The servers that check passwords add the credentials guard's flags (--auth-max-failures,
// --auth-delay, --auth-lockout; docs/architecture.md, "The credentials guard").
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "netlib/app/program.hpp"
#include "netlib/io/shared_credentials_guard.hpp"
#include "netlib/io/tcp_server.hpp"

namespace netlib::server_cli {

struct server_flags {
  std::string root;  // --root, for the servers that serve a folder (server_flag_help::root)
  app::host_port listen;
  unsigned threads = 1;
  std::string thread_model = "pool";
  std::size_t max_connections = 1024;
  // Connections one client address may hold at once (0: no limit), so that one address cannot
  // take every slot: 20 for POP3 and FTP (a client opens a few), 50 for SMTP, 128 for HTTP.
  std::size_t max_per_address = 20;
  double idle_timeout_s = 30;
  std::string tls_cert, tls_key;
};

// What a server says about its flags in --help; the defaults come from server_flags' values.
struct server_flag_help {
  // Not empty: the server serves a folder, a required --root FOLDER that must exist.
  std::string root;
  std::string max_connections_flag = "--max-connections";
  std::string max_connections = "Connections served at once";
  std::string idle_timeout = "Seconds a client may stay silent";
  std::string tls_cert = "PEM certificate chain";
  bool tls = true;  // false: the server speaks no TLS, so no --tls-cert/--tls-key
};

void add_server_flags(CLI::App& cmd, server_flags& flags, const server_flag_help& help);

// Checks the flags (usage_error, exit 2, for a lone --tls-cert, --threads outside 1..64 or an
// unknown model) and builds the runner's options, loading the TLS context when a certificate is
// given; a TLS handshake may take the idle timeout, at most 10 s. The caller adds its busy
// replies and, for HTTPS, implicit_tls.
io::server_options make_server_options(const server_flags& flags);

// The credentials guard (docs/architecture.md, "The credentials guard"): after failed logins a wait
// that doubles (from --auth-delay) per address, per network, per account (for addresses that
// failed); an address's lockout of --auth-lockout after --auth-max-failures failures.
struct auth_flags {
  std::size_t max_failures = 10;  // 0: no guard
  double delay_s = 1;
  double lockout_s = 300;
};

// `what` names the logins in the help text, e.g. "AUTH" or "USER/PASS".
void add_auth_flags(CLI::App& cmd, auth_flags& flags, const std::string& what);

// The guard the server's sessions share (usage_error for a negative time), or null for
// --auth-max-failures 0.
std::unique_ptr<io::shared_credentials_guard> make_credentials_guard(const auth_flags& flags);

}  // namespace netlib::server_cli
