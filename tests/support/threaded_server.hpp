#pragma once
// A netlib::io::tcp_server on a background thread for the io tests, stopped and joined at scope
// exit, with quiet() options (no listening line, no signal handlers), and read_line for a
// tcp_client talking to it (link netlib::io).
//
//   netlab::test::threaded_server s(netlab::test::quiet(), netlab::test::echo_driver);
//   tcp_client c(5s);
//   c.connect("127.0.0.1", s.port());
#include <array>
#include <cstddef>
#include <string>
#include <thread>
#include <utility>

#include "netlib/io/tcp_client.hpp"
#include "netlib/io/tcp_server.hpp"

namespace netlab::test {

struct threaded_server {
  threaded_server(netlib::io::server_options o, netlib::io::connection_handler handler)
      : server(std::move(o), std::move(handler)) {
    thread = std::thread([this] { server.run(); });
  }
  ~threaded_server() {
    server.stop();
    thread.join();
  }
  threaded_server(const threaded_server&) = delete;
  threaded_server& operator=(const threaded_server&) = delete;
  [[nodiscard]] unsigned short port() const { return server.local_endpoint().port(); }
  netlib::io::tcp_server server;
  std::thread thread;
};

inline netlib::io::server_options quiet(netlib::io::server_options o = {}) {
  o.print_listening = false;
  o.handle_signals = false;
  return o;
}

// The next CRLF-terminated line ("<eof>" when the server closed first; "<too long>" after 10,000
// reads without one), with what was read past it kept in `pending`.
inline std::string read_line(netlib::io::tcp_client& c, std::string& pending) {
  std::array<std::byte, 4096> buf{};
  for (int i = 0; i < 10000; ++i) {
    if (auto nl = pending.find("\r\n"); nl != std::string::npos) {
      std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 2);
      return line;
    }
    const std::size_t n = c.read_some(buf);
    if (n == 0) return "<eof>";
    pending.append(reinterpret_cast<const char*>(buf.data()), n);
  }
  return "<too long>";
}

}  // namespace netlab::test
