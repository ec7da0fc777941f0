#pragma once
// The live driver of `lab-http proxy`: a forward caching proxy. Client connections are served by
// netlib::http::server_session on the tcp_server's threads; each origin fetch runs as a blocking
// netlib::io::tcp_client on a separate thread pool, so a slow origin or a slow client never
// stalls other clients.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include "netlib/http/response_cache.hpp"
#include "netlib/http/server_session.hpp"
#include "netlib/io/asio.hpp"
#include "netlib/io/connection.hpp"

namespace lab_http {

struct proxy_counters {
  std::atomic<std::uint64_t> hits{0}, misses{0}, revalidated{0}, errors{0};
};

struct proxy_context {
  proxy_context(std::size_t cache_bytes, std::size_t max_object, unsigned fetch_threads)
      : cache(cache_bytes, max_object), pool(fetch_threads) {}
  netlib::http::server_session_options session;
  netlib::http::response_cache cache;
  std::mutex cache_mutex;
  proxy_counters counters;
  netlib::io::asio::thread_pool pool;
  std::chrono::milliseconds origin_timeout{std::chrono::seconds(10)};
};

netlib::io::awaitable<void> handle_proxy_connection(netlib::io::connection& c, proxy_context& ctx);

}  // namespace lab_http
