#pragma once
// What `lab-http get` shares between its connections: the start time, the cookie jar, the cache
// and the connection counter; and the per-object record it prints.
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "client_cache.hpp"
#include "netlib/http/cookie_jar.hpp"
#include "netlib/http/url.hpp"
#include "origin_connection.hpp"

namespace lab_http {

struct object_result {
  std::string url;
  int status = 0;
  std::string reason;
  std::uint64_t body_bytes = 0;
  double start_s = 0;  // since the fetch started
  double end_s = 0;
  int connection = 0;  // 1-based index of the TCP connection that carried it
  std::string cache;   // "", "stored", "revalidated"
  std::string error;
  std::string body;  // kept for the base page (links, -o)
};

struct fetch_settings {
  std::chrono::milliseconds timeout{std::chrono::seconds(10)};
  bool verify_tls = true;
  std::string ca_file;
};

class fetch_session {
 public:
  fetch_session(fetch_settings settings, netlib::http::cookie_jar* jar, client_cache* cache);
  [[nodiscard]] double elapsed() const;
  // A new connection to the URL's origin; records the first connection's timing as the measured RTT.
  std::unique_ptr<origin_connection> connect(const netlib::http::url& u, int& index);
  netlib::http::request_head make_request(const netlib::http::url& u, bool close);
  // Cookies and cache for a received response; fills the record.
  void absorb(const netlib::http::url& u, received_response& r, object_result& out);
  // The first connection's handshake timing (nullopt before any connection).
  [[nodiscard]] std::optional<connect_timing> first_connect() const;
  [[nodiscard]] int connections() const;

 private:
  fetch_settings settings_;
  netlib::http::cookie_jar* jar_;
  client_cache* cache_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  mutable std::mutex mutex_;
  std::optional<connect_timing> first_connect_;
  int connections_ = 0;
};

// Fetch strategies of the textbook (§2.2.2). Each fills results[i] for urls[i].
// persistent and pipelined take a connection to reuse (or null) and hand back the one left open.
std::unique_ptr<origin_connection> fetch_persistent(fetch_session& s, const std::vector<netlib::http::url>& urls,
                                                    std::vector<object_result>& results,
                                                    std::unique_ptr<origin_connection> reuse, int& index);
void fetch_non_persistent(fetch_session& s, const std::vector<netlib::http::url>& urls,
                          std::vector<object_result>& results, unsigned parallel);
std::unique_ptr<origin_connection> fetch_pipelined(fetch_session& s, const std::vector<netlib::http::url>& urls,
                                                   std::vector<object_result>& results,
                                                   std::unique_ptr<origin_connection> reuse, int& index);

}  // namespace lab_http
