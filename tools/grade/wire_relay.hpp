#pragma once
// A recording TCP relay for grading a student's client: it listens on 127.0.0.1 port 0, forwards
// every accepted connection to the reference server and keeps both directions of each
// conversation, in arrival order, so the client suites can check what the client put on the wire.
// It runs netlib::io::tcp_server on its own thread; conversations() is valid after stop().
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace netlab::grade {

struct wire_chunk {
  bool from_client = true;
  std::string bytes;
};

// One TCP connection through the relay.
struct conversation {
  std::vector<wire_chunk> chunks;
  bool upstream_refused = false;  // the reference server could not be reached
  std::size_t recorded = 0;       // bytes kept in chunks
  bool truncated = false;         // more than 32 MiB went through: the rest was not kept

  [[nodiscard]] std::string client_bytes() const;
  [[nodiscard]] std::string server_bytes() const;
};

class wire_relay {
 public:
  // Starts relaying to upstream_host:upstream_port (throws netlib::io::io_error when it cannot bind).
  wire_relay(const std::string& upstream_host, unsigned short upstream_port);
  ~wire_relay();
  wire_relay(const wire_relay&) = delete;
  wire_relay& operator=(const wire_relay&) = delete;

  [[nodiscard]] unsigned short port() const noexcept { return port_; }
  // Closes the listener and every relayed connection, then joins the relay thread.
  void stop();
  // Every connection the client opened, in accept order (call after stop()).
  [[nodiscard]] const std::vector<conversation>& conversations() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
  unsigned short port_ = 0;
  std::thread thread_;
};

}  // namespace netlab::grade
