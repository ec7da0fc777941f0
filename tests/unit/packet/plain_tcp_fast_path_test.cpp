// decode_packet's one-pass path for untagged Ethernet/IPv4/TCP frames must give exactly what the
// layer decoders give: compared field by field on every truncation of several frames and on every
// single-byte mutation of their headers (which sends many frames to the layered path, some with
// errors, and keeps others on the fast path with unusual field values).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "netlib/packet/packet_decoder.hpp"

namespace plain_tcp_fast_path_test {  // named: unity batches share one translation unit

using namespace netlib::packet;

std::vector<std::byte> plain_frame(std::uint16_t total_length, std::size_t payload, std::size_t padding) {
  std::vector<std::uint8_t> f = {0x02,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0x0b,
                                 0x02,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0x0a,
                                 0x08,
                                 0x00,
                                 0x45,
                                 0x10,
                                 static_cast<std::uint8_t>(total_length >> 8),
                                 static_cast<std::uint8_t>(total_length & 0xff),
                                 0x12,
                                 0x34,
                                 0x40,
                                 0x00,
                                 64,
                                 6,
                                 0xab,
                                 0xcd,
                                 10,
                                 0,
                                 0,
                                 1,
                                 10,
                                 0,
                                 0,
                                 2,
                                 0x9c,
                                 0x40,
                                 0x00,
                                 0x50,
                                 0,
                                 0,
                                 0x03,
                                 0xe8,
                                 0,
                                 0,
                                 0x07,
                                 0xd0,
                                 0x50,
                                 0x18,
                                 0xff,
                                 0xff,
                                 0x12,
                                 0x34,
                                 0,
                                 0};
  for (std::size_t i = 0; i < payload; ++i) f.push_back(static_cast<std::uint8_t>('a' + i % 26));
  f.resize(f.size() + padding, 0);
  std::vector<std::byte> out(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) out[i] = std::byte(f[i]);
  return out;
}

// The reference: the layer decoders one after the other, as the layered path uses them.
decoded_packet layered(netlib::byte_view f) {
  decoded_packet p;
  auto e = decode_ethernet(f);
  if (!e) return p.error = e.error(), p;
  p.ethertype = e->ethertype;
  p.ethernet = *e;
  if (e->ethertype != ethertype::ipv4) return p;
  auto ip = decode_ipv4(e->payload);
  if (!ip) return p.error = ip.error(), p;
  p.network = *ip;
  if (ip->fragment_offset != 0 || ip->protocol != ip_protocol::tcp) return p;
  auto t = decode_tcp(ip->payload);
  if (!t) return p.error = t.error(), p;
  p.transport = *t;
  return p;
}

bool same_view(netlib::byte_view a, netlib::byte_view b) {
  return a.data() == b.data() && a.size() == b.size();
}

// Empty when equal, else the first field that differs.
std::string difference(const decoded_packet& got, const decoded_packet& want) {
  if (got.error.has_value() != want.error.has_value()) return "error presence";
  if (got.error && got.error->message() != want.error->message()) return "error " + got.error->message();
  if (got.ethernet.has_value() != want.ethernet.has_value()) return "ethernet presence";
  if (!want.ethernet) return {};
  const auto& ge = *got.ethernet;
  const auto& we = *want.ethernet;
  if (ge.dst != we.dst || ge.src != we.src || ge.tags != we.tags || ge.ethertype != we.ethertype ||
      ge.header_length != we.header_length || !same_view(ge.payload, we.payload) || got.ethertype != want.ethertype) {
    return "ethernet fields";
  }
  if (we.ethertype != ethertype::ipv4) return {};  // other network decoders: not this path's concern
  if ((got.ipv4() == nullptr) != (want.ipv4() == nullptr)) return "ipv4 presence";
  if (want.ipv4() == nullptr) return {};
  const auto& gi = *got.ipv4();
  const auto& wi = *want.ipv4();
  if (gi.header_length != wi.header_length || gi.tos != wi.tos || gi.total_length != wi.total_length ||
      gi.identification != wi.identification || gi.dont_fragment != wi.dont_fragment ||
      gi.more_fragments != wi.more_fragments || gi.fragment_offset != wi.fragment_offset || gi.ttl != wi.ttl ||
      gi.protocol != wi.protocol || gi.checksum != wi.checksum || gi.src != wi.src || gi.dst != wi.dst ||
      !same_view(gi.options, wi.options) || !same_view(gi.payload, wi.payload) || gi.truncated != wi.truncated) {
    return "ipv4 fields";
  }
  if (wi.protocol != ip_protocol::tcp || wi.fragment_offset != 0) return {};
  if ((got.tcp() == nullptr) != (want.tcp() == nullptr)) return "tcp presence";
  if (want.tcp() == nullptr) return {};
  const auto& gt = *got.tcp();
  const auto& wt = *want.tcp();
  if (gt.src_port != wt.src_port || gt.dst_port != wt.dst_port || gt.seq != wt.seq || gt.ack != wt.ack ||
      gt.header_length != wt.header_length || gt.flags != wt.flags || gt.window != wt.window ||
      gt.checksum != wt.checksum || gt.urgent != wt.urgent || !same_view(gt.payload, wt.payload) ||
      gt.options.mss != wt.options.mss || gt.options.window_scale != wt.options.window_scale ||
      gt.options.sack_permitted != wt.options.sack_permitted ||
      gt.options.sack_block_count != wt.options.sack_block_count || gt.options.timestamps != wt.options.timestamps) {
    return "tcp fields";
  }
  return {};
}

std::vector<std::vector<std::byte>> sample_frames() {
  return {plain_frame(40 + 16, 16, 0), plain_frame(40, 0, 6),  // minimum frame padded to 60 bytes
          plain_frame(0, 5, 0),                                // total length 0 (segmentation offload)
          plain_frame(40 + 100, 20, 0)};                       // cut by the snaplen: truncated
}

TEST(PlainTcpFastPath, SameAsTheLayerDecodersOnEveryTruncation) {
  int fast = 0;
  for (const auto& frame : sample_frames()) {
    for (std::size_t k = 0; k <= frame.size(); ++k) {
      const netlib::byte_view f = netlib::byte_view(frame).first(k);
      const auto got = decode_packet(link_type::ethernet, f);
      EXPECT_EQ(difference(got, layered(f)), "") << "length " << k << " of " << frame.size();
      fast += got.tcp() != nullptr ? 1 : 0;
    }
  }
  EXPECT_GT(fast, 4);  // the whole frames at least went through a TCP decoding
}

TEST(PlainTcpFastPath, SameAsTheLayerDecodersOnEveryHeaderByteMutation) {
  int compared = 0;
  for (const auto& frame : sample_frames()) {
    for (std::size_t i = 0; i < 54 && i < frame.size(); ++i) {
      for (const std::uint8_t x : {0x01, 0x0f, 0x10, 0x40, 0x80, 0xff}) {
        auto m = frame;
        m[i] ^= std::byte(x);
        const auto got = decode_packet(link_type::ethernet, m);
        EXPECT_EQ(difference(got, layered(m)), "") << "byte " << i << " xor " << int{x};
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 4 * 54 * 6);
}

// decode_plain_tcp (the capture driver's shortcut, no decoded_packet) against decode_packet: when
// it accepts a frame, the addresses and every TCP field it fills are decode_packet's; it accepts
// exactly the frames decode_packet decodes as error-free, unfragmented IPv4 TCP without options
// over untagged Ethernet.
std::string shortcut_difference(netlib::byte_view f) {
  ip_address src, dst;
  tcp_header t;
  const bool taken = decode_plain_tcp(link_type::ethernet, f, src, dst, t);
  const auto p = decode_packet(link_type::ethernet, f);
  const bool plain = !p.error && p.ethernet && p.ethernet->tags.empty() && p.ipv4() != nullptr &&
                     p.ipv4()->header_length == 20 && !p.is_fragment() && p.tcp() != nullptr &&
                     p.tcp()->header_length == 20;
  if (taken != plain) return taken ? "taken, but not a plain frame" : "a plain frame not taken";
  if (!taken) return {};
  const auto& w = *p.tcp();
  if (src != p.ipv4()->src || dst != p.ipv4()->dst) return "addresses";
  if (t.src_port != w.src_port || t.dst_port != w.dst_port || t.seq != w.seq || t.ack != w.ack ||
      t.header_length != w.header_length || t.flags != w.flags || t.window != w.window || t.checksum != w.checksum ||
      t.urgent != w.urgent || !same_view(t.payload, w.payload) || t.options.mss || t.options.timestamps) {
    return "tcp fields";
  }
  return {};
}

TEST(PlainTcpFastPath, CaptureShortcutAgreesWithDecodePacket) {
  int taken = 0;
  for (const auto& frame : sample_frames()) {
    for (std::size_t k = 0; k <= frame.size(); ++k) {
      EXPECT_EQ(shortcut_difference(netlib::byte_view(frame).first(k)), "") << "length " << k;
    }
    for (std::size_t i = 0; i < 54 && i < frame.size(); ++i) {
      for (const std::uint8_t x : {0x01, 0x0f, 0x10, 0x40, 0x80, 0xff}) {
        auto m = frame;
        m[i] ^= std::byte(x);
        EXPECT_EQ(shortcut_difference(m), "") << "byte " << i << " xor " << int{x};
      }
    }
    ip_address src, dst;
    tcp_header t;
    taken += decode_plain_tcp(link_type::ethernet, frame, src, dst, t) ? 1 : 0;
    EXPECT_FALSE(decode_plain_tcp(link_type::linux_sll, frame, src, dst, t));
    auto first_fragment = frame;  // MF set, offset 0: the capture driver does not feed fragments
    first_fragment[14 + 6] |= std::byte(0x20);
    EXPECT_EQ(shortcut_difference(first_fragment), "");
    EXPECT_FALSE(decode_plain_tcp(link_type::ethernet, first_fragment, src, dst, t));
  }
  EXPECT_EQ(taken, 4);
}

}  // namespace plain_tcp_fast_path_test
