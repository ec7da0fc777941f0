// Decoding the bridge-relevant header of an Ethernet frame: IEEE 802.3-2018 §3.1.1 (dst, src,
// type/length) and an optional IEEE 802.1Q-2018 §9.6 C-tag (TPID 0x8100, TCI = PCP|DEI|VID).
#include "netlib/l2/frame_header.hpp"

namespace netlib::l2 {

namespace {
std::uint16_t be16(std::span<const std::byte> b, std::size_t at) noexcept {
  return static_cast<std::uint16_t>((std::to_integer<unsigned>(b[at]) << 8U) | std::to_integer<unsigned>(b[at + 1]));
}
}  // namespace

std::optional<frame_header> decode_frame_header(std::span<const std::byte> frame) noexcept {
  if (frame.size() < ethernet_header_size || frame.size() > max_frame_size) return std::nullopt;
  frame_header h;
  h.dst = mac_address::from_bytes(frame.subspan(0, 6));
  h.src = mac_address::from_bytes(frame.subspan(6, 6));
  h.ethertype = be16(frame, 12);
  h.header_size = ethernet_header_size;
  if (h.ethertype == tpid_8021q) {
    if (frame.size() < ethernet_header_size + vlan_tag_size) return std::nullopt;
    const std::uint16_t tci = be16(frame, 14);
    h.tag = vlan_tag{static_cast<std::uint8_t>(tci >> 13U), ((tci >> 12U) & 1U) != 0,
                     static_cast<std::uint16_t>(tci & 0x0fffU)};
    h.ethertype = be16(frame, 16);
    h.header_size += vlan_tag_size;
  }
  return h;
}

}  // namespace netlib::l2
