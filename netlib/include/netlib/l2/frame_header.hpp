#pragma once
// The part of an Ethernet II / IEEE 802.3 frame a bridge looks at: destination, source and an
// optional IEEE 802.1Q tag (IEEE 802.1Q-2018 §9.6). No FCS is expected (captures omit it).
#include "netlib/l2/mac_address.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace netlib::l2 {

inline constexpr std::uint16_t tpid_8021q = 0x8100;   // IEEE 802.1Q-2018 §9.5, C-VLAN tag
inline constexpr std::size_t ethernet_header_size = 14;  // dst(6) src(6) type/length(2)
inline constexpr std::size_t vlan_tag_size = 4;          // TPID(2) TCI(2)
inline constexpr std::size_t max_frame_size = 65535;     // largest frame a port accepts

struct vlan_tag {
  std::uint8_t pcp = 0;   // priority code point, 3 bits
  bool dei = false;       // drop eligible indicator
  std::uint16_t vid = 0;  // 12 bits; 0 = priority tag only, 0xfff reserved
};

struct frame_header {
  mac_address dst;
  mac_address src;
  std::optional<vlan_tag> tag;  // the outer 802.1Q tag, if any
  std::uint16_t ethertype = 0;  // type/length after the tag
  std::size_t header_size = 0;  // 14, or 18 with a tag
};

// Decodes the header of a frame; nullopt when the frame is shorter than its header or longer than
// max_frame_size (a malformed frame, counted and skipped by the caller).
std::optional<frame_header> decode_frame_header(std::span<const std::byte> frame) noexcept;

}  // namespace netlib::l2
