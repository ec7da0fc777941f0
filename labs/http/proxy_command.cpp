// `lab-http proxy [--listen H:P] [--cache-size 64MB] [--max-object-size 8MB]`.
#include "proxy_command.hpp"

#include <iostream>

#include <fmt/format.h>

#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/server_cli/server_flags.hpp"
#include "proxy_driver.hpp"

namespace lab_http {
namespace {

struct proxy_options {
  netlib::server_cli::server_flags server{.max_connections = 1024, .idle_timeout_s = 30};
  std::string cache_size = "64MB", max_object = "8MB";
  double origin_timeout_s = 10;
  unsigned fetch_threads = 16;
};

std::size_t bytes_option(const std::string& text, const char* flag) {
  try {
    const double v = netlib::units::parse_bytes(text);
    if (v < 1024) throw std::invalid_argument("too small");
    return static_cast<std::size_t>(v);
  } catch (const std::exception&) {
    throw netlib::app::usage_error(fmt::format("{} {}: expected a size such as 64MB or 512KiB (at least 1KiB)", flag, text));
  }
}

int run_proxy(const proxy_options& o) {
  if (o.fetch_threads == 0 || o.fetch_threads > 256) throw netlib::app::usage_error("--fetch-threads must be 1..256");
  proxy_context ctx(bytes_option(o.cache_size, "--cache-size"), bytes_option(o.max_object, "--max-object-size"), o.fetch_threads);
  ctx.session.server_name = "netlab-proxy";
  ctx.origin_timeout = std::chrono::milliseconds(static_cast<long long>(o.origin_timeout_s * 1000));
  auto so = netlib::server_cli::make_server_options(o.server);
  netlib::io::tcp_server server(so, [&ctx](netlib::io::connection& c) { return handle_proxy_connection(c, ctx); });
  server.run();
  ctx.pool.join();
  std::cerr << fmt::format("lab-http proxy: {} hits, {} misses, {} revalidated, {} origin errors\n",
                           ctx.counters.hits.load(), ctx.counters.misses.load(), ctx.counters.revalidated.load(),
                           ctx.counters.errors.load());
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
  cmd->add_option("--max-object-size", o->max_object, "Largest response that is cached")->capture_default_str();
  netlib::app::add_duration(*cmd, "--origin-timeout", o->origin_timeout_s,
                            "Time for each origin connect/read (504 after; default 10s)", 0.001, 3600);
  cmd->add_option("--fetch-threads", o->fetch_threads, "Origin fetches running at once")->capture_default_str();
  netlib::app::set_action(*cmd, [o] { return run_proxy(*o); });
}

}  // namespace lab_http
