// The live runners over real sockets on 127.0.0.1 port 0, driving the line-echo test core.
#include <gtest/gtest.h>

#include <array>
#include <csignal>
#include <thread>

#include "netlib/core/bytes.hpp"
#include "netlib/io/tcp_client.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/io/tls.hpp"
#include "support/echo_driver.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/threaded_server.hpp"

namespace {

using namespace netlib::io;
using namespace std::chrono_literals;

using netlab::test::echo_driver;

using netlab::test::quiet;
using netlab::test::read_line;

// The echo server on a background thread (support/threaded_server.hpp).
struct running_server : netlab::test::threaded_server {
  explicit running_server(server_options o) : threaded_server(std::move(o), echo_driver) {}
};

// Polls a condition the test cannot wait for otherwise (server-side bookkeeping), bounded.
template <class F>
bool eventually(F condition, std::chrono::milliseconds limit = 5s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::yield();
  }
  return condition();
}

TEST(Runner, echoes_lines_and_quits) {
  running_server s(quiet());
  tcp_client c;
  c.connect("127.0.0.1", s.port());
  std::string pending;
  EXPECT_EQ(read_line(c, pending), "hello");
  c.write("one\r\n");
  EXPECT_EQ(read_line(c, pending), "echo: one");
  c.write("QUIT\r\n");
  EXPECT_EQ(read_line(c, pending), "221 bye");
  EXPECT_EQ(read_line(c, pending), "<eof>");
}

TEST(Runner, answers_pipelined_lines_in_order) {
  running_server s(quiet());
  tcp_client c;
  c.connect("127.0.0.1", s.port());
  std::string pending;
  ASSERT_EQ(read_line(c, pending), "hello");
  std::string batch;
  for (int i = 0; i < 100; ++i) batch += "line " + std::to_string(i) + "\r\n";
  c.write(batch);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(read_line(c, pending), "echo: line " + std::to_string(i));
}

TEST(Runner, serves_200_concurrent_clients) {
  for (auto [threads, model] : {std::pair{1u, thread_model::context_per_thread},
                                {2u, thread_model::context_per_thread},
                                {2u, thread_model::shared_pool}}) {
    running_server s(quiet({.threads = threads, .model = model}));
    // 200 clients on one io_context, each sending 10 lines and checking every echo.
    asio::io_context ctx;
    std::atomic<int> good{0};
    for (int i = 0; i < 200; ++i) {
      asio::co_spawn(
          ctx,
          [&, i]() -> awaitable<void> {
            tcp::socket sock(ctx);
            co_await sock.async_connect({asio::ip::make_address("127.0.0.1"), s.port()}, use_awaitable);
            std::string expected = "hello\r\n", sent;
            for (int k = 0; k < 10; ++k) {
              sent += "c" + std::to_string(i) + " m" + std::to_string(k) + "\r\n";
              expected += "echo: c" + std::to_string(i) + " m" + std::to_string(k) + "\r\n";
            }
            co_await asio::async_write(sock, asio::buffer(sent), use_awaitable);
            std::string got(expected.size(), '\0');
            co_await asio::async_read(sock, asio::buffer(got), use_awaitable);
            if (got == expected) ++good;
          },
          asio::detached);
    }
    ctx.run_for(30s);
    EXPECT_EQ(good.load(), 200) << "threads=" << threads;
    EXPECT_TRUE(eventually([&] { return s.server.active_connections() == 0; }));
  }
}

// connection::write hands a reply to the kernel at once and writes what it did not take the
// asynchronous way. With a 4 KiB send buffer the kernel takes only part of each write: the rest
// must follow, in order, whether the cut falls in the first part or in the second.
TEST(Runner, writes_what_the_kernel_did_not_take_at_once_in_order) {
  const auto pattern = [](char seed, std::size_t n) {
    std::string s(n, '\0');
    for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i % 23);
    return s;
  };
  const std::string a = pattern('a', 100), b = pattern('A', 256 << 10), c = pattern('0', 128 << 10),
                    d = pattern('!', 7);
  std::atomic<int> results{0};
  tcp_server server(quiet(), [&](connection& conn) -> awaitable<void> {
    conn.socket().set_option(asio::socket_base::send_buffer_size(4096));
    const bool first = co_await conn.write(netlib::as_bytes(a), netlib::as_bytes(b));   // cut in the second part
    const bool second = co_await conn.write(netlib::as_bytes(c), netlib::as_bytes(d));  // cut in the first part
    const bool third = co_await conn.write(netlib::as_bytes(std::string_view("end")));
    results = (first ? 1 : 0) + (second ? 2 : 0) + (third ? 4 : 0);
    conn.close();
  });
  std::thread runner([&] { server.run(); });
  tcp_client client;
  client.connect("127.0.0.1", server.local_endpoint().port());
  std::string got;
  std::array<std::byte, 65536> buf{};
  for (int i = 0; i < 100000; ++i) {  // bounded: each round reads at least one byte or ends
    const std::size_t n = client.read_some(buf);
    if (n == 0) break;
    got.append(reinterpret_cast<const char*>(buf.data()), n);
  }
  server.stop();
  runner.join();
  EXPECT_EQ(results.load(), 7);
  ASSERT_EQ(got.size(), a.size() + b.size() + c.size() + d.size() + 3);
  EXPECT_TRUE(got == a + b + c + d + "end");
}

