// The per-packet driver: every frame with its frame number, UDP datagrams with their endpoints
// (IPv4 and IPv6) and payloads, malformed frames counted but still passed to replay_packets.
#include "netlib/capture/packet_replay.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "netlib/capture/capture_writer.hpp"
#include "support/ip_frames.hpp"

namespace packet_replay_test {

using netlab::test::ip_frame;

netlib::capture::capture_reader capture_of(const std::vector<std::vector<std::byte>>& frames) {
  auto s = std::make_unique<std::ostringstream>();
  auto* stream = s.get();
  netlib::capture::capture_writer w(std::move(s), netlib::capture::capture_format::pcapng, "test.pcapng");
  w.add_interface(netlib::packet::link_type::ethernet, "eth0");
  std::int64_t t = 1'700'000'000'000'000'000;
  for (const auto& f : frames) w.write(0, netlib::from_nanoseconds(t += 1000), f);
  w.flush();
  return netlib::capture::capture_reader::from_bytes(stream->str());
}

TEST(PacketReplay, udp_datagrams_with_frame_numbers_and_endpoints) {
  const ip_frame dns{"10.0.0.1", 40000, "10.0.0.53", 53};
  const ip_frame v6{"2001:db8::1", 5353, "2001:db8::2", 53};
  auto truncated = dns.udp(10);
  truncated.resize(truncated.size() - 6);  // a header, then less payload than UDP's length says
  auto reader = capture_of({dns.udp(30), ip_frame{"10.0.0.1", 1, "10.0.0.2", 2}.tcp(netlab::test::tcp_syn, 0),
                            dns.reversed().udp(60), v6.udp(12), truncated});
  struct seen {
    std::uint64_t frame;
    std::string src, dst;
    std::size_t payload;
    bool truncated;
  };
  std::vector<seen> got;
  const auto stats = netlib::capture::replay_udp(reader, [&](const netlib::capture::udp_datagram& d) {
    got.push_back({d.frame, d.src.to_string(), d.dst.to_string(), d.udp.payload.size(), d.udp.truncated});
    EXPECT_NE(d.packet.ipv4() != nullptr, d.src.address.v6);
  });
  EXPECT_EQ(stats.packets, 5u);
  EXPECT_EQ(stats.tcp_packets, 0u);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].frame, 1u);
  EXPECT_EQ(got[0].src, "10.0.0.1:40000");
  EXPECT_EQ(got[0].payload, 30u);
  EXPECT_EQ(got[1].frame, 3u);
  EXPECT_EQ(got[1].src, "10.0.0.53:53");
  EXPECT_EQ(got[1].payload, 60u);
  EXPECT_EQ(got[2].frame, 4u);
  EXPECT_EQ(got[2].dst, "[2001:db8::2]:53");
  EXPECT_EQ(got[3].frame, 5u);
  EXPECT_TRUE(got[3].truncated);
}

TEST(PacketReplay, every_frame_is_passed_and_decode_errors_are_counted) {
  const ip_frame f{"10.0.0.1", 1000, "10.0.0.2", 2000};
  auto broken = f.udp(10);
  broken[14 + 20 + 4] = std::byte{0};
  broken[14 + 20 + 5] = std::byte{4};  // UDP length 4 < 8: "bad length"
  auto reader = capture_of({f.udp(1), broken, {std::byte{1}, std::byte{2}}});
  std::vector<std::uint64_t> frames;
  std::size_t udp = 0;
  const auto stats = netlib::capture::replay_packets(reader, [&](const netlib::capture::captured_packet& p) {
    frames.push_back(p.frame);
    udp += p.packet.udp() != nullptr ? 1 : 0;
  });
  EXPECT_EQ(frames, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(udp, 1u);
  EXPECT_EQ(stats.decode_errors, 2u);
  EXPECT_EQ(stats.first_decode_error, "frame 2: udp: bad length");
}

}  // namespace packet_replay_test
