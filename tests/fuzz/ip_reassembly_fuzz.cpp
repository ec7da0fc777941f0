// Fuzz target for IP fragment reassembly: the input is a script of fragments, each
//   [control][id][offset hi][offset lo][length][time step] then `length` data bytes
// control bit 0: more fragments; bit 1: IPv6; bit 2: source 10.0.0.1 or .2; bits 3-7: protocol.
// They are fed to an ip_reassembler with small limits. Invariants: the bytes held and the
// datagrams in progress never pass the limits; a completed datagram is no longer than the byte
// limit and its fragments, in offset order, cover it exactly once; every byte of it is the byte a
// fragment carried at that place.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "netlib/packet/ip_reassembly.hpp"

namespace {

using namespace netlib::packet;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ip_fragment_limits limits;
  limits.max_datagram_bytes = 4096;
  limits.max_fragments_per_datagram = 16;
  limits.max_datagrams = 8;
  limits.max_buffered_bytes = 8192;
  limits.timeout = std::chrono::seconds(2);
  ip_reassembler r(limits);
  const auto a = *ip_address::parse("10.0.0.1"), b = *ip_address::parse("10.0.0.2");
  const auto a6 = *ip_address::parse("fd00::1"), b6 = *ip_address::parse("fd00::2");
  std::size_t i = 0;
  std::int64_t t = 0;
  while (i + 6 <= size) {
    const std::uint8_t control = data[i];
    const std::size_t offset = ((std::size_t{data[i + 2]} << 8) | data[i + 3]) & 0x1fff;
    const std::size_t length = std::min<std::size_t>(data[i + 4], size - i - 6);
    t += std::int64_t{data[i + 5]} * 50'000'000;
    const netlib::byte_view piece(reinterpret_cast<const std::byte*>(data + i + 6), length);
    const bool v6 = (control & 2) != 0, second = (control & 4) != 0;
    std::optional<reassembled_datagram> d;
    if (v6) {
      ipv6_header h;
      h.src = second ? b6 : a6;
      h.dst = b6;
      h.is_fragment = true;
      h.fragment_offset = static_cast<std::uint16_t>(offset * 8);
      h.more_fragments = (control & 1) != 0;
      h.fragment_id = data[i + 1];
      h.protocol = static_cast<std::uint8_t>(control >> 3);
      h.fragment_data = piece;
      d = r.feed(h, netlib::time_point(std::chrono::nanoseconds(t)));
    } else {
      ipv4_header h;
      h.src = second ? b : a;
      h.dst = b;
      h.more_fragments = (control & 1) != 0;
      h.fragment_offset = static_cast<std::uint16_t>(offset * 8);
      h.identification = data[i + 1];
      h.protocol = static_cast<std::uint8_t>(control >> 3);
      h.payload = piece;
      d = r.feed(h, netlib::time_point(std::chrono::nanoseconds(t)));
    }
    if (r.buffered_bytes() > limits.max_buffered_bytes || r.in_progress() > limits.max_datagrams) std::abort();
    if (d) {
      if (d->payload.size() > limits.max_datagram_bytes || d->fragments.empty()) std::abort();
      auto pieces = d->fragments;
      std::sort(pieces.begin(), pieces.end(), [](const auto& x, const auto& y) { return x.offset < y.offset; });
      std::size_t covered = 0;
      for (const auto& p : pieces) {
        if (p.offset != covered) std::abort();  // overlaps are refused, holes never complete
        covered = p.offset + p.length;
      }
      if (covered != d->payload.size()) std::abort();
      // The piece just fed is where it said it was.
      const std::size_t at = offset * 8;
      if (at + length > d->payload.size() || std::memcmp(d->payload.data() + at, piece.data(), length) != 0)
        std::abort();
    }
    i += 6 + length;
  }
  r.finish();
  if (r.in_progress() != 0 || r.buffered_bytes() != 0) std::abort();
  return 0;
}
