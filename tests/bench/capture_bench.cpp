// Capture benchmark: a synthetic pcapng of N small TCP frames on 4 interfaces (ports), then, over
// the same file in the same run:
//   bare      a bare libpcap loop (pcap_open_offline + pcap_next_ex), the reference
//   decode    netlib's reader + packet decoding + TCP reassembly (bytes delivered to a visitor)
//   switch    netlib's reader + the learning switch core on every frame (lab-switch replay's path)
// Prints frames/s and payload GB/s with each as a ratio to the bare loop, and one JSON line each.
//   bench_capture [FRAMES=2000000] [FILE=/tmp/netlab-bench.pcapng]
#include <pcap/pcap.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "netlib/l2/learning_switch.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "netlib/packet/tcp_reassembler.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

// Ethernet + IPv4 + TCP + 16 payload bytes; flows between 64 hosts, 4 per port.
std::vector<std::byte> frame(std::uint32_t flow, std::uint32_t seq, bool reply) {
  std::vector<std::uint8_t> f(14 + 20 + 20 + 16, 0);
  const std::uint8_t a = static_cast<std::uint8_t>(flow % 64), b = static_cast<std::uint8_t>((flow * 7 + 1) % 64);
  const std::uint8_t src = reply ? b : a, dst = reply ? a : b;
  const std::uint8_t dmac[6] = {2, 0, 0, 0, 0, dst}, smac[6] = {2, 0, 0, 0, 0, src};
  std::copy(dmac, dmac + 6, f.begin());
  std::copy(smac, smac + 6, f.begin() + 6);
  f[12] = 0x08;
  std::uint8_t* ip = f.data() + 14;
  ip[0] = 0x45;
  ip[3] = 20 + 20 + 16;
  ip[8] = 64;
  ip[9] = 6;
  ip[12] = 10, ip[15] = src;
  ip[16] = 10, ip[19] = dst;
  std::uint8_t* tcp = ip + 20;
  const std::uint16_t cport = static_cast<std::uint16_t>(10000 + flow), sport = 80;
  const std::uint16_t sp = reply ? sport : cport, dp = reply ? cport : sport;
  tcp[0] = sp >> 8, tcp[1] = sp & 0xff, tcp[2] = dp >> 8, tcp[3] = dp & 0xff;
  tcp[4] = seq >> 24, tcp[5] = (seq >> 16) & 0xff, tcp[6] = (seq >> 8) & 0xff, tcp[7] = seq & 0xff;
  tcp[12] = 5 << 4;
  tcp[13] = 0x18;  // PSH, ACK
  std::vector<std::byte> out(f.size());
  std::memcpy(out.data(), f.data(), f.size());
  return out;
}

void make_capture(const std::string& path, std::uint64_t frames) {
  auto out = netlib::capture::capture_writer::create(path);
  std::uint32_t ports[4];
  for (auto& p : ports) p = out.add_interface(netlib::packet::link_type::ethernet);
  const std::uint32_t flows = 1000;
  std::vector<std::uint32_t> seq(flows * 2, 1);
  for (std::uint64_t i = 0; i < frames; ++i) {
    const auto flow = static_cast<std::uint32_t>(i % flows);
    const bool reply = (i / flows) % 2 == 1;
    auto& s = seq[flow * 2 + (reply ? 1 : 0)];
    const auto f = frame(flow, s, reply);
    s += 16;
    const std::uint8_t src = static_cast<std::uint8_t>(std::to_integer<int>(f[11]));
    out.write(ports[src / 16], netlib::from_nanoseconds(static_cast<std::int64_t>(i) * 1000), f);
  }
}

struct measure {
  std::string name;
  std::uint64_t frames = 0;
  std::uint64_t payload = 0;
  double seconds = 0;
};

measure bare(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* p = pcap_open_offline(path.c_str(), err);
  if (!p) throw std::runtime_error(err);
  measure m{"bare pcap_next_ex loop"};
  const auto t0 = clock_type::now();
  pcap_pkthdr* h;
  const u_char* data;
  while (pcap_next_ex(p, &h, &data) == 1) {
    ++m.frames;
    m.payload += h->caplen;
  }
  m.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  pcap_close(p);
  return m;
}

struct counting_visitor : netlib::packet::tcp_visitor {
  std::uint64_t bytes = 0;
  void on_data(const netlib::packet::tcp_conversation&, netlib::packet::tcp_direction, netlib::byte_view b,
               netlib::time_point) override {
    bytes += b.size();
  }
};

measure decode(const std::string& path) {
  measure m{"netlib decode + reassembly"};
  const auto t0 = clock_type::now();
  auto reader = netlib::capture::capture_reader::open(path);
  counting_visitor v;
  netlib::packet::tcp_reassembler reassembler(v);
  while (auto rec = reader.next()) {
    ++m.frames;
    const auto d = netlib::packet::decode_packet(rec->link, rec->data);
    reassembler.feed(d, rec->ts);
  }
  reassembler.finish();
  m.payload = v.bytes;
  m.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  return m;
}

measure switching(const std::string& path) {
  measure m{"netlib learning switch"};
  const auto t0 = clock_type::now();
  auto reader = netlib::capture::capture_reader::open(path);
  netlib::l2::learning_switch sw(netlib::l2::switch_config{.port_count = 4});
  std::uint64_t forwarded = 0;
  while (auto rec = reader.next()) {
    ++m.frames;
    m.payload += rec->data.size();
    const auto d = sw.receive(static_cast<netlib::l2::port_id>(rec->interface_id), rec->data, rec->ts);
    forwarded += d.out.size();
  }
  m.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  if (forwarded == 0) throw std::runtime_error("the switch forwarded nothing");
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t frames = argc > 1 ? std::stoull(argv[1]) : 2'000'000;
  const std::string path = argc > 2 ? argv[2] : "/tmp/netlab-bench.pcapng";
  make_capture(path, frames);
  const measure b = bare(path);
  const measure results[] = {b, decode(path), switching(path)};
  std::cout << fmt::format("capture: {} frames of 70 B on 4 interfaces ({})\n", frames, path);
  for (const auto& m : results) {
    std::cout << fmt::format("  {:<28} {:>8.2f} M frames/s  {:>6.3f} GB/s  {:.2f} x bare\n", m.name,
                             m.frames / m.seconds / 1e6, m.payload / m.seconds / 1e9, b.seconds / m.seconds);
  }
  for (const auto& m : results)
    std::cout << fmt::format(
        "{{\"bench\":\"capture\",\"config\":\"{}\",\"frames\":{},\"frames_per_s\":{:.0f},\"ratio_to_bare\":{:.3f}}}\n",
        m.name, m.frames, m.frames / m.seconds, b.seconds / m.seconds);
  std::remove(path.c_str());
}
