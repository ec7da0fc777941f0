// The conversation table: frames and bytes per direction for TCP and UDP, side A is the first
// sender, a SYN after a closed conversation starts a new one, and the limit is an error.
#include "netlib/capture/conversations.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "netlib/capture/capture_writer.hpp"
#include "support/ip_frames.hpp"

namespace conversations_test {

using netlab::test::ip_frame;
using namespace netlab::test;

class capture_file {
 public:
  capture_file() {
    auto s = std::make_unique<std::ostringstream>();
    stream_ = s.get();
    writer_.emplace(std::move(s), netlib::capture::capture_format::pcapng, "test.pcapng");
    writer_->add_interface(netlib::packet::link_type::ethernet, "eth0");
  }
  void add(const std::vector<std::byte>& frame) {
    writer_->write(0, netlib::from_nanoseconds(1'000'000'000LL * 1000 + 1000 * static_cast<long long>(n_++)), frame);
  }
  netlib::capture::capture_reader reader() {
    writer_->flush();
    return netlib::capture::capture_reader::from_bytes(stream_->str());
  }

 private:
  std::ostringstream* stream_ = nullptr;
  std::optional<netlib::capture::capture_writer> writer_;
  int n_ = 0;
};

TEST(Conversations, counts_both_directions_of_tcp_and_udp) {
  capture_file cap;
  const ip_frame c{"10.0.0.1", 40000, "10.0.0.2", 80};
  const ip_frame u{"2001:db8::1", 5353, "2001:db8::2", 53};
  cap.add(c.tcp(tcp_syn, 0));  // 54 bytes
  cap.add(c.reversed().tcp(tcp_syn | tcp_ack, 0));
  cap.add(u.reversed().udp(100));          // the DNS server speaks first: it is side A
  cap.add(c.tcp(tcp_ack | tcp_psh, 100));  // 154
  cap.add(c.reversed().tcp(tcp_ack | tcp_psh, 1000));
  cap.add(u.udp(20));
  auto r = cap.reader();
  netlib::capture::conversation_list_stats st;
  const auto list = netlib::capture::list_conversations(r, &st);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(st.packets, 6u);
  EXPECT_EQ(list[0].protocol, 6);
  EXPECT_EQ(list[0].a.to_string(), "10.0.0.1:40000");
  EXPECT_EQ(list[0].frames_ab, 2u);
  EXPECT_EQ(list[0].bytes_ab, 54u + 154u);
  EXPECT_EQ(list[0].frames_ba, 2u);
  EXPECT_EQ(list[0].bytes_ba, 54u + 1054u);
  EXPECT_EQ(list[1].protocol, 17);
  EXPECT_EQ(list[1].a.to_string(), "[2001:db8::2]:53");
  EXPECT_EQ(list[1].bytes_ab, 14u + 40u + 8u + 100u);
  EXPECT_EQ(list[1].frames_ba, 1u);
  EXPECT_LT(list[0].first_ts, list[1].first_ts);
}

TEST(Conversations, a_syn_after_the_end_starts_a_new_conversation) {
  capture_file cap;
  const ip_frame c{"10.0.0.1", 40000, "10.0.0.2", 80};
  cap.add(c.tcp(tcp_syn, 0));
  cap.add(c.tcp(tcp_syn, 0));  // a retransmitted SYN stays in the same conversation
  cap.add(c.tcp(tcp_fin | tcp_ack, 0));
  cap.add(c.reversed().tcp(tcp_fin | tcp_ack, 0));
  cap.add(c.tcp(tcp_syn, 0));  // the port is reused
  cap.add(c.reversed().tcp(tcp_rst | tcp_ack, 0));
  auto r = cap.reader();
  const auto list = netlib::capture::list_conversations(r);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].frames_ab + list[0].frames_ba, 4u);
  EXPECT_EQ(list[1].frames_ab, 1u);
  EXPECT_EQ(list[1].frames_ba, 1u);
}

TEST(Conversations, the_limit_is_an_error) {
  capture_file cap;
  for (std::uint16_t p = 1; p <= 5; ++p) cap.add(ip_frame{"10.0.0.1", p, "10.0.0.2", 9}.udp(1));
  auto r = cap.reader();
  EXPECT_THROW(netlib::capture::list_conversations(r, nullptr, {.max_conversations = 4}),
               netlib::capture::capture_error);
  auto again = cap.reader();
  EXPECT_EQ(netlib::capture::list_conversations(again, nullptr, {.max_conversations = 5}).size(), 5u);
}

}  // namespace conversations_test
