#pragma once
// Hand-made packet bytes for the packet tests.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace netlab::test {

struct packet_bytes {
  std::vector<std::byte> b;
  packet_bytes& u8(unsigned v) {
    b.push_back(std::byte(v & 0xff));
    return *this;
  }
  packet_bytes& be16(unsigned v) { return u8(v >> 8).u8(v); }
  packet_bytes& be32(std::uint32_t v) { return be16(v >> 16).be16(v & 0xffff); }
  packet_bytes& bytes(std::initializer_list<int> v) {
    for (int x : v) u8(static_cast<unsigned>(x));
    return *this;
  }
  packet_bytes& text(std::string_view s) {
    for (char c : s) u8(static_cast<unsigned char>(c));
    return *this;
  }
  packet_bytes& append(const packet_bytes& o) {
    b.insert(b.end(), o.b.begin(), o.b.end());
    return *this;
  }
  [[nodiscard]] std::size_t size() const { return b.size(); }
};

inline packet_bytes ethernet_header(unsigned ethertype) {
  packet_bytes p;
  p.bytes({0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1}).be16(ethertype);
  return p;
}

// IPv4 header with the given protocol and payload length (and optional 4 bytes of options).
inline packet_bytes ipv4_header(unsigned protocol, unsigned payload, bool options = false, unsigned frag = 0) {
  packet_bytes p;
  const unsigned hlen = options ? 24 : 20;
  p.u8(0x40 | hlen / 4).u8(0).be16(hlen + payload).be16(0x1234).be16(frag).u8(64).u8(protocol).be16(0);
  p.bytes({10, 0, 0, 1, 10, 0, 0, 2});
  if (options) p.bytes({0x01, 0x01, 0x01, 0x00});  // NOP NOP NOP EOL
  return p;
}

// TCP header with MSS, SACK-permitted, timestamps and window scale options (40 bytes).
inline packet_bytes tcp_header(unsigned sport, unsigned dport, std::uint32_t seq, std::uint32_t ack, unsigned flags) {
  packet_bytes p;
  p.be16(sport).be16(dport).be32(seq).be32(ack).u8(10 << 4).u8(flags).be16(65535).be16(0).be16(0);
  p.bytes({2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, 7});
  return p;
}

}  // namespace netlab::test
