#pragma once
// One client connection of the HTTP suite: tcp_probe (send raw request bytes, read more) plus
// netlib::http::response_parser (pipelined responses in order). Never throws for network trouble:
// connect/read failures and timeouts become error() text, since a server that times out is a
// failed check, not a grader failure.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "netlib/http/message.hpp"
#include "netlib/http/response_parser.hpp"
#include "tcp_probe.hpp"

namespace netlab::grade {

struct http_reply {
  netlib::http::response_head head;
  std::string body;
};

class http_probe : public tcp_probe {
 public:
  http_probe(const std::string& host, unsigned short port, std::chrono::milliseconds timeout);

  // Sends raw bytes; `methods` are the requests they hold, in order (HEAD responses have no body).
  bool send(std::string_view bytes, const std::vector<std::string>& methods);
  // The next complete final response, or nullopt (see error()).
  std::optional<http_reply> next_response();
  // Reads until the server closes (true) or the timeout passes (false), without parsing: bytes
  // that follow the last response stay in extra().
  bool wait_closed();
  // Bytes received but not part of any parsed response.
  [[nodiscard]] std::string extra() const { return std::string(netlib::as_chars(buffer().data())); }

 private:
  netlib::http::response_parser parser_;
};

}  // namespace netlab::grade
