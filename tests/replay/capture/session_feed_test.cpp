// The one capture feed for session analyzers (netlib::capture::observe_sessions), on the project's
// own FTP capture: every conversation in order, `keep` choosing, `most` keeping the first ones by
// conversation id while the rest pass by; an analyzer made with the conversation's id and told of
// each direction's end of stream; replay_sessions handing every conversation to a sink.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "netlib/capture/session_feed.hpp"
#include "support/process.hpp"

namespace {

// An analyzer that counts the bytes it is fed, each way.
struct byte_counter {
  struct counts {
    std::uint64_t client = 0, server = 0;
  };
  counts seen;
  void client_bytes(netlib::byte_view b) { seen.client += b.size(); }
  void server_bytes(netlib::byte_view b) { seen.server += b.size(); }
  void gap(bool, std::size_t) {}
  [[nodiscard]] const counts& session() const { return seen; }
};

using found = netlib::capture::captured_session<byte_counter>;

// An analyzer that wants its conversation's id and the ends of its streams.
struct stream_ends {
  struct facts {
    std::uint64_t id = 0;
    std::uint64_t bytes = 0;
    int client_ends = 0, server_ends = 0;
  };
  facts seen;
  explicit stream_ends(std::uint64_t conversation) { seen.id = conversation; }
  void client_bytes(netlib::byte_view b) { seen.bytes += b.size(); }
  void server_bytes(netlib::byte_view b) { seen.bytes += b.size(); }
  void gap(bool, std::size_t) {}
  void end_of_stream(bool from_client, netlib::time_point) { ++(from_client ? seen.client_ends : seen.server_ends); }
  [[nodiscard]] const facts& session() const { return seen; }
};

static_assert(netlib::capture::made_with_conversation_id<stream_ends>);
static_assert(!netlib::capture::made_with_conversation_id<byte_counter>);

std::vector<std::uint64_t> ids(const std::vector<found>& v) {
  std::vector<std::uint64_t> out;
  for (const auto& f : v) out.push_back(f.conversation.id);
  return out;
}

const std::string capture = netlab::test::source_path("captures/ftp/ftp-sessions.pcapng");

TEST(SessionFeed, every_conversation_in_order_and_the_first_few_when_most_is_given) {
  netlib::capture::replay_stats stats;
  const auto all = netlib::capture::observe_sessions<byte_counter>(capture, stats, {});
  ASSERT_GE(all.size(), 4u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].conversation.id, i);  // tcp.stream numbering
    EXPECT_EQ(all[i].session.client, all[i].conversation.to_server.payload_bytes) << i;
  }
  const auto first_two = netlib::capture::observe_sessions<byte_counter>(capture, stats, {}, 2);
  EXPECT_EQ(ids(first_two), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_TRUE(netlib::capture::observe_sessions<byte_counter>(capture, stats, {}, 0).empty());
  // keep decides first; most then counts only what it kept.
  const auto odd = [](const found& f) { return f.conversation.id % 2 == 1; };
  EXPECT_EQ(ids(netlib::capture::observe_sessions<byte_counter>(capture, stats, odd, 2)),
            (std::vector<std::uint64_t>{1, 3}));
}

TEST(SessionFeed, made_with_the_conversation_id_and_told_of_each_end_of_stream) {
  std::vector<netlib::capture::captured_session<stream_ends>> seen;
  const auto stats = netlib::capture::replay_sessions<stream_ends>(
      capture, [&seen](netlib::capture::captured_session<stream_ends>&& f) { seen.push_back(std::move(f)); });
  ASSERT_EQ(seen.size(), stats.conversations);  // the sink sees every conversation, once
  std::size_t both_ended = 0;
  for (const auto& f : seen) {
    EXPECT_EQ(f.session.id, f.conversation.id);
    EXPECT_EQ(f.session.bytes, f.conversation.to_server.payload_bytes + f.conversation.to_client.payload_bytes);
    EXPECT_LE(f.session.client_ends, 1);
    EXPECT_LE(f.session.server_ends, 1);
    if (f.session.bytes == 0) {
      EXPECT_EQ(f.session.client_ends + f.session.server_ends, 0);  // no analyzer was made
    }
    if (f.session.client_ends == 1 && f.session.server_ends == 1) ++both_ended;
  }
  EXPECT_GE(both_ended, 2u);  // the FTP control and data connections close with a FIN each way
}

}  // namespace
