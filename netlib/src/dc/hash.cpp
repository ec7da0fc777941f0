// Theory of operation: the CRCs are table-driven (one 256-entry table each, built at compile
// time); the Toeplitz hash exists twice, bit by bit as the RSS specification states it and from
// per-byte tables for speed, and the tests check both against the verification suite. The Linux
// flow hash fills the same bytes as the kernel's struct flow_keys (include/net/flow_dissector.h):
// the hashed part starts at `basic` and runs to the end of the address, and every field a policy
// does not use is zero.
#include "netlib/dc/hash.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace netlib::dc {
namespace {

constexpr std::array<std::uint16_t, 256> make_crc16_table() {
  std::array<std::uint16_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i) {
    auto c = static_cast<std::uint16_t>(i << 8);
    for (int k = 0; k < 8; ++k) c = static_cast<std::uint16_t>((c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1);
    t[i] = c;
  }
  return t;
}

constexpr std::array<std::uint32_t, 256> make_crc32_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    t[i] = c;
  }
  return t;
}

constexpr auto crc16_table = make_crc16_table();
constexpr auto crc32_table = make_crc32_table();

// Two bytes at a time: with x = register ^ (b0 << 8 | b1), the register after both bytes is
// T2[x >> 8] ^ T[x & 0xff], where T2[i] = (T[i] << 8) ^ T[T[i] >> 8] (the CRC is linear).
constexpr std::array<std::uint16_t, 256> make_crc16_table2() {
  std::array<std::uint16_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i) {
    t[i] = static_cast<std::uint16_t>(((crc16_table[i] & 0xff) << 8) ^ crc16_table[crc16_table[i] >> 8]);
  }
  return t;
}
constexpr auto crc16_table2 = make_crc16_table2();

// Four bytes at a time (slicing by 4): table k advances a byte through k more zero bytes.
constexpr std::array<std::array<std::uint32_t, 256>, 4> make_crc32_slices() {
  std::array<std::array<std::uint32_t, 256>, 4> t{};
  t[0] = crc32_table;
  for (std::size_t k = 1; k < 4; ++k) {
    for (unsigned i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ crc32_table[t[k - 1][i] & 0xff];
  }
  return t;
}
constexpr auto crc32_slices = make_crc32_slices();

constexpr std::array<std::uint8_t, 40> microsoft_key_40{0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
                                                        0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
                                                        0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
                                                        0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};

constexpr toeplitz_key make_microsoft_key() {
  toeplitz_key k{};
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = microsoft_key_40[i % microsoft_key_40.size()];
  return k;
}
constexpr toeplitz_key microsoft_key = make_microsoft_key();

// The 32 key bits starting at bit `bit` (bit 0 = most significant bit of key byte 0).
std::uint32_t key_window(const toeplitz_key& key, std::size_t bit) noexcept {
  const std::size_t byte = bit / 8;
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < 5; ++i) w = (w << 8) | (byte + i < key.size() ? key[byte + i] : 0u);
  return static_cast<std::uint32_t>(w >> (8 - bit % 8));
}

constexpr std::uint64_t rotl(std::uint64_t x, int b) noexcept {
  return (x << b) | (x >> (64 - b));
}

struct sip_state {
  std::uint64_t v0, v1, v2, v3;
  void round() noexcept {
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  }
};

std::uint64_t load_le64(const std::byte* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

// The kernel's struct flow_keys from `basic` on, for IPv4 (48 bytes) or IPv6 (72 bytes):
//   0 n_proto (left 0 by fib_multipath_hash)  2 ip_proto  4 flow label  8 vlan  16 cvlan  24 keyid
//   28 source port  30 destination port  32 icmp  36 source address, then destination address.
constexpr std::size_t fk_proto = 2, fk_ports = 28, fk_addrs = 36;

}  // namespace

std::uint16_t crc16_ccitt(byte_view data, std::uint16_t init) noexcept {
  unsigned c = init;
  const std::byte* p = data.data();
  std::size_t n = data.size();
  for (; n >= 2; n -= 2, p += 2) {
    const unsigned x = c ^ ((std::to_integer<unsigned>(p[0]) << 8) | std::to_integer<unsigned>(p[1]));
    c = crc16_table2[(x >> 8) & 0xff] ^ crc16_table[x & 0xff];
  }
  if (n) c = ((c << 8) ^ crc16_table[((c >> 8) ^ std::to_integer<unsigned>(p[0])) & 0xff]) & 0xffff;
  return static_cast<std::uint16_t>(c);
}

