// Requests per second of a server against lab-http in the same run (http_throughput.hpp).
#include "http_throughput.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "netlib/http/response_parser.hpp"
#include "netlib/http/status.hpp"

namespace netlab::grade {

namespace {

using clock_type = std::chrono::steady_clock;
constexpr long max_requests_per_round = 2'000'000;  // a bound besides the time

int connect_to(const std::string& host, unsigned short port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  if (::inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) return -1;
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval tv{1, 0};  // no read or connect waits longer than a second
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// One connection's loop until the deadline: a GET, its whole response, the next GET on the same
// connection (a new one when the server closes). Returns the 2xx responses received.
long run_connection(const std::string& host, unsigned short port, const std::string& request,
                    clock_type::time_point deadline, std::atomic<long>& budget) {
  namespace http = netlib::http;
  long answered = 0;
  std::vector<std::byte> buf(64 * 1024);
  while (clock_type::now() < deadline && budget.load(std::memory_order_relaxed) > 0) {
    const int fd = connect_to(host, port);
    if (fd < 0) return answered;
    http::response_parser parser;
    std::vector<std::byte> pending;  // received, not yet consumed by the parser
    bool open = true;
    while (open && clock_type::now() < deadline && budget.fetch_sub(1, std::memory_order_relaxed) > 0) {
      parser.expect("GET");
      if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) break;
      bool complete = false;
      int status = 0;
      while (!complete && open) {
        const auto step = parser.next(netlib::byte_view(pending.data(), pending.size()));
        pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(step.consumed));
        if (std::holds_alternative<http::head_complete>(step.event)) status = parser.head().status;
        if (std::holds_alternative<http::message_complete>(step.event) && !http::is_interim(status)) complete = true;
        if (std::holds_alternative<http::parse_error>(step.event)) open = false;
        if (complete || !open || step.consumed > 0) continue;
        const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);  // the parser needs more
        if (n > 0) {
          pending.insert(pending.end(), buf.begin(), buf.begin() + n);
          continue;
        }
        open = false;  // closed (a body delimited by the close ends here) or timed out
        if (n == 0 && std::holds_alternative<http::message_complete>(parser.receive_eof().event)) complete = true;
      }
      if (complete && status >= 200 && status < 300) ++answered;
      const auto connection = parser.head().fields.combined("connection");
      if (!complete || (connection && connection->find("close") != std::string::npos)) open = false;
    }
    ::close(fd);
  }
  return answered;
}

double requests_per_second(const http_options& t, const throughput_options& o) {
  const std::string request =
      fmt::format("GET {} HTTP/1.1\r\nHost: {}:{}\r\nUser-Agent: netlab-grade\r\n\r\n", t.path, t.host, t.port);
  std::atomic<long> budget{max_requests_per_round};
  const auto start = clock_type::now();
  const auto deadline =
      start + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(o.seconds));
  std::vector<long> counts(static_cast<std::size_t>(o.connections), 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < o.connections; ++i) {
    threads.emplace_back(
        [&, i] { counts[static_cast<std::size_t>(i)] = run_connection(t.host, t.port, request, deadline, budget); });
  }
  for (auto& th : threads) th.join();
  const double elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
  long total = 0;
  for (long c : counts) total += c;
  return elapsed > 0 ? static_cast<double>(total) / elapsed : 0;
}

}  // namespace

void measure_throughput(const http_options& target, const throughput_options& o, suite_result& r) {
  const std::vector<std::string> argv{o.lab_http, "serve", "--root", o.reference_root, "--listen", "127.0.0.1:0"};
  netlib::app::process reference(argv);
  http_options ref = target;
  try {
    const auto where = reference.wait_listening(std::chrono::seconds(10));
    ref.host = where.substr(0, where.rfind(':'));
    ref.port = static_cast<unsigned short>(netlib::app::process::port_of(where));
  } catch (const std::exception& e) {
    throw netlib::app::failure(fmt::format("the reference {} did not start: {}", o.lab_http, e.what()));
  }
  double target_total = 0, reference_total = 0;
  for (int round = 0; round < o.rounds; ++round) {
    reference_total += requests_per_second(ref, o);
    target_total += requests_per_second(target, o);
  }
  const double target_rps = target_total / o.rounds, reference_rps = reference_total / o.rounds;
  const std::string how = fmt::format("keep-alive GET {} on {} connection{}, {} rounds of {:g} s each, alternating",
                                      target.path, o.connections, o.connections == 1 ? "" : "s", o.rounds, o.seconds);
  r.measurements.push_back({"requests_per_s", target_rps, "requests/s", how});
  r.measurements.push_back(
      {"lab_http_requests_per_s", reference_rps, "requests/s", "lab-http serve, the same way in the same run"});
  r.measurements.push_back({"requests_per_s_vs_lab_http", reference_rps > 0 ? target_rps / reference_rps : 0, "ratio",
                            "requests/s divided by lab-http's in the same run (1 = as fast as the reference)", true});
}

}  // namespace netlab::grade
