// Theory of operation: a connection is a socket, an optional TLS stream layered on it, and a
// watchdog coroutine. The watchdog sleeps until the earlier of the idle deadline (refreshed by
// every read and write) and the total deadline, re-checks, and closes the socket when one has
// passed, which completes any pending read with an error that read_some reports as 0. A deadline
// that moves later needs nothing (the watchdog wakes at the earlier time, finds nothing passed
// and sleeps again); only set_deadline/set_idle_timeout to a time before the one the watchdog
// sleeps until (`armed`) wake it, so clearing a request-head deadline costs no system call.
// All of it runs on the connection's executor (one thread, or one strand in a shared pool), so
// the state needs no locks.
// Writes on plain TCP first offer the bytes to the kernel without waiting; only what it does not
// take goes through the reactor (a reply usually fits the send buffer, and the round trip through
// the scheduler cost more than the rest of a small HTTP request). Under TLS every write is Asio's.
// send_file on plain TCP: send_file_on (sendfile(2), at most 1 MiB per turn of the event loop);
// under TLS, pread + write.
#include "netlib/io/connection.hpp"

#include "netlib/io/send_file.hpp"
#include "netlib/io/tls.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <optional>
#include <utility>

namespace netlib::io {

struct connection::state {
  state(tcp::socket s, std::shared_ptr<ssl::context> ctx, std::chrono::milliseconds idle_timeout)
      : socket(std::move(s)), tls_ctx(std::move(ctx)), timer(socket.get_executor()), idle(idle_timeout) {
    touch();
  }
  tcp::socket socket;
  std::shared_ptr<ssl::context> tls_ctx;
  std::unique_ptr<ssl::stream<tcp::socket&>> tls;
  asio::steady_timer timer;
  std::chrono::milliseconds idle;
  std::chrono::milliseconds handshake_timeout{0};
  steady::time_point idle_deadline;
  steady::time_point idle_floor;  // defer_idle_until
  std::optional<steady::time_point> total_deadline;
  steady::time_point armed = steady::time_point::max();  // what the watchdog sleeps until
  bool timed_out = false;
  bool closed = false;
  std::string tls_session_tag;  // bind_tls_sessions
  std::function<void()> on_close;

