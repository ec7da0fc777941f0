// The pcapng half of capture_reader: block framing and the blocks it understands
// (draft-ietf-opsawg-pcapng §4). See capture_reader.cpp for the theory of operation.
// next_pcapng() first tries a fast path for the usual block, an Enhanced Packet Block that is
// already whole in the read buffer and passes every check read_block() and make_record() make;
// anything else (another block type, a block not yet buffered, a bad length, an undeclared
// interface) takes the general path, which reports the same errors and counts the same skips.
#include <fmt/format.h>

#include <cmath>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/packet/wire.hpp"

namespace netlib::capture {
namespace {

constexpr std::uint32_t bom = 0x1A2B3C4D;

// Ticks -> nanoseconds without overflowing for any resolution up to 2^-63 or 10^-19.
std::int64_t to_nanoseconds(std::uint64_t ticks, const interface_info& info) {
  const std::uint64_t tps = info.ticks_per_second;
  const std::uint64_t sec = ticks / tps;
  // Exact in integers when the resolution divides a second into nanoseconds (10^-k, k <= 9: the
  // usual microseconds and nanoseconds); the floor of the same quotient otherwise.
  const auto frac = 1'000'000'000ULL % tps == 0
                        ? (ticks % tps) * (1'000'000'000ULL / tps)
                        : static_cast<std::uint64_t>(
                              std::floor(static_cast<long double>(ticks % tps) * 1e9L / static_cast<long double>(tps)));
  const std::uint64_t ns = (sec + static_cast<std::uint64_t>(info.offset_seconds)) * 1'000'000'000ULL + frac;
  return static_cast<std::int64_t>(ns);
}

}  // namespace

// Takes one whole block from the read buffer into block_. Returns false at the end of the file;
// a block cut short counts as a truncated record.
bool capture_reader::read_block() {
  const auto cut = [this] {  // the file ends inside this block: drop what is left
    read_pos_ = read_end_;
    return ++truncated_, false;
  };
  if (!fill(8)) return read_end_ == read_pos_ ? false : cut();
  const std::uint64_t block_offset = offset_;
  const std::byte* head = read_buffer_.data() + read_pos_;
  if (packet::wire::be32(head) == shb_type) {
    if (!fill(12)) return cut();
    head = read_buffer_.data() + read_pos_;
    const std::uint32_t order = packet::wire::be32(head + 8);
    if (order != bom && packet::wire::le32(head + 8) != bom) {
      fail(fmt::format("block at offset {}: bad byte-order magic 0x{:08x}", block_offset, order));
    }
    big_endian_ = order == bom;
  }
  block_type_ = u32(head);
  const std::uint32_t length = u32(head + 4);
  const std::uint32_t minimum = block_type_ == shb_type ? 28 : 12;
  if (length < minimum || length % 4 != 0 || length > max_block_bytes) {
    fail(fmt::format("block at offset {}: bad block length {}", block_offset, length));
  }
  if (!fill(length)) return cut();
  block_ = take(length);
  if (u32(block_.data() + length - 4) != length) {
    fail(fmt::format("block at offset {}: trailing length does not match {}", block_offset, length));
  }
  if (block_type_ == shb_type) on_section_header();
  return true;
}

void capture_reader::on_section_header() {
  const std::uint16_t major = u16(block_.data() + 12);
  if (major != 1) fail(fmt::format("unsupported pcapng version {}.{}", major, u16(block_.data() + 14)));
  if (!first_section_) ++section_;
  first_section_ = false;
  interfaces_.clear();
  scales_.clear();
}

void capture_reader::on_interface_description() {
  if (block_.size() < 20) return void(++skipped_);
  interface_info info;
  info.link = static_cast<packet::link_type>(u16(block_.data() + 8));
  info.snaplen = u32(block_.data() + 12);
  std::size_t pos = 16;
  const std::size_t end = block_.size() - 4;
  while (pos + 4 <= end) {
    const std::uint16_t code = u16(block_.data() + pos);
    const std::uint16_t len = u16(block_.data() + pos + 2);
    pos += 4;
    if (code == 0 || pos + len > end) break;
    const std::byte* value = block_.data() + pos;
    if (code == 2) info.name.assign(reinterpret_cast<const char*>(value), len);
    if (code == 9 && len >= 1) {
      const auto v = static_cast<std::uint8_t>(value[0]);
      const unsigned exp = v & 0x7f;
      if ((v & 0x80) ? exp > 63 : exp > 19) fail(fmt::format("unsupported if_tsresol 0x{:02x}", v));
      std::uint64_t tps = 1;
      for (unsigned i = 0; i < exp; ++i) tps *= (v & 0x80) ? 2 : 10;
      info.ticks_per_second = tps;
    }
    if (code == 14 && len >= 8) {
      info.offset_seconds =
          static_cast<std::int64_t>(big_endian_ ? packet::wire::be64(value) : packet::wire::le64(value));
    }
    pos += (len + 3u) & ~3u;
  }
  tick_scale scale;
  if (1'000'000'000ULL % info.ticks_per_second == 0) scale.ns_per_tick = 1'000'000'000ULL / info.ticks_per_second;
  scale.offset_ns = static_cast<std::uint64_t>(info.offset_seconds) * 1'000'000'000ULL;
  scales_.push_back(scale);
  interfaces_.push_back(std::move(info));
}

std::optional<packet_record> capture_reader::make_record(std::uint32_t iface, std::uint64_t ticks, std::size_t offset,
                                                         std::uint32_t caplen, std::uint32_t orig_len) {
  if (iface >= interfaces_.size()) {
    // pcapng §4.2: a packet names an interface described earlier in its section. One that names
    // none is a malformed file, as tshark says; read on and the packet's link type, time
    // resolution and snap length would be guesses (issue 31: analyzers read such packets on
    // without a word).
    fail(
        fmt::format("block at offset {}: a packet for interface {}, which its section never declared ({} interface{} "
                    "described before it)",
                    offset_ - block_.size(), iface, interfaces_.size(), interfaces_.size() == 1 ? "" : "s"));
  }
  if (offset + caplen > block_.size() - 4) {
    ++skipped_;  // a length beyond its block
    return std::nullopt;
  }
  packet_record rec;
  // ticks * (10^9 / tps) + offset equals to_nanoseconds() modulo 2^64 (ticks = sec * tps + rem),
  // without its two divisions.
  const tick_scale& scale = scales_[iface];
  rec.ts =
      from_nanoseconds(scale.ns_per_tick != 0 ? static_cast<std::int64_t>(ticks * scale.ns_per_tick + scale.offset_ns)
                                              : to_nanoseconds(ticks, interfaces_[iface]));
  rec.interface_id = iface;
  rec.link = interfaces_[iface].link;
  rec.data = byte_view(block_.data() + offset, caplen);
  rec.orig_len = orig_len;
  return rec;
}

std::optional<packet_record> capture_reader::on_enhanced_packet() {
  if (block_.size() < 32) return ++skipped_, std::nullopt;
  const std::byte* b = block_.data();
  const std::uint64_t ticks = (std::uint64_t{u32(b + 12)} << 32) | u32(b + 16);
  return make_record(u32(b + 8), ticks, 28, u32(b + 20), u32(b + 24));
}

std::optional<packet_record> capture_reader::on_simple_packet() {
  if (block_.size() < 16) return ++skipped_, std::nullopt;
  if (interfaces_.empty()) return make_record(0, 0, 12, 0, 0);  // §4.4: interface 0, never declared: fails
  const std::uint32_t orig_len = u32(block_.data() + 8);
  std::uint32_t caplen = std::min<std::uint32_t>(orig_len, static_cast<std::uint32_t>(block_.size() - 16));
  if (interfaces_[0].snaplen != 0) caplen = std::min(caplen, interfaces_[0].snaplen);
  // §4.4: a Simple Packet Block has no timestamp; it is given time 0.
  return make_record(0, 0, 12, caplen, orig_len);
}

std::optional<packet_record> capture_reader::on_obsolete_packet() {
  if (block_.size() < 32) return ++skipped_, std::nullopt;
  const std::byte* b = block_.data();
  const std::uint64_t ticks = (std::uint64_t{u32(b + 12)} << 32) | u32(b + 16);
  return make_record(u16(b + 8), ticks, 28, u32(b + 20), u32(b + 24));
}

// The usual block in one pass: an Enhanced Packet Block (type 6, never a Section Header Block)
// already whole in the buffer, passing every check of read_block() and make_record(), becomes a
// record directly; anything else returns nullopt and leaves the buffer untouched.
template <bool big_endian>
std::optional<packet_record> capture_reader::next_enhanced_fast() {
  // The section's byte order as a template argument: no test of big_endian_ per field.
  const auto u32 = [](const std::byte* p) { return big_endian ? packet::wire::be32(p) : packet::wire::le32(p); };
  const std::size_t buffered = read_end_ - read_pos_;
  if (buffered < 32) return std::nullopt;
  const std::byte* b = read_buffer_.data() + read_pos_;
  const std::uint32_t length = u32(b + 4);
  if (u32(b) != 6 || length < 32 || length % 4 != 0 || length > max_block_bytes || length > buffered) {
    return std::nullopt;
  }
  const std::uint32_t iface = u32(b + 8);
  const std::uint32_t caplen = u32(b + 20);
  if (u32(b + length - 4) != length || iface >= scales_.size() || 28 + std::size_t{caplen} > length - 4) {
    return std::nullopt;
  }
  const tick_scale& scale = scales_[iface];
  if (scale.ns_per_tick == 0) return std::nullopt;  // an unusual resolution: make_record() handles it
  read_pos_ += length;
  offset_ += length;
  block_type_ = 6;
  block_ = byte_view(b, length);
  const std::uint64_t ticks = (std::uint64_t{u32(b + 12)} << 32) | u32(b + 16);
  packet_record rec;
  rec.ts = from_nanoseconds(static_cast<std::int64_t>(ticks * scale.ns_per_tick + scale.offset_ns));
  rec.interface_id = iface;
  rec.link = interfaces_[iface].link;
  rec.data = byte_view(b + 28, caplen);
  rec.orig_len = u32(b + 24);
  ++packets_;
  return rec;
}

std::optional<packet_record> capture_reader::next_pcapng() {
  if (auto rec = big_endian_ ? next_enhanced_fast<true>() : next_enhanced_fast<false>()) return rec;
  while (read_block()) {
    std::optional<packet_record> rec;
    switch (block_type_) {
      case 1:
        on_interface_description();
        break;
      case 2:
        rec = on_obsolete_packet();
        break;
      case 3:
        rec = on_simple_packet();
        break;
      case 6:
        rec = on_enhanced_packet();
        break;
      case shb_type:
        break;  // handled by read_block
      default:
        break;  // name resolution, statistics, custom... not needed
    }
    if (rec) {
      ++packets_;
      return rec;
    }
  }
  return std::nullopt;
}

}  // namespace netlib::capture
