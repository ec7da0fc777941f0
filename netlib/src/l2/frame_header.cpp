// The bridge's view of a frame, from netlib::packet::decode_ethernet (IEEE 802.3 §3.1.1 header,
// stacked 802.1Q/802.1ad tags). A C-VLAN bridge classifies on the outer tag only when it is a
// C-tag (TPID 0x8100, IEEE 802.1Q-2018 §9.5); an S-tagged frame is untagged for it. An untagged
// frame (no TPID at offset 12) is read directly: no tag list to build.
#include "netlib/l2/frame_header.hpp"

#include "netlib/packet/wire.hpp"

namespace netlib::l2 {

netlib::packet::decoded<frame_header> decode_frame_header(byte_view frame) {
  frame_header h;
  if (auto error = decode_frame_header_into(frame, h)) return *error;
  return h;
}

std::optional<netlib::packet::decode_error> decode_frame_header_into(byte_view frame, frame_header& h) {
  if (frame.size() > max_frame_size) return netlib::packet::decode_error{"ethernet", "frame too long"};
  if (frame.size() >= 14) {  // fast path, the usual untagged frame: what decode_ethernet would give
    const std::uint16_t type = netlib::packet::wire::be16(frame.data() + 12);
    if (type != netlib::packet::ethertype::vlan && type != netlib::packet::ethertype::qinq &&
        type != netlib::packet::ethertype::qinq_old) {
      h.dst = mac_address::from_bytes(frame.data());
      h.src = mac_address::from_bytes(frame.data() + 6);
      h.tag.reset();
      h.ethertype = type;
      h.header_size = 14;
      return std::nullopt;
    }
  }
  auto eth = netlib::packet::decode_ethernet(frame);
  if (!eth) return eth.error();
  h = frame_header{};
  h.dst = eth->dst;
  h.src = eth->src;
  if (!eth->tags.empty() && eth->tags.front().tpid == tpid_8021q) h.tag = eth->tags.front();
  h.ethertype = eth->ethertype;
  h.header_size = eth->header_length;
  return std::nullopt;
}

}  // namespace netlib::l2
