// netlib::io::outbound_connection over real sockets on 127.0.0.1: one total deadline for the whole
// exchange (a peer trickling bytes does not extend it), close() ending a pending read at once,
// a refused connection, name resolution, end of stream.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "netlib/io/asio.hpp"
#include "netlib/io/outbound_connection.hpp"
#include "netlib/io/tcp_client.hpp"

namespace {

using namespace netlib::io;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

// A peer on the test's io_context: accepts one connection and runs `behaviour` on it.
awaitable<void> serve_one(tcp::acceptor& acceptor, std::function<awaitable<void>(tcp::socket&)> behaviour) {
  boost::system::error_code ec;
  tcp::socket s = co_await acceptor.async_accept(asio::redirect_error(use_awaitable, ec));
  if (!ec) co_await behaviour(s);
}

// Reads until end of stream or failure; returns what was read.
awaitable<std::string> read_all(outbound_connection& c) {
  std::string out;
  std::array<std::byte, 256> buf{};
  for (int i = 0; i < 100000; ++i) {
    const std::size_t n = co_await c.read_some(buf);
    if (n == 0) break;
    out.append(reinterpret_cast<const char*>(buf.data()), n);
  }
  co_return out;
}

struct fixture {
  asio::io_context ctx;
  tcp::acceptor acceptor{ctx, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
  unsigned short port() const { return acceptor.local_endpoint().port(); }
  // Runs the context until the work is done, at most `limit`.
  void run(std::chrono::milliseconds limit = 10s) { ctx.run_for(limit); }
};

TEST(OutboundConnection, TotalDeadlineIsNotExtendedByATricklingPeer) {
  fixture f;
  asio::co_spawn(f.ctx,
                 serve_one(f.acceptor,
                           [](tcp::socket& s) -> awaitable<void> {
                             asio::steady_timer t(s.get_executor());
                             boost::system::error_code ec;
                             for (int i = 0; i < 100; ++i) {  // one byte every 50 ms, for 5 s at most
                               co_await asio::async_write(s, asio::buffer("x", 1),
                                                          asio::redirect_error(use_awaitable, ec));
                               if (ec) break;  // the client has gone
                               t.expires_after(50ms);
                               co_await t.async_wait(asio::redirect_error(use_awaitable, ec));
                             }
                           }),
                 asio::detached);
  outbound_connection c(f.ctx.get_executor());
  std::optional<std::string> got;
  bool connected = false;
  const auto start = steady::now();
  // Named: a coroutine lambda's captures live in the closure, which must outlive the run.
  auto client = [&]() -> awaitable<void> {
    c.set_deadline(steady::now() + 500ms);
    connected = co_await c.connect("127.0.0.1", f.port());
    if (connected) got = co_await read_all(c);
  };
  asio::co_spawn(f.ctx, client(), asio::detached);
  f.run();
  const double seconds = std::chrono::duration<double>(steady::now() - start).count();
  ASSERT_TRUE(connected) << c.failure();
  ASSERT_TRUE(got);
  EXPECT_GT(got->size(), 2u);  // bytes kept arriving ...
  EXPECT_TRUE(c.timed_out());  // ... and the deadline still ended it
  EXPECT_EQ(c.failure().rfind("timed out waiting for 127.0.0.1:", 0), 0u) << c.failure();
  EXPECT_GE(seconds, 0.45);
  EXPECT_LT(seconds, 4.0);
}

TEST(OutboundConnection, CloseEndsAPendingReadAtOnce) {
  fixture f;
  asio::co_spawn(f.ctx,
                 serve_one(f.acceptor,
                           [](tcp::socket& s) -> awaitable<void> {
                             std::array<char, 16> buf{};
                             boost::system::error_code ec;
                             co_await s.async_read_some(asio::buffer(buf),
                                                        asio::redirect_error(use_awaitable, ec));  // silent until we go
                           }),
                 asio::detached);
  outbound_connection c(f.ctx.get_executor());
  std::size_t n = 99;
  // Named: a coroutine lambda's captures live in the closure, which must outlive the run.
  auto client = [&]() -> awaitable<void> {
    c.set_deadline(steady::now() + 30s);
    if (!co_await c.connect("127.0.0.1", f.port())) co_return;
    std::array<std::byte, 16> buf{};
    n = co_await c.read_some(buf);
  };
  asio::co_spawn(f.ctx, client(), asio::detached);
  asio::steady_timer later(f.ctx, 100ms);
  later.async_wait([&](auto) { c.close(); });  // the proxy's client left
  const auto start = steady::now();
  f.run();
  EXPECT_EQ(n, 0u);
  EXPECT_FALSE(c.timed_out());
  EXPECT_EQ(c.failure().rfind("closed while waiting for 127.0.0.1:", 0), 0u) << c.failure();
  EXPECT_LT(std::chrono::duration<double>(steady::now() - start).count(), 5.0);
}

TEST(OutboundConnection, RefusedConnectionIsAOneLineFailure) {
  unsigned short closed_port = 0;
  {
    tcp_listener l("127.0.0.1", 0);
    closed_port = l.local_endpoint().port();
  }
  asio::io_context ctx;
  outbound_connection c(ctx.get_executor());
  bool ok = true;
  // Named: a coroutine lambda's captures live in the closure, which must outlive the run.
  auto client = [&]() -> awaitable<void> {
    c.set_deadline(steady::now() + 5s);
    ok = co_await c.connect("127.0.0.1", closed_port);
  };
  asio::co_spawn(ctx, client(), asio::detached);
  ctx.run_for(10s);
  EXPECT_FALSE(ok);
  EXPECT_FALSE(c.timed_out());
  EXPECT_EQ(c.failure(), "cannot connect to 127.0.0.1:" + std::to_string(closed_port) + ": Connection refused");
}

TEST(OutboundConnection, NamesAreResolvedAndEndOfStreamIsNoFailure) {
  fixture f;
  asio::co_spawn(f.ctx,
                 serve_one(f.acceptor,
                           [](tcp::socket& s) -> awaitable<void> {
                             std::array<char, 64> buf{};
                             boost::system::error_code ec;
                             const std::size_t n =
                                 co_await s.async_read_some(asio::buffer(buf), asio::redirect_error(use_awaitable, ec));
                             co_await asio::async_write(s, asio::buffer(buf.data(), n),
                                                        asio::redirect_error(use_awaitable, ec));
                             s.shutdown(tcp::socket::shutdown_send, ec);
                           }),
                 asio::detached);
  outbound_connection c(f.ctx.get_executor());
  std::optional<std::string> got;
  // Named: a coroutine lambda's captures live in the closure, which must outlive the run.
  auto client = [&]() -> awaitable<void> {
    c.set_deadline(steady::now() + 5s);
    if (!co_await c.connect("localhost", f.port())) co_return;
    if (!co_await c.write(netlib::as_bytes("ping"))) co_return;
    got = co_await read_all(c);
    c.close();  // done: the deadline's watchdog ends too
  };
  asio::co_spawn(f.ctx, client(), asio::detached);
  f.run();
  ASSERT_TRUE(got) << c.failure();
  EXPECT_EQ(*got, "ping");
  EXPECT_EQ(c.failure(), "");
  EXPECT_FALSE(c.timed_out());
}

}  // namespace
