// Real-world captures (../shared/real-captures, made by other projects): every one decodes without
// an error, and every stream without gaps agrees with tshark (bytes and SHA-256 per direction).
#include <gtest/gtest.h>

#include <filesystem>

#include "netlib/capture/tcp_replay.hpp"
#include "support/peers.hpp"
#include "support/real_captures.hpp"
#include "tshark_oracle.hpp"

namespace {

namespace fs = std::filesystem;
using netlab::test::sha256_hex;

using netlab::test::all_real_captures;

#define REQUIRE_REAL_CAPTURES(files) \
  if ((files).empty())               \
  GTEST_SKIP() << "no real-world captures in " << netlab::test::real_captures_folder() << " (docs/testing.md)"

// One tshark pass per file serves both checks: every file decodes without an error (frames and
// streams counted as tshark counts them), and streams without gaps have the same bytes.
TEST(RealCaptures, EveryFileDecodesAndStreamsWithoutGapsAgreeWithTshark) {
  const auto files = all_real_captures();
  REQUIRE_REAL_CAPTURES(files);
  NETLAB_REQUIRE_PEER("tshark");
  std::size_t compared = 0, with_gaps = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    auto reader = netlib::capture::capture_reader::open(f);
    netlib::capture::replay_stats stats;
    const auto convs = netlib::capture::summarize_conversations(reader, &stats);
    EXPECT_EQ(stats.decode_errors, 0u) << stats.first_decode_error;
    EXPECT_EQ(stats.truncated_records, 0u);
    const auto oracle = netlab::test::tshark_read(f.string());
    ASSERT_TRUE(oracle.ok) << oracle.error;
    EXPECT_EQ(stats.packets, oracle.frames);
    EXPECT_EQ(convs.size(), oracle.stream_ids.size());
    for (const auto& s : convs) {
      const auto& c = s.conversation;
      if (c.to_server.gap_bytes + c.to_client.gap_bytes > 0) {
        ++with_gaps;
        continue;
      }
      SCOPED_TRACE("stream " + std::to_string(c.id));
      const auto it = oracle.streams.find(static_cast<int>(c.id));
      ASSERT_NE(it, oracle.streams.end());
      const auto& t = it->second;
      // Node 0 sent the stream's first packet; our client sent the SYN (the same unless the SYN-ACK
      // was captured first).
      const bool same = t.node0 == c.client.to_string();
      EXPECT_EQ(same ? t.node1 : t.node0, c.server.to_string());
      const std::string& client_data = same ? t.data0 : t.data1;
      const std::string& server_data = same ? t.data1 : t.data0;
      EXPECT_EQ(c.to_server.payload_bytes, client_data.size());
      EXPECT_EQ(c.to_client.payload_bytes, server_data.size());
      EXPECT_EQ(s.client_sha256, sha256_hex(client_data));
      EXPECT_EQ(s.server_sha256, sha256_hex(server_data));
      ++compared;
    }
  }
  EXPECT_GE(compared, 90u);
  EXPECT_LE(with_gaps, 5u);
}

// Facts from ../shared/real-captures/FACTS.txt that exercise gaps, IPv6 and BSD loopback.
TEST(RealCaptures, KnownFacts) {
  const auto files = all_real_captures();
  REQUIRE_REAL_CAPTURES(files);
  const fs::path dir = files.front().parent_path();
  auto summary = [&](const char* name) {
    auto reader = netlib::capture::capture_reader::open(dir / name);
    return netlib::capture::summarize_conversations(reader);
  };
  const auto big = summary("zeek_ftp_bigtransfer.pcap");
  ASSERT_EQ(big.size(), 3u);
  EXPECT_EQ(big[2].conversation.to_client.payload_bytes, 20814u);  // only 20814 B captured
  EXPECT_EQ(big[2].conversation.to_client.gaps, 5u);
  EXPECT_GT(big[2].conversation.to_client.gap_bytes, 0u);
  const auto cwd = summary("zeek_ftp_cwd-navigation.pcap");
  ASSERT_EQ(cwd.size(), 1u);
  EXPECT_EQ(cwd[0].conversation.to_server.payload_bytes, 41342u);
  EXPECT_EQ(cwd[0].conversation.to_client.payload_bytes, 159675u);
  const auto v6 = summary("zeek_ftp_ipv6.pcap");
  ASSERT_FALSE(v6.empty());
  EXPECT_EQ(v6[0].conversation.client.to_string().front(), '[');
  const auto loop = summary("zeek_tls_pop3-starttls.pcap");
  ASSERT_EQ(loop.size(), 1u);
  EXPECT_EQ(loop[0].conversation.server.port, 110);
  const auto wiki = summary("zeek_wikipedia.pcap");
  ASSERT_EQ(wiki.size(), 10u);
  // Conversation 0 started before the capture; 9 is a lone SYN-ACK, whose receiver is the client.
  EXPECT_EQ(std::count_if(wiki.begin(), wiki.end(), [](const auto& s) { return !s.conversation.handshake_seen; }), 2);
  EXPECT_FALSE(wiki[0].conversation.handshake_seen);
  EXPECT_EQ(wiki[9].conversation.client.to_string(), "141.142.220.235:6705");
  EXPECT_EQ(wiki[9].conversation.server.to_string(), "173.192.163.128:80");
}

}  // namespace
