#pragma once
// Ethernet II and IEEE 802.3 frames with any number (up to max_vlan_tags) of 802.1Q / 802.1ad
// VLAN tags, and MAC addresses that print as lower-case aa:bb:cc:dd:ee:ff.
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"

namespace netlib::packet {

struct mac_address {
  std::array<std::uint8_t, 6> octets{};

  static mac_address from_bytes(const std::byte* p) noexcept {  // inline: two per frame
    mac_address m;
    std::memcpy(m.octets.data(), p, 6);
    return m;
  }
  // "aa:bb:cc:dd:ee:ff" or "aa-bb-..." (either case); nullopt otherwise.
  static std::optional<mac_address> parse(std::string_view text) noexcept;
  static constexpr mac_address broadcast() noexcept { return {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}; }

  [[nodiscard]] bool is_broadcast() const noexcept { return *this == broadcast(); }
  // IEEE 802: the I/G bit (least significant bit of the first octet) marks group addresses.
  [[nodiscard]] bool is_multicast() const noexcept { return (octets[0] & 1) != 0; }
  [[nodiscard]] std::string to_string() const;
  friend auto operator<=>(const mac_address&, const mac_address&) = default;
};

namespace ethertype {
inline constexpr std::uint16_t ipv4 = 0x0800;
inline constexpr std::uint16_t arp = 0x0806;
inline constexpr std::uint16_t vlan = 0x8100;      // IEEE 802.1Q C-tag
inline constexpr std::uint16_t qinq = 0x88a8;      // IEEE 802.1ad S-tag
inline constexpr std::uint16_t qinq_old = 0x9100;  // pre-standard stacked tag
inline constexpr std::uint16_t ipv6 = 0x86dd;
}  // namespace ethertype

// One 802.1Q tag: TPID, then PCP (3 bits), DEI (1 bit), VID (12 bits).
struct vlan_tag {
  std::uint16_t tpid = ethertype::vlan;
  std::uint8_t pcp = 0;
  bool dei = false;
  std::uint16_t vid = 0;
  friend bool operator==(const vlan_tag&, const vlan_tag&) = default;
};

inline constexpr std::size_t max_vlan_tags = 4;

struct ethernet_frame {
  mac_address dst;
  mac_address src;
  std::vector<vlan_tag> tags;   // outermost first
  std::uint16_t ethertype = 0;  // after the tags; <= 1500 means an 802.3 length (LLC follows)
  byte_view payload;            // bytes after the header (an 802.3 length trims the padding)
  std::size_t header_length = 0;

  [[nodiscard]] bool is_802_3() const noexcept { return ethertype <= 1500; }
};

// Decodes the 14-byte header and any VLAN tags. Errors: "truncated header", "truncated vlan
// tag", "too many vlan tags".
decoded<ethernet_frame> decode_ethernet(byte_view frame);
// The same into `out`, a default-constructed frame (no copy of the decoded header); on an error
// `out` holds a partial header that the caller discards.
std::optional<decode_error> decode_ethernet_into(byte_view frame, ethernet_frame& out);

// Builds a frame from dst, src, tags and ethertype of `header` followed by `payload`, padded with
// zeros to the 60-byte minimum (IEEE 802.3 §3.2.8, FCS not included).
std::vector<std::byte> encode_ethernet(const ethernet_frame& header, byte_view payload);

}  // namespace netlib::packet

template <>
struct fmt::formatter<netlib::packet::mac_address> : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(const netlib::packet::mac_address& m, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(m.to_string(), ctx);
  }
};

template <>
struct std::hash<netlib::packet::mac_address> {
  std::size_t operator()(const netlib::packet::mac_address& m) const noexcept {
    std::uint64_t v = 0;
    for (auto o : m.octets) v = (v << 8) | o;
    return std::hash<std::uint64_t>{}(v);
  }
};
