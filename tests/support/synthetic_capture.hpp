#pragma once
// Synthetic TCP captures for the capture analyzers' memory tests and benchmarks, written with the
// project's own capture_writer into a file the test or bench run creates (never committed).
//
//   netlab::test::write_syn_only("syn.pcap", 1'000'000);          // issue 17: 70 MB, 1M connections
//   netlab::test::write_closed_connections("echo.pcap", 200'000);  // connections that all close
//
// write_syn_only: `count` connections from distinct client endpoints (10.1.0.0/16 and up, ports
// 10000-59999) to 10.0.0.1:80, each a single SYN without options (Ethernet + IPv4 + TCP = 54
// bytes, a 70-byte pcap record), `spacing` apart in capture time; nothing answers them.
// write_closed_connections: `count` complete connections `spacing` apart, each the same 9 packets
// over 2.5 ms (handshake, a `payload`-byte request and the same bytes echoed back, FIN from the
// server, FIN from the client, final ACK), so about 2.5 ms / spacing are open at once and every one
// closes. The payload is not HTTP (an echo on port 7) unless `http` is set: then it is a GET and a
// 200 response with a body, so the HTTP analyzers find one transaction per connection.
// write_dialogue: one connection carrying a given dialogue, segment by segment (the replay tests).
// Needs netlib::capture.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <queue>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "netlib/capture/capture_writer.hpp"

