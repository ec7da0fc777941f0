// Parser throughput (Google Benchmark): each benchmark feeds a realistic input to one sans-I/O
// core the way a driver does (the unconsumed bytes, drop `consumed`, repeat) and reports bytes/s
// (`bytes_per_second`; tests/bench/run prints it as GB/s) and items/s (messages, lines, frames).
//   bench_parsers [--benchmark_min_time=0.2] [--benchmark_format=json]
// Every loop checks what the parser produced (a count or a byte total), so a parser that stops
// early or fails makes the benchmark abort instead of reporting a flattering figure.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "browser_requests.hpp"
#include "netlib/core/users_table.hpp"
#include "netlib/ftp/command.hpp"
#include "netlib/ftp/reply.hpp"
#include "netlib/http/chunked_decoder.hpp"
#include "netlib/http/request_parser.hpp"
#include "netlib/http/response_parser.hpp"
#include "netlib/mail/mail_store.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "netlib/smtp/server_session.hpp"
#include "netlib/smtp/store_delivery.hpp"

namespace {

using netlib::as_bytes;
using netlib::byte_view;

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "bench_parsers: %s\n", what);
    std::abort();
  }
}

std::string repeat(const std::string& unit, std::size_t min_bytes) {
  std::string out;
  while (out.size() < min_bytes) out += unit;
  return out;
}

// A browser-like GET (about 450 bytes), 64 KiB of them pipelined.
const std::string& request_stream() {
  static const std::string s = repeat(std::string(netlab::bench::firefox_image_get), 64 * 1024);
  return s;
}

void bm_http_request(benchmark::State& state) {
  const auto& input = request_stream();
  std::size_t messages = 0;
  for (auto _ : state) {
    netlib::http::request_parser p;
    byte_view rest = as_bytes(input);
    while (!rest.empty()) {
      const auto step = p.next(rest);
      if (std::holds_alternative<netlib::http::message_complete>(step.event)) ++messages;
      require(!std::holds_alternative<netlib::http::parse_error>(step.event), "request parse error");
      if (step.consumed == 0 && std::holds_alternative<netlib::http::need_more>(step.event)) break;
      rest = rest.subspan(step.consumed);
    }
    require(rest.empty(), "request stream not consumed");
  }
  require(messages > 0, "no request parsed");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(messages));
}

// A response with its headers and a body of `body` bytes (Content-Length), repeated to >= 256 KiB.
std::string response_stream(std::size_t body, std::size_t& count) {
  const std::string one =
      "HTTP/1.1 200 OK\r\n"
      "Date: Mon, 30 Nov 2026 12:00:00 GMT\r\n"
      "Server: netlab-http\r\n"
      "Last-Modified: Sun, 29 Nov 2026 08:00:00 GMT\r\n"
      "ETag: \"5f3e-1a2b3c4d\"\r\n"
      "Content-Type: text/html; charset=utf-8\r\n"
      "Cache-Control: max-age=3600\r\n"
      "Content-Length: " +
      std::to_string(body) + "\r\n\r\n" + std::string(body, 'x');
  std::string s = repeat(one, 256 * 1024);
  count = s.size() / one.size();
  return s;
}

void bm_http_response(benchmark::State& state) {
  std::size_t count = 0;
  const std::string input = response_stream(static_cast<std::size_t>(state.range(0)), count);
  std::size_t messages = 0;
  for (auto _ : state) {
    netlib::http::response_parser p;
    for (std::size_t i = 0; i < count; ++i) p.expect("GET");
    byte_view rest = as_bytes(input);
    std::size_t body = 0;
    while (!rest.empty()) {
      const auto step = p.next(rest);
      if (const auto* d = std::get_if<netlib::http::body_data>(&step.event)) body += d->bytes.size();
      if (std::holds_alternative<netlib::http::message_complete>(step.event)) ++messages;
      require(!std::holds_alternative<netlib::http::parse_error>(step.event), "response parse error");
      if (step.consumed == 0 && std::holds_alternative<netlib::http::need_more>(step.event)) break;
      rest = rest.subspan(step.consumed);
    }
    require(rest.empty() && body == count * static_cast<std::size_t>(state.range(0)), "response stream not consumed");
    benchmark::DoNotOptimize(body);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(messages));
}

