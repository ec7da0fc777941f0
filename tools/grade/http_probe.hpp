#pragma once
// One client connection of the HTTP suite: send raw request bytes, read responses with
// netlib::http::response_parser (pipelined responses in order), watch for the server closing.
// Never throws for network trouble: connect/read failures and timeouts become error() text,
// since a server that times out is a failed check, not a grader failure.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/response_parser.hpp"

namespace netlib::io {
class tcp_client;
}

namespace netlab::grade {

struct http_reply {
  netlib::http::response_head head;
  std::string body;
};

class http_probe {
 public:
  http_probe(std::string host, unsigned short port, std::chrono::milliseconds timeout);
  ~http_probe();
  http_probe(const http_probe&) = delete;
  http_probe& operator=(const http_probe&) = delete;

  // Sends raw bytes; `methods` are the requests they hold, in order (HEAD responses have no body).
  bool send(std::string_view bytes, const std::vector<std::string>& methods);
  // The next complete final response, or nullopt (see error()).
  std::optional<http_reply> next_response();
  // Reads until the server closes (true) or the timeout passes (false), without parsing: bytes
  // that follow the last response stay in extra().
  bool wait_closed();
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] const std::string& received() const { return received_; }
  // Bytes received but not part of any parsed response.
  [[nodiscard]] std::string extra() const { return std::string(netlib::as_chars(buffer_.data())); }
  [[nodiscard]] bool peer_closed() const { return eof_; }
  [[nodiscard]] bool connected() const { return client_ != nullptr; }

 private:
  bool read_more();
  std::unique_ptr<netlib::io::tcp_client> client_;
  netlib::http::response_parser parser_;
  netlib::input_buffer buffer_;
  std::string received_;
  std::string error_;
  bool eof_ = false;
};

}  // namespace netlab::grade
