// live_capture on the loopback interface: a frame injected with one handle is captured by another
// through a BPF filter, with its bytes, link type and a capture timestamp.
#include <gtest/gtest.h>
#include <unistd.h>

#include "netlib/capture/live_capture.hpp"
#include "netlib/packet/ethernet.hpp"

namespace {

using namespace netlib;

TEST(LiveCapture, InjectedFrameIsCapturedThroughTheFilter) {
  if (::geteuid() != 0) GTEST_SKIP() << "capturing on lo needs root (CAP_NET_RAW)";
  auto listener = capture::live_capture::open({.interface = "lo", .filter = "ether proto 0x88b5"});
  auto sender = capture::live_capture::open({.interface = "lo"});
  ASSERT_EQ(listener.link(), packet::link_type::ethernet);
  packet::ethernet_frame header;
  header.dst = *packet::mac_address::parse("02:00:00:00:00:02");
  header.src = *packet::mac_address::parse("02:00:00:00:00:01");
  header.ethertype = 0x88b5;  // IEEE 802 local experimental
  const auto frame = packet::encode_ethernet(header, as_bytes("netlab injected frame"));
  sender.inject(frame);
  std::optional<capture::packet_record> got;
  for (int i = 0; i < 50 && !got; ++i) got = listener.next();  // at most 50 x 100 ms
  ASSERT_TRUE(got) << "the injected frame was not captured";
  EXPECT_EQ(std::vector<std::byte>(got->data.begin(), got->data.end()), frame);
  EXPECT_GT(got->ts.time_since_epoch().count(), 0);
  auto decoded = packet::decode_ethernet(got->data);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->src, header.src);
  EXPECT_GE(listener.stats().received, 1u);
}

TEST(LiveCapture, OpenErrorsNameTheInterface) {
  if (::geteuid() != 0) GTEST_SKIP() << "opening interfaces needs root (CAP_NET_RAW)";
  try {
    capture::live_capture::open({.interface = "nosuchif0"});
    FAIL() << "no error";
  } catch (const capture::capture_error& e) {
    EXPECT_STREQ(e.what(), "nosuchif0: no such interface (see `ip link`)");
  }
  EXPECT_THROW(capture::live_capture::open({.interface = "lo", .filter = "not a filter ((("}), capture::capture_error);
}

}  // namespace
