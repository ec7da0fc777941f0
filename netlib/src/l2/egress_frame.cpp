// The pure serializer for a frame leaving a port: IEEE 802.1Q-2018 §6.9.1 tagging at the edge.
// A tag is inserted after the source address (bytes 12..15: TPID 0x8100, TCI), removed from there,
// or has its VID rewritten keeping PCP and DEI.
#include "netlib/l2/learning_switch.hpp"

namespace netlib::l2 {

std::vector<std::byte> egress_frame(byte_view frame, const frame_header& header, const egress& out) {
  constexpr std::size_t addresses = 12;  // dst + src
  if (out.tagging == egress_tagging::as_received) return {frame.begin(), frame.end()};
  if (out.tagging == egress_tagging::untagged) {
    std::vector<std::byte> bytes(frame.begin(), frame.begin() + addresses);
    const std::size_t skip = header.tag ? addresses + vlan_tag_size : addresses;
    bytes.insert(bytes.end(), frame.begin() + static_cast<std::ptrdiff_t>(skip), frame.end());
    return bytes;
  }
  const std::uint8_t pcp_dei =
      header.tag ? static_cast<std::uint8_t>((header.tag->pcp << 1U) | (header.tag->dei ? 1U : 0U)) : 0;
  const auto tci = static_cast<std::uint16_t>((pcp_dei << 12U) | (out.vid & 0x0fffU));
  std::vector<std::byte> bytes(frame.begin(), frame.begin() + addresses);
  bytes.push_back(std::byte{0x81});
  bytes.push_back(std::byte{0x00});
  bytes.push_back(static_cast<std::byte>(tci >> 8U));
  bytes.push_back(static_cast<std::byte>(tci & 0xffU));
  const std::size_t skip = header.tag ? addresses + vlan_tag_size : addresses;
  bytes.insert(bytes.end(), frame.begin() + static_cast<std::ptrdiff_t>(skip), frame.end());
  return bytes;
}

}  // namespace netlib::l2
