// Ethernet II / IEEE 802.3 framing with stacked IEEE 802.1Q tags.
//
// Theory of operation: a frame is dst(6) src(6) type(2) payload. While `type` is a VLAN TPID
// (0x8100 C-tag, 0x88a8 S-tag, 0x9100 legacy), a 4-byte tag follows: TCI(2) and the next type
// (IEEE 802.1Q §9.6). A final type <= 1500 is an 802.3 length (IEEE 802.3 §3.2.6), which also
// trims trailing padding. Every read is preceded by a length check.
#include "netlib/packet/ethernet.hpp"

#include <cstring>

#include "netlib/packet/wire.hpp"

namespace netlib::packet {
namespace {

constexpr decode_error err(std::string_view reason) {
  return {"ethernet", reason};
}

bool is_vlan_tpid(std::uint16_t t) {
  return t == ethertype::vlan || t == ethertype::qinq || t == ethertype::qinq_old;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<mac_address> mac_address::parse(std::string_view text) noexcept {
  if (text.size() != 17) return std::nullopt;
  mac_address m;
  for (std::size_t i = 0; i < 6; ++i) {
    const int hi = hex_value(text[i * 3]);
    const int lo = hex_value(text[i * 3 + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    if (i < 5 && text[i * 3 + 2] != ':' && text[i * 3 + 2] != '-') return std::nullopt;
    m.octets[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return m;
}

std::string mac_address::to_string() const {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", octets[0], octets[1], octets[2], octets[3], octets[4],
                     octets[5]);
}

decoded<ethernet_frame> decode_ethernet(byte_view frame) {
  ethernet_frame f;
  if (auto e = decode_ethernet_into(frame, f)) return *e;
  return f;
}

std::optional<decode_error> decode_ethernet_into(byte_view frame, ethernet_frame& f) {
  if (frame.size() < 14) return err("truncated header");
  f.dst = mac_address::from_bytes(frame.data());
  f.src = mac_address::from_bytes(frame.data() + 6);
  std::size_t pos = 12;
  std::uint16_t type = wire::be16(frame.data() + pos);
  pos += 2;
  while (is_vlan_tpid(type)) {
    if (f.tags.size() == max_vlan_tags) return err("too many vlan tags");
    if (frame.size() < pos + 4) return err("truncated vlan tag");
    const std::uint16_t tci = wire::be16(frame.data() + pos);
    f.tags.push_back(
        {type, static_cast<std::uint8_t>(tci >> 13), (tci & 0x1000) != 0, static_cast<std::uint16_t>(tci & 0x0fff)});
    type = wire::be16(frame.data() + pos + 2);
    pos += 4;
  }
  f.ethertype = type;
  f.header_length = pos;
  f.payload = frame.subspan(pos);
  if (f.is_802_3() && type < f.payload.size()) f.payload = f.payload.first(type);
  return std::nullopt;
}

std::vector<std::byte> encode_ethernet(const ethernet_frame& header, byte_view payload) {
  std::vector<std::byte> out(14 + 4 * header.tags.size());
  for (std::size_t i = 0; i < 6; ++i) {
    out[i] = std::byte(header.dst.octets[i]);
    out[6 + i] = std::byte(header.src.octets[i]);
  }
  std::size_t pos = 12;
  for (const auto& tag : header.tags) {
    wire::put_be16(out.data() + pos, tag.tpid);
    const auto tci = static_cast<std::uint16_t>((tag.pcp & 7) << 13 | (tag.dei ? 0x1000 : 0) | (tag.vid & 0x0fff));
    wire::put_be16(out.data() + pos + 2, tci);
    pos += 4;
  }
  wire::put_be16(out.data() + pos, header.ethertype);
  out.insert(out.end(), payload.begin(), payload.end());
  if (out.size() < 60) out.resize(60, std::byte{0});
  return out;
}

}  // namespace netlib::packet
