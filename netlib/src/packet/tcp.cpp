// TCP header decoding (RFC 9293 §3.1) with options (§3.2): kinds 0 (end), 1 (no-op), 2 MSS,
// 3 window scale (RFC 7323 §2), 4 SACK permitted and 5 SACK (RFC 2018), 8 timestamps (RFC 7323
// §3); other kinds are skipped by their length. Every option length is checked against the header.
#include "netlib/packet/tcp.hpp"

#include "netlib/packet/wire.hpp"

namespace netlib::packet {
namespace {

constexpr std::string_view layer = "tcp";

std::optional<decode_error> decode_options(byte_view o, tcp_options& out) {
  std::size_t i = 0;
  while (i < o.size()) {
    const auto kind = wire::u8(o.data() + i);
    if (kind == 0) break;
    if (kind == 1) {
      ++i;
      continue;
    }
    if (i + 2 > o.size()) return decode_error{layer, "truncated options"};
    const std::size_t len = wire::u8(o.data() + i + 1);
    if (len < 2) return decode_error{layer, "bad option length"};
    if (i + len > o.size()) return decode_error{layer, "truncated options"};
    const std::byte* v = o.data() + i + 2;
    if (kind == 2 && len == 4) out.mss = wire::be16(v);
    if (kind == 3 && len == 3) out.window_scale = wire::u8(v);
    if (kind == 4 && len == 2) out.sack_permitted = true;
    if (kind == 5 && (len - 2) % 8 == 0) {
      for (std::size_t k = 0; k < (len - 2) / 8 && out.sack_block_count < out.sack_blocks.size(); ++k) {
        out.sack_blocks[out.sack_block_count++] = {wire::be32(v + 8 * k), wire::be32(v + 8 * k + 4)};
      }
    }
    if (kind == 8 && len == 10) out.timestamps = std::pair{wire::be32(v), wire::be32(v + 4)};
    i += len;
  }
  return std::nullopt;
}

}  // namespace

std::string tcp_header::flag_names() const {
  static constexpr std::pair<std::uint8_t, std::string_view> names[] = {
      {tcp_flag::fin, "FIN"}, {tcp_flag::syn, "SYN"}, {tcp_flag::rst, "RST"}, {tcp_flag::psh, "PSH"},
      {tcp_flag::ack, "ACK"}, {tcp_flag::urg, "URG"}, {tcp_flag::ece, "ECE"}, {tcp_flag::cwr, "CWR"}};
  std::string out;
  for (const auto& [bit, name] : names) {
    if (!has(bit)) continue;
    if (!out.empty()) out += ',';
    out += name;
  }
  return out;
}

decoded<tcp_header> decode_tcp(byte_view b) {
  tcp_header h;
  if (auto e = decode_tcp_into(b, h)) return *e;
  return h;
}

std::optional<decode_error> decode_tcp_into(byte_view b, tcp_header& h) {
  if (b.size() < 20) return decode_error{layer, "truncated header"};
  h.src_port = wire::be16(b.data());
  h.dst_port = wire::be16(b.data() + 2);
  h.seq = wire::be32(b.data() + 4);
  h.ack = wire::be32(b.data() + 8);
  h.header_length = static_cast<std::uint8_t>((wire::u8(b.data() + 12) >> 4) * 4);
  h.flags = wire::u8(b.data() + 13);
  h.window = wire::be16(b.data() + 14);
  h.checksum = wire::be16(b.data() + 16);
  h.urgent = wire::be16(b.data() + 18);
  if (h.header_length < 20) return decode_error{layer, "bad data offset"};
  if (b.size() < h.header_length) return decode_error{layer, "truncated header"};
  if (h.header_length > 20) {  // options are rare outside the handshake
    if (auto e = decode_options(b.subspan(20, h.header_length - 20u), h.options)) return e;
  }
  h.payload = b.subspan(h.header_length);
  return std::nullopt;
}

}  // namespace netlib::packet
