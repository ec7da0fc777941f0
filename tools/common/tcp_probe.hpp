#pragma once
// One client connection for the line-based suites (SMTP, POP3): send bytes, read more into a
// buffer that a protocol parser consumes, watch for the server closing. Network trouble and
// timeouts become error() text (a failed check), never exceptions.
#include <chrono>
#include <memory>
#include <string>

#include "netlib/core/bytes.hpp"

namespace netlib::io {
class tcp_client;
}

namespace netlab::grade {

class tcp_probe {
 public:
  tcp_probe(const std::string& host, unsigned short port, std::chrono::milliseconds timeout);
  virtual ~tcp_probe();
  tcp_probe(const tcp_probe&) = delete;
  tcp_probe& operator=(const tcp_probe&) = delete;

  bool send(std::string_view bytes);
  // Appends what the server sends next to buffer(); false at end of stream, timeout or error.
  bool read_more();
  // Reads until the server closes (true) or the timeout passes (false).
  bool wait_closed();
  // The time each later send and read may take (the constructor's timeout until then).
  void set_timeout(std::chrono::milliseconds timeout);
  [[nodiscard]] netlib::input_buffer& buffer() { return buffer_; }
  [[nodiscard]] const netlib::input_buffer& buffer() const { return buffer_; }
  [[nodiscard]] const std::string& error() const { return error_; }
  void set_error(std::string e) { error_ = std::move(e); }
  [[nodiscard]] const std::string& sent() const { return sent_; }
  [[nodiscard]] const std::string& received() const { return received_; }
  [[nodiscard]] bool peer_closed() const { return eof_; }
  [[nodiscard]] bool connected() const { return client_ != nullptr; }

 protected:
  // What error() says once the server closed: the line suites call that a failure; the HTTP
  // probe leaves it empty (a close after a response can be normal) and names the failure itself.
  std::string closed_error_ = "the server closed the connection";
  std::string error_;
  bool eof_ = false;

 private:
  std::unique_ptr<netlib::io::tcp_client> client_;
  netlib::input_buffer buffer_;
  std::string sent_;
  std::string received_;
};

}  // namespace netlab::grade
