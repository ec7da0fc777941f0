// Recipes for the switch lab's captures. Hosts are 02:00:00:00:00:NN with IPv4 10.0.V.NN; time
// starts at 2026-01-01T00:00:00Z and moves 1 ms per frame unless a recipe waits longer.
#include "capture_recipes.hpp"

#include "netlib/capture/capture_writer.hpp"
#include "netlib/l2/frame_builder.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

namespace netlab::lab_switch {

namespace l2 = netlib::l2;
using namespace std::chrono_literals;

namespace {

struct host {
  l2::mac_address mac;
  l2::ipv4_address ip;
  l2::port_id port = 0;
  std::optional<std::uint16_t> tag;  // sent tagged (behind a trunk)
};

host make_host(std::uint8_t n, l2::port_id port, std::uint8_t subnet = 0, std::optional<std::uint16_t> tag = {}) {
  return host{l2::mac_address{{0x02, 0, 0, 0, 0, n}}, {10, 0, subnet, n}, port, tag};
}

class recorder {
 public:
  explicit recorder(capture_recipe& r) : r_(r) {}
  void wait(netlib::duration d) { now_ += d; }
  void send(l2::port_id port, std::vector<std::byte> bytes) {
    now_ += 1ms;
    r_.frames.push_back(recorded_frame{now_, port, std::move(bytes)});
  }
  void arp_request(const host& from, const host& to) {
    send(from.port, l2::build_arp_request(from.mac, from.ip, to.ip, from.tag));
  }
  void arp_reply(const host& from, const host& to) {
    send(from.port, l2::build_arp_reply(from.mac, from.ip, to.mac, to.ip, from.tag));
  }
  void ping(const host& a, const host& b, std::uint16_t seq) {
    send(a.port, l2::build_icmp_echo(a.mac, b.mac, a.ip, b.ip, 1, seq, false, a.tag));
    send(b.port, l2::build_icmp_echo(b.mac, a.mac, b.ip, a.ip, 1, seq, true, b.tag));
  }

