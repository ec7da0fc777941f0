#pragma once
// One client connection to an origin server: the live driver of netlib::http::response_parser on
// a blocking netlib::io::tcp_client (every operation has a deadline). Requests may be sent back
// to back (pipelining); responses are received in order.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/response_parser.hpp"
#include "netlib/http/url.hpp"
#include "netlib/io/tcp_client.hpp"

namespace lab_http {

struct received_response {
  netlib::http::response_head head;
  std::string body;                 // chunked framing removed
  bool connection_closes = false;   // the server closes after it (or it was close-delimited)
};

class origin_connection {
 public:
  origin_connection(const netlib::http::url& origin, std::chrono::milliseconds timeout, bool verify_tls,
                    const std::string& ca_file);
  // Connects (and does the TLS handshake for https); returns the TCP connect time in seconds,
  // which is one round-trip time (SYN, SYN-ACK).
  double connect();
  void send(const netlib::http::request_head& request);
  // Pipelining: every request in one write, so the server finds them all in its first read.
  void send_all(const std::vector<netlib::http::request_head>& requests);
  received_response receive();
  [[nodiscard]] bool open() const noexcept { return open_; }
  void close();

 private:
  netlib::http::url origin_;
  bool verify_tls_;
  std::string ca_file_;
  netlib::io::tcp_client client_;
  netlib::http::response_parser parser_;
  netlib::input_buffer buffer_;
  bool open_ = false;
  bool peer_closed_ = false;
};

}  // namespace lab_http
