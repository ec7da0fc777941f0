#pragma once
// The live driver of `lab-http serve`: one coroutine per connection that reads into an
// input_buffer, feeds netlib::http::server_session, asks the static site for responses and
// writes them (connection::send_file for file bodies: sendfile(2) on plain TCP, reads and writes
// under TLS). docs/architecture.md, "Live runners".
//
//   http_serve_context ctx{...};
//   tcp_server server(opts, [&](connection& c) { return http_handle_connection(c, ctx); });
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "netlib/http/server_session.hpp"
#include "netlib/http/static_site.hpp"
#include "netlib/io/connection.hpp"
#include "netlib/io/http_disk_files.hpp"
#include "netlib/io/shared_credentials_guard.hpp"

namespace netlib::io {

// Common Log Format lines appended to a file, one writer at a time.
class http_access_log {
 public:
  explicit http_access_log(const std::string& path);  // empty: no log; throws io_error
  ~http_access_log();
  http_access_log(const http_access_log&) = delete;
  http_access_log& operator=(const http_access_log&) = delete;
  void write(const std::string& line);
  [[nodiscard]] bool enabled() const noexcept { return file_ != nullptr; }

 private:
  std::FILE* file_ = nullptr;
  std::mutex mutex_;
};

struct http_serve_context {
  http::server_session_options session;
  std::unique_ptr<http_disk_files> files;
  std::unique_ptr<http::session_store> sessions;
  std::unique_ptr<shared_credentials_guard> guard;  // Basic auth throttling, if any
  std::unique_ptr<http::static_site> site;
  std::mutex site_mutex;  // the session store is shared by all threads
  std::unique_ptr<http_access_log> log;
  // The whole request head must arrive within this, counted from the connection's start for the
  // first request (a client that never sends a byte is closed by it) and from the head's first
  // byte for the next ones (between requests the idle timeout applies).
  std::chrono::milliseconds head_timeout{std::chrono::seconds(10)};
  // Proxies whose Forwarded element names the client (RFC 7239): the credentials guard keys on
  // that client instead of on the proxy (http/forwarded.hpp).
  std::vector<std::string> trusted_proxies;
};

awaitable<void> http_handle_connection(connection& c, http_serve_context& ctx);

}  // namespace netlib::io
