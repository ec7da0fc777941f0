#pragma once
// Ethernet frames carrying IPv4 or IPv6 with TCP or UDP, built by hand for tests that write
// captures (checksums are left zero: decoders and tshark do not check them by default).
//
//   netlab::test::ip_frame f{"10.0.0.1", 40000, "10.0.0.2", 80};
//   auto bytes = f.tcp(netlab::test::tcp_syn, 0);   // a SYN without payload
//   auto data = f.reversed().udp(512);              // 512 bytes of UDP payload the other way
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "netlib/packet/ip_address.hpp"

namespace netlab::test {

inline constexpr std::uint8_t tcp_fin = 0x01, tcp_syn = 0x02, tcp_rst = 0x04, tcp_psh = 0x08, tcp_ack = 0x10;

struct ip_frame {
  std::string src;
  std::uint16_t sport = 0;
  std::string dst;
  std::uint16_t dport = 0;

  [[nodiscard]] ip_frame reversed() const { return {dst, dport, src, sport}; }

  [[nodiscard]] std::vector<std::byte> tcp(std::uint8_t flags, std::size_t payload, std::uint32_t seq = 1) const {
    std::vector<std::byte> l4;
    put16(l4, sport);
    put16(l4, dport);
    put32(l4, seq);
    put32(l4, (flags & tcp_ack) ? 1u : 0u);
    l4.push_back(std::byte(5 << 4));
    l4.push_back(std::byte(flags));
    put16(l4, 65535);
    put16(l4, 0);
    put16(l4, 0);
    l4.resize(l4.size() + payload, std::byte('x'));
    return wrap(6, l4);
  }

  [[nodiscard]] std::vector<std::byte> udp(std::size_t payload) const {
    std::vector<std::byte> l4;
    put16(l4, sport);
    put16(l4, dport);
    put16(l4, static_cast<std::uint16_t>(8 + payload));
    put16(l4, 0);
    l4.resize(l4.size() + payload, std::byte('u'));
    return wrap(17, l4);
  }

 private:
  static void put16(std::vector<std::byte>& b, unsigned v) {
    b.push_back(std::byte((v >> 8) & 0xff));
    b.push_back(std::byte(v & 0xff));
  }
  static void put32(std::vector<std::byte>& b, std::uint32_t v) {
    put16(b, v >> 16);
    put16(b, v & 0xffff);
  }
  [[nodiscard]] std::vector<std::byte> wrap(std::uint8_t protocol, const std::vector<std::byte>& l4) const {
    const auto s = *netlib::packet::ip_address::parse(src);
    const auto d = *netlib::packet::ip_address::parse(dst);
    std::vector<std::byte> f{std::byte(0x02), std::byte(0), std::byte(0), std::byte(0), std::byte(0), std::byte(2),
                             std::byte(0x02), std::byte(0), std::byte(0), std::byte(0), std::byte(0), std::byte(1)};
    if (!s.v6) {
      put16(f, 0x0800);
      f.push_back(std::byte(0x45));
      f.push_back(std::byte(0));
      put16(f, static_cast<unsigned>(20 + l4.size()));
      put16(f, 0);
      put16(f, 0x4000);  // don't fragment
      f.push_back(std::byte(64));
      f.push_back(std::byte(protocol));
      put16(f, 0);
      for (int i = 0; i < 4; ++i) f.push_back(std::byte(s.octets[static_cast<std::size_t>(i)]));
      for (int i = 0; i < 4; ++i) f.push_back(std::byte(d.octets[static_cast<std::size_t>(i)]));
    } else {
      put16(f, 0x86DD);
      put32(f, 0x60000000u);
      put16(f, static_cast<unsigned>(l4.size()));
      f.push_back(std::byte(protocol));
      f.push_back(std::byte(64));
      for (auto o : s.octets) f.push_back(std::byte(o));
      for (auto o : d.octets) f.push_back(std::byte(o));
    }
    f.insert(f.end(), l4.begin(), l4.end());
    return f;
  }
};

}  // namespace netlab::test
