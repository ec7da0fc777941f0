#pragma once
// The hash functions switches and hosts use to spread flows over equal-cost paths
// (docs/architecture.md, "Data-centre core"), each checked against its published test vectors:
//   CRC-16/CCITT-FALSE  poly 0x1021, init 0xFFFF, not reflected          check("123456789") = 0x29B1
//   CRC-32 (IEEE 802.3) poly 0x04C11DB7 reflected, init/xorout 0xFFFFFFFF check("123456789") = 0xCBF43926
//   XOR fold            the XOR of the input's big-endian 16-bit words
//   Toeplitz            Microsoft's RSS hash with a secret key (RSS verification suite)
//   SipHash-2-4         Aumasson and Bernstein's keyed hash, the one Linux's flow dissector uses
// and the flow hash Linux's IPv4/IPv6 multipath routing computes (fib_multipath_hash with
// net.ipv4.fib_multipath_hash_seed set, Linux 6.11 and later), rebuilt byte for byte.
#include <array>
#include <cstdint>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/ip_address.hpp"

namespace netlib::dc {

std::uint16_t crc16_ccitt(byte_view data, std::uint16_t init = 0xFFFF) noexcept;
std::uint32_t crc32(byte_view data, std::uint32_t init = 0xFFFFFFFF) noexcept;
std::uint16_t xor_fold16(byte_view data) noexcept;
std::uint64_t siphash24(std::uint64_t k0, std::uint64_t k1, byte_view data) noexcept;

// Microsoft's 40-byte example RSS key (the verification suite's key), extended cyclically to
// toeplitz_key_bytes so that IPv6 inputs of up to 48 bytes can be hashed.
inline constexpr std::size_t toeplitz_key_bytes = 52;
using toeplitz_key = std::array<std::uint8_t, toeplitz_key_bytes>;
const toeplitz_key& microsoft_rss_key() noexcept;

// The Toeplitz hash of `data` (at most toeplitz_key_bytes - 4 bytes): for each set bit i of the
// input, counted from the most significant bit of the first byte, XOR in the 32 key bits that
// start at key bit i. Bit by bit, as the RSS specification states it.
std::uint32_t toeplitz(const toeplitz_key& key, byte_view data) noexcept;

// The same hash from per-position byte tables (32 lookups for 32 bytes instead of 256 bit steps):
// what the placement loop uses.
class toeplitz_table {
 public:
  explicit toeplitz_table(const toeplitz_key& key);
  [[nodiscard]] std::uint32_t operator()(byte_view data) const noexcept;

 private:
  static constexpr std::size_t max_input = toeplitz_key_bytes - 4;
  std::array<std::array<std::uint32_t, 256>, max_input> table_{};
};

// A flow's identity as hashing sees it.
struct flow_key {
  packet::ip_address src;
  packet::ip_address dst;
  std::uint8_t protocol = 6;  // IANA protocol number: 6 TCP, 17 UDP
  std::uint16_t src_port = 0;
  std::uint16_t dst_port = 0;
  friend bool operator==(const flow_key&, const flow_key&) = default;
};

// Which fields a switch hashes.
//   two   source and destination address (Linux's L3 policy)
//   three the addresses and the protocol
//   four  the addresses and the ports, in RSS's order (the Toeplitz vectors' "IPv4 with TCP")
//   five  the addresses, the ports and the protocol (Linux's L4 policy)
enum class field_set : std::uint8_t { two = 2, three = 3, four = 4, five = 5 };

// The bytes the CRC, XOR and Toeplitz hashes read, in network byte order: source address,
// destination address (4 bytes each for IPv4, 16 for IPv6), then source and destination port
// (four, five), then the protocol byte (three, five). Returns the length written (at most 37).
std::size_t serialize_key(const flow_key& key, field_set fields, std::array<std::byte, 40>& out) noexcept;

// Linux's multipath flow hash: the struct flow_keys the kernel fills for the chosen policy
// (two: addresses only; five: addresses, ports and protocol; three and four: those fields), made
// direction-independent as __flow_hash_consistentify does, SipHash-2-4 of its hashed part keyed
// with (seed | seed << 32) twice, a zero result replaced by 1, shifted right by one: a 31-bit value.
// IPv6 flows are hashed with flow label 0.
std::uint32_t linux_multipath_hash(const flow_key& key, field_set fields, std::uint32_t seed) noexcept;

// Linux's choice among n equal-weight next hops for a 31-bit hash (fib_select_multipath):
// next hop i owns hashes up to round((i + 1) * 2^31 / n) - 1 (hash-threshold, RFC 2992).
std::size_t linux_select(std::uint32_t hash31, std::size_t n) noexcept;

}  // namespace netlib::dc