namespace netlab::test {

namespace synthetic_detail {

struct tcp_packet {
  std::uint32_t src_ip = 0, dst_ip = 0;
  std::uint16_t src_port = 0, dst_port = 0;
  std::uint32_t seq = 0, ack = 0;
  std::uint8_t flags = 0;  // TCP flag bits: FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10
  std::string_view payload;
};

// Ethernet + IPv4 (header checksum set) + TCP (no options; checksum left 0, as with offloading).
inline void build_frame(const tcp_packet& p, std::vector<std::byte>& out) {
  out.assign(14 + 20 + 20 + p.payload.size(), std::byte{0});
  auto* f = reinterpret_cast<std::uint8_t*>(out.data());
  const std::uint8_t mac_a[6] = {0x02, 0, 0, 0, 0, 0x0a}, mac_b[6] = {0x02, 0, 0, 0, 0, 0x0b};
  std::memcpy(f, mac_b, 6);
  std::memcpy(f + 6, mac_a, 6);
  f[12] = 0x08;
  std::uint8_t* ip = f + 14;
  const auto total = static_cast<std::uint16_t>(20 + 20 + p.payload.size());
  ip[0] = 0x45;
  ip[2] = static_cast<std::uint8_t>(total >> 8);
  ip[3] = static_cast<std::uint8_t>(total);
  ip[6] = 0x40;  // DF
  ip[8] = 64;
  ip[9] = 6;
  for (int i = 0; i < 4; ++i) {
    ip[12 + i] = static_cast<std::uint8_t>(p.src_ip >> (24 - 8 * i));
    ip[16 + i] = static_cast<std::uint8_t>(p.dst_ip >> (24 - 8 * i));
  }
  std::uint32_t sum = 0;
  for (int i = 0; i < 20; i += 2) sum += static_cast<std::uint32_t>(ip[i] << 8 | ip[i + 1]);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  ip[10] = static_cast<std::uint8_t>(~sum >> 8);
  ip[11] = static_cast<std::uint8_t>(~sum);
  std::uint8_t* tcp = ip + 20;
  tcp[0] = static_cast<std::uint8_t>(p.src_port >> 8), tcp[1] = static_cast<std::uint8_t>(p.src_port);
  tcp[2] = static_cast<std::uint8_t>(p.dst_port >> 8), tcp[3] = static_cast<std::uint8_t>(p.dst_port);
  for (int i = 0; i < 4; ++i) {
    tcp[4 + i] = static_cast<std::uint8_t>(p.seq >> (24 - 8 * i));
    tcp[8 + i] = static_cast<std::uint8_t>(p.ack >> (24 - 8 * i));
  }
  tcp[12] = 5 << 4;
  tcp[13] = p.flags;
  tcp[14] = 0xff, tcp[15] = 0xff;  // window
  if (!p.payload.empty()) std::memcpy(tcp + 20, p.payload.data(), p.payload.size());
}

// Client endpoint number i: 10.1.0.0 + i / 50000, port 10000 + i % 50000.
inline std::uint32_t client_ip(std::uint64_t i) {
  return 0x0a010000U + static_cast<std::uint32_t>(i / 50000);
}
inline std::uint16_t client_port(std::uint64_t i) {
  return static_cast<std::uint16_t>(10000 + i % 50000);
}
constexpr std::uint32_t server_ip = 0x0a000001U;  // 10.0.0.1
constexpr std::int64_t start_ns = 1'700'000'000'000'000'000LL;

}  // namespace synthetic_detail

inline void write_syn_only(const std::filesystem::path& path, std::uint64_t count,
                           netlib::duration spacing = std::chrono::microseconds(10)) {
  using namespace synthetic_detail;
  auto out = netlib::capture::capture_writer::create(path);
  const auto iface = out.add_interface(netlib::packet::link_type::ethernet);
  std::vector<std::byte> frame;
  for (std::uint64_t i = 0; i < count; ++i) {
    const tcp_packet p{client_ip(i), server_ip, client_port(i), 80, static_cast<std::uint32_t>(i * 7919U), 0, 0x02, {}};
    build_frame(p, frame);
    out.write(iface, netlib::from_nanoseconds(start_ns) + spacing * static_cast<std::int64_t>(i), frame);
  }
  out.flush();
}

inline void write_closed_connections(const std::filesystem::path& path, std::uint64_t count,
                                     netlib::duration spacing = std::chrono::microseconds(500),
                                     std::size_t payload = 100, bool http = false) {
  using namespace synthetic_detail;
  auto out = netlib::capture::capture_writer::create(path);
  const auto iface = out.add_interface(netlib::packet::link_type::ethernet);
  const std::string request = http ? "GET /index.html HTTP/1.1\r\nHost: 10.0.0.1\r\n\r\n" : std::string(payload, 'e');
  const std::string response =
      http ? "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(payload) + "\r\n\r\n" + std::string(payload, 'b')
           : request;
  const std::uint16_t server_port = http ? 80 : 7;
  // The 9 packets of one connection: offset in microseconds, from the client, flags, payload.
  struct step {
    int offset_us;
    bool from_client;
    std::uint8_t flags;
    int payload;  // 0 none, 1 request, 2 response
  };
  static constexpr std::array<step, 9> steps{{{0, true, 0x02, 0},
                                              {100, false, 0x12, 0},
                                              {200, true, 0x10, 0},
                                              {300, true, 0x18, 1},
                                              {1300, false, 0x18, 2},
                                              {1400, false, 0x11, 0},
                                              {1500, true, 0x10, 0},
                                              {2400, true, 0x11, 0},
                                              {2500, false, 0x10, 0}}};
  // Packets in capture order: a heap of (time, connection, step).
  using event = std::tuple<std::int64_t, std::uint64_t, std::size_t>;
  std::priority_queue<event, std::vector<event>, std::greater<>> due;
  const auto at = [&](std::uint64_t i, std::size_t k) {
    return start_ns + static_cast<std::int64_t>(i) * std::chrono::nanoseconds(spacing).count() +
           std::int64_t{steps[k].offset_us} * 1000;
  };
  if (count > 0) due.emplace(at(0, 0), 0, 0);
  std::vector<std::byte> frame;
  while (!due.empty()) {
    const auto [t, i, k] = due.top();
    due.pop();
    if (k == 0 && i + 1 < count) due.emplace(at(i + 1, 0), i + 1, 0);
    if (k + 1 < steps.size()) due.emplace(at(i, k + 1), i, k + 1);
    const step& s = steps[k];
    const std::uint32_t cisn = static_cast<std::uint32_t>(i * 7919U), sisn = static_cast<std::uint32_t>(i * 104729U);
    // Sequence numbers after each step: the client's request, the server's response, then FINs.
    const auto req = static_cast<std::uint32_t>(request.size()), resp = static_cast<std::uint32_t>(response.size());
    std::uint32_t cseq = cisn + 1, sseq = sisn + 1, cack = sisn + 1, sack = cisn + 1;
    if (k == 0) cseq = cisn;
    if (k == 1) sseq = sisn;
    if (k >= 4) sack = cisn + 1 + req;
    if (k >= 5) sseq = sisn + 1 + resp;
    if (k >= 6) {
      cack = sisn + 2 + resp;
      cseq = cisn + 1 + req;
    }
    if (k >= 8) {
      sseq = sisn + 2 + resp;
      sack = cisn + 2 + req;
    }
    const std::string_view data = s.payload == 1   ? std::string_view(request)
                                  : s.payload == 2 ? std::string_view(response)
                                                   : std::string_view();
    tcp_packet p =
        s.from_client
            ? tcp_packet{client_ip(i), server_ip, client_port(i), server_port, cseq, k == 0 ? 0 : cack, s.flags, data}
            : tcp_packet{server_ip, client_ip(i), server_port, client_port(i), sseq, sack, s.flags, data};
    build_frame(p, frame);
    out.write(iface, netlib::from_nanoseconds(t), frame);
  }
  out.flush();
}

// One TCP connection 127.0.0.1:40000 -> 127.0.0.1:`server_port`: the handshake, then each
// (from the client, payload) of `dialogue` as one segment in that order, 100 us apart, then the
// client's FIN and the server's (so the conversation ends closed).
inline void write_dialogue(const std::filesystem::path& path, std::uint16_t server_port,
                           const std::vector<std::pair<bool, std::string>>& dialogue) {
  using namespace synthetic_detail;
  auto out = netlib::capture::capture_writer::create(path);
  const auto iface = out.add_interface(netlib::packet::link_type::ethernet);
  std::vector<std::byte> frame;
  std::int64_t t = start_ns;
  std::uint32_t cseq = 1000, sseq = 5000;
  const auto send = [&](bool from_client, std::uint8_t flags, std::string_view data) {
    const tcp_packet p = from_client
                             ? tcp_packet{0x7f000001U, 0x7f000001U, 40000, server_port, cseq, sseq, flags, data}
                             : tcp_packet{0x7f000001U, 0x7f000001U, server_port, 40000, sseq, cseq, flags, data};
    build_frame(p, frame);
    out.write(iface, netlib::from_nanoseconds(t), frame);
    t += 100'000;
    auto& seq = from_client ? cseq : sseq;
    seq += static_cast<std::uint32_t>(data.size()) + ((flags & 0x03) != 0 ? 1 : 0);
  };
  send(true, 0x02, {});
  send(false, 0x12, {});
  send(true, 0x10, {});
  for (const auto& [from_client, data] : dialogue) send(from_client, 0x18, data);
  send(true, 0x11, {});
  send(false, 0x11, {});
  send(true, 0x10, {});
  out.flush();
}

}  // namespace netlab::test