  void touch() { idle_deadline = idle.count() > 0 ? steady::now() + idle : steady::time_point::max(); }
  steady::time_point next_deadline() const {
    const steady::time_point idle_at = std::max(idle_deadline, idle_floor);
    return total_deadline ? std::min(idle_at, *total_deadline) : idle_at;
  }
  void close() {
    if (closed) return;
    closed = true;
    if (on_close) std::exchange(on_close, nullptr)();
    boost::system::error_code ec;
    timer.cancel();
    socket.close(ec);  // sends FIN (RST if unread input remains) and cancels pending operations
  }
};

awaitable<void> connection::watchdog(std::shared_ptr<state> s) {
  while (!s->closed) {
    const auto deadline = s->next_deadline();
    if (deadline <= connection::steady::now()) {
      s->timed_out = true;
      s->close();
      co_return;
    }
    s->timer.expires_at(deadline);
    s->armed = deadline;
    boost::system::error_code ec;
    co_await s->timer.async_wait(asio::redirect_error(use_awaitable, ec));
  }
}

connection::connection(tcp::socket socket, std::shared_ptr<ssl::context> tls, std::chrono::milliseconds idle_timeout,
                       std::chrono::milliseconds initial_deadline)
    : state_(std::make_shared<state>(std::move(socket), std::move(tls), idle_timeout)) {
  if (initial_deadline.count() > 0) state_->total_deadline = steady::now() + initial_deadline;
#ifndef __linux__
  boost::system::error_code ec;
  state_->socket.set_option(tcp::no_delay(true), ec);  // Linux: inherited from the listener (tcp_server)
#endif
  asio::co_spawn(state_->socket.get_executor(), watchdog(state_), asio::detached);
}

connection::~connection() {
  state_->close();
}

awaitable<std::size_t> connection::read_some(std::span<std::byte> buffer) {
  auto s = state_;
  if (s->closed) co_return 0;
  s->touch();
  boost::system::error_code ec;
  std::size_t n = 0;
  if (s->tls) {
    n = co_await s->tls->async_read_some(asio::buffer(buffer.data(), buffer.size()),
                                         asio::redirect_error(use_awaitable, ec));
  } else {
    n = co_await s->socket.async_read_some(asio::buffer(buffer.data(), buffer.size()),
                                           asio::redirect_error(use_awaitable, ec));
  }
  if (ec) {
    // operation_aborted on an open connection: cancel_read(); the connection stays usable.
    if (ec != asio::error::eof && ec != asio::error::operation_aborted) s->close();
    co_return n;
  }
  s->touch();
  co_return n;
}

awaitable<bool> connection::write(byte_view data) {
  return write(data, byte_view{});
}

namespace {
// Plain TCP only: hands `first` then `second` to the kernel without waiting, and returns how many
// bytes it took (0 when the send buffer is full), or nullopt when the connection is broken.
std::optional<std::size_t> send_now([[maybe_unused]] int fd, [[maybe_unused]] byte_view first,
                                    [[maybe_unused]] byte_view second) {
#if defined(__linux__)
  std::array<iovec, 2> parts{iovec{const_cast<std::byte*>(first.data()), first.size()},
                             iovec{const_cast<std::byte*>(second.data()), second.size()}};
  msghdr msg{};
  msg.msg_iov = first.empty() ? &parts[1] : parts.data();
  msg.msg_iovlen = first.empty() || second.empty() ? 1 : 2;
  for (int attempt = 0; attempt < 8; ++attempt) {  // EINTR only: each retry is a signal
    const ssize_t n = ::sendmsg(fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
    if (errno != EINTR) return std::nullopt;
  }
#endif
  return 0;  // elsewhere: always the asynchronous way
}

void advance(byte_view& first, byte_view& second, std::size_t n) {
  const std::size_t a = std::min(n, first.size());
  first = first.subspan(a);
  second = second.subspan(std::min(n - a, second.size()));
}
}  // namespace

awaitable<bool> connection::write(byte_view first, byte_view second) {
  auto s = state_;
  if (s->closed) co_return false;
  s->touch();
  if (first.empty() && second.empty()) co_return true;  // refreshes the idle deadline only
  if (!s->tls) {
    // A reply usually fits the socket's send buffer at once: writing it here, without waiting,
    // saves the reactor round trip (a completion posted to the scheduler, then resumed). What
    // the kernel does not take now is written the asynchronous way.
    const auto taken = send_now(s->socket.native_handle(), first, second);
    if (!taken) {
      s->close();
      co_return false;
    }
    advance(first, second, *taken);
    if (first.empty() && second.empty()) co_return true;
  }
  boost::system::error_code ec;
  const std::array<asio::const_buffer, 2> parts{asio::buffer(first.data(), first.size()),
                                                asio::buffer(second.data(), second.size())};
  if (s->tls) {
    co_await asio::async_write(*s->tls, parts, asio::redirect_error(use_awaitable, ec));
  } else {
    co_await asio::async_write(s->socket, parts, asio::redirect_error(use_awaitable, ec));
  }
  if (ec) {
    s->close();
    co_return false;
  }
  s->touch();
  co_return true;
}

bool connection::write_now(byte_view& first, byte_view& second) {
  auto& s = *state_;
  if (s.closed) return false;
  if (s.tls || (first.empty() && second.empty())) return true;
  s.touch();
  const auto taken = send_now(s.socket.native_handle(), first, second);
  if (!taken) {
    s.close();
    return false;
  }
  advance(first, second, *taken);
  return true;
}

// Not a coroutine itself: it hands out the coroutine of one of the two ways (one frame per call).
awaitable<bool> connection::send_file(int fd, std::uint64_t offset, std::uint64_t length) {
  return state_->tls ? send_file_tls(fd, offset, length) : send_file_plain(fd, offset, length);
}

awaitable<bool> connection::send_file_tls(int fd, std::uint64_t offset, std::uint64_t length) {
  if (state_->closed) co_return false;
  co_await asio::post(state_->socket.get_executor(), use_awaitable);  // as send_file_plain
  std::array<std::byte, 65536> chunk;
  while (length > 0) {
    const ssize_t n =
        ::pread(fd, chunk.data(), length < chunk.size() ? length : chunk.size(), static_cast<off_t>(offset));
    if (n <= 0) co_return false;
    if (!co_await write(byte_view(chunk.data(), static_cast<std::size_t>(n)))) co_return false;
    offset += static_cast<std::uint64_t>(n);
    length -= static_cast<std::uint64_t>(n);
  }
  co_return true;
}

awaitable<bool> connection::send_file_plain(int fd, std::uint64_t offset, std::uint64_t length) {
  auto s = state_;
  if (s->closed) co_return false;
  const auto r = co_await send_file_on(s->socket, fd, offset, length, [&s] { s->touch(); });
  if (r.failed) s->close();
  co_return r.sent == length;  // short: the file shrank, the promised length cannot be kept
}

// The handshake runs under a total deadline of its own (the earlier of it and any total deadline
// already set), restored afterwards: a client that asks for TLS and then stays silent, or
// trickles its handshake, is closed when it passes (issue 31: FTP's AUTH TLS had none at all).
awaitable<bool> connection::start_tls() {
  auto s = state_;
  if (!s->tls_ctx || s->closed || s->tls) co_return false;
  s->tls = std::make_unique<ssl::stream<tcp::socket&>>(s->socket, *s->tls_ctx);
  if (!s->tls_session_tag.empty()) io::bind_tls_sessions(s->tls->native_handle(), s->tls_session_tag);
  s->touch();
  const auto saved = s->total_deadline;
  if (s->handshake_timeout.count() > 0) {
    const auto limit = steady::now() + s->handshake_timeout;
    set_deadline(saved ? std::min(*saved, limit) : limit);
  }
  boost::system::error_code ec;
  co_await s->tls->async_handshake(ssl::stream_base::server, asio::redirect_error(use_awaitable, ec));
  if (ec || s->closed) {
    s->close();
    co_return false;
  }
  if (s->handshake_timeout.count() > 0) set_deadline(saved);
  s->touch();
  co_return true;
}

void connection::set_handshake_timeout(std::chrono::milliseconds timeout) {
  state_->handshake_timeout = timeout;
}

void connection::bind_tls_sessions() {
  state_->tls_session_tag = new_tls_session_tag();
}
const std::string& connection::tls_session_tag() const noexcept {
  return state_->tls_session_tag;
}

void connection::shutdown_send() {
  boost::system::error_code ec;
  state_->socket.shutdown(tcp::socket::shutdown_send, ec);
}
void connection::cancel_read() {
  boost::system::error_code ec;
  state_->socket.cancel(ec);
}
void connection::limit_unsent(std::size_t bytes) {
  const int value = static_cast<int>(std::min<std::size_t>(bytes, 1u << 30));
  // Best effort: where the option is missing, writes simply queue as before.
  (void)::setsockopt(state_->socket.native_handle(), IPPROTO_TCP, TCP_NOTSENT_LOWAT, &value, sizeof value);
}

void connection::cork([[maybe_unused]] bool on) {
#if defined(__linux__)
  if (state_->tls || state_->closed) return;
  const int value = on ? 1 : 0;
  (void)::setsockopt(state_->socket.native_handle(), IPPROTO_TCP, TCP_CORK, &value, sizeof value);
#endif
}

void connection::close() {
  state_->close();
}
bool connection::tls_available() const noexcept {
  return state_->tls_ctx != nullptr;
}
bool connection::tls_active() const noexcept {
  return state_->tls != nullptr;
}
bool connection::timed_out() const noexcept {
  return state_->timed_out;
}
bool connection::is_open() const noexcept {
  return !state_->closed;
}
void connection::set_idle_timeout(std::chrono::milliseconds idle) {
  state_->idle = idle;
  state_->touch();
  if (state_->next_deadline() < state_->armed) state_->timer.cancel();  // re-arm earlier
}
void connection::defer_idle_until(steady::time_point until) {
  state_->idle_floor = until;
}
void connection::set_deadline(std::optional<steady::time_point> deadline) {
  state_->total_deadline = deadline;
  if (state_->next_deadline() < state_->armed) state_->timer.cancel();  // re-arm earlier
}
std::size_t connection::available() const {
  boost::system::error_code ec;
  const std::size_t n = state_->socket.available(ec);
  return ec ? 0 : n;
}
tcp::endpoint connection::remote_endpoint() const {
  boost::system::error_code ec;
  return state_->socket.remote_endpoint(ec);
}
tcp::endpoint connection::local_endpoint() const {
  boost::system::error_code ec;
  return state_->socket.local_endpoint(ec);
}
asio::any_io_executor connection::executor() {
  return state_->socket.get_executor();
}
tcp::socket& connection::socket() {
  return state_->socket;
}

void connection::on_close(std::function<void()> hook) {
  if (state_->closed) {
    hook();
    return;
  }
  state_->on_close = std::move(hook);
}

std::function<void()> connection::make_closer() const {
  return [weak = std::weak_ptr<state>(state_)] {
    if (auto s = weak.lock()) s->close();
  };
}

}  // namespace netlib::io
