// `lab-http serve --root DIR`: options -> netlib::io::http_serve_context -> netlib::io::tcp_server,
// each connection driven by netlib::io::http_handle_connection.
#include "serve_command.hpp"

#include <csignal>

#include <fmt/format.h>

#include "netlib/app/program.hpp"
#include "netlib/app/random.hpp"
#include "netlib/core/units.hpp"
#include "netlib/http/server_session.hpp"
#include "netlib/http/target_path.hpp"
#include "netlib/io/http_serve_driver.hpp"
#include "netlib/io/live_clock.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/server_cli/server_flags.hpp"
#include "netlib/server_cli/users_file.hpp"

namespace lab_http {
namespace {

struct serve_options {
  netlib::server_cli::server_flags server{.max_connections = 1024, .max_per_address = 128, .idle_timeout_s = 15};
  netlib::server_cli::auth_flags auth;
  bool cookies = false;
  std::string auth_dir, auth_users, access_log;
  std::vector<std::string> trusted_proxies;
  double head_timeout_s = 10, session_ttl_s = 1800;
  std::uint64_t max_body = 1 << 20;
  double file_cache_bytes = 16 << 20;
  double file_cache_settle_s = 2;
  double file_cache_valid_s = 1;
};

// 128 random bits as hex: session ids must not be guessable.
std::string random_id() {
  return netlib::app::random_hex(16);
}

// The rule protects the folder by its name and, when that name is a symbolic link, where it
// really is; every file served is checked on its resolved path too (static_site).
std::optional<netlib::http::basic_auth_rule> auth_rule(const serve_options& o,
                                                       const netlib::io::http_disk_files& files) {
  if (o.auth_dir.empty() && o.auth_users.empty()) return std::nullopt;
  if (o.auth_dir.empty() || o.auth_users.empty())
    throw netlib::app::usage_error("--auth-dir and --auth-users go together");
  const auto decoded = netlib::http::decode_target("/" + o.auth_dir);
  if (!decoded.value || decoded.value->path.empty())
    throw netlib::app::usage_error("--auth-dir " + o.auth_dir + ": not a folder path");
  netlib::http::basic_auth_rule rule{decoded.value->path, "netlab",
                                     netlib::server_cli::load_users(o.auth_users, "--auth-users")};
  if (auto real = files.real_folder(rule.prefix); real && *real != rule.prefix) rule.real_prefix = *real;
  return rule;
}

std::unique_ptr<netlib::io::http_serve_context> make_context(const serve_options& o) {
  auto ctx = std::make_unique<netlib::io::http_serve_context>();
  ctx->session.limits.max_body = o.max_body;
  if (o.file_cache_bytes < 0 || o.file_cache_settle_s < 0)
    throw netlib::app::usage_error("--file-cache and --file-cache-settle must not be negative");
  try {
    netlib::io::http_disk_files::cache_options cache;
    cache.bytes = static_cast<std::size_t>(o.file_cache_bytes);
    cache.settle = std::chrono::duration_cast<netlib::duration>(std::chrono::duration<double>(o.file_cache_settle_s));
    cache.valid = std::chrono::duration_cast<netlib::duration>(std::chrono::duration<double>(o.file_cache_valid_s));
    ctx->files = std::make_unique<netlib::io::http_disk_files>(o.server.root, cache);
  } catch (const netlib::io::io_error& e) {
    throw netlib::app::usage_error(std::string("--root: ") + e.what());
  }
  netlib::http::site_options site;
  site.auth = auth_rule(o, *ctx->files);
  if (site.auth) {
    ctx->guard = netlib::server_cli::make_credentials_guard(o.auth);
    site.guard = ctx->guard.get();
  }
  site.cookies = o.cookies;
  if (o.cookies)
    ctx->sessions = std::make_unique<netlib::http::session_store>(
        std::chrono::duration_cast<netlib::duration>(std::chrono::duration<double>(o.session_ttl_s)), 100000,
        random_id);
  ctx->site = std::make_unique<netlib::http::static_site>(site, *ctx->files, ctx->sessions.get());
  ctx->log = std::make_unique<netlib::io::http_access_log>(o.access_log);
  ctx->head_timeout = std::chrono::milliseconds(static_cast<long long>(o.head_timeout_s * 1000));
  for (const auto& p : o.trusted_proxies) {
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(p, ec);
    if (ec) throw netlib::app::usage_error("--trusted-proxy " + p + ": not an IP address (e.g. 127.0.0.1)");
    ctx->trusted_proxies.push_back(address.to_string());
  }
  return ctx;
}

int run_serve(const serve_options& o) {
  // sendfile(2) has no MSG_NOSIGNAL: a client that resets the connection mid-file must cost an
  // EPIPE, not the process.
  ::signal(SIGPIPE, SIG_IGN);
  auto so = netlib::server_cli::make_server_options(o.server);
  so.implicit_tls = so.tls != nullptr;
  so.defer_accept = true;  // HTTP and TLS clients speak first
  auto ctx = make_context(o);
  so.initial_deadline = ctx->head_timeout;  // the first request head's deadline, armed with the connection
  so.busy_reply = netlib::http::make_text_response(503, "503 Service Unavailable: too many connections\n", true,
                                                   netlib::io::read_clock(), "netlab-http");
  so.per_address_reply = netlib::http::make_text_response(
      503, "503 Service Unavailable: too many connections from your address (--max-per-address)\n", true,
      netlib::io::read_clock(), "netlab-http");
  auto* raw = ctx.get();
  netlib::io::tcp_server server(
      so, [raw](netlib::io::connection& c) { return netlib::io::http_handle_connection(c, *raw); });
  server.run();
  return netlib::app::exit_ok;
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto o = std::make_shared<serve_options>();
  auto* cmd = netlib::app::add_command(
      app, "serve", "Static web server (GET/HEAD, conditional GET, ranges, keep-alive, HTTPS, cookies, Basic auth)",
      "lab-http serve --root ./site --listen 127.0.0.1:8080 --access-log access.log\n"
      "  lab-http serve --root ./site --cookies --auth-dir private --auth-users users.txt\n"
      "  lab-http serve --root ./site --tls-cert cert.pem --tls-key key.pem");
  netlib::server_cli::add_server_flags(*cmd, o->server,
                                       {.root = "Document root (files are served from here, never from outside)",
                                        .max_connections = "Connections served at once (503 beyond)",
                                        .idle_timeout = "Seconds a keep-alive connection may stay idle",
                                        .tls_cert = "PEM certificate chain: serve HTTPS"});
  cmd->add_flag("--cookies", o->cookies, "Cookie lab: session cookie and a visit counter at /visits");
  cmd->add_option("--auth-dir", o->auth_dir, "Folder under the root that needs Basic authentication (e.g. private)");
  cmd->add_option("--auth-users", o->auth_users, "File of user:password lines for --auth-dir")
      ->check(netlib::app::input_file());
  netlib::server_cli::add_auth_flags(*cmd, o->auth, "--auth-dir");
  cmd->add_option("--trusted-proxy", o->trusted_proxies,
                  "Address of a proxy whose Forwarded: for= names its client (lab-http proxy adds it): failed "
                  "logins through it count against that client, not against the proxy (repeatable)");
  cmd->add_option("--access-log", o->access_log, "Append a Common Log Format line per request to this file");
  netlib::app::add_duration(*cmd, "--head-timeout", o->head_timeout_s,
                            "Time the whole request head may take (slowloris; default 10s)", 0.001, 3600);
  netlib::app::add_duration(*cmd, "--session-ttl", o->session_ttl_s,
                            "Time a cookie session lives without visits (default 30min)", 0.001, 1e7);
  netlib::app::add_byte_count(*cmd, "--max-body", o->max_body, "Largest request body (413 beyond; default 1MiB)");
  netlib::app::add_quantity(*cmd, "--file-cache", o->file_cache_bytes, netlib::units::parse_bytes,
                            "Memory for files up to 32 KiB; larger ones are kept open (e.g. 16MiB; 0B: no cache)")
      ->default_str("16MiB");
  netlib::app::add_duration(*cmd, "--file-cache-valid", o->file_cache_valid_s,
                            "How long a cached file is served before one stat checks it again (0: on every "
                            "request; default " +
                                netlib::units::format_seconds(o->file_cache_valid_s) + ")",
                            0, 3600);
  netlib::app::add_duration(*cmd, "--file-cache-settle", o->file_cache_settle_s,
                            "Time since a file's last change before it is cached (coarse file-system clocks; "
                            "default " +
                                netlib::units::format_seconds(o->file_cache_settle_s) + ")",
                            0, 3600);
  netlib::app::set_action(*cmd, [o] { return run_serve(*o); });
}

}  // namespace lab_http
