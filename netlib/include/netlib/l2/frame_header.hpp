#pragma once
// The part of an Ethernet frame a bridge looks at: destination, source and the outer IEEE 802.1Q
// C-tag if there is one (IEEE 802.1Q-2018 §9.6). Decoded with netlib::packet::decode_ethernet; no
// FCS is expected (captures omit it).
#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"
#include "netlib/packet/ethernet.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

namespace netlib::l2 {

using mac_address = netlib::packet::mac_address;
using netlib::packet::vlan_tag;

inline constexpr std::uint16_t tpid_8021q = netlib::packet::ethertype::vlan;  // C-VLAN tag
inline constexpr std::size_t vlan_tag_size = 4;                               // TPID(2) TCI(2)
inline constexpr std::size_t max_frame_size = 65535;                          // largest frame a port accepts

struct frame_header {
  mac_address dst;
  mac_address src;
  std::optional<vlan_tag> tag;  // the outer tag when it is an 802.1Q C-tag (TPID 0x8100)
  std::uint16_t ethertype = 0;  // type/length after all tags
  std::size_t header_size = 0;  // 14 + 4 per tag
};

// Decodes the header of a frame; an error (counted and skipped by the caller) when it is shorter
// than its header, has too many tags, or is longer than max_frame_size.
netlib::packet::decoded<frame_header> decode_frame_header(byte_view frame);
// The same into `out` (the switch's per-frame path: no header decoded aside and copied); on an
// error `out` is unspecified.
std::optional<netlib::packet::decode_error> decode_frame_header_into(byte_view frame, frame_header& out);

// Helpers on MAC addresses the switch needs.
constexpr std::uint64_t to_u64(const mac_address& mac) noexcept {
  if (!std::is_constant_evaluated() && std::endian::native == std::endian::little) {
    std::uint64_t v = 0;  // one load and a byte swap instead of six shifts (two per frame)
    std::memcpy(&v, mac.octets.data(), 6);
    return __builtin_bswap64(v) >> 16U;
  }
  std::uint64_t v = 0;
  for (auto o : mac.octets) v = (v << 8U) | o;
  return v;
}
constexpr mac_address mac_from_u64(std::uint64_t v) noexcept {
  mac_address m;
  for (int i = 5; i >= 0; --i, v >>= 8U) m.octets[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v & 0xffU);
  return m;
}
// An individual (unicast), non-zero address: the only kind of source a bridge learns.
constexpr bool is_learnable_source(const mac_address& mac) noexcept {
  return (mac.octets[0] & 0x01U) == 0 && to_u64(mac) != 0;
}

}  // namespace netlib::l2
