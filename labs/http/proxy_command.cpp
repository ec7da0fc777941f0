// `lab-http proxy [--listen H:P] [--cache-size 64MB] [--max-object-size 8MB] [--origin-timeout 10]
// [--head-timeout 10] [--allow-ports 80,1025-65535]`: netlib::http::proxy_session driven by netlib::io's proxy driver.
#include "proxy_command.hpp"

#include <iostream>

#include <fmt/format.h>

#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"
#include "netlib/http/server_session.hpp"
#include "netlib/io/live_clock.hpp"
#include "netlib/io/proxy_driver.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/server_cli/server_flags.hpp"

namespace lab_http {
namespace {

struct proxy_options {
  netlib::server_cli::server_flags server{.max_connections = 1024, .max_per_address = 128, .idle_timeout_s = 30};
  std::string cache_size = "64MB", max_object = "8MB";
  double origin_timeout_s = 10, head_timeout_s = 10;
  std::string allow_ports = "80,1025-65535";
};

std::size_t bytes_option(const std::string& text, const char* flag) {
  try {
    const double v = netlib::units::parse_bytes(text);
    if (v < 1024) throw std::invalid_argument("too small");
    return static_cast<std::size_t>(v);
  } catch (const std::exception&) {
    throw netlib::app::usage_error(
        fmt::format("{} {}: expected a size such as 64MB or 512KiB (at least 1KiB)", flag, text));
  }
}

int run_proxy(const proxy_options& o) {
  if (!(o.origin_timeout_s > 0 && o.origin_timeout_s <= 86400))
    throw netlib::app::usage_error("--origin-timeout must be more than 0 and at most 86400 seconds");
  if (!(o.head_timeout_s > 0 && o.head_timeout_s <= 86400))
    throw netlib::app::usage_error("--head-timeout must be more than 0 and at most 86400 seconds");
  netlib::http::proxy_options core;
  core.head_timeout = std::chrono::milliseconds(static_cast<long long>(o.head_timeout_s * 1000));
  core.name = "netlab-proxy";
  core.origin_timeout = std::chrono::milliseconds(static_cast<long long>(o.origin_timeout_s * 1000));
  const auto ports = netlib::http::parse_port_ranges(o.allow_ports);
  if (!ports)
    throw netlib::app::usage_error(
        fmt::format("--allow-ports {}: expected ports and ranges such as 80,1025-65535 (1..65535)", o.allow_ports));
  core.allowed_ports = *ports;
  netlib::io::proxy_context ctx(bytes_option(o.cache_size, "--cache-size"),
                                bytes_option(o.max_object, "--max-object-size"), std::move(core));
  auto so = netlib::server_cli::make_server_options(o.server);
  so.busy_reply = netlib::http::make_text_response(503, "503 Service Unavailable: too many connections\n", true,
                                                   netlib::io::read_clock(), "netlab-proxy");
  so.per_address_reply = netlib::http::make_text_response(
      503, "503 Service Unavailable: too many connections from your address (--max-per-address)\n", true,
      netlib::io::read_clock(), "netlab-proxy");
  netlib::io::tcp_server server(so,
                                [&ctx](netlib::io::connection& c) { return netlib::io::run_proxy_connection(c, ctx); });
  server.run();
  const auto& n = ctx.shared.counters;
  std::cerr << fmt::format("lab-http proxy: {} hits, {} misses, {} revalidated, {} origin errors\n", n.hits, n.misses,
                           n.revalidated, n.errors);
  return netlib::app::exit_ok;
}

}  // namespace

void add_proxy_command(CLI::App& app) {
  auto o = std::make_shared<proxy_options>();
  auto* cmd = netlib::app::add_command(
      app, "proxy", "Forward caching proxy (RFC 9111 freshness, revalidation, LRU, X-Cache, Via)",
      "lab-http proxy --listen 127.0.0.1:3128 --cache-size 64MB\n"
      "  curl -x http://127.0.0.1:3128 http://127.0.0.1:8080/index.html -D -   # X-Cache: MISS, then HIT\n"
      "  curl http://127.0.0.1:3128/netlab-proxy/stats                          # hit/miss counters (JSON)");
  netlib::server_cli::add_server_flags(*cmd, o->server,
                                       {.max_connections = "Client connections at once",
                                        .idle_timeout = "Seconds a client connection may stay idle",
                                        .tls = false});
  cmd->add_option("--cache-size", o->cache_size, "Total size of cached responses")->capture_default_str();
  cmd->add_option("--max-object-size", o->max_object, "Largest response that is cached (larger ones stream through)")
      ->capture_default_str();
  netlib::app::add_duration(*cmd, "--origin-timeout", o->origin_timeout_s,
                            "Time for an origin exchange up to the response head: connect, send, wait, head (504 "
                            "after); then the longest the origin may stay silent while the body streams (default 10s)",
                            0.001, 86400);
  netlib::app::add_duration(*cmd, "--head-timeout", o->head_timeout_s,
                            "Time a client's whole request head may take (slowloris; default 10s)", 0.001, 86400);
  cmd->add_option("--allow-ports", o->allow_ports, "Origin ports the proxy connects to (others: 403)")
      ->capture_default_str();
  netlib::app::set_action(*cmd, [o] { return run_proxy(*o); });
}

}  // namespace lab_http
