// The command-line flags every lab server shares, declared once: --listen, --threads,
// --thread-model, the connection cap, --idle-timeout and --tls-cert/--tls-key, and their
// translation to netlib::io::server_options. Each server keeps its own defaults and help wording
// (RFC 5321's 300 s idle time for SMTP, 600 s for POP3, ...), and adds its protocol's own flags.
#pragma once

#include <cstddef>
#include <string>

#include <CLI/CLI.hpp>

#include "netlib/app/program.hpp"
#include "netlib/io/tcp_server.hpp"

namespace netlib::server_cli {

struct server_flags {
  app::host_port listen;
  unsigned threads = 1;
  std::string thread_model = "pool";
  std::size_t max_connections = 1024;
  double idle_timeout_s = 30;
  std::string tls_cert, tls_key;
};

// What a server says about its flags in --help; the defaults come from server_flags' values.
struct server_flag_help {
  std::string max_connections_flag = "--max-connections";
  std::string max_connections = "Connections served at once";
  std::string idle_timeout = "Seconds a client may stay silent";
  std::string tls_cert = "PEM certificate chain";
  bool tls = true;  // false: the server speaks no TLS, so no --tls-cert/--tls-key
};

void add_server_flags(CLI::App& cmd, server_flags& flags, const server_flag_help& help);

// Checks the flags (usage_error, exit 2, for a lone --tls-cert, --threads outside 1..64 or an
// unknown model) and builds the runner's options, loading the TLS context when a certificate is
// given. The caller adds its busy reply and, for HTTPS, implicit_tls.
io::server_options make_server_options(const server_flags& flags);

}  // namespace netlib::server_cli
