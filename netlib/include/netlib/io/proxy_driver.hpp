#pragma once
// The live driver of netlib::http::proxy_session (`lab-http proxy`): one coroutine per client
// connection that feeds the core and executes its actions, origin connections as
// outbound_connection coroutines on the same executor (no thread pool), and a second coroutine
// per client that watches it while an origin exchange runs, so an exchange ends when its client
// leaves. Memory per connection: the client's unparsed bytes (at most client_buffer_bytes), one
// origin read (origin_read_bytes) and the core's outbox (what the last read produced); bodies are
// never held whole, except what the core gathers for the store in room reserved there.
#include <cstddef>
#include <mutex>

#include "netlib/http/proxy_session.hpp"
#include "netlib/io/asio.hpp"
#include "netlib/io/connection.hpp"

namespace netlib::io {

struct proxy_context {
  proxy_context(std::size_t cache_bytes, std::size_t max_object_bytes, http::proxy_options opts)
      : shared(cache_bytes, max_object_bytes), options(std::move(opts)) {}
  http::proxy_shared shared;
  http::proxy_options options;
  // Held around every call into a proxy_session: the sessions share `shared` (--threads N).
  std::mutex mutex;
  std::size_t client_buffer_bytes = 64 * 1024;
  std::size_t origin_read_bytes = 16 * 1024;
};

awaitable<void> run_proxy_connection(connection& c, proxy_context& ctx);

}  // namespace netlib::io
