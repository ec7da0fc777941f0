// IP fragment reassembly: in order, out of order, IPv6, duplicates, the overlap policy (drop the
// datagram, refuse its key until the timeout), inconsistent ends, every limit, timeouts, and a
// flood of incomplete datagrams that must not keep an honest datagram from completing.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "netlib/packet/ip_reassembly.hpp"
#include "packet_bytes.hpp"

namespace {

using namespace netlib::packet;
using netlab::test::packet_bytes;
using namespace std::chrono_literals;

netlib::time_point at(std::chrono::milliseconds ms) {
  return netlib::time_point(ms);
}

std::vector<std::byte> pattern(std::size_t n, unsigned seed = 1) {
  std::vector<std::byte> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = std::byte((i * 7 + seed) & 0xff);
  return out;
}

// An IPv4 fragment of `data` (offset in bytes), decoded.
struct v4_fragment {
  std::vector<std::byte> bytes;
  ipv4_header h;
};
v4_fragment fragment(const std::vector<std::byte>& data, std::size_t offset, std::size_t length, bool more,
                     unsigned id = 0x4242, unsigned src_last = 1) {
  packet_bytes p;
  p.u8(0x45).u8(0).be16(static_cast<unsigned>(20 + length)).be16(id);
  p.be16(static_cast<unsigned>((more ? 0x2000 : 0) | (offset / 8))).u8(64).u8(ip_protocol::icmp).be16(0);
  p.bytes({10, 0, 0, static_cast<int>(src_last), 10, 0, 0, 9});
  p.b.insert(p.b.end(), data.begin() + static_cast<std::ptrdiff_t>(offset),
             data.begin() + static_cast<std::ptrdiff_t>(offset + length));
  v4_fragment f{std::move(p.b), {}};
  f.h = *decode_ipv4(netlib::byte_view(f.bytes));
  return f;
}

// The usual 1500-byte MTU: 1480-byte pieces.
std::vector<v4_fragment> split(const std::vector<std::byte>& data, std::size_t piece = 1480, unsigned id = 0x4242,
                               unsigned src_last = 1) {
  std::vector<v4_fragment> out;
  for (std::size_t off = 0; off < data.size(); off += piece) {
    const auto len = std::min(piece, data.size() - off);
    out.push_back(fragment(data, off, len, off + len < data.size(), id, src_last));
  }
  return out;
}

TEST(IpReassembly, InOrderAndEveryOrder) {
  const auto data = pattern(3008);  // ping -s 3000: 3008 bytes of ICMP
  auto pieces = split(data);
  ASSERT_EQ(pieces.size(), 3u);
  std::vector<std::size_t> order{0, 1, 2};
  do {
    ip_reassembler r;
    std::optional<reassembled_datagram> d;
    for (std::size_t i = 0; i < order.size(); ++i) {
      auto got = r.feed(pieces[order[i]].h, at(std::chrono::milliseconds(i)), order[i] + 1);
      if (i + 1 < order.size())
        EXPECT_FALSE(got);
      else
        d = std::move(got);
    }
    ASSERT_TRUE(d);
    EXPECT_EQ(d->payload, data);
    EXPECT_EQ(d->protocol, ip_protocol::icmp);
    EXPECT_EQ(d->identification, 0x4242u);
    ASSERT_EQ(d->fragments.size(), 3u);
    EXPECT_EQ(d->fragments[0].sequence, order[0] + 1) << "pieces in capture order";
    EXPECT_EQ(r.in_progress(), 0u);
    EXPECT_EQ(r.buffered_bytes(), 0u);
    EXPECT_EQ(r.stats().completed, 1u);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(IpReassembly, DifferentIdsAndSourcesDoNotMix) {
  const auto a = pattern(2000, 1), b = pattern(2000, 2);
  auto pa = split(a, 1480, 1), pb = split(b, 1480, 2), pc = split(b, 1480, 1, 2);
  ip_reassembler r;
  EXPECT_FALSE(r.feed(pa[0].h, at(0ms)));
  EXPECT_FALSE(r.feed(pb[0].h, at(0ms)));
  EXPECT_FALSE(r.feed(pc[0].h, at(0ms)));
  EXPECT_EQ(r.in_progress(), 3u);
  auto db = r.feed(pb[1].h, at(1ms));
  ASSERT_TRUE(db);
  EXPECT_EQ(db->payload, b);
  auto da = r.feed(pa[1].h, at(1ms));
  ASSERT_TRUE(da);
  EXPECT_EQ(da->payload, a);
  EXPECT_EQ(r.in_progress(), 1u);
}

TEST(IpReassembly, ExactDuplicateIsIgnored) {
  const auto data = pattern(3008);
  auto pieces = split(data);
  ip_reassembler r;
  EXPECT_FALSE(r.feed(pieces[0].h, at(0ms)));
  EXPECT_FALSE(r.feed(pieces[0].h, at(1ms)));
  EXPECT_FALSE(r.feed(pieces[1].h, at(2ms)));
  auto d = r.feed(pieces[2].h, at(3ms));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->payload, data);
  EXPECT_EQ(d->fragments.size(), 3u);
  EXPECT_EQ(r.stats().duplicates, 1u);
}

TEST(IpReassembly, OverlapDropsTheDatagramAndRefusesItsRest) {
  const auto data = pattern(3008);
  auto pieces = split(data);
  // The same range with other bytes (a Teardrop-style rewrite), then a partial overlap.
  auto other = pattern(3008, 9);
  const auto rewrite = fragment(other, 0, 1480, true);
  ip_reassembler r;
  EXPECT_FALSE(r.feed(pieces[0].h, at(0ms)));
  EXPECT_FALSE(r.feed(rewrite.h, at(1ms)));
  EXPECT_EQ(r.stats().overlaps, 1u);
  EXPECT_EQ(r.in_progress(), 0u);
  // The rest of the datagram (and a fresh first fragment) are refused until the timeout.
  EXPECT_FALSE(r.feed(pieces[1].h, at(2ms)));
  EXPECT_FALSE(r.feed(pieces[2].h, at(3ms)));
  EXPECT_FALSE(r.feed(pieces[0].h, at(4ms)));
  EXPECT_EQ(r.stats().refused, 3u);
  EXPECT_EQ(r.in_progress(), 0u);
  // After the timeout the key is usable again.
  EXPECT_FALSE(r.feed(pieces[0].h, at(31s)));
  EXPECT_FALSE(r.feed(pieces[1].h, at(31s)));
  EXPECT_TRUE(r.feed(pieces[2].h, at(31s)));

  ip_reassembler partial;
  const auto shifted = fragment(data, 8, 1480, true);
  EXPECT_FALSE(partial.feed(pieces[0].h, at(0ms)));
  EXPECT_FALSE(partial.feed(shifted.h, at(1ms)));
  EXPECT_EQ(partial.stats().overlaps, 1u);
}

TEST(IpReassembly, InconsistentEndsAndBadLengthsDrop) {
  const auto data = pattern(3008);
  auto pieces = split(data);
  {
    ip_reassembler r;  // two different ends
    EXPECT_FALSE(r.feed(pieces[2].h, at(0ms)));
    EXPECT_FALSE(r.feed(fragment(data, 2960, 40, false).h, at(1ms)));
    EXPECT_EQ(r.stats().inconsistent, 1u);
  }
  {
    ip_reassembler r;                                                    // data past the known end
    EXPECT_FALSE(r.feed(fragment(data, 1000, 1000, false).h, at(0ms)));  // the end: 2000
    EXPECT_FALSE(r.feed(fragment(data, 2000, 1000, true).h, at(1ms)));
    EXPECT_EQ(r.stats().inconsistent, 1u);
  }
  {
    ip_reassembler r;  // a middle fragment whose length is not a multiple of 8
    EXPECT_FALSE(r.feed(fragment(data, 0, 1479, true).h, at(0ms)));
    EXPECT_EQ(r.stats().inconsistent, 1u);
  }
}

TEST(IpReassembly, LimitsPerDatagram) {
  const auto data = pattern(65528 + 100);
  ip_fragment_limits small;
  small.max_datagram_bytes = 4000;
  small.max_fragments_per_datagram = 4;
  ip_reassembler r(small);
  EXPECT_FALSE(r.feed(fragment(data, 4000, 8, true).h, at(0ms)));
  EXPECT_EQ(r.stats().over_limit, 1u);
  // Tiny fragments: the fifth is one too many.
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(r.feed(fragment(data, i * 8, 8, true, 7).h, at(0ms)));
  EXPECT_FALSE(r.feed(fragment(data, 32, 8, true, 7).h, at(0ms)));
  EXPECT_EQ(r.stats().over_limit, 2u);
  EXPECT_EQ(r.in_progress(), 0u);
  EXPECT_EQ(r.buffered_bytes(), 0u);
  // The largest IPv4 datagram by default: 65,535 bytes, a fragment ending past it is refused.
  ip_reassembler big;
  EXPECT_FALSE(big.feed(fragment(data, 65528, 16, false, 9).h, at(0ms)));
  EXPECT_EQ(big.stats().over_limit, 1u);
}

TEST(IpReassembly, TimeoutDropsIncompleteDatagrams) {
  const auto data = pattern(3008);
  auto pieces = split(data);
  ip_reassembler r;
  EXPECT_FALSE(r.feed(pieces[0].h, at(0ms)));
  EXPECT_FALSE(r.feed(pieces[1].h, at(10s)));
  r.expire(at(31s));
  EXPECT_EQ(r.stats().timed_out, 1u);
  EXPECT_EQ(r.in_progress(), 0u);
  EXPECT_FALSE(r.feed(pieces[2].h, at(32s))) << "its first fragments were dropped";
  r.finish();
  EXPECT_EQ(r.stats().incomplete_at_end, 1u);
}

// A flood of first fragments that never complete fills the table; the oldest are evicted, and an
// honest datagram sent in the middle of the flood still completes (its pieces come close
// together, while the flood's oldest entries go first).
TEST(IpReassembly, FloodEvictsOldestAndHonestDatagramCompletes) {
  ip_fragment_limits limits;
  limits.max_datagrams = 64;
  limits.max_buffered_bytes = 64 * 1480;
  ip_reassembler r(limits);
  const auto junk = pattern(3008, 3);
  const auto honest = pattern(3008, 4);
  auto hp = split(honest, 1480, 0x7777, 200);
  for (unsigned i = 0; i < 1000; ++i) {
    EXPECT_FALSE(r.feed(fragment(junk, 0, 1480, true, i, 1 + i % 100).h, at(std::chrono::milliseconds(i))));
    EXPECT_LE(r.in_progress(), 64u);
    EXPECT_LE(r.buffered_bytes(), 64u * 1480);
    if (i == 500) {
      EXPECT_FALSE(r.feed(hp[0].h, at(500ms)));
    }
    if (i == 510) {
      EXPECT_FALSE(r.feed(hp[1].h, at(510ms)));
    }
    if (i == 520) {
      auto d = r.feed(hp[2].h, at(520ms));
      ASSERT_TRUE(d);
      EXPECT_EQ(d->payload, honest);
    }
  }
  EXPECT_GT(r.stats().evicted, 900u);
}

// IPv6: the Fragment header's id and M flag, the upper layer from the first fragment.
TEST(IpReassembly, Ipv6Fragments) {
  const auto data = pattern(2008);
  std::vector<std::vector<std::byte>> frames;
  std::vector<ipv6_header> headers;
  for (std::size_t off = 0; off < data.size(); off += 1232) {
    const auto len = std::min<std::size_t>(1232, data.size() - off);
    packet_bytes p;
    p.be32(0x60000000).be16(static_cast<unsigned>(8 + len)).u8(44).u8(64);
    p.bytes({0xfd, 0x28, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
    p.bytes({0xfd, 0x28, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
    const bool more = off + len < data.size();
    p.u8(58).u8(0).be16(static_cast<unsigned>(off | (more ? 1 : 0))).be32(0xcafe0001);
    p.b.insert(p.b.end(), data.begin() + static_cast<std::ptrdiff_t>(off),
               data.begin() + static_cast<std::ptrdiff_t>(off + len));
    frames.push_back(std::move(p.b));
  }
  for (const auto& f : frames) headers.push_back(*decode_ipv6(netlib::byte_view(f)));
  ip_reassembler r;
  EXPECT_FALSE(r.feed(headers[1], at(0ms)));
  auto d = r.feed(headers[0], at(1ms));
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->v6);
  EXPECT_EQ(d->identification, 0xcafe0001u);
  EXPECT_EQ(d->protocol, ip_protocol::icmpv6);
  EXPECT_EQ(d->payload, data);
}

}  // namespace
