#pragma once
// One accepted TCP connection as a server's handler sees it: read, write, switch to TLS, deadlines.
// The handler is a coroutine that feeds what it reads to a sans-I/O core and executes the core's
// actions (docs/architecture.md, "Live runners").
//
// Deadlines: every read and write refreshes the idle deadline (server_options::idle_timeout); a
// total deadline (set_deadline, e.g. for a request head against slowloris) is independent. When
// either passes, the connection is closed: pending reads return 0 and timed_out() is true.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/io/asio.hpp"

namespace netlib::io {

class connection {
 public:
  using steady = std::chrono::steady_clock;

  connection(tcp::socket socket, std::shared_ptr<ssl::context> tls, std::chrono::milliseconds idle_timeout);
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  // Reads what is available (TLS-decrypted when TLS is active). Returns 0 at end of stream, after
  // close(), or when a deadline closed the connection; never throws for those.
  awaitable<std::size_t> read_some(std::span<std::byte> buffer);
  // Writes all bytes. Returns false when the peer is gone or the connection was closed.
  awaitable<bool> write(byte_view data);
  awaitable<bool> write(std::string_view text) { return write(as_bytes(text)); }
  // Writes `first` then `second`, gathered into one system call where possible (a response head
  // and its body without copying them together).
  awaitable<bool> write(byte_view first, byte_view second);
  // Server-side TLS handshake on this connection (STARTTLS, or implicit TLS before the first byte).
  // Returns false when no TLS context was configured or the handshake failed (then the connection
  // is closed).
  awaitable<bool> start_tls();
  // Half-close: no more writes (sends FIN after pending data), reads go on.
  void shutdown_send();
  // Ends a read_some in progress at once with 0, leaving the connection open and the bytes not
  // read yet in the kernel (a driver about to switch to TLS). Cancels writes in progress too, so
  // call it when none is.
  void cancel_read();
  void close();

  [[nodiscard]] bool tls_available() const noexcept;
  [[nodiscard]] bool tls_active() const noexcept;
  [[nodiscard]] bool timed_out() const noexcept;
  [[nodiscard]] bool is_open() const noexcept;
  void set_idle_timeout(std::chrono::milliseconds idle);
  // A total deadline, or nullopt to clear it.
  void set_deadline(std::optional<steady::time_point> deadline);
  // Bytes received by the kernel and not read yet (raw TCP bytes, so encrypted ones under TLS).
  [[nodiscard]] std::size_t available() const;
  [[nodiscard]] tcp::endpoint remote_endpoint() const;
  [[nodiscard]] tcp::endpoint local_endpoint() const;
  [[nodiscard]] asio::any_io_executor executor();
  // The time to hand to a core (netlib::time_point from the steady clock).
  [[nodiscard]] static netlib::time_point now() { return from_steady(steady::now()); }
  // The raw socket, for drivers that need it (e.g. sendfile for large bodies).
  tcp::socket& socket();

 private:
  friend class tcp_server;
  struct state;
  static awaitable<void> watchdog(std::shared_ptr<state> s);
  // A function that closes this connection if it still exists (run it on executor()).
  [[nodiscard]] std::function<void()> make_closer() const;
  std::shared_ptr<state> state_;
};

}  // namespace netlib::io
