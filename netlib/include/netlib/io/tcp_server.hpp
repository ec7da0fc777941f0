#pragma once
// A TCP server that accepts connections and runs one handler coroutine per connection.
//
//   netlib::io::server_options opts{.host = "127.0.0.1", .port = 0};
//   netlib::io::tcp_server server(opts, [](netlib::io::connection& c) -> awaitable<void> { ... });
//   server.run();   // prints "listening on HOST:PORT", returns after SIGINT/SIGTERM or stop()
//
// Limits: max_connections (over the cap, busy_reply is sent and the connection closed), at most
// max_per_address of them from one client address (an IPv6 client's address is its /64; over it,
// per_address_reply), the idle timeout of every connection, a deadline on every TLS handshake
// (handshake_timeout), and raising RLIMIT_NOFILE as far as the system allows.
// Every accepted connection has TCP_NODELAY (set on the listener, which Linux passes on).
// Threads: threads > 1 runs one io_context on every thread with a strand per connection (model
// shared_pool, the default), or one io_context per thread with connections spread round-robin;
// tests/bench/runner measures both (docs/performance.md): the pool was the faster one.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "netlib/io/asio.hpp"
#include "netlib/io/connection.hpp"

namespace netlib::io {

// How threads > 1 share the work: one io_context run by every thread with a strand per connection
// (the default: faster in bench_runner), or one io_context per thread, connections round-robin.
enum class thread_model { context_per_thread, shared_pool };

struct server_options {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::size_t max_connections = 1024;
  // Connections one client address may hold at once (0: no limit besides max_connections), so
  // that one address cannot take every slot (nginx's limit_conn, Postfix's anvil).
  std::size_t max_per_address = 0;
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
  // The longest a TLS handshake may take (implicit TLS, STARTTLS/STLS/AUTH TLS): a total deadline
  // that the handshake's bytes do not renew. 0: none of its own.
  std::chrono::milliseconds handshake_timeout{std::chrono::seconds(10)};
  // A total deadline from each connection's start (connection::set_deadline), in place before the
  // handler and the watchdog run: for protocols whose first message must arrive in time (HTTP's
  // first request head); the handler moves or clears it. 0: none.
  std::chrono::milliseconds initial_deadline{0};
  unsigned threads = 1;
  std::string busy_reply;             // written to a connection over the cap, then closed
  std::string per_address_reply;      // over max_per_address (empty: busy_reply)
  std::shared_ptr<ssl::context> tls;  // enables connection::start_tls
  bool implicit_tls = false;          // handshake before the handler runs (HTTPS)
  bool handle_signals = true;         // SIGINT/SIGTERM stop the server
  bool print_listening = true;        // "listening on HOST:PORT" on stdout, flushed
  // The line on stderr instead: for a server given --json, whose stdout holds only its JSON
  // document (docs/conventions.md, "Output").
  bool listening_on_stderr = false;
  thread_model model = thread_model::shared_pool;
  // For protocols where the client speaks first (HTTP, implicit TLS): Linux TCP_DEFER_ACCEPT, so a
  // connection is accepted once its first bytes have arrived (the first read then never waits),
  // or after about 1 s without any.
  // Never for FTP, SMTP, POP3, whose servers greet first.
  bool defer_accept = false;
};

using connection_handler = std::function<awaitable<void>(connection&)>;

class tcp_server {
 public:
  // Binds and listens (throws io_error with a clear message, e.g. address in use).
  tcp_server(server_options options, connection_handler handler);
  ~tcp_server();
  tcp_server(const tcp_server&) = delete;
  tcp_server& operator=(const tcp_server&) = delete;

  [[nodiscard]] tcp::endpoint local_endpoint() const;
  // Serves until stop() or a signal; then closes the listener and every connection and returns.
  void run();
  // Thread-safe; may be called from a handler or another thread.
  void stop();
  [[nodiscard]] std::size_t active_connections() const noexcept;
  [[nodiscard]] std::size_t total_accepted() const noexcept;
  // Connections refused because their address had max_per_address open already.
  [[nodiscard]] std::size_t refused_per_address() const noexcept;
  // The first io_context's executor (for servers that need extra work, e.g. FTP data listeners).
  [[nodiscard]] asio::any_io_executor executor();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Raises the soft RLIMIT_NOFILE to the hard limit; returns the new soft limit.
std::size_t raise_fd_limit();

}  // namespace netlib::io