std::uint32_t crc32(byte_view data, std::uint32_t init) noexcept {
  std::uint32_t c = init;
  const std::byte* p = data.data();
  std::size_t n = data.size();
  for (; n >= 4; n -= 4, p += 4) {
    c ^= std::to_integer<std::uint32_t>(p[0]) | (std::to_integer<std::uint32_t>(p[1]) << 8) |
         (std::to_integer<std::uint32_t>(p[2]) << 16) | (std::to_integer<std::uint32_t>(p[3]) << 24);
    c = crc32_slices[3][c & 0xff] ^ crc32_slices[2][(c >> 8) & 0xff] ^ crc32_slices[1][(c >> 16) & 0xff] ^
        crc32_slices[0][c >> 24];
  }
  for (; n; --n, ++p) c = (c >> 8) ^ crc32_table[(c ^ std::to_integer<std::uint32_t>(*p)) & 0xff];
  return c ^ 0xFFFFFFFFu;
}

std::uint16_t xor_fold16(byte_view data) noexcept {
  std::uint16_t x = 0;
  for (std::size_t i = 0; i < data.size(); i += 2) {
    const unsigned hi = std::to_integer<unsigned>(data[i]);
    const unsigned lo = i + 1 < data.size() ? std::to_integer<unsigned>(data[i + 1]) : 0u;
    x = static_cast<std::uint16_t>(x ^ ((hi << 8) | lo));
  }
  return x;
}

std::uint64_t siphash24(std::uint64_t k0, std::uint64_t k1, byte_view data) noexcept {
  sip_state s{k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL, k0 ^ 0x6c7967656e657261ULL,
              k1 ^ 0x7465646279746573ULL};
  const std::size_t n = data.size(), end = n - n % 8;
  for (std::size_t i = 0; i < end; i += 8) {
    const std::uint64_t m = load_le64(data.data() + i);
    s.v3 ^= m;
    s.round();
    s.round();
    s.v0 ^= m;
  }
  std::uint64_t b = static_cast<std::uint64_t>(n & 0xff) << 56;
  for (std::size_t i = end; i < n; ++i) b |= std::to_integer<std::uint64_t>(data[i]) << (8 * (i - end));
  s.v3 ^= b;
  s.round();
  s.round();
  s.v0 ^= b;
  s.v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) s.round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

const toeplitz_key& microsoft_rss_key() noexcept {
  return microsoft_key;
}

std::uint32_t toeplitz(const toeplitz_key& key, byte_view data) noexcept {
  std::uint32_t result = 0;
  const std::size_t n = std::min(data.size(), toeplitz_key_bytes - 4);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned byte = std::to_integer<unsigned>(data[i]);
    for (unsigned bit = 0; bit < 8; ++bit) {
      if (byte & (0x80u >> bit)) result ^= key_window(key, i * 8 + bit);
    }
  }
  return result;
}

toeplitz_table::toeplitz_table(const toeplitz_key& key) {
  for (std::size_t pos = 0; pos < max_input; ++pos) {
    std::array<std::uint32_t, 8> windows{};
    for (unsigned bit = 0; bit < 8; ++bit) windows[bit] = key_window(key, pos * 8 + bit);
    for (unsigned b = 0; b < 256; ++b) {
      std::uint32_t v = 0;
      for (unsigned bit = 0; bit < 8; ++bit) {
        if (b & (0x80u >> bit)) v ^= windows[bit];
      }
      table_[pos][b] = v;
    }
  }
}

std::uint32_t toeplitz_table::operator()(byte_view data) const noexcept {
  std::uint32_t result = 0;
  const std::size_t n = std::min(data.size(), max_input);
  for (std::size_t i = 0; i < n; ++i) result ^= table_[i][std::to_integer<std::size_t>(data[i])];
  return result;
}

