#pragma once
// A blocking UDP socket with receive deadlines (the delay lab's pinger and echo server).
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/io/asio.hpp"

namespace netlib::io {

struct datagram {
  std::size_t size = 0;
  udp::endpoint from;
};

class udp_socket {
 public:
  // Binds to host:port (port 0 picks a free one). Throws io_error.
  udp_socket(const std::string& host, unsigned short port);
  ~udp_socket();
  [[nodiscard]] udp::endpoint local_endpoint() const;
  void send_to(byte_view data, const udp::endpoint& to);
  // Waits at most `timeout` for one datagram; nullopt at the deadline.
  std::optional<datagram> receive_from(std::span<std::byte> buffer, std::chrono::milliseconds timeout);
  static udp::endpoint resolve(const std::string& host, unsigned short port);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace netlib::io
