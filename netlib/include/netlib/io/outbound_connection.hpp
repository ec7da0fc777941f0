#pragma once
// An asynchronous client connection for drivers running on a server's executor (the HTTP proxy's
// origin connections): connect, write and read_some are coroutines, and one total deadline
// (set_deadline) bounds all of them together, not each one. When the deadline passes, a watchdog
// closes the socket: pending operations end and timed_out() is true. close() ends them at once
// (the proxy's client left). Failures are values, never exceptions: failure() names what failed
// in one line ("cannot connect to 127.0.0.1:8080: Connection refused").
#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/io/asio.hpp"

namespace netlib::io {

class outbound_connection {
 public:
  using steady = std::chrono::steady_clock;

  explicit outbound_connection(asio::any_io_executor executor);
  ~outbound_connection();  // closes
  outbound_connection(const outbound_connection&) = delete;
  outbound_connection& operator=(const outbound_connection&) = delete;

  // The deadline for everything from now on (it may be moved either way).
  void set_deadline(steady::time_point deadline);
  // Resolves `host` (skipped for an IP address) and connects; false on failure.
  awaitable<bool> connect(std::string host, unsigned short port);
  // Writes all of `data`; false on failure.
  awaitable<bool> write(byte_view data);
  // What is available, up to buffer.size(); 0 at end of stream (failure() empty) or on failure.
  awaitable<std::size_t> read_some(std::span<std::byte> buffer);
  void close();

  [[nodiscard]] bool timed_out() const noexcept;
  // The last failure in one line; empty when none (end of stream is not a failure). After the
  // deadline: "timed out ...".
  [[nodiscard]] const std::string& failure() const noexcept;

 private:
  struct state;
  static awaitable<void> watchdog(std::shared_ptr<state> s);
  std::shared_ptr<state> state_;
};

}  // namespace netlib::io
