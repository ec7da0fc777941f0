#pragma once
// A blocking TCP client with deadlines, for the labs' clients (lab-http get, lab-ftp, lab-smtp send,
// lab-pop3 fetch). Every operation has a timeout; failures throw io_error with one clear line
// ("cannot connect to 127.0.0.1:21: Connection refused", "timed out after 10 s reading from ...").
// Internally it runs asynchronous operations on a private io_context for at most the timeout.
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/io/asio.hpp"

namespace netlib::io {

class tcp_client {
 public:
  explicit tcp_client(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  ~tcp_client();
  tcp_client(tcp_client&&) noexcept;
  tcp_client& operator=(tcp_client&&) noexcept;

  void connect(const std::string& host, unsigned short port);
  void write(byte_view data);
  void write(std::string_view text) { write(as_bytes(text)); }
  // Returns 0 at end of stream.
  std::size_t read_some(std::span<std::byte> buffer);
  // Reads until end of stream or `limit` bytes (throws io_error past the limit).
  std::string read_to_end(std::size_t limit);
  // Client-side TLS handshake (STARTTLS or implicit TLS); server_name is sent as SNI.
  void start_tls(std::shared_ptr<ssl::context> tls, const std::string& server_name);
  void shutdown_send();
  void close();
  void set_timeout(std::chrono::milliseconds timeout);
  [[nodiscard]] bool tls_active() const noexcept;
  [[nodiscard]] tcp::endpoint local_endpoint() const;
  [[nodiscard]] tcp::endpoint remote_endpoint() const;
  // The kernel's smoothed round-trip time (TCP_INFO tcpi_rtt). Asked right after connect(), before
  // any data, it is the first sample: the SYN to SYN-ACK time of the handshake. nullopt when the
  // kernel has no sample (or no TCP_INFO).
  [[nodiscard]] std::optional<std::chrono::microseconds> kernel_rtt() const;

 private:
  friend class tcp_listener;
  struct impl;
  std::unique_ptr<impl> impl_;
};

// A blocking listener with a deadline (e.g. an FTP client's active-mode data connection).
class tcp_listener {
 public:
  explicit tcp_listener(const std::string& host, unsigned short port = 0,
                        std::chrono::milliseconds timeout = std::chrono::seconds(10));
  ~tcp_listener();
  [[nodiscard]] tcp::endpoint local_endpoint() const;
  // Accepts one connection, or throws io_error at the deadline.
  tcp_client accept();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace netlib::io
