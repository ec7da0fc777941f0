// lab-delay echo | ping: the textbook's UDP pinger and an echo server that can drop and delay
// datagrams on purpose. Both are thin loops over netlib::io::udp_socket; the echo server decides
// loss with a seeded netlib::calc::prng, one draw per datagram received, so a run is repeatable.
#include <fmt/format.h>

#include <chrono>
#include <deque>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/prng.hpp"
#include "netlib/core/stop_signals.hpp"
#include "netlib/core/units.hpp"
#include "netlib/io/udp_socket.hpp"
#include "ping_stats.hpp"

namespace netlab::lab_delay {
namespace {

using steady = std::chrono::steady_clock;
using std::chrono::milliseconds;
namespace io = netlib::io;

constexpr std::size_t max_datagram = 65536;
constexpr std::size_t max_pending = 10000;

milliseconds until(steady::time_point t, milliseconds cap) {
  const auto left = std::chrono::ceil<milliseconds>(t - steady::now());
  return std::clamp(left, milliseconds(1), cap);
}

struct echo_flags {
  netlib::app::host_port listen;
  double loss = 0, delay = 0;
  std::uint64_t seed = 1;
  bool json = false;
};

struct pending_reply {
  steady::time_point due;
  std::vector<std::byte> data;
  io::udp::endpoint to;
};

int run_echo(const echo_flags& f) {
  io::udp_socket socket(f.listen.host, f.listen.port);
  netlib::catch_stop_signals();
  // With --json, stdout holds only the one JSON document: the readiness line goes to stderr.
  (f.json ? std::cerr : std::cout) << "listening on " << io::to_string(socket.local_endpoint()) << std::endl;
  netlib::calc::prng g(f.seed);
  const auto delay = std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(f.delay));
  std::deque<pending_reply> pending;
  std::vector<std::byte> buffer(max_datagram);
  long long received = 0, dropped = 0, echoed = 0;
  while (!netlib::stop_requested()) {
    while (!pending.empty() && pending.front().due <= steady::now()) {
      socket.send_to(pending.front().data, pending.front().to);
      ++echoed;
      pending.pop_front();
    }
    const auto wait = pending.empty() ? milliseconds(200) : until(pending.front().due, milliseconds(200));
    const auto d = socket.receive_from(buffer, wait);
    if (!d) continue;
    ++received;
    if (g.chance(f.loss) || pending.size() >= max_pending) {
      ++dropped;
      continue;
    }
    std::vector<std::byte> data(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(d->size));
    if (f.delay <= 0) {
      socket.send_to(data, d->from);
      ++echoed;
    } else {
      pending.push_back({steady::now() + delay, std::move(data), d->from});
    }
  }
  if (f.json)
    netlib::app::print_json({{"received", received}, {"dropped", dropped}, {"echoed", echoed}});
  else
    std::cout << fmt::format("received {}, dropped {}, echoed {}", received, dropped, echoed) << std::endl;
  return netlib::app::exit_ok;
}

struct ping_flags {
  std::string server;
  long long count = 10;
  double timeout = 1, interval = 0;
  bool json = false;
};

// One probe: its RTT, or nullopt at the timeout. Datagrams that are not its reply are counted.
std::optional<double> probe(io::udp_socket& socket, const io::udp::endpoint& server, long long seq, double timeout,
                            long long& strays) {
  const auto t0 = steady::now();
  const std::string payload = fmt::format("PING {} {}\n", seq, t0.time_since_epoch().count());
  socket.send_to(netlib::as_bytes(payload), server);
  const auto deadline = t0 + std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(timeout));
  std::vector<std::byte> buffer(max_datagram);
  while (steady::now() < deadline) {
    const auto d = socket.receive_from(buffer, until(deadline, milliseconds(1000)));
    if (!d) continue;
    const auto t1 = steady::now();
    if (d->from == server && d->size == payload.size() &&
        std::equal(payload.begin(), payload.end(), buffer.begin(),
                   [](char c, std::byte b) { return std::byte(c) == b; }))
      return std::chrono::duration<double>(t1 - t0).count();
    ++strays;  // a late reply to an earlier probe, or someone else's datagram
  }
  return std::nullopt;
}

