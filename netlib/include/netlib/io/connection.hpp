#pragma once
// One accepted TCP connection as a server's handler sees it: read, write, switch to TLS, deadlines.
// The handler is a coroutine that feeds what it reads to a sans-I/O core and executes the core's
// actions (docs/architecture.md, "Live runners").
//
// Deadlines: every read and write refreshes the idle deadline (server_options::idle_timeout); a
// total deadline (set_deadline, e.g. for a request head against slowloris) is independent; a TLS
// handshake has its own total deadline (set_handshake_timeout), which the bytes it trickles in do
// not renew. When one passes, the connection is closed: pending reads return 0 and timed_out()
// is true. While the server owes the client an answer it is working on (a login held for its
// turn), defer_idle_until keeps the idle deadline from passing before then.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/io/asio.hpp"

namespace netlib::io {

class connection {
 public:
  using steady = std::chrono::steady_clock;

  // initial_deadline > 0: a total deadline that long from now, set before the watchdog first runs.
  connection(tcp::socket socket, std::shared_ptr<ssl::context> tls, std::chrono::milliseconds idle_timeout,
             std::chrono::milliseconds initial_deadline = std::chrono::milliseconds(0));
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
  // Plain TCP: hands `first` then `second` to the kernel now, without waiting (and without a
  // coroutine), and drops from them what it took; under TLS it takes nothing. False when the
  // connection is broken or closed. What is left goes through write() (the usual case: nothing).
  bool write_now(byte_view& first, byte_view& second);
  // Sends `length` bytes of the open file `fd` from `offset`: sendfile(2) on plain TCP (the kernel
  // copies from the page cache to the socket, nothing through user space), read and written in
  // 64 KiB pieces under TLS. It first yields once, so the other connections' ready events go
  // before a long body (docs/architecture.md, "Live runners"). Every piece refreshes the idle
  // deadline. False when the peer is gone or the file ended early (what was promised cannot be
  // sent: close the connection). sendfile has no MSG_NOSIGNAL: the program ignores SIGPIPE.
  awaitable<bool> send_file(int fd, std::uint64_t offset, std::uint64_t length);
  // Server-side TLS handshake on this connection (STARTTLS, or implicit TLS before the first byte),
  // within the handshake timeout. Returns false when no TLS context was configured or the
  // handshake failed or took too long (then the connection is closed).
  awaitable<bool> start_tls();
  // The longest a TLS handshake may take, however its bytes trickle in (0: no limit of its own).
  void set_handshake_timeout(std::chrono::milliseconds timeout);
  // Binds the TLS sessions of this connection to a new tag (tls.hpp, bind_tls_sessions): call
  // before start_tls; the tag then goes to the connections that must resume this one's session
  // (FTP's data connections). Empty when not bound.
  void bind_tls_sessions();
  [[nodiscard]] const std::string& tls_session_tag() const noexcept;
  // Half-close: no more writes (sends FIN after pending data), reads go on.
  void shutdown_send();
  // Ends a read_some in progress at once with 0, leaving the connection open and the bytes not
  // read yet in the kernel (a driver about to switch to TLS). Cancels writes in progress too, so
  // call it when none is.
  void cancel_read();
  // Keeps about `bytes` written but not yet sent queued in the kernel (TCP_NOTSENT_LOWAT; one
  // call may overshoot it by a segment): a write or send_file then waits until the peer's window
  // has taken the rest, so the sending
  // happens in this process's turns. Without it, a body queued whole and then closed is sent from
  // the peer's acknowledgements, on the peer's CPU (docs/performance.md, the HTTP results of 2026-12-02).
  void limit_unsent(std::size_t bytes);
  // Plain TCP: corked (TCP_CORK), the kernel sends only full segments until uncorked, which
  // sends the rest at once. A response's head and its sendfile(2) body go out corked, so the head
  // shares the body's first segment and sendfile's 64 KiB batches leave no part-filled segments
  // between them (as nginx's tcp_nopush). Best effort; nothing under TLS.
  void cork(bool on);
  void close();

  [[nodiscard]] bool tls_available() const noexcept;
  [[nodiscard]] bool tls_active() const noexcept;
  [[nodiscard]] bool timed_out() const noexcept;
  [[nodiscard]] bool is_open() const noexcept;
  void set_idle_timeout(std::chrono::milliseconds idle);
  // The idle deadline does not pass before `until` (the core holds an answer till then); the
  // next read or write starts the idle timeout afresh as usual.
  void defer_idle_until(steady::time_point until);
  // A total deadline, or nullopt to clear it.
  void set_deadline(std::optional<steady::time_point> deadline);
  // Bytes received by the kernel and not read yet (raw TCP bytes, so encrypted ones under TLS).
  [[nodiscard]] std::size_t available() const;
  [[nodiscard]] tcp::endpoint remote_endpoint() const;
  [[nodiscard]] tcp::endpoint local_endpoint() const;
  [[nodiscard]] asio::any_io_executor executor();
  // The time to hand to a core (netlib::time_point from the steady clock).
  [[nodiscard]] static netlib::time_point now() { return from_steady(steady::now()); }
  // The raw socket, for what the connection does not offer (FTP's urgent data, peeking for the
  // control connection's end).
  tcp::socket& socket();

 private:
  friend class tcp_server;
  struct state;
  static awaitable<void> watchdog(std::shared_ptr<state> s);
  // send_file's two ways, separate coroutines so that the plain one's frame has no 64 KiB buffer.
  awaitable<bool> send_file_plain(int fd, std::uint64_t offset, std::uint64_t length);
  awaitable<bool> send_file_tls(int fd, std::uint64_t offset, std::uint64_t length);
  // A function that closes this connection if it still exists (run it on executor()).
  [[nodiscard]] std::function<void()> make_closer() const;
  // Runs `hook` once, just before the socket closes, whoever closes it (close(), a deadline, a
  // failed handshake, the destructor): the server gives back the connection's place there, so the
  // place is free before the peer can see the end.
  void on_close(std::function<void()> hook);
  std::shared_ptr<state> state_;
};

}  // namespace netlib::io
