// lab-throughput serve | measure: a bounded TCP bulk transfer. The client asks for N bytes with
// netlib::calc's 12-byte bulk request; the server sends exactly N bytes and closes; the client
// times them (goodput = 8N / time from request to last byte) and keeps a per-interval series.
// Two clocks, each stated in the output: connect_s and first_byte_s count from the start of the
// connection attempt (so first_byte_s >= connect_s: the handshake, the request, the first data);
// duration_s and the series count from the request, sent as soon as the connection is up.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/bulk_request.hpp"
#include "netlib/core/units.hpp"
#include "netlib/io/tcp_client.hpp"
#include "netlib/io/tcp_server.hpp"

namespace netlab::lab_throughput {
namespace {

namespace io = netlib::io;
using steady = std::chrono::steady_clock;
constexpr std::size_t chunk_size = 64 * 1024;
constexpr std::size_t max_series = 10000;

double seconds(steady::duration d) {
  return std::chrono::duration<double>(d).count();
}

struct serve_flags {
  netlib::app::host_port listen;
  double max_bytes = 10e9;
  bool json = false;
};

io::awaitable<void> serve_one(io::connection& c, std::uint64_t max_bytes, bool json) {
  netlib::input_buffer buffer;
  std::array<std::byte, 64> in{};
  netlib::calc::bulk_parse request;
  while (request.status == netlib::calc::bulk_status::need_more) {
    const std::size_t n = co_await c.read_some(in);
    if (n == 0) co_return;
    buffer.append(netlib::byte_view(in.data(), n));
    request = netlib::calc::parse_bulk_request(buffer.data(), max_bytes);
  }
  if (request.status != netlib::calc::bulk_status::ok) co_return;  // not our protocol, or too much
  const auto start = steady::now();
  std::vector<std::byte> chunk(chunk_size);
  for (std::size_t i = 0; i < chunk.size(); ++i) chunk[i] = std::byte(static_cast<unsigned char>('a' + i % 26));
  std::uint64_t left = request.bytes;
  while (left > 0) {
    const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
    if (!co_await c.write(netlib::byte_view(chunk.data(), k))) co_return;
    left -= k;
  }
  const double took = seconds(steady::now() - start);
  if (json)
    std::cout << netlib::app::tidy_numbers(
                     {{"client", io::to_string(c.remote_endpoint())}, {"bytes", request.bytes}, {"send_s", took}})
                     .dump()
              << std::endl;
  else
    std::cout << fmt::format("sent {} to {} in {}", netlib::units::format_bytes(double(request.bytes)),
                             io::to_string(c.remote_endpoint()), netlib::units::format_seconds(took))
              << std::endl;
  c.shutdown_send();
  while (co_await c.read_some(in) > 0) {
  }
}

int run_serve(const serve_flags& f) {
  const auto max = static_cast<std::uint64_t>(f.max_bytes);
  const bool json = f.json;
  io::server_options options;
  options.host = f.listen.host;
  options.port = f.listen.port;
  options.max_connections = 64;
  options.idle_timeout = std::chrono::seconds(30);
  // --json-lines: stdout carries only the JSON lines, so the readiness line goes to stderr.
  options.print_listening = !json;
  io::tcp_server server(options, [max, json](io::connection& c) { return serve_one(c, max, json); });
  if (json) std::cerr << "listening on " << io::to_string(server.local_endpoint()) << std::endl;
  server.run();
  return netlib::app::exit_ok;
}

struct measure_flags {
  std::string server;
  double bytes = 100e6, interval = 0.1, timeout = 10;
  bool json = false;
};

// One bucket of the series: the bytes that arrived in [t_s - width_s, t_s), t_s counted from the
// request. Every bucket is one --interval wide except the last, which ends with the last byte and
// is usually shorter (or longer, when the series reached max_series buckets).
struct sample {
  double t_s;
  double width_s;
  std::uint64_t bytes;
};

struct transfer_result {
  std::uint64_t want = 0, got = 0;
  double connect_s = 0;     // start of the connection attempt -> connected (the TCP handshake)
  double first_byte_s = 0;  // start of the connection attempt -> first byte of data (>= connect_s)
  double duration_s = 0;    // request sent (right after connecting) -> last byte: goodput's time
  double goodput_bps = 0;
  std::vector<sample> series;
};

// Asks for f.bytes and reads until the server closes; the series buckets bytes by arrival time.
transfer_result transfer(const measure_flags& f, const netlib::app::host_port& hp) {
  transfer_result r;
  r.want = static_cast<std::uint64_t>(f.bytes);
  io::tcp_client client(std::chrono::milliseconds(static_cast<long long>(f.timeout * 1000)));
  const auto t0 = steady::now();
  client.connect(hp.host, hp.port);
  const auto t_connected = steady::now();
  const auto request = netlib::calc::serialize_bulk_request(r.want);
  client.write(netlib::byte_view(request.data(), request.size()));
  std::vector<std::byte> buffer(256 * 1024);
  steady::time_point t_first{}, t_last = t_connected;
  const bool progress = !f.json && netlib::app::stderr_is_terminal();
  while (r.got <= r.want) {
    const std::size_t n = client.read_some(buffer);
    if (n == 0) break;
    const auto now = steady::now();
    if (r.got == 0) t_first = now;
    r.got += n;
    t_last = now;
    const auto bucket =
        std::min<std::size_t>(static_cast<std::size_t>(seconds(now - t_connected) / f.interval), max_series - 1);
    while (r.series.size() <= bucket) r.series.push_back({double(r.series.size() + 1) * f.interval, f.interval, 0});
    if (progress && r.series[bucket].bytes == 0)  // once per bucket
      std::cerr << fmt::format("\rreceived {} of {}", netlib::units::format_bytes(double(r.got)),
                               netlib::units::format_bytes(double(r.want)))
                << std::flush;
    r.series[bucket].bytes += n;
  }
  if (progress) std::cerr << '\n';
  if (r.got != r.want)
    throw netlib::app::failure(fmt::format("the transfer ended after {} of {} bytes", r.got, r.want));
  r.connect_s = seconds(t_connected - t0);
  r.first_byte_s = seconds(t_first - t0);
  r.duration_s = seconds(t_last - t_connected);
  r.goodput_bps = r.duration_s > 0 ? 8.0 * double(r.got) / r.duration_s : 0;
  // The last bucket ends with the last byte: its real width, not a whole interval.
  if (!r.series.empty()) {
    auto& last = r.series.back();
    const double start = last.t_s - last.width_s;
    if (r.duration_s > start) {
      last.width_s = r.duration_s - start;
      last.t_s = r.duration_s;
    }
  }
  return r;
}

void print_transfer(const measure_flags& f, const transfer_result& r) {
  if (f.json) {
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : r.series)
      points.push_back({{"t_s", p.t_s},
                        {"width_s", p.width_s},
                        {"bytes", p.bytes},
                        {"goodput_bps", 8.0 * double(p.bytes) / p.width_s}});
    netlib::app::print_json({{"server", f.server},
                             {"bytes_requested", r.want},
                             {"bytes_received", r.got},
                             {"connect_s", r.connect_s},
                             {"first_byte_s", r.first_byte_s},
                             {"duration_s", r.duration_s},
                             {"goodput_bps", r.goodput_bps},
                             {"interval_s", f.interval},
                             {"series", points}});
    return;
  }
  std::cout << fmt::format(
      "connected to {} in {}, first byte after {} (both from the start of the connection)\n"
      "received {} in {} (from the request to the last byte): goodput {}\n",
      f.server, netlib::units::format_seconds(r.connect_s), netlib::units::format_seconds(r.first_byte_s),
      netlib::units::format_bytes(double(r.got)), netlib::units::format_seconds(r.duration_s),
      netlib::units::format_bps(r.goodput_bps));
  std::cout << fmt::format("time series (every {}, each row ending at the time shown after the request):\n",
                           netlib::units::format_seconds(f.interval));
  for (const auto& p : r.series) {
    const bool whole = std::abs(p.width_s - f.interval) <= 1e-9 * f.interval;
    std::cout << fmt::format(
        "  {:>8.3f} s  {:>10}  {}{}\n", p.t_s, netlib::units::format_bytes(double(p.bytes)),
        netlib::units::format_bps(8.0 * double(p.bytes) / p.width_s),
        whole ? "" : fmt::format("  (the last {}, to the last byte)", netlib::units::format_seconds(p.width_s)));
  }
  std::cout.flush();
}

int run_measure(const measure_flags& f) {
  const auto hp = netlib::app::parse_host_port(f.server);
  if (hp.port == 0) throw netlib::app::usage_error("--server needs HOST:PORT with a port");
  if (static_cast<std::uint64_t>(f.bytes) == 0) throw netlib::app::usage_error("--bytes must be at least 1B");
  print_transfer(f, transfer(f, hp));
  return netlib::app::exit_ok;
}

}  // namespace