std::size_t serialize_key(const flow_key& key, field_set fields, std::array<std::byte, 40>& out) noexcept {
  std::size_t n = 0;
  if (!key.src.v6) {
    std::memcpy(out.data(), key.src.octets.data(), 4);
    std::memcpy(out.data() + 4, key.dst.octets.data(), 4);
    n = 8;
  } else {
    std::memcpy(out.data(), key.src.octets.data(), 16);
    std::memcpy(out.data() + 16, key.dst.octets.data(), 16);
    n = 32;
  }
  if (fields == field_set::four || fields == field_set::five) {
    out[n++] = std::byte(key.src_port >> 8);
    out[n++] = std::byte(key.src_port & 0xff);
    out[n++] = std::byte(key.dst_port >> 8);
    out[n++] = std::byte(key.dst_port & 0xff);
  }
  if (fields == field_set::three || fields == field_set::five) out[n++] = std::byte(key.protocol);
  return n;
}

std::uint32_t linux_multipath_hash(const flow_key& key, field_set fields, std::uint32_t seed) noexcept {
  std::array<std::byte, 72> fk{};
  const bool v6 = key.src.v6;
  const std::size_t alen = v6 ? 16 : 4;
  const bool ports = fields == field_set::four || fields == field_set::five;
  // IPv6's L3 policy also hashes the next header (rt6_multipath_hash, ip6_multipath_l3_keys).
  const bool proto = fields == field_set::three || fields == field_set::five || v6;
  if (proto) fk[fk_proto] = std::byte(key.protocol);
  // __flow_hash_consistentify: the lower address first (compared as the kernel compares them:
  // IPv4 as a native 32-bit word, IPv6 with memcmp), and independently the lower port first
  // (a native 16-bit compare of the big-endian field).
  const std::uint8_t* a = key.src.octets.data();
  const std::uint8_t* b = key.dst.octets.data();
  bool swap_addrs = false;
  if (v6) {
    swap_addrs = std::memcmp(b, a, 16) < 0;
  } else {
    std::uint32_t sa = 0, da = 0;
    for (int i = 3; i >= 0; --i) {
      sa = (sa << 8) | a[i];
      da = (da << 8) | b[i];
    }
    swap_addrs = da < sa;
  }
  if (swap_addrs) std::swap(a, b);
  std::memcpy(fk.data() + fk_addrs, a, alen);
  std::memcpy(fk.data() + fk_addrs + alen, b, alen);
  if (ports) {
    std::array<std::byte, 2> sp{std::byte(key.src_port >> 8), std::byte(key.src_port & 0xff)};
    std::array<std::byte, 2> dp{std::byte(key.dst_port >> 8), std::byte(key.dst_port & 0xff)};
    const auto native16 = [](const std::array<std::byte, 2>& p) {
      return std::to_integer<unsigned>(p[0]) | (std::to_integer<unsigned>(p[1]) << 8);
    };
    if (native16(dp) < native16(sp)) std::swap(sp, dp);
    std::memcpy(fk.data() + fk_ports, sp.data(), 2);
    std::memcpy(fk.data() + fk_ports + 2, dp.data(), 2);
  }
  const std::uint64_t k = (static_cast<std::uint64_t>(seed) << 32) | seed;
  auto h = static_cast<std::uint32_t>(siphash24(k, k, byte_view(fk.data(), v6 ? 72 : 48)));
  if (h == 0) h = 1;
  return h >> 1;
}

std::size_t linux_select(std::uint32_t hash31, std::size_t n) noexcept {
  if (n <= 1) return 0;
  const auto upper = [n](std::size_t i) {
    const std::uint64_t w = static_cast<std::uint64_t>(i + 1) << 31;
    return static_cast<std::int64_t>((w + n / 2) / n) - 1;
  };
  auto i = static_cast<std::size_t>((static_cast<std::uint64_t>(hash31) * n) >> 31);
  if (i >= n) i = n - 1;
  while (i > 0 && static_cast<std::int64_t>(hash31) <= upper(i - 1)) --i;
  while (i + 1 < n && static_cast<std::int64_t>(hash31) > upper(i)) ++i;
  return i;
}

}  // namespace netlib::dc