// A 1 MiB chunked body in chunks of `chunk` bytes, with an extension on every tenth size line.
void bm_http_chunked(benchmark::State& state) {
  const auto chunk = static_cast<std::size_t>(state.range(0));
  std::string input;
  const std::size_t total = 1 << 20;
  for (std::size_t i = 0; i * chunk < total; ++i)
    input += fmt::format("{:x}", chunk) + (i % 10 == 0 ? ";ext=1" : "") + "\r\n" + std::string(chunk, 'y') + "\r\n";
  input += "0\r\nX-Trailer: done\r\n\r\n";
  const netlib::http::parser_limits limits;
  for (auto _ : state) {
    netlib::http::chunked_decoder d(limits);
    byte_view rest = as_bytes(input);
    std::size_t body = 0;
    bool complete = false;
    while (!complete) {
      const auto step = d.next(rest);
      if (const auto* b = std::get_if<netlib::http::body_data>(&step.event)) body += b->bytes.size();
      complete = std::holds_alternative<netlib::http::message_complete>(step.event);
      require(!std::holds_alternative<netlib::http::parse_error>(step.event), "chunked parse error");
      require(complete || step.consumed > 0 || !std::holds_alternative<netlib::http::need_more>(step.event),
              "chunked decoder stalled");
      rest = rest.subspan(step.consumed);
    }
    require(body >= total, "chunked body short");
    benchmark::DoNotOptimize(body);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
}

// FTP commands as a client sends them during a session with a few transfers.
void bm_ftp_command(benchmark::State& state) {
  const std::string input = repeat(
      "USER anonymous\r\nPASS guest@example.com\r\nSYST\r\nFEAT\r\nPWD\r\nTYPE I\r\n"
      "CWD /pub/releases/2026\r\nEPSV\r\nSIZE netlab-1.0.tar.gz\r\nMDTM netlab-1.0.tar.gz\r\n"
      "RETR netlab-1.0.tar.gz\r\nPORT 127,0,0,1,195,80\r\nNOOP\r\nQUIT\r\n",
      64 * 1024);
  std::size_t lines = 0;
  for (auto _ : state) {
    netlib::ftp::command_parser p;
    byte_view rest = as_bytes(input);
    for (;;) {
      auto r = p.next(rest);
      if (r.status == netlib::ftp::command_status::need_more) break;
      require(r.status == netlib::ftp::command_status::complete, "ftp command rejected");
      benchmark::DoNotOptimize(r.value.verb.data());
      ++lines;
      rest = rest.subspan(r.consumed);
    }
    require(rest.empty(), "ftp commands not consumed");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(lines));
}

// FTP replies: single-line ones and a multi-line FEAT reply.
void bm_ftp_reply(benchmark::State& state) {
  const std::string input = repeat(
      "220 netlab FTP server ready\r\n331 Password required for anonymous\r\n230 Login successful\r\n"
      "211-Features:\r\n EPRT\r\n EPSV\r\n MDTM\r\n PASV\r\n REST STREAM\r\n SIZE\r\n TVFS\r\n UTF8\r\n211 End\r\n"
      "257 \"/pub\" is the current directory\r\n200 Type set to I\r\n"
      "229 Entering Extended Passive Mode (|||50123|)\r\n150 Opening BINARY mode data connection\r\n"
      "226 Transfer complete\r\n221 Goodbye\r\n",
      64 * 1024);
  std::size_t replies = 0;
  for (auto _ : state) {
    netlib::ftp::reply_parser p;
    byte_view rest = as_bytes(input);
    for (;;) {
      auto r = p.next(rest);
      if (r.status == netlib::ftp::reply_status::need_more) break;
      require(r.status == netlib::ftp::reply_status::reply, "ftp reply rejected");
      benchmark::DoNotOptimize(r.value.code);
      ++replies;
      rest = rest.subspan(r.consumed);
    }
    require(rest.empty(), "ftp replies not consumed");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(replies));
}

// Counts deliveries and their bytes; keeps nothing (so memory does not grow with iterations).
class counting_store : public netlib::mail::mail_store {
 public:
  std::size_t messages = 0, bytes = 0;
  bool deliver(std::string_view, std::string_view message) override {
    ++messages;
    bytes += message.size();
    return true;
  }
  bool queue_relay(std::string_view, std::span<const std::string>, std::string_view) override { return false; }
  netlib::mail::open_result open(std::string_view) override { return {}; }
};

// One SMTP session: EHLO, envelope, DATA with a 64 KiB message of 76-character lines, one line
// in eight starting with '.' (dot-unstuffing), then QUIT. Measures the server core in DATA.
void bm_smtp_data(benchmark::State& state) {
  std::string body;
  for (std::size_t i = 0; body.size() < 64 * 1024; ++i)
    body += (i % 8 == 0 ? ".." : "") + std::string(74, static_cast<char>('a' + i % 26)) + "\r\n";
  const std::string input =
      "EHLO client.example\r\nMAIL FROM:<bob@example.org>\r\nRCPT TO:<alice@lab.test>\r\n"
      "DATA\r\nSubject: bench\r\n\r\n" +
      body + ".\r\nQUIT\r\n";
  const auto users = netlib::users_table::parse("alice:secret\n");
  netlib::smtp::server_config config;
  config.domain = "lab.test";
  const netlib::clock_reading now{netlib::time_point{}, netlib::wall_time(std::chrono::system_clock::now())};
  counting_store store;
  for (auto _ : state) {
    netlib::smtp::server_session s(config, {}, users);
    benchmark::DoNotOptimize(s.start(now));
    byte_view rest = as_bytes(input);
    while (!rest.empty()) {
      const auto step = s.receive(rest, now);
      for (const auto& a : step.actions)
        if (const auto* d = std::get_if<netlib::smtp::deliver_message>(&a))
          benchmark::DoNotOptimize(s.delivery_done(netlib::smtp::deliver_to_store(store, *d, config.domain)));
      if (step.consumed == 0) break;
      rest = rest.subspan(step.consumed);
    }
    require(rest.empty(), "smtp session stopped early");
  }
  require(store.messages == static_cast<std::size_t>(state.iterations()), "a message was not delivered");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(store.messages));
}

