// One-direction reassembly scenarios: in order, reordered, duplicated, overlapping, lost
// segments, sequence wrap-around, bounded buffering and gaps with their exact size.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "netlib/packet/tcp_stream.hpp"

namespace {

using netlib::packet::tcp_stream;

// Renders what a stream delivers: bytes as they are, gaps as "[gap N]", with timestamps kept.
struct collector {
  std::string text;
  std::vector<std::int64_t> times;
  tcp_stream::sink sink{[this](netlib::byte_view b, netlib::time_point t) {
                          text += netlib::as_chars(b);
                          times.push_back(t.time_since_epoch().count());
                        },
                        [this](std::uint64_t n, netlib::time_point) { text += "[gap " + std::to_string(n) + "]"; }};
};

struct segment {
  std::uint32_t offset;  // from the ISN + 1
  std::string data;
  bool fin = false;
};

// Feeds a SYN at `isn`, then the segments in the given order, then flushes.
std::string run(std::uint32_t isn, const std::vector<segment>& segs, tcp_stream* out = nullptr,
                std::size_t limit = 1 << 20) {
  tcp_stream s(limit);
  collector c;
  s.on_segment(isn, true, false, {}, netlib::from_nanoseconds(0), c.sink);
  std::int64_t t = 1;
  for (const auto& g : segs) {
    s.on_segment(isn + 1 + g.offset, false, g.fin, netlib::as_bytes(g.data), netlib::from_nanoseconds(t++), c.sink);
  }
  s.flush(netlib::from_nanoseconds(t), c.sink);
  if (out) *out = s;
  return c.text;
}

TEST(TcpStream, InOrderAndReordered) {
  const std::vector<segment> segs{{0, "hello "}, {6, "brave "}, {12, "new "}, {16, "world"}};
  EXPECT_EQ(run(1000, segs), "hello brave new world");
  std::vector<std::size_t> order(segs.size());
  std::iota(order.begin(), order.end(), 0);
  do {  // every arrival order gives the same stream
    std::vector<segment> shuffled;
    for (auto i : order) shuffled.push_back(segs[i]);
    tcp_stream s;
    EXPECT_EQ(run(1000, shuffled, &s), "hello brave new world");
    EXPECT_EQ(s.delivered_bytes(), 21u);
    EXPECT_EQ(s.gaps(), 0u);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(TcpStream, DuplicatesAndOverlapsDeliverEachByteOnce) {
  tcp_stream s;
  EXPECT_EQ(run(7, {{0, "abcd"}, {0, "abcd"}, {2, "cdef"}, {6, "gh"}, {4, "efgh"}, {1, "bcdefghij"}}, &s),
            "abcdefghij");
  EXPECT_EQ(s.retransmitted_bytes(), 4u + 2u + 4u + 7u);
  // Overlapping segments waiting behind a hole.
  EXPECT_EQ(run(7, {{4, "efgh"}, {6, "ghij"}, {4, "efghijkl"}, {0, "abcd"}}), "abcdefghijkl");
  EXPECT_EQ(run(7, {{4, "efgh"}, {2, "cdef"}, {0, "ab"}}), "abcdefgh");
}

TEST(TcpStream, LostSegmentsAreGapsOfTheirSize) {
  tcp_stream s;
  EXPECT_EQ(run(0, {{0, "abc"}, {10, "klm"}, {20, "uvw"}}, &s), "abc[gap 7]klm[gap 7]uvw");
  EXPECT_EQ(s.gaps(), 2u);
  EXPECT_EQ(s.gap_bytes(), 14u);
  EXPECT_EQ(s.delivered_bytes(), 9u);
  // Data lost before a FIN: the FIN's sequence number tells the size.
  EXPECT_EQ(run(0, {{0, "abc"}, {8, "", true}}), "abc[gap 5]");
}

TEST(TcpStream, PeerAcknowledgedBytesNeverSeenAreAGap) {
  tcp_stream s;
  collector c;
  s.on_segment(100, true, false, {}, {}, c.sink);
  s.on_segment(101, false, false, netlib::as_bytes("abc"), {}, c.sink);
  s.on_peer_ack(101 + 10);
  s.flush({}, c.sink);
  EXPECT_EQ(c.text, "abc[gap 7]");
}

TEST(TcpStream, SequenceWrapAround) {
  const std::uint32_t isn = 0xfffffff0u;
  EXPECT_EQ(run(isn, {{0, "0123456789"}, {10, "abcdefghij"}, {20, "KLMNOPQRST"}}), "0123456789abcdefghijKLMNOPQRST");
  EXPECT_EQ(run(isn, {{20, "KLMNOPQRST"}, {10, "abcdefghij"}, {0, "0123456789"}}), "0123456789abcdefghijKLMNOPQRST");
  EXPECT_EQ(run(isn, {{0, "01234"}, {25, "PQRST"}}), "01234[gap 20]PQRST");
  // Beyond 4 GiB of offsets: 1-byte segments every 2^30 bytes (the holes reported at once, as
  // nothing may wait) are still ordered after the sequence numbers wrapped.
  tcp_stream s(0);
  collector c;
  s.on_segment(5, true, false, {}, {}, c.sink);
  for (std::uint64_t i = 0; i < 6; ++i) {
    const auto seq = static_cast<std::uint32_t>(6 + i * (1ULL << 30));
    s.on_segment(seq, false, false, netlib::as_bytes("x"), {}, c.sink);
  }
  s.flush({}, c.sink);
  EXPECT_EQ(s.delivered_bytes(), 6u);
  EXPECT_EQ(s.gap_bytes(), 5 * ((1ULL << 30) - 1));
}

TEST(TcpStream, BufferingIsBoundedAndTheHoleReported) {
  tcp_stream s(8);
  collector c;
  s.on_segment(0, true, false, {}, {}, c.sink);
  s.on_segment(1 + 10, false, false, netlib::as_bytes("abcd"), {}, c.sink);
  EXPECT_EQ(s.buffered_bytes(), 4u);
  s.on_segment(1 + 14, false, false, netlib::as_bytes("efgh"), {}, c.sink);
  EXPECT_EQ(c.text, "");
  s.on_segment(1 + 20, false, false, netlib::as_bytes("ij"), {}, c.sink);  // 10 > 8 waiting
  EXPECT_EQ(c.text, "[gap 10]abcdefgh");
  EXPECT_EQ(s.buffered_bytes(), 2u);
  s.on_segment(1 + 2, false, false, netlib::as_bytes("late"), {}, c.sink);  // behind the gap: dropped
  s.flush({}, c.sink);
  EXPECT_EQ(c.text, "[gap 10]abcdefgh[gap 2]ij");
}

TEST(TcpStream, ChunksKeepTheirCaptureTimestamps) {
  tcp_stream s;
  collector c;
  s.on_segment(0, true, false, {}, netlib::from_nanoseconds(1), c.sink);
  s.on_segment(4, false, false, netlib::as_bytes("def"), netlib::from_nanoseconds(20), c.sink);
  s.on_segment(1, false, false, netlib::as_bytes("abc"), netlib::from_nanoseconds(30), c.sink);
  EXPECT_EQ(c.text, "abcdef");
  EXPECT_EQ(c.times, (std::vector<std::int64_t>{30, 20}));
}

TEST(TcpStream, MidStreamStartsAtTheFirstSegmentSeen) {
  tcp_stream s;
  collector c;
  s.on_segment(5000, false, false, netlib::as_bytes("middle"), {}, c.sink);
  s.on_segment(4990, false, false, netlib::as_bytes("0123456789"), {}, c.sink);  // before the start
  s.on_segment(5006, false, true, netlib::as_bytes("end"), {}, c.sink);
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(c.text, "middleend");
  EXPECT_FALSE(s.syn_seen());
}

}  // namespace
