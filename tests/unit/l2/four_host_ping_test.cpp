// The classic four-host scenario: hosts on ports 0..3 ping each other through the switch. Hosts
// are simulated (ARP cache, echo responder); frames the switch outputs are delivered to the host on
// each output port. Counts delivered pings and pongs, and unicast frames a wrong host saw.
#include "switch_scenario.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <map>

namespace {

using namespace netlab::test;
using netlib::l2::ipv4_address;

struct host {
  mac_address mac;
  ipv4_address ip;
  std::map<ipv4_address, mac_address> arp_cache;
  std::vector<std::pair<ipv4_address, std::uint16_t>> pending;  // echo requests waiting for ARP
};

std::uint16_t be16(const std::vector<std::byte>& f, std::size_t at) {
  return static_cast<std::uint16_t>((std::to_integer<unsigned>(f[at]) << 8U) | std::to_integer<unsigned>(f[at + 1]));
}
ipv4_address ip_at(const std::vector<std::byte>& f, std::size_t at) {
  return {std::to_integer<std::uint8_t>(f[at]), std::to_integer<std::uint8_t>(f[at + 1]),
          std::to_integer<std::uint8_t>(f[at + 2]), std::to_integer<std::uint8_t>(f[at + 3])};
}

class four_hosts {
 public:
  four_hosts() : switch_(switch_scenario::config_for(4)) {
    for (std::uint8_t i = 0; i < 4; ++i) {
      hosts_.push_back(host{mac_address{{0x02, 0, 0, 0, 0, static_cast<std::uint8_t>(0x10 + i)}},
                            ipv4_address{10, 0, 0, static_cast<std::uint8_t>(1 + i)},
                            {},
                            {}});
    }
  }

  void ping(std::size_t from, std::size_t to, std::uint16_t seq) {
    host& h = hosts_[from];
    const ipv4_address target = hosts_[to].ip;
    if (auto it = h.arp_cache.find(target); it != h.arp_cache.end()) {
      send(from, netlib::l2::build_icmp_echo(h.mac, it->second, h.ip, target, 1, seq, false));
    } else {
      h.pending.emplace_back(target, seq);
      send(from, netlib::l2::build_arp_request(h.mac, h.ip, target));
    }
    run();
  }

  int pings = 0, pongs = 0, arp_broadcasts_seen = 0, misdelivered = 0;

 private:
  void send(std::size_t from, std::vector<std::byte> f) { queue_.emplace_back(from, std::move(f)); }

  void run() {
    for (int budget = 1000; !queue_.empty() && budget > 0; --budget) {
      auto [port, f] = std::move(queue_.front());
      queue_.pop_front();
      clock_.advance(1ms);
      const auto d = switch_.receive(static_cast<port_id>(port), f, clock_.now());
      for (const auto& e : d.out) deliver(e.port, f);
    }
    ASSERT_TRUE(queue_.empty());
  }

  void deliver(std::size_t to, const std::vector<std::byte>& f) {
    host& h = hosts_[to];
    const auto dst = mac_address::from_bytes(f.data());
    if (dst != h.mac && !dst.is_broadcast()) {
      ++misdelivered;  // a NIC would drop it; a learning switch should not have sent it here
      return;
    }
    if (be16(f, 12) == netlib::l2::ethertype_arp) {
      on_arp(to, f);
    } else if (be16(f, 12) == netlib::l2::ethertype_ipv4 && ip_at(f, 30) == h.ip) {
      on_icmp(to, f);
    }
  }

  void on_arp(std::size_t to, const std::vector<std::byte>& f) {
    host& h = hosts_[to];
    const auto sender = mac_address::from_bytes(f.data() + 22);
    const ipv4_address sender_ip = ip_at(f, 28);
    // RFC 826 "Packet Reception": update a known mapping; add it only when we are the target
    if (h.arp_cache.contains(sender_ip) || ip_at(f, 38) == h.ip) h.arp_cache[sender_ip] = sender;
    if (be16(f, 20) == 1) {
      ++arp_broadcasts_seen;
      if (ip_at(f, 38) == h.ip) send(to, netlib::l2::build_arp_reply(h.mac, h.ip, sender, sender_ip));
      return;
    }
    auto pending = std::move(h.pending);
    h.pending.clear();
    for (auto [ip, seq] : pending) {
      if (ip == sender_ip) {
        send(to, netlib::l2::build_icmp_echo(h.mac, sender, h.ip, ip, 1, seq, false));
      } else {
        h.pending.emplace_back(ip, seq);
      }
    }
  }

  void on_icmp(std::size_t to, const std::vector<std::byte>& f) {
    host& h = hosts_[to];
    const ipv4_address src_ip = ip_at(f, 26);
    if (std::to_integer<int>(f[34]) == 8) {
      ++pings;
      send(to, netlib::l2::build_icmp_echo(h.mac, mac_address::from_bytes(f.data() + 6), h.ip, src_ip, be16(f, 38),
                                           be16(f, 40), true));
    } else if (std::to_integer<int>(f[34]) == 0) {
      ++pongs;
    }
  }

  netlib::l2::learning_switch switch_;
  netlib::virtual_clock clock_;
  std::vector<host> hosts_;
  std::deque<std::pair<std::size_t, std::vector<std::byte>>> queue_;
};

TEST(FourHostPing, EveryPairPingsThreeTimes) {
  four_hosts net;
  std::uint16_t seq = 0;
  for (std::size_t round = 0; round < 3; ++round) {
    for (std::size_t a = 0; a < 4; ++a) {
      for (std::size_t b = 0; b < 4; ++b) {
        if (a != b) net.ping(a, b, ++seq);
      }
    }
  }
  EXPECT_EQ(net.pings, 36);
  EXPECT_EQ(net.pongs, 36);
  EXPECT_EQ(net.misdelivered, 0);  // every echo was unicast to its host only
  // 6 ARP requests (the reverse direction is answered from the merged cache), each seen by 3 hosts
  EXPECT_EQ(net.arp_broadcasts_seen, 6 * 3);
}

}  // namespace
