// Theory of operation: the socket, the resolver and a timer live in a shared state. The first
// set_deadline() starts a watchdog coroutine (it keeps the state alive) that sleeps until the
// deadline, re-checks it (set_deadline wakes it), and closes everything when it has passed, which
// completes any pending operation with an error. Everything runs on the executor given at
// construction (the proxy passes its client connection's, a strand under --threads), so the
// state needs no locks.
#include "netlib/io/outbound_connection.hpp"

#include <optional>

namespace netlib::io {

struct outbound_connection::state {
  explicit state(asio::any_io_executor ex) : socket(ex), resolver(ex), timer(ex) {}
  tcp::socket socket;
  tcp::resolver resolver;
  asio::steady_timer timer;
  std::optional<steady::time_point> deadline;
  bool watching = false;
  bool timed_out = false;
  bool closed = false;
  std::string peer = "(not connected)";
  std::string failure;

  void close() {
    if (closed) return;
    closed = true;
    boost::system::error_code ec;
    timer.cancel();
    resolver.cancel();
    socket.close(ec);
  }
  // Records why an operation failed: the deadline, our own close, or the error.
  void fail(const std::string& what, const boost::system::error_code& ec) {
    if (timed_out)
      failure = "timed out " + what;
    else if (closed)
      failure = "closed while " + what;
    else
      failure = what + ": " + ec.message();
    close();
  }
};

awaitable<void> outbound_connection::watchdog(std::shared_ptr<state> s) {
  while (!s->closed && s->deadline) {
    if (*s->deadline <= steady::now()) {
      s->timed_out = true;
      s->close();
      co_return;
    }
    s->timer.expires_at(*s->deadline);
    boost::system::error_code ec;
    co_await s->timer.async_wait(asio::redirect_error(use_awaitable, ec));
  }
}

outbound_connection::outbound_connection(asio::any_io_executor executor)
    : state_(std::make_shared<state>(std::move(executor))) {}

outbound_connection::~outbound_connection() {
  state_->close();
}

void outbound_connection::set_deadline(steady::time_point deadline) {
  auto& s = *state_;
  s.deadline = deadline;
  if (s.closed) return;
  if (!s.watching) {
    s.watching = true;
    asio::co_spawn(s.socket.get_executor(), watchdog(state_), asio::detached);
  } else {
    s.timer.cancel();  // re-arm for the new deadline
  }
}

awaitable<bool> outbound_connection::connect(std::string host, unsigned short port) {
  auto s = state_;
  const std::string port_text = std::to_string(port);
  s->peer = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port_text;
  if (s->closed) {
    s->fail("connecting to " + s->peer, {});
    co_return false;
  }
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (!ec) {
    co_await s->socket.async_connect(tcp::endpoint(address, port), asio::redirect_error(use_awaitable, ec));
  } else {
    ec.clear();
    const auto endpoints = co_await s->resolver.async_resolve(host, port_text, asio::redirect_error(use_awaitable, ec));
    if (ec) {
      s->fail(s->timed_out || s->closed ? "resolving '" + host + "'" : "cannot resolve '" + host + "'", ec);
      co_return false;
    }
    co_await asio::async_connect(s->socket, endpoints, asio::redirect_error(use_awaitable, ec));
  }
  if (ec || s->closed) {
    s->fail(s->timed_out || s->closed ? "connecting to " + s->peer : "cannot connect to " + s->peer, ec);
    co_return false;
  }
  s->socket.set_option(tcp::no_delay(true), ec);
  co_return true;
}

awaitable<bool> outbound_connection::write(byte_view data) {
  auto s = state_;
  boost::system::error_code ec;
  if (!s->closed)
    co_await asio::async_write(s->socket, asio::buffer(data.data(), data.size()),
                               asio::redirect_error(use_awaitable, ec));
  if (ec || s->closed) {
    s->fail(s->timed_out || s->closed ? "sending to " + s->peer : "sending to " + s->peer + " failed", ec);
    co_return false;
  }
  co_return true;
}

awaitable<std::size_t> outbound_connection::read_some(std::span<std::byte> buffer) {
  auto s = state_;
  boost::system::error_code ec;
  std::size_t n = 0;
  if (!s->closed)
    n = co_await s->socket.async_read_some(asio::buffer(buffer.data(), buffer.size()),
                                           asio::redirect_error(use_awaitable, ec));
  if (ec == asio::error::eof && !s->closed) co_return 0;
  if (ec || s->closed) {
    s->fail(s->timed_out || s->closed ? "waiting for " + s->peer : "reading from " + s->peer + " failed", ec);
    co_return 0;
  }
  co_return n;
}

void outbound_connection::close() {
  state_->close();
}
bool outbound_connection::timed_out() const noexcept {
  return state_->timed_out;
}
const std::string& outbound_connection::failure() const noexcept {
  return state_->failure;
}

}  // namespace netlib::io
