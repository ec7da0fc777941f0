// Runner benchmark: request/response round trips per second through tcp_server with the line-echo
// core, for each thread model, with the same load generator in the same run. Prints a table and
// one JSON line per configuration. Bounded: a fixed number of clients and round trips.
#include <chrono>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "netlib/io/tcp_server.hpp"
#include "support/echo_driver.hpp"

namespace {

using namespace netlib::io;

struct result {
  std::string name;
  double round_trips_per_s;
};

// `clients` connections, each doing `rounds` one-line round trips, on `load_threads` threads.
double load(unsigned short port, int clients, int rounds, unsigned load_threads) {
  asio::io_context ctx;
  std::atomic<int> done{0};
  for (int i = 0; i < clients; ++i) {
    asio::co_spawn(
        ctx,
        [&, port]() -> awaitable<void> {
          tcp::socket sock(ctx);
          co_await sock.async_connect({asio::ip::make_address("127.0.0.1"), port}, use_awaitable);
          sock.set_option(tcp::no_delay(true));
          std::string hello(7, '\0');
          co_await asio::async_read(sock, asio::buffer(hello), use_awaitable);
          const std::string line = "ping 0123456789\r\n", reply = "echo: ping 0123456789\r\n";
          std::string got(reply.size(), '\0');
          for (int r = 0; r < rounds; ++r) {
            co_await asio::async_write(sock, asio::buffer(line), use_awaitable);
            co_await asio::async_read(sock, asio::buffer(got), use_awaitable);
          }
          ++done;
        },
        asio::detached);
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < load_threads; ++t) pool.emplace_back([&] { ctx.run_for(std::chrono::seconds(60)); });
  ctx.run_for(std::chrono::seconds(60));
  for (auto& t : pool) t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (done != clients) throw std::runtime_error("load did not finish within 60 s");
  return clients * static_cast<double>(rounds) / seconds;
}

result measure(const std::string& name, server_options options, int clients, int rounds) {
  options.print_listening = false;
  options.handle_signals = false;
  tcp_server server(options, netlab::test::echo_driver);
  std::thread t([&] { server.run(); });
  const double rate = load(server.local_endpoint().port(), clients, rounds, 1);
  server.stop();
  t.join();
  return {name, rate};
}

}  // namespace

int main(int argc, char** argv) {
  const int clients = argc > 1 ? std::atoi(argv[1]) : 100;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2000;
  std::vector<result> results;
  results.push_back(measure("1 thread", {.threads = 1}, clients, rounds));
  results.push_back(measure("2 threads, context per thread", {.threads = 2, .model = thread_model::context_per_thread},
                            clients, rounds));
  results.push_back(
      measure("2 threads, shared pool", {.threads = 2, .model = thread_model::shared_pool}, clients, rounds));
  std::cout << fmt::format("runner: {} clients x {} round trips (line echo), one load thread\n", clients, rounds);
  for (const auto& r : results)
    std::cout << fmt::format("  {:<32} {:>10.0f} round trips/s  ({:.2f} x 1 thread)\n", r.name, r.round_trips_per_s,
                             r.round_trips_per_s / results.front().round_trips_per_s);
  for (const auto& r : results)
    std::cout << fmt::format("{{\"bench\":\"runner\",\"config\":\"{}\",\"round_trips_per_s\":{:.0f}}}\n", r.name,
                             r.round_trips_per_s);
}