 private:
  capture_recipe& r_;
  netlib::time_point now_ = netlib::from_nanoseconds(1767225600LL * 1000000000LL);
};

// Every host pings every other host once; a host ARPs only for an address it has not learned
// (RFC 826: the target of a request learns the asker).
capture_recipe four_hosts() {
  capture_recipe r{"four_hosts", "4 hosts on ports 0..3 ping each other once (ARP first)", 4, {}, {}};
  recorder rec(r);
  std::vector<host> hosts;
  for (std::uint8_t i = 0; i < 4; ++i) hosts.push_back(make_host(static_cast<std::uint8_t>(i + 1), i));
  bool known[4][4] = {};
  std::uint16_t seq = 0;
  for (std::size_t a = 0; a < 4; ++a) {
    for (std::size_t b = 0; b < 4; ++b) {
      if (a == b) continue;
      if (!known[a][b]) {
        rec.arp_request(hosts[a], hosts[b]);
        rec.arp_reply(hosts[b], hosts[a]);
        known[a][b] = known[b][a] = true;
      }
      rec.ping(hosts[a], hosts[b], ++seq);
    }
  }
  return r;
}

// Host 2 talks to host 1 from port 1, then is unplugged and reappears on port 2 (a gratuitous
// ARP announces it), and host 1 reaches it there.
capture_recipe moving_host() {
  capture_recipe r{"moving_host", "host 2 moves from port 1 to port 2 after 10 s", 3, {}, {}};
  recorder rec(r);
  const host s = make_host(1, 0);
  host m = make_host(2, 1);
  rec.arp_request(m, s);
  rec.arp_reply(s, m);
  rec.ping(m, s, 1);
  rec.wait(10s);
  m.port = 2;
  rec.send(m.port, l2::build_arp_request(m.mac, m.ip, m.ip));  // gratuitous ARP (RFC 5227 §3)
  rec.ping(s, m, 2);
  return r;
}

// Two hosts talk, fall silent for 400 s (more than the 300 s default aging), and talk again.
capture_recipe aging_gap() {
  capture_recipe r{"aging_gap", "hosts 1 and 2 talk, are silent 400 s, and talk again", 3, {}, {}};
  recorder rec(r);
  const host a = make_host(1, 0);
  const host b = make_host(2, 1);
  rec.arp_request(a, b);
  rec.arp_reply(b, a);
  rec.ping(a, b, 1);
  rec.wait(400s);
  rec.ping(a, b, 2);
  return r;
}

// Ports 0 and 2 are access ports in VLAN 10, port 1 in VLAN 20, port 3 a trunk carrying both
// (hosts 3 and 5 sit behind it, sending tagged frames).
capture_recipe vlans() {
  capture_recipe r{"vlans",
                   "VLANs 10 and 20 on access ports 0,1,2 and trunk port 3 (use vlans.vlan.conf)",
                   4,
                   {},
                   "# lab-switch VLAN configuration for vlans.pcapng\n"
                   "port 0 access 10\n"
                   "port 1 access 20\n"
                   "port 2 access 10\n"
                   "port 3 trunk 10,20\n"};
  recorder rec(r);
  const host a = make_host(1, 0, 10);
  const host b = make_host(2, 1, 20);
  const host c = make_host(4, 2, 10);
  const host d = make_host(3, 3, 10, 10);
  const host e = make_host(5, 3, 20, 20);
  rec.arp_request(a, c);  // VLAN 10: floods to port 2 and, tagged, to the trunk
  rec.arp_reply(c, a);
  rec.ping(a, c, 1);
  rec.arp_request(e, b);  // tagged 20 on the trunk: floods to port 1 only, untagged
  rec.arp_reply(b, e);    // leaves the trunk tagged 20
  rec.arp_request(d, a);  // tagged 10
  rec.arp_reply(a, d);
  // host 2 (VLAN 20) sends to host 1's address: unknown in VLAN 20, flooded in VLAN 20 only
  rec.send(b.port, l2::build_icmp_echo(b.mac, a.mac, b.ip, a.ip, 1, 9, false));
  // a frame tagged with VLAN 30, which the trunk does not carry: dropped at ingress
  rec.send(3, l2::build_arp_request(l2::mac_address{{0x02, 0, 0, 0, 0, 0x30}}, {10, 0, 30, 1}, {10, 0, 30, 2}, 30));
  return r;
}

std::vector<std::byte> bytes_of(std::initializer_list<unsigned> v) {
  std::vector<std::byte> out;
  for (auto b : v) out.push_back(static_cast<std::byte>(b));
  return out;
}

// Frames a bridge must not relay or cannot read, and two hosts behind one port (a hub).
capture_recipe edge_cases() {
  capture_recipe r{"edge_cases", "link-local BPDU/LLDP, a runt, two hosts on one port, multicast", 3, {}, {}};
  recorder rec(r);
  const host h1 = make_host(1, 0);
  const host h2 = make_host(2, 1);
  const host h3 = make_host(3, 1);
  const l2::mac_address bridge{{0x02, 0, 0, 0, 0, 0xaa}};
  rec.arp_request(h1, h2);
  // IEEE 802.1D configuration BPDU (802.3 length 38, LLC 42 42 03) to 01:80:c2:00:00:00
  std::vector<std::byte> bpdu = bytes_of({0x42, 0x42, 0x03, 0, 0, 0, 0, 0});
  bpdu.resize(3 + 35);
  rec.send(1, l2::build_ethernet(l2::mac_address{{0x01, 0x80, 0xc2, 0, 0, 0}}, bridge, 38, bpdu));
  // LLDP (IEEE 802.1AB) to the nearest-bridge address 01:80:c2:00:00:0e: chassis, port, TTL, end
  const auto lldp = bytes_of(
      {0x02, 0x07, 0x04, 0x02, 0, 0, 0, 0, 0x03, 0x04, 0x03, 0x05, 0x70, 0x31, 0x06, 0x02, 0x00, 0x78, 0x00, 0x00});
  const l2::mac_address lldp_agent{{0x02, 0, 0, 0, 0, 0xbb}};
  rec.send(2, l2::build_ethernet(l2::mac_address{{0x01, 0x80, 0xc2, 0, 0, 0x0e}}, lldp_agent, 0x88cc, lldp));
  rec.send(1, bytes_of({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0}));  // a 10-byte runt
  rec.arp_request(h3, h1);                                                     // host 3 shares port 1 with host 2
  rec.send(h2.port, l2::build_icmp_echo(h2.mac, h3.mac, h2.ip, h3.ip, 1, 1, false));  // filtered
  rec.send(h1.port, l2::build_ethernet(l2::mac_address{{0x01, 0x00, 0x5e, 0, 0, 0xfb}}, h1.mac, 0x0800,
                                       bytes_of({0x45, 0, 0, 20})));  // IPv4 multicast: flooded
  rec.send(2, l2::build_ethernet(h1.mac, l2::mac_address{{0x03, 0, 0, 0, 0, 0x01}}, 0x88b5,
                                 bytes_of({1, 2, 3})));  // group source address: dropped (as by Linux), not learned
  rec.send(h1.port, l2::build_ethernet(bridge, h1.mac, 0x88b5, bytes_of({1})));  // to the BPDU's sender
  return r;
}

// A macof-style attack: port 0 sends 2500 frames from and to random unicast addresses while
// hosts 1 and 2 (ports 1 and 2) ping each other; host 3 (port 3) joins once the table is full.
capture_recipe mac_flood() {
  capture_recipe r{"mac_flood", "2500 random source MACs on port 0 while hosts on ports 1..3 ping", 4, {}, {}};
  recorder rec(r);
  const host h1 = make_host(1, 1);
  const host h2 = make_host(2, 2);
  const host h3 = make_host(3, 3);
  std::uint32_t state = 2026;
  auto random_mac = [&state] {
    state = state * 1664525U + 1013904223U;  // Numerical Recipes LCG: deterministic
    const std::uint32_t v = state;
    return l2::mac_address{{0x0a, static_cast<std::uint8_t>(v >> 24U), static_cast<std::uint8_t>(v >> 16U),
                            static_cast<std::uint8_t>(v >> 8U), static_cast<std::uint8_t>(v), 0x01}};
  };
  std::uint16_t seq = 0;
  for (int i = 0; i < 2500; ++i) {
    const auto src = random_mac();
    const auto dst = random_mac();
    rec.send(0, l2::build_ethernet(dst, src, 0x0800, bytes_of({0x45, 0, 0, 20})));
    if (i == 0) {
      rec.arp_request(h1, h2);
      rec.arp_reply(h2, h1);
    }
    if (i == 2200) {
      rec.arp_request(h3, h1);
      rec.arp_reply(h1, h3);
    }
    if (i % 25 == 10) rec.ping(h1, h2, ++seq);
    if (i > 2200 && i % 25 == 20) rec.ping(h1, h3, ++seq);
  }
  return r;
}

}  // namespace

std::vector<capture_recipe> all_recipes() {
  return {four_hosts(), moving_host(), aging_gap(), vlans(), edge_cases(), mac_flood()};
}

std::vector<std::string> write_recipe(const capture_recipe& r, const std::string& dir) {
  std::vector<std::string> written;
  const auto path = std::filesystem::path(dir) / (r.name + ".pcapng");
  auto out = netlib::capture::capture_writer::create(path);
  for (std::size_t p = 0; p < r.port_count; ++p)
    out.add_interface(netlib::packet::link_type::ethernet, fmt::format("port{}", p));
  for (const auto& f : r.frames) out.write(f.port, f.ts, f.bytes);
  out.flush();
  written.push_back(path.string());
  if (!r.vlan_config.empty()) {
    const auto conf = std::filesystem::path(dir) / (r.name + ".vlan.conf");
    std::ofstream(conf) << r.vlan_config;
    written.push_back(conf.string());
  }
  return written;
}

}  // namespace netlab::lab_switch