void add_live_commands(CLI::App& app) {
  auto s = std::make_shared<serve_flags>();
  auto* serve = netlib::app::add_command(app, "serve", "Bulk transfer server: sends each client the bytes it asks for",
                                         "lab-throughput serve --listen 127.0.0.1:0");
  netlib::app::add_listen_option(*serve, s->listen);
  netlib::app::add_quantity(*serve, "--max-bytes", s->max_bytes, netlib::units::parse_bytes,
                            "Largest transfer a client may ask for (default 10GB)");
  serve->add_flag("--json-lines", s->json,
                  "One JSON object per transfer on stdout (client, bytes, send_s); the listening line goes to stderr");
  netlib::app::set_action(*serve, [s] { return run_serve(*s); });

  auto m = std::make_shared<measure_flags>();
  auto* measure =
      netlib::app::add_command(app, "measure", "Download N bytes from a serve instance: goodput and time series",
                               "lab-throughput measure --server 127.0.0.1:9000 --bytes 100MB");
  measure->add_option("--server", m->server, "Server HOST:PORT")->required();
  netlib::app::add_quantity(*measure, "--bytes", m->bytes, netlib::units::parse_bytes,
                            "Bytes to transfer (default 100MB)");
  netlib::app::add_quantity(*measure, "--interval", m->interval, netlib::units::parse_duration_s,
                            "Width of each time-series bucket (default 100ms)");
  netlib::app::add_quantity(*measure, "--timeout", m->timeout, netlib::units::parse_duration_s,
                            "Give up when nothing arrives for this long (default 10s)");
  netlib::app::add_json_flag(*measure, m->json);
  netlib::app::set_action(*measure, [m] {
    if (m->interval < 0.001) throw netlib::app::usage_error("--interval must be at least 1ms");
    if (m->timeout <= 0) throw netlib::app::usage_error("--timeout must be positive");
    return run_measure(*m);
  });
}

}  // namespace netlab::lab_throughput
