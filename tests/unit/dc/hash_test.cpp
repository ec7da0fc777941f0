// The ECMP hashes against published test vectors: the CRC catalogue's check values for
// "123456789", SipHash-2-4's reference vectors (Aumasson and Bernstein, appendix A), the Toeplitz
// examples of Microsoft's RSS verification suite ("Verifying the RSS Hash Calculation"), and next
// hops the Linux kernel chose itself (recorded with `ip route get` on Linux 6.18).
#include "netlib/dc/hash.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netlib/calc/prng.hpp"

namespace hash_test {

using namespace netlib::dc;
using netlib::packet::ip_address;

ip_address ip(const char* text) {
  return *ip_address::parse(text);
}

netlib::byte_view bytes(const std::string& s) {
  return netlib::as_bytes(s);
}

TEST(DcHash, crc16_ccitt_check_value) {
  EXPECT_EQ(crc16_ccitt(bytes("123456789")), 0x29B1);          // CRC-16/CCITT-FALSE (IBM-3740)
  EXPECT_EQ(crc16_ccitt(bytes("123456789"), 0x0000), 0x31C3);  // the same register from 0: CRC-16/XMODEM
  EXPECT_EQ(crc16_ccitt(bytes("")), 0xFFFF);
}

TEST(DcHash, crc32_check_value) {
  EXPECT_EQ(crc32(bytes("123456789")), 0xCBF43926u);  // CRC-32/ISO-HDLC, as zlib and Ethernet
  EXPECT_EQ(crc32(bytes("")), 0u);
  EXPECT_EQ(crc32(bytes("The quick brown fox jumps over the lazy dog")), 0x414FA339u);
}

// The table-driven CRCs (two and four bytes at a time) against the bit-by-bit definitions, on
// every length up to 64 and random registers.
TEST(DcHash, crcs_equal_their_bitwise_definitions) {
  netlib::calc::prng g(11);
  for (int round = 0; round < 3000; ++round) {
    std::string data(static_cast<std::size_t>(round % 65), '\0');
    for (auto& c : data) c = static_cast<char>(g.next());
    const auto init16 = static_cast<std::uint16_t>(g.next());
    const auto init32 = static_cast<std::uint32_t>(g.next());
    std::uint16_t r16 = init16;
    std::uint32_t r32 = init32;
    for (unsigned char byte : data) {
      r16 = static_cast<std::uint16_t>(r16 ^ (byte << 8));
      for (int k = 0; k < 8; ++k) r16 = static_cast<std::uint16_t>((r16 & 0x8000) ? (r16 << 1) ^ 0x1021 : r16 << 1);
      r32 ^= byte;
      for (int k = 0; k < 8; ++k) r32 = (r32 & 1) ? (r32 >> 1) ^ 0xEDB88320u : r32 >> 1;
    }
    ASSERT_EQ(crc16_ccitt(bytes(data), init16), r16) << data.size();
    ASSERT_EQ(crc32(bytes(data), init32), r32 ^ 0xFFFFFFFFu) << data.size();
  }
}

TEST(DcHash, xor_fold_by_hand) {
  // 10.0.0.2 -> 10.0.0.6: 0x0a00 ^ 0x0002 ^ 0x0a00 ^ 0x0006 = 0x0004.
  flow_key k{ip("10.0.0.2"), ip("10.0.0.6"), 6, 0x1234, 0x5678};
  std::array<std::byte, 40> buf;
  const auto n = serialize_key(k, field_set::two, buf);
  ASSERT_EQ(n, 8u);
  EXPECT_EQ(xor_fold16(netlib::byte_view(buf.data(), n)), 0x0004);
  // Five fields add the ports and the protocol byte (padded to a word): ^ 0x1234 ^ 0x5678 ^ 0x0600.
  const auto n5 = serialize_key(k, field_set::five, buf);
  ASSERT_EQ(n5, 13u);
  EXPECT_EQ(xor_fold16(netlib::byte_view(buf.data(), n5)), 0x0004 ^ 0x1234 ^ 0x5678 ^ 0x0600);
}

TEST(DcHash, siphash_reference_vectors) {
  // Key 00 01 .. 0f; messages 00 01 .. (n-1); the reference's vectors[0], [1], [15] and [63].
  const std::uint64_t k0 = 0x0706050403020100ULL, k1 = 0x0f0e0d0c0b0a0908ULL;
  std::string msg;
  for (int i = 0; i < 64; ++i) msg.push_back(static_cast<char>(i));
  EXPECT_EQ(siphash24(k0, k1, bytes(msg.substr(0, 0))), 0x726fdb47dd0e0e31ULL);
  EXPECT_EQ(siphash24(k0, k1, bytes(msg.substr(0, 1))), 0x74f839c593dc67fdULL);
  EXPECT_EQ(siphash24(k0, k1, bytes(msg.substr(0, 15))), 0xa129ca6149be45e5ULL);
  EXPECT_EQ(siphash24(k0, k1, bytes(msg.substr(0, 63))), 0x958a324ceb064572ULL);
}

struct rss_vector {
  const char* dst;
  std::uint16_t dport;
  const char* src;
  std::uint16_t sport;
  std::uint32_t addresses_only;
  std::uint32_t with_tcp;
};

// Microsoft's table lists destination first; RSS hashes source address, destination address,
// source port, destination port.
const rss_vector rss_vectors[] = {
    {"161.142.100.80", 1766, "66.9.149.187", 2794, 0x323e8fc2, 0x51ccc178},
    {"65.69.140.83", 4739, "199.92.111.2", 14230, 0xd718262a, 0xc626b0ea},
    {"12.22.207.184", 38024, "24.19.198.95", 12898, 0xd2d0a5de, 0x5c2b394a},
    {"209.142.163.6", 2217, "38.27.205.30", 48228, 0x82989176, 0xafc7327f},
    {"202.188.127.2", 1303, "153.39.163.191", 44251, 0x5d1809c5, 0x10e828a2},
    {"3ffe:2501:200:3::1", 1766, "3ffe:2501:200:1fff::7", 2794, 0x2cc18cd5, 0x40207d3d},
    {"ff02::1", 4739, "3ffe:501:8::260:97ff:fe40:efab", 14230, 0x0f0c461c, 0xdde51bbf},
    {"fe80::200:f8ff:fe21:67cf", 38024, "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251, 0x4b61e985, 0x02d1feef},
};

TEST(DcHash, toeplitz_microsoft_verification_suite) {
  const toeplitz_table table(microsoft_rss_key());
  for (const auto& v : rss_vectors) {
    SCOPED_TRACE(std::string(v.src) + " -> " + v.dst);
    const flow_key k{ip(v.src), ip(v.dst), 6, v.sport, v.dport};
    std::array<std::byte, 40> buf;
    const auto n2 = serialize_key(k, field_set::two, buf);
    EXPECT_EQ(toeplitz(microsoft_rss_key(), netlib::byte_view(buf.data(), n2)), v.addresses_only);
    EXPECT_EQ(table(netlib::byte_view(buf.data(), n2)), v.addresses_only);
    const auto n4 = serialize_key(k, field_set::four, buf);
    EXPECT_EQ(toeplitz(microsoft_rss_key(), netlib::byte_view(buf.data(), n4)), v.with_tcp);
    EXPECT_EQ(table(netlib::byte_view(buf.data(), n4)), v.with_tcp);
  }
}

TEST(DcHash, toeplitz_table_equals_the_bitwise_definition) {
  netlib::calc::prng g(7);
  toeplitz_key key;
  for (auto& b : key) b = static_cast<std::uint8_t>(g.next());
  const toeplitz_table table(key);
  for (int i = 0; i < 2000; ++i) {
    std::array<std::byte, 48> in;
    for (auto& b : in) b = std::byte(g.next() & 0xff);
    const auto len = static_cast<std::size_t>(g.between(0, 48));
    ASSERT_EQ(table(netlib::byte_view(in.data(), len)), toeplitz(key, netlib::byte_view(in.data(), len))) << len;
  }
}

TEST(DcHash, key_layout) {
  const flow_key k{ip("1.2.3.4"), ip("5.6.7.8"), 17, 0x0102, 0x0304};
  std::array<std::byte, 40> buf;
  const auto n = serialize_key(k, field_set::five, buf);
  const std::vector<int> want{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 17};
  ASSERT_EQ(n, want.size());
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(std::to_integer<int>(buf[i]), want[i]) << i;
  EXPECT_EQ(serialize_key(k, field_set::three, buf), 9u);
  EXPECT_EQ(std::to_integer<int>(buf[8]), 17);
  const flow_key k6{ip("2001:db8::1"), ip("2001:db8::2"), 6, 1, 2};
  EXPECT_EQ(serialize_key(k6, field_set::five, buf), 37u);
}

// Linux's threshold choice: next hop i takes hashes up to round((i + 1)·2^31/n) - 1.
TEST(DcHash, linux_select_boundaries) {
  EXPECT_EQ(linux_select(0, 4), 0u);
  EXPECT_EQ(linux_select((1u << 29) - 1, 4), 0u);
  EXPECT_EQ(linux_select(1u << 29, 4), 1u);
  EXPECT_EQ(linux_select((1u << 31) - 1, 4), 3u);
  // 2^31/3 = 715827882.67: round to 715827883, minus 1.
  EXPECT_EQ(linux_select(715827882, 3), 0u);
  EXPECT_EQ(linux_select(715827883, 3), 1u);
  EXPECT_EQ(linux_select(1431655764, 3), 1u);  // 2·2^31/3 = 1431655765.33: round, minus 1
  EXPECT_EQ(linux_select(1431655765, 3), 2u);
  EXPECT_EQ(linux_select(12345, 1), 0u);
  // Against the definition, for every n up to 64 at random points.
  netlib::calc::prng g(3);
  for (std::size_t n = 1; n <= 64; ++n) {
    for (int i = 0; i < 500; ++i) {
      const auto h = static_cast<std::uint32_t>(g.next() >> 33);
      std::size_t want = 0;
      while (static_cast<std::int64_t>(h) >
             static_cast<std::int64_t>((((std::uint64_t(want) + 1) << 31) + n / 2) / n) - 1)
        ++want;
      ASSERT_EQ(linux_select(h, n), want) << h << " " << n;
    }
  }
}

// Recorded on Linux 6.18: a namespace with a route to 10.9.0.0/16 over four next hops (e1..e4),
// net.ipv4.fib_multipath_hash_seed set, and `ip route get DST from SRC iif X ipproto udp sport S
// dport D` for policy 0 (L3) and 1 (L4). The kernel's choice is the next hop's position.
struct kernel_choice {
  std::uint32_t seed;
  int policy;
  const char* src;
  const char* dst;
  std::uint16_t sport, dport;
  std::size_t nexthop;  // 1-based, as e1..e4
};
const kernel_choice kernel_choices[] = {
    {7, 0, "10.1.0.1", "10.9.1.3", 1007, 5013, 2},           {7, 0, "10.1.0.4", "10.9.4.12", 1028, 5052, 4},
    {7, 0, "10.1.0.7", "10.9.7.21", 1049, 5091, 1},          {7, 0, "10.1.0.10", "10.9.10.30", 1070, 5130, 3},
    {7, 1, "10.1.0.1", "10.9.1.3", 1007, 5013, 4},           {7, 1, "10.1.0.4", "10.9.4.12", 1028, 5052, 4},
    {7, 1, "10.1.0.7", "10.9.7.21", 1049, 5091, 2},          {7, 1, "10.1.0.10", "10.9.10.30", 1070, 5130, 4},
    {123456, 0, "10.1.0.1", "10.9.1.3", 1007, 5013, 4},      {123456, 0, "10.1.0.4", "10.9.4.12", 1028, 5052, 4},
    {123456, 0, "10.1.0.7", "10.9.7.21", 1049, 5091, 1},     {123456, 0, "10.1.0.10", "10.9.10.30", 1070, 5130, 2},
    {123456, 1, "10.1.0.1", "10.9.1.3", 1007, 5013, 3},      {123456, 1, "10.1.0.4", "10.9.4.12", 1028, 5052, 1},
    {123456, 1, "10.1.0.7", "10.9.7.21", 1049, 5091, 2},     {123456, 1, "10.1.0.10", "10.9.10.30", 1070, 5130, 2},
    {4000000000, 0, "10.1.0.1", "10.9.1.3", 1007, 5013, 2},  {4000000000, 0, "10.1.0.4", "10.9.4.12", 1028, 5052, 4},
    {4000000000, 0, "10.1.0.7", "10.9.7.21", 1049, 5091, 3}, {4000000000, 0, "10.1.0.10", "10.9.10.30", 1070, 5130, 3},
    {4000000000, 1, "10.1.0.1", "10.9.1.3", 1007, 5013, 3},  {4000000000, 1, "10.1.0.4", "10.9.4.12", 1028, 5052, 1},
    {4000000000, 1, "10.1.0.7", "10.9.7.21", 1049, 5091, 4}, {4000000000, 1, "10.1.0.10", "10.9.10.30", 1070, 5130, 1},
};

TEST(DcHash, linux_multipath_hash_matches_recorded_kernel_choices) {
  for (const auto& c : kernel_choices) {
    SCOPED_TRACE(std::string(c.src) + " -> " + c.dst + " policy " + std::to_string(c.policy) + " seed " +
                 std::to_string(c.seed));
    const flow_key k{ip(c.src), ip(c.dst), 17, c.sport, c.dport};
    const auto h = linux_multipath_hash(k, c.policy == 0 ? field_set::two : field_set::five, c.seed);
    EXPECT_LT(h, 1u << 31);
    EXPECT_EQ(linux_select(h, 4) + 1, c.nexthop);
  }
}

TEST(DcHash, linux_hash_is_the_same_both_ways) {
  // __flow_hash_consistentify: a flow and its reply hash alike.
  const flow_key k{ip("10.0.0.2"), ip("10.0.0.6"), 6, 40000, 5001};
  const flow_key back{ip("10.0.0.6"), ip("10.0.0.2"), 6, 5001, 40000};
  for (auto f : {field_set::two, field_set::five}) {
    EXPECT_EQ(linux_multipath_hash(k, f, 99), linux_multipath_hash(back, f, 99));
  }
  EXPECT_NE(linux_multipath_hash(k, field_set::five, 99), linux_multipath_hash(k, field_set::five, 100));
  // The L3 policy ignores the ports.
  flow_key other = k;
  other.src_port = 1;
  EXPECT_EQ(linux_multipath_hash(k, field_set::two, 5), linux_multipath_hash(other, field_set::two, 5));
  EXPECT_NE(linux_multipath_hash(k, field_set::five, 5), linux_multipath_hash(other, field_set::five, 5));
}

}  // namespace hash_test
