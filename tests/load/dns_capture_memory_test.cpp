// A capture crafted against netlab-grade questions' DNS pass (a student's capture is graded on
// the course's machine): 600 DNS responses of 65,000 bytes, each holding 4,060 A records (a
// 16-byte record whose name is a compression pointer). Decoded in full and kept, every message
// costs about 0.6 MB (before the DNS pass kept summaries: 352 MB of peak memory for this 39 MB
// file); summarised, it costs a few hundred bytes, and the answer-set questions of a response
// whose records do not fit 2 KB of text are not asked. The DNS key must still count every
// message and answer the rest, within 100 MB.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "netlib/capture/capture_writer.hpp"
#include "support/ip_frames.hpp"
#include "support/peak_memory.hpp"
#include "support/process.hpp"

namespace dns_capture_memory {

namespace fs = std::filesystem;
using netlab::test::bin_path;
using netlab::test::ip_frame;
using netlab::test::run;

constexpr int responses = 600;
constexpr int records = 4060;

// Ethernet/IPv4/UDP from 10.0.0.53:53 to 10.0.0.1:40000 carrying a response with `records` A records.
std::vector<std::byte> flood_frame(std::uint16_t id) {
  std::vector<std::uint8_t> dns{static_cast<std::uint8_t>(id >> 8),
                                static_cast<std::uint8_t>(id),
                                0x81,
                                0x80,
                                0,
                                1,
                                static_cast<std::uint8_t>(records >> 8),
                                static_cast<std::uint8_t>(records),
                                0,
                                0,
                                0,
                                0,
                                1,
                                'a',
                                0,
                                0,
                                1,
                                0,
                                1};
  for (int i = 0; i < records; ++i) {
    const std::uint8_t r[] = {0xc0,
                              12,
                              0,
                              1,
                              0,
                              1,
                              0,
                              0,
                              0x0e,
                              0x10,
                              0,
                              4,
                              10,
                              0,
                              static_cast<std::uint8_t>(i >> 8),
                              static_cast<std::uint8_t>(i)};
    dns.insert(dns.end(), std::begin(r), std::end(r));
  }
  auto frame = ip_frame{"10.0.0.53", 53, "10.0.0.1", 40000}.udp(dns.size());
  std::memcpy(frame.data() + frame.size() - dns.size(), dns.data(), dns.size());
  return frame;
}

TEST(DnsCaptureMemory, AFloodOfRecordsStaysSmall) {
  if (netlab::test::sanitized) GTEST_SKIP() << "peak memory is not meaningful under a sanitizer";
  const auto dir = fs::path(::testing::TempDir()) / ("netlab-dns-memory-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto capture = (dir / "flood.pcapng").string();
  {
    auto w = netlib::capture::capture_writer::create(capture);
    const auto i = w.add_interface(netlib::packet::link_type::ethernet);
    for (int n = 0; n < responses; ++n) {
      w.write(i, netlib::from_nanoseconds(1'700'000'000'000'000'000LL + n * 1'000'000LL),
              flood_frame(static_cast<std::uint16_t>(n)));
    }
    w.flush();
  }
  const auto p = netlab::test::run_measured(
      {bin_path("netlab-grade"), "questions", capture, "--key", "--json", "--select", "dns"});
  EXPECT_EQ(p.exit_code, 0);
  EXPECT_LT(p.rss_kib, 100 * 1024) << "peak RSS " << p.rss_kib << " KiB for " << responses << " responses of "
                                   << records << " records";
  const auto r = run({bin_path("netlab-grade"), "questions", capture, "--key", "--json", "--select", "dns.responses"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["questions"][0]["answer"], std::to_string(responses));
  fs::remove_all(dir);
}

}  // namespace dns_capture_memory