TEST(Runner, survives_a_client_that_disconnects_mid_line) {
  running_server s(quiet());
  {
    tcp_client c;
    c.connect("127.0.0.1", s.port());
    c.write("half a li");
  }
  EXPECT_TRUE(eventually([&] { return s.server.active_connections() == 0; }));
  tcp_client c2;
  c2.connect("127.0.0.1", s.port());
  std::string pending;
  EXPECT_EQ(read_line(c2, pending), "hello");
  c2.write("still fine\r\n");
  EXPECT_EQ(read_line(c2, pending), "echo: still fine");
}

TEST(Runner, closes_an_idle_client_at_the_timeout) {
  running_server s(quiet({.idle_timeout = 300ms}));
  tcp_client c(5s);
  c.connect("127.0.0.1", s.port());
  std::string pending;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(read_line(c, pending), "hello");
  EXPECT_EQ(read_line(c, pending), "<eof>");
  EXPECT_GE(std::chrono::steady_clock::now() - start, 250ms);
}

TEST(Runner, refuses_connections_over_the_cap_with_the_busy_reply) {
  running_server s(quiet({.max_connections = 2, .busy_reply = "421 too many connections\r\n"}));
  tcp_client a, b, c;
  std::string pa, pb, pc;
  a.connect("127.0.0.1", s.port());
  ASSERT_EQ(read_line(a, pa), "hello");
  b.connect("127.0.0.1", s.port());
  ASSERT_EQ(read_line(b, pb), "hello");
  c.connect("127.0.0.1", s.port());
  EXPECT_EQ(read_line(c, pc), "421 too many connections");
  EXPECT_EQ(read_line(c, pc), "<eof>");
}

// A connection's place is free the moment its socket closes, not when its handler has unwound:
// here the handler lingers 1 s after a deadline closed its connection (as a session on a busy
// thread may), and a client that saw its connection end and comes straight back is served, not
// refused as over the cap or over its address's share.
TEST(Runner, a_closed_connection_gives_back_its_place_before_the_peer_sees_the_end) {
  const auto lingering = [](connection& c) -> awaitable<void> {
    co_await c.write("hello\r\n");
    std::array<std::byte, 64> buf{};
    while (co_await c.read_some(buf) > 0) {
    }
    asio::steady_timer linger(c.executor(), 1s);
    boost::system::error_code ec;
    co_await linger.async_wait(asio::redirect_error(use_awaitable, ec));
  };
  netlab::test::threaded_server s(
      quiet({.max_connections = 1, .max_per_address = 1, .idle_timeout = 200ms, .busy_reply = "421 busy\r\n"}),
      lingering);
  tcp_client a, b;
  std::string pa, pb;
  a.connect("127.0.0.1", s.port());
  ASSERT_EQ(read_line(a, pa), "hello");
  ASSERT_EQ(read_line(a, pa), "<eof>");  // the idle deadline closed it
  b.connect("127.0.0.1", s.port());
  EXPECT_EQ(read_line(b, pb), "hello");
  EXPECT_EQ(s.server.active_connections(), 1u);
}

TEST(Runner, sigterm_stops_the_server_and_closes_open_connections) {
  tcp_server server(server_options{.handle_signals = true, .print_listening = false}, echo_driver);
  std::thread t([&] { server.run(); });
  tcp_client a, b;
  std::string pa, pb;
  a.connect("127.0.0.1", server.local_endpoint().port());
  b.connect("127.0.0.1", server.local_endpoint().port());
  ASSERT_EQ(read_line(a, pa), "hello");
  ASSERT_EQ(read_line(b, pb), "hello");
  ::kill(::getpid(), SIGTERM);
  t.join();  // run() returns after the signal
  EXPECT_EQ(read_line(a, pa), "<eof>");
  EXPECT_EQ(read_line(b, pb), "<eof>");
}

TEST(Runner, switches_to_tls_mid_connection_and_discards_pipelined_plaintext) {
  const netlab::test::temp_dir dir("tls");  // removed with the key when the test ends, passed or not
  const auto cert = dir / "cert.pem", key = dir / "key.pem";
  auto made = netlab::test::run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out",
                                 cert, "-subj", "/CN=localhost", "-days", "1"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  running_server s(quiet({.tls = make_server_tls(cert, key)}));
  tcp_client c;
  c.connect("127.0.0.1", s.port());
  std::string pending;
  ASSERT_EQ(read_line(c, pending), "hello");
  c.write("STARTTLS\r\nINJECTED\r\n");  // the injected line must never be answered
  ASSERT_EQ(read_line(c, pending), "220 go ahead");
  ASSERT_TRUE(pending.empty());
  c.start_tls(make_client_tls(false), "localhost");
  EXPECT_TRUE(c.tls_active());
  c.write("secret\r\n");
  EXPECT_EQ(read_line(c, pending), "echo: secret");
}

TEST(Runner, reports_a_port_in_use_clearly) {
  running_server s(quiet());
  try {
    tcp_server second(quiet({.port = s.port()}), echo_driver);
    FAIL() << "bound the same port twice";
  } catch (const io_error& e) {
    EXPECT_NE(std::string(e.what()).find("in use"), std::string::npos) << e.what();
  }
}

TEST(Client, says_what_failed_when_nothing_listens) {
  unsigned short port;
  {
    running_server s(quiet());
    port = s.port();
  }
  tcp_client c(2s);
  try {
    c.connect("127.0.0.1", port);
    FAIL() << "connected to a closed port";
  } catch (const io_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot connect to 127.0.0.1:"), std::string::npos) << e.what();
  }
}

}  // namespace
