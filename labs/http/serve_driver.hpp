#pragma once
// The live driver of `lab-http serve`: one coroutine per connection that reads into an
// input_buffer, feeds netlib::http::server_session, asks the static site for responses and
// writes them (sendfile(2) for file bodies on plain TCP, chunked reads under TLS).
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "disk_files.hpp"
#include "netlib/http/server_session.hpp"
#include "netlib/http/static_site.hpp"
#include "netlib/io/connection.hpp"
#include "netlib/io/shared_credentials_guard.hpp"

namespace lab_http {

// Common Log Format lines appended to a file, one writer at a time.
class access_log {
 public:
  explicit access_log(const std::string& path);  // empty: no log
  ~access_log();
  void write(const std::string& line);
  [[nodiscard]] bool enabled() const noexcept { return file_ != nullptr; }

 private:
  std::FILE* file_ = nullptr;
  std::mutex mutex_;
};

struct serve_context {
  netlib::http::server_session_options session;
  std::unique_ptr<disk_files> files;
  std::unique_ptr<netlib::http::session_store> sessions;
  std::unique_ptr<netlib::io::shared_credentials_guard> guard;  // Basic auth throttling, if any
  std::unique_ptr<netlib::http::static_site> site;
  std::mutex site_mutex;  // the session store is shared by all threads
  std::unique_ptr<access_log> log;
  std::chrono::milliseconds head_timeout{std::chrono::seconds(10)};
};

netlib::io::awaitable<void> handle_connection(netlib::io::connection& c, serve_context& ctx);

}  // namespace lab_http