// Element by element: GCC 12 warns (-Warray-bounds, a false positive) on insert of a braced list.
void append(std::vector<std::uint8_t>& f, std::initializer_list<std::uint8_t> bytes) {
  for (const auto b : bytes) f.push_back(b);
}

std::vector<std::uint8_t> ipv4_tcp_frame(std::size_t payload, bool vlan) {
  std::vector<std::uint8_t> f = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2};
  if (vlan) append(f, {0x81, 0x00, 0x00, 0x0a});
  append(f, {0x08, 0x00});
  const auto total = static_cast<std::uint16_t>(20 + 20 + 12 + payload);
  append(f, {0x45,
             0,
             static_cast<std::uint8_t>(total >> 8),
             static_cast<std::uint8_t>(total & 0xff),
             0,
             1,
             0x40,
             0,
             64,
             6,
             0,
             0,
             10,
             0,
             0,
             1,
             10,
             0,
             0,
             2});
  append(f, {0xc3, 0x50, 0x00, 0x50, 0, 0, 0, 1,  0, 0, 0, 1, 0x80, 0x18, 0xff, 0xff,
             0,    0,    0,    0,    1, 1, 8, 10, 0, 0, 0, 1, 0,    0,    0,    2});  // NOP NOP timestamps
  f.resize(f.size() + payload, 0x61);
  return f;
}

std::vector<std::uint8_t> ipv6_udp_frame(std::size_t payload) {
  std::vector<std::uint8_t> f = {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x86, 0xdd};
  const auto len = static_cast<std::uint16_t>(8 + payload);
  append(f, {0x60, 0, 0, 0, static_cast<std::uint8_t>(len >> 8), static_cast<std::uint8_t>(len & 0xff), 17, 64});
  for (int side = 0; side < 2; ++side) {
    append(f, {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<std::uint8_t>(side + 1)});
  }
  append(f, {0x13, 0x88, 0x00, 0x35, static_cast<std::uint8_t>(len >> 8), static_cast<std::uint8_t>(len & 0xff), 0, 0});
  f.resize(f.size() + payload, 0x62);
  return f;
}

// A mix of frames as a capture holds them: small and full-size TCP, VLAN-tagged, IPv6 UDP.
void bm_packet_decode(benchmark::State& state) {
  const std::vector<std::vector<std::uint8_t>> frames = {ipv4_tcp_frame(0, false), ipv4_tcp_frame(1448, false),
                                                         ipv4_tcp_frame(100, true), ipv6_udp_frame(60)};
  std::size_t frame_bytes = 0, decoded = 0;
  for (const auto& f : frames) frame_bytes += f.size();
  for (auto _ : state) {
    for (const auto& f : frames) {
      const auto p = netlib::packet::decode_packet(netlib::packet::link_type::ethernet,
                                                   byte_view(reinterpret_cast<const std::byte*>(f.data()), f.size()));
      require(!p.error && (p.tcp() || p.udp()), "frame not decoded");
      benchmark::DoNotOptimize(p.transport);
      ++decoded;
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * frame_bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(decoded));
}

}  // namespace

BENCHMARK(bm_http_request);
BENCHMARK(bm_http_response)->Arg(1024)->Arg(64 * 1024);
BENCHMARK(bm_http_chunked)->Arg(64)->Arg(4096);
BENCHMARK(bm_ftp_command);
BENCHMARK(bm_ftp_reply);
BENCHMARK(bm_smtp_data);
BENCHMARK(bm_packet_decode);
BENCHMARK_MAIN();
