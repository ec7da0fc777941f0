// The one capture feed for session analyzers (netlib::capture::observe_sessions), on the project's
// own FTP capture: every conversation in order, `keep` choosing, `most` keeping the first ones by
// conversation id while the rest pass by.
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

}  // namespace
