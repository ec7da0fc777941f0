// The replay driver on an in-memory capture: frames written with capture_writer, read back,
// decoded, reassembled and handed to per-conversation consumers chosen by a factory.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <sstream>

#include "netlib/capture/capture_writer.hpp"
#include "netlib/capture/tcp_replay.hpp"
#include "netlib/core/sha256.hpp"
#include "netlib/packet/ethernet.hpp"
#include "netlib/packet/wire.hpp"

namespace {

using namespace netlib;
using packet::tcp_direction;

// An Ethernet/IPv4/TCP frame (checksums are not checked by the decoders).
std::vector<std::byte> frame(std::uint16_t sport, std::uint16_t dport, std::uint32_t seq, std::uint32_t ack,
                             std::uint8_t flags, std::string_view data) {
  std::vector<std::byte> ip(40 + data.size());
  ip[0] = std::byte{0x45};
  packet::wire::put_be16(ip.data() + 2, static_cast<std::uint16_t>(ip.size()));
  ip[8] = std::byte{64};
  ip[9] = std::byte{6};
  const bool up = sport != 80 && sport != 25;
  ip[12] = std::byte{10};
  ip[15] = std::byte(up ? 1 : 2);
  ip[16] = std::byte{10};
  ip[19] = std::byte(up ? 2 : 1);
  packet::wire::put_be16(ip.data() + 20, sport);
  packet::wire::put_be16(ip.data() + 22, dport);
  packet::wire::put_be16(ip.data() + 24, static_cast<std::uint16_t>(seq >> 16));
  packet::wire::put_be16(ip.data() + 26, static_cast<std::uint16_t>(seq));
  packet::wire::put_be16(ip.data() + 28, static_cast<std::uint16_t>(ack >> 16));
  packet::wire::put_be16(ip.data() + 30, static_cast<std::uint16_t>(ack));
  ip[32] = std::byte{5 << 4};
  ip[33] = std::byte{flags};
  std::memcpy(ip.data() + 40, data.data(), data.size());
  packet::ethernet_frame h;
  h.ethertype = packet::ethertype::ipv4;
  return packet::encode_ethernet(h, ip);
}

std::string capture_bytes() {
  auto out = std::make_unique<std::ostringstream>();
  auto* raw = out.get();
  capture::capture_writer w(std::move(out), capture::capture_format::pcapng, "<memory>");
  const auto i = w.add_interface(packet::link_type::ethernet);
  std::int64_t t = 1'000'000'000;
  auto put = [&](std::vector<std::byte> f) { w.write(i, from_nanoseconds(t += 1000), f); };
  put(frame(5000, 80, 10, 0, 0x02, ""));  // HTTP-ish conversation 0
  put(frame(6000, 25, 70, 0, 0x02, ""));  // SMTP-ish conversation 1
  put(frame(80, 5000, 90, 11, 0x12, ""));
  put(frame(25, 6000, 30, 71, 0x12, ""));
  put(frame(25, 6000, 31, 71, 0x18, "220 hi\r\n"));
  put(frame(5000, 80, 11, 91, 0x18, "GET / HTTP/1.1\r\n\r\n"));
  put(frame(80, 5000, 91, 29, 0x19, "HTTP/1.1 200 OK\r\n"));
  put(frame(5000, 80, 29, 109, 0x11, ""));
  w.flush();
  return raw->str();
}

struct log_consumer : capture::stream_consumer {
  std::string* log;
  explicit log_consumer(std::string* l) : log(l) {}
  void on_bytes(tcp_direction d, byte_view b, time_point t) override {
    *log += (d == tcp_direction::client_to_server ? "> " : "< ") + std::string(as_chars(b)) + "@" +
            std::to_string(t.time_since_epoch().count()) + "\n";
  }
  void on_end_of_stream(tcp_direction d, time_point) override {
    *log += d == tcp_direction::client_to_server ? "> end\n" : "< end\n";
  }
  void on_close(const packet::tcp_conversation& c) override { *log += "closed " + c.client.to_string() + "\n"; }
};

TEST(TcpReplay, FactoryChoosesConversationsAndTheyGetBothDirectionsInOrder) {
  auto reader = capture::capture_reader::from_bytes(capture_bytes());
  std::map<std::uint16_t, std::string> logs;
  const auto stats = capture::replay_conversations(
      reader, [&](const packet::tcp_conversation& c) -> std::unique_ptr<capture::stream_consumer> {
        if (c.server.port != 80) return nullptr;
        return std::make_unique<log_consumer>(&logs[c.server.port]);
      });
  EXPECT_EQ(stats.packets, 8u);
  EXPECT_EQ(stats.conversations, 2u);
  EXPECT_EQ(logs.size(), 1u);
  EXPECT_EQ(logs[80],
            "> GET / HTTP/1.1\r\n\r\n@1000006000\n"
            "< HTTP/1.1 200 OK\r\n@1000007000\n"
            "< end\n"
            "> end\n"
            "closed 10.0.0.1:5000\n");
}

TEST(TcpReplay, SummariesHashEachDirection) {
  auto reader = capture::capture_reader::from_bytes(capture_bytes());
  capture::replay_stats stats;
  const auto s = capture::summarize_conversations(reader, &stats);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].conversation.server.to_string(), "10.0.0.2:25");
  EXPECT_EQ(s[1].server_sha256, sha256::hex(as_bytes("220 hi\r\n")));
  EXPECT_EQ(s[1].client_sha256, sha256::hex(as_bytes("")));
  EXPECT_EQ(s[0].conversation.state, packet::tcp_conversation_state::closed);
  EXPECT_EQ(s[1].conversation.state, packet::tcp_conversation_state::syn_received);
  EXPECT_EQ(stats.first_ts, from_nanoseconds(1'000'001'000));
}

TEST(TcpReplay, ATruncatedCaptureAndMissingBytesAreCountedAndWorded) {
  const std::string whole = capture_bytes();
  auto intact = capture::capture_reader::from_bytes(whole);
  capture::replay_stats stats;
  capture::summarize_conversations(intact, &stats);
  EXPECT_EQ(stats.truncated_records, 0u);
  EXPECT_EQ(stats.missing_bytes, 0u);
  EXPECT_FALSE(capture::damage_note("x.pcapng", stats));
  // Cut in the middle of the last record: 7 packets read, the 8th counted as truncated.
  auto cut = capture::capture_reader::from_bytes(whole.substr(0, whole.size() - 10));
  capture::summarize_conversations(cut, &stats);
  EXPECT_EQ(stats.packets, 7u);
  EXPECT_EQ(stats.truncated_records, 1u);
  const auto note = capture::damage_note("x.pcapng", stats);
  ASSERT_TRUE(note);
  EXPECT_EQ(note->find('\n'), std::string::npos);
  EXPECT_TRUE(note->starts_with("x.pcapng: the capture is truncated")) << *note;
  EXPECT_NO_THROW(capture::require_some_packet("x.pcapng", stats));
}

TEST(TcpReplay, BytesMissingFromAStreamAreCounted) {
  auto out = std::make_unique<std::ostringstream>();
  auto* raw = out.get();
  capture::capture_writer w(std::move(out), capture::capture_format::pcap, "<memory>");
  const auto i = w.add_interface(packet::link_type::ethernet);
  std::int64_t t = 1'000'000'000;
  auto put = [&](std::vector<std::byte> f) { w.write(i, from_nanoseconds(t += 1000), f); };
  put(frame(5000, 80, 10, 0, 0x02, ""));
  put(frame(80, 5000, 90, 11, 0x12, ""));
  put(frame(5000, 80, 11, 91, 0x18, "GET / HTTP/1.1\r\n\r\n"));
  put(frame(80, 5000, 91 + 100, 29, 0x18, "after a hole of 100 bytes"));  // 91..190 never captured
  w.flush();
  auto reader = capture::capture_reader::from_bytes(raw->str());
  capture::replay_stats stats;
  const auto s = capture::summarize_conversations(reader, &stats);
  EXPECT_EQ(stats.missing_bytes, 100u);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].conversation.to_client.gap_bytes, 100u);
  const auto note = capture::damage_note("gap.pcap", stats);
  ASSERT_TRUE(note);
  EXPECT_NE(note->find("100 bytes of TCP payload are missing"), std::string::npos) << *note;
  EXPECT_EQ(note->find("truncated"), std::string::npos) << *note;
}

TEST(TcpReplay, ACaptureCutInsideItsFirstRecordHasNothingToRead) {
  const std::string whole = capture_bytes();
  // The section and interface blocks (the writer's are little-endian), then 20 bytes of the
  // first packet block.
  capture::replay_stats stats;
  std::string head;
  {
    // Find where the first Enhanced Packet Block starts: after the SHB and the IDB.
    const auto shb = packet::wire::le32(reinterpret_cast<const std::byte*>(whole.data()) + 4);
    const auto idb = packet::wire::le32(reinterpret_cast<const std::byte*>(whole.data()) + shb + 4);
    head = whole.substr(0, shb + idb + 20);
  }
  auto cut = capture::capture_reader::from_bytes(head);
  capture::summarize_conversations(cut, &stats);
  EXPECT_EQ(stats.packets, 0u);
  EXPECT_EQ(stats.truncated_records, 1u);
  EXPECT_THROW(capture::require_some_packet("head.pcapng", stats), capture::capture_error);
}

}  // namespace