int run_ping(const ping_flags& f) {
  const auto hp = netlib::app::parse_host_port(f.server);
  if (hp.port == 0) throw netlib::app::usage_error("--server needs HOST:PORT with a port");
  const auto server = io::udp_socket::resolve(hp.host, hp.port);
  io::udp_socket socket(server.address().is_v6() ? "::" : "0.0.0.0", 0);
  std::vector<std::optional<double>> rtts;
  long long strays = 0;
  for (long long seq = 1; seq <= f.count; ++seq) {
    const auto start = steady::now();
    const auto rtt = probe(socket, server, seq, f.timeout, strays);
    rtts.push_back(rtt);
    if (!f.json)
      std::cout << (rtt ? fmt::format("reply from {}: seq={} rtt={:.3f} ms\n", io::to_string(server), seq, *rtt * 1e3)
                        : fmt::format("seq={} timed out after {}\n", seq, netlib::units::format_seconds(f.timeout)))
                << std::flush;
    // Wait out the interval while still collecting (late) datagrams: no sleeping.
    const auto next = start + std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(f.interval));
    std::vector<std::byte> buffer(max_datagram);
    while (seq < f.count && steady::now() < next)
      if (socket.receive_from(buffer, until(next, milliseconds(1000)))) ++strays;
  }
  const auto s = summarise_rtts(rtts);
  if (f.json) {
    nlohmann::json probes = nlohmann::json::array();
    for (std::size_t i = 0; i < rtts.size(); ++i)
      probes.push_back({{"seq", i + 1}, {"rtt_s", rtts[i] ? nlohmann::json(*rtts[i]) : nlohmann::json(nullptr)}});
    netlib::app::print_json({{"server", io::to_string(server)},
                             {"sent", s.sent},
                             {"received", s.received},
                             {"lost", s.sent - s.received},
                             {"loss_rate", s.loss_rate()},
                             {"rtt_min_s", s.min_s},
                             {"rtt_avg_s", s.avg_s},
                             {"rtt_max_s", s.max_s},
                             {"rtt_mdev_s", s.mdev_s},
                             {"late_or_stray", strays},
                             {"timeout_s", f.timeout},
                             {"probes", probes}});
  } else {
    std::cout << fmt::format("--- {} ping statistics ---\n{} sent, {} received, {:.1f}% loss", io::to_string(server),
                             s.sent, s.received, 100 * s.loss_rate());
    if (s.received)
      std::cout << fmt::format("\nrtt min/avg/max/mdev = {:.3f}/{:.3f}/{:.3f}/{:.3f} ms", s.min_s * 1e3, s.avg_s * 1e3,
                               s.max_s * 1e3, s.mdev_s * 1e3);
    std::cout << std::endl;
  }
  if (s.received == 0)
    throw netlib::app::failure("no replies from " + io::to_string(server) + " (is the echo server running?)");
  return netlib::app::exit_ok;
}

}  // namespace

void add_live_commands(CLI::App& app) {
  auto e = std::make_shared<echo_flags>();
  auto* echo = netlib::app::add_command(app, "echo", "UDP echo server that can drop and delay datagrams on purpose",
                                        "lab-delay echo --listen 127.0.0.1:0 --loss 0.2 --delay 10ms --seed 7");
  netlib::app::add_listen_option(*echo, e->listen);
  netlib::app::add_quantity(*echo, "--loss", e->loss, netlib::units::parse_fraction,
                            "Fraction of datagrams dropped (0.2 or 20%)");
  netlib::app::add_quantity(*echo, "--delay", e->delay, netlib::units::parse_duration_s,
                            "Delay before each echo (10ms)");
  echo->add_option("--seed", e->seed, "Seed of the loss decisions, one draw per datagram (default 1)");
  netlib::app::add_json_flag(*echo, e->json);
  netlib::app::set_action(*echo, [e] { return run_echo(*e); });

  auto p = std::make_shared<ping_flags>();
  auto* ping = netlib::app::add_command(app, "ping", "The textbook's UDP pinger: RTT min/avg/max/mdev and loss",
                                        "lab-delay ping --server 127.0.0.1:9000 --count 10 --timeout 1s");
  ping->add_option("--server", p->server, "Echo server HOST:PORT")->required();
  ping->add_option("--count", p->count, "Probes to send (default 10)")->check(CLI::Range(1LL, 1'000'000LL));
  netlib::app::add_quantity(*ping, "--timeout", p->timeout, netlib::units::parse_duration_s,
                            "Wait per probe (default 1s)");
  netlib::app::add_quantity(*ping, "--interval", p->interval, netlib::units::parse_duration_s,
                            "Time from one probe to the next (default 0: as soon as the reply or timeout)");
  netlib::app::add_json_flag(*ping, p->json);
  netlib::app::set_action(*ping, [p] {
    if (p->timeout <= 0 || p->timeout > 60) throw netlib::app::usage_error("--timeout must be between 0 and 60 s");
    if (p->interval > 60) throw netlib::app::usage_error("--interval must be at most 60 s");
    return run_ping(*p);
  });
}

}  // namespace netlab::lab_delay
