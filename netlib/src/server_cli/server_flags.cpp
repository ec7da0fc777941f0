// Shared server flags: see server_flags.hpp.
#include "netlib/server_cli/server_flags.hpp"

#include <algorithm>
#include <chrono>

#include "netlib/core/units.hpp"
#include "netlib/io/tls.hpp"

namespace netlib::server_cli {

void add_server_flags(CLI::App& cmd, server_flags& flags, const server_flag_help& help) {
  if (!help.root.empty()) cmd.add_option("--root", flags.root, help.root)->required()->check(app::input_folder());
  app::add_listen_option(cmd, flags.listen);
  cmd.add_option("--threads", flags.threads, "Threads serving connections (1..64)")->capture_default_str();
  cmd.add_option("--thread-model", flags.thread_model,
                 "With --threads N: 'pool' (one event loop run by every thread, a strand per connection) or "
                 "'loops' (an event loop per thread, connections dealt round-robin)")
      ->check(CLI::IsMember({"pool", "loops"}))
      ->capture_default_str();
  cmd.add_option(help.max_connections_flag, flags.max_connections, help.max_connections)->capture_default_str();
  cmd.add_option("--max-per-address", flags.max_per_address,
                 "Connections one client address (an IPv6 client's /64) may hold at once; more are refused at "
                 "once, so one address cannot take every slot (0: no limit)")
      ->capture_default_str();
  app::add_duration(
      cmd, "--idle-timeout", flags.idle_timeout_s,
      help.idle_timeout + " (default " + units::format_seconds(flags.idle_timeout_s) + "; e.g. 30s, 5min)", 0, 1e7);
  if (!help.tls) return;
  // A file that does not exist is a usage error (exit 2); io::make_server_tls says what else is
  // wrong with one (unreadable, not PEM).
  cmd.add_option("--tls-cert", flags.tls_cert, help.tls_cert)->check(app::input_file());
  cmd.add_option("--tls-key", flags.tls_key, "PEM private key for --tls-cert")->check(app::input_file());
}

io::server_options make_server_options(const server_flags& flags) {
  if (flags.tls_cert.empty() != flags.tls_key.empty())
    throw app::usage_error("--tls-cert and --tls-key must be given together");
  if (flags.threads == 0 || flags.threads > 64) throw app::usage_error("--threads must be 1..64");
  if (flags.idle_timeout_s < 0) throw app::usage_error("--idle-timeout must not be negative");
  io::server_options options;
  options.host = flags.listen.host;
  options.port = flags.listen.port;
  options.threads = flags.threads;
  options.model = flags.thread_model == "loops" ? io::thread_model::context_per_thread : io::thread_model::shared_pool;
  options.max_connections = flags.max_connections;
  options.max_per_address = flags.max_per_address;
  options.idle_timeout = std::chrono::milliseconds(static_cast<long long>(flags.idle_timeout_s * 1000));
  // A handshake is no slower than a client may be silent, and 10 s is plenty on any network.
  if (options.idle_timeout.count() > 0)
    options.handshake_timeout = std::min(options.handshake_timeout, options.idle_timeout);
  if (!flags.tls_cert.empty()) options.tls = io::make_server_tls(flags.tls_cert, flags.tls_key);
  return options;
}

void add_auth_flags(CLI::App& cmd, auth_flags& flags, const std::string& what) {
  cmd.add_option("--auth-max-failures", flags.max_failures,
                 "Failed " + what +
                     " logins from one address before it is locked out for --auth-lockout "
                     "(an account is never locked; a network's logins wait their turn past this many failures; "
                     "0: no guard, no delays)")
      ->capture_default_str();
  app::add_quantity(cmd, "--auth-delay", flags.delay_s, units::parse_duration_s,
                    "Wait before the next login is checked after a failed one, doubling after each further "
                    "failure (up to 30 s), per address, per network and per account (e.g. 1s, 500ms)")
      ->default_str("1s");
  app::add_quantity(cmd, "--auth-lockout", flags.lockout_s, units::parse_duration_s,
                    "How long a locked-out address is refused, even with the right password (a user who "
                    "logged in from it before still gets in; e.g. 5min, 30s)")
      ->default_str("5min");
}

std::unique_ptr<io::shared_credentials_guard> make_credentials_guard(const auth_flags& flags) {
  if (flags.max_failures == 0) return nullptr;
  const auto to_duration = [](double s) {
    return std::chrono::duration_cast<duration>(std::chrono::duration<double>(s));
  };
  guard_policy policy;
  policy.max_failures = flags.max_failures;
  policy.delay = to_duration(flags.delay_s);
  policy.lockout = to_duration(flags.lockout_s);
  if (policy.max_delay < policy.delay) policy.max_delay = policy.delay;
  return std::make_unique<io::shared_credentials_guard>(policy);
}

}  // namespace netlib::server_cli
