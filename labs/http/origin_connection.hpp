#pragma once
// One client connection to an origin server: the live driver of netlib::http::response_parser on
// a blocking netlib::io::tcp_client (every operation has a deadline). Requests may be sent back
// to back (pipelining); responses are received in order.
#include <chrono>
#include <memory>
#include <optional>
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
  std::string body;                // chunked framing removed
  bool connection_closes = false;  // the server closes after it (or it was close-delimited)
};

// The round-trip time of a TCP handshake, as the kernel measured it (TCP_INFO right after the
// connect: SYN to SYN-ACK), and how long the whole connect() call took (name resolution, socket
// set-up, the handshake and the wake-up of this thread: on the loopback 20 times the handshake).
struct connect_timing {
  std::optional<double> handshake_rtt_s;  // nullopt when the kernel gave no sample
  double connect_call_s = 0;
};

class origin_connection {
 public:
  origin_connection(const netlib::http::url& origin, std::chrono::milliseconds timeout, bool verify_tls,
                    const std::string& ca_file);
  // Connects (and does the TLS handshake for https); returns how long the handshake took.
  connect_timing connect();
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
