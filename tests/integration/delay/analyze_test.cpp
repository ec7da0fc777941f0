// lab-delay analyze: a capture synthesized here with exact timings gives exact handshake RTT, RTT
// samples (with Karn's rule on a retransmission), goodput and inter-arrival; the project's
// recorded loopback capture gives the byte counts its tshark-made facts file states.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <vector>

#include "netlib/capture/capture_writer.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace {

using netlab::test::bin_path;
using nlohmann::json;

void put16(std::vector<std::byte>& v, unsigned x) {
  v.push_back(std::byte(x >> 8));
  v.push_back(std::byte(x & 0xff));
}
void put32(std::vector<std::byte>& v, std::uint32_t x) {
  put16(v, x >> 16);
  put16(v, x & 0xffff);
}

// Ethernet + IPv4 + TCP (no options) from 10.0.0.1:40000 (client) or 10.0.0.2:80 (server).
std::vector<std::byte> frame(bool from_client, std::uint32_t seq, std::uint32_t ack, std::uint8_t flags,
                             std::size_t payload) {
  std::vector<std::byte> f;
  for (int i = 0; i < 12; ++i) f.push_back(std::byte(i));
  put16(f, 0x0800);
  f.push_back(std::byte(0x45));
  f.push_back(std::byte(0));
  put16(f, static_cast<unsigned>(40 + payload));
  put32(f, 0);  // id, flags, fragment offset
  f.push_back(std::byte(64));
  f.push_back(std::byte(6));
  put16(f, 0);  // checksum (not checked)
  put32(f, from_client ? 0x0a000001 : 0x0a000002);
  put32(f, from_client ? 0x0a000002 : 0x0a000001);
  put16(f, from_client ? 40000 : 80);
  put16(f, from_client ? 80 : 40000);
  put32(f, seq);
  put32(f, ack);
  f.push_back(std::byte(5 << 4));
  f.push_back(std::byte(flags));
  put16(f, 65535);
  put32(f, 0);  // checksum, urgent
  f.insert(f.end(), payload, std::byte('x'));
  return f;
}

constexpr std::uint8_t fin = 0x01, syn = 0x02, psh = 0x08, ack = 0x10;

// Handshake at 0, 10, 20 ms (RTT 20 ms); a 100-byte request at 21 ms acked at 31 ms; ten
// 1000-byte segments 1 ms apart from 32 ms, each acked 10 ms after it left; segment 5 is
// retransmitted (its ACK gives no sample); then FINs.
std::string write_capture(const netlab::test::temp_dir& dir) {
  const std::string path = dir / "analyze-synthetic.pcapng";
  auto out = netlib::capture::capture_writer::create(path);
  const auto eth = out.add_interface(netlib::packet::link_type::ethernet, "synthetic");
  auto at = [](double ms) { return netlib::from_nanoseconds(static_cast<std::int64_t>(ms * 1e6)); };
  const std::uint32_t c0 = 1000, s0 = 4294967000u;  // the server's sequence numbers wrap around
  std::vector<std::pair<double, std::vector<std::byte>>> pkts;
  pkts.push_back({0, frame(true, c0, 0, syn, 0)});
  pkts.push_back({10, frame(false, s0, c0 + 1, syn | ack, 0)});
  pkts.push_back({20, frame(true, c0 + 1, s0 + 1, ack, 0)});
  pkts.push_back({21, frame(true, c0 + 1, s0 + 1, psh | ack, 100)});
  pkts.push_back({31, frame(false, s0 + 1, c0 + 101, ack, 0)});
  for (int k = 0; k < 10; ++k) {
    const std::uint32_t seq = s0 + 1 + 1000u * static_cast<std::uint32_t>(k);
    pkts.push_back({32.0 + k, frame(false, seq, c0 + 101, ack, 1000)});
    if (k == 5) pkts.push_back({32.5 + k, frame(false, seq, c0 + 101, ack, 1000)});  // retransmission
    pkts.push_back({42.0 + k, frame(true, c0 + 101, seq + 1000, ack, 0)});
  }
  const std::uint32_t s_end = s0 + 1 + 10000;
  pkts.push_back({60, frame(false, s_end, c0 + 101, fin | ack, 0)});
  pkts.push_back({70, frame(true, c0 + 101, s_end + 1, fin | ack, 0)});
  pkts.push_back({80, frame(false, s_end + 1, c0 + 102, ack, 0)});
  std::stable_sort(pkts.begin(), pkts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [ms, bytes] : pkts) out.write(eth, at(ms), netlib::byte_view(bytes.data(), bytes.size()));
  out.flush();
  return path;
}

// The most significant digits of any number in a JSON text (leading zeros and the exponent not
// counted): docs/conventions.md rounds every number to 15.
std::size_t most_significant_digits(const std::string& text) {
  static const std::regex number(R"((\d+)(?:\.(\d+))?(?:[eE][-+]?\d+)?)");
  std::size_t most = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), number), end; it != end; ++it) {
    std::string digits = (*it)[1].str() + (*it)[2].str();
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    if ((*it)[2].matched) most = std::max(most, digits.size());  // integers (counts, bytes) are exact
  }
  return most;
}

TEST(Analyze, SyntheticTransferGivesExactTimings) {
  const netlab::test::temp_dir dir("analyze");
  const auto path = write_capture(dir);
  const auto r = netlab::test::run({bin_path("lab-delay"), "analyze", path, "--rate", "12Mbps", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  ASSERT_EQ(j["connections"].size(), 1u);
  const auto& c = j["connections"][0];
  EXPECT_EQ(c["client"], "10.0.0.1:40000");
  EXPECT_EQ(c["server"], "10.0.0.2:80");
  EXPECT_NEAR(c["handshake_rtt_s"].get<double>(), 0.020, 1e-9);
  EXPECT_NEAR(c["syn_to_synack_s"].get<double>(), 0.010, 1e-9);
  const auto& up = c["client_to_server"];
  EXPECT_EQ(up["bytes"], 100);
  EXPECT_EQ(up["rtt"]["count"], 1);
  EXPECT_NEAR(up["rtt"]["mean_s"].get<double>(), 0.010, 1e-9);
  const auto& down = c["server_to_client"];
  EXPECT_EQ(down["bytes"], 10000);
  EXPECT_EQ(down["data_segments"], 11);
  // Ten segments, one retransmitted: its ACK (and only its) gives no sample.
  EXPECT_EQ(down["rtt"]["count"], 9);
  EXPECT_NEAR(down["rtt"]["min_s"].get<double>(), 0.010, 1e-9);
  EXPECT_NEAR(down["rtt"]["max_s"].get<double>(), 0.010, 1e-9);
  // 11 data segments: 10 gaps; the retransmission splits one 1 ms gap into two of 0.5 ms.
  EXPECT_EQ(down["interarrival"]["count"], 10);
  EXPECT_NEAR(down["interarrival"]["min_s"].get<double>(), 0.0005, 1e-9);
  EXPECT_NEAR(down["interarrival"]["max_s"].get<double>(), 0.001, 1e-9);
  // In-order bytes from the first (32 ms) to the last (41 ms) data segment.
  EXPECT_NEAR(down["duration_s"].get<double>(), 0.009, 1e-9);
  EXPECT_NEAR(down["goodput_bps"].get<double>(), 8 * 10000 / 0.009, 1e-3);
  EXPECT_NEAR(j["model"]["interarrival_s"].get<double>(), 1514 * 8 / 12e6, 1e-12);
  EXPECT_EQ(c["state"], "closed");
  // 8 * 10000 / 0.009 is 8888888.888888889 in a double: printed with 15 significant digits.
  EXPECT_LE(most_significant_digits(r.out), 15U) << r.out;
  EXPECT_NE(r.out.find("\"goodput_bps\": 8888888.88888889"), std::string::npos) << r.out;
}

TEST(Analyze, HumanOutput) {
  const netlab::test::temp_dir dir("analyze");
  const auto r = netlab::test::run({bin_path("lab-delay"), "analyze", write_capture(dir)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("handshake RTT  20 ms (SYN→SYN-ACK 10 ms, SYN-ACK→ACK 10 ms)"), std::string::npos) << r.out;
}

TEST(Analyze, RecordedCaptureMatchesItsFacts) {
  const auto facts_path = netlab::test::source_path("captures/net/loopback-http.facts.json");
  std::ifstream in(facts_path);
  if (!in) GTEST_SKIP() << "no recorded capture at " << facts_path;
  const auto facts = json::parse(in);
  const auto r = netlab::test::run(
      {bin_path("lab-delay"), "analyze", netlab::test::source_path("captures/net/loopback-http.pcapng"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["packets"], facts["packets"]);
  ASSERT_EQ(j["connections"].size(), facts["conversations"].size());
  for (std::size_t i = 0; i < facts["conversations"].size(); ++i) {
    const auto& f = facts["conversations"][i];
    const auto& c = j["connections"][i];
    EXPECT_EQ(c["client"], f["client"]);
    EXPECT_EQ(c["client_to_server"]["bytes"], f["client_payload_bytes"]);
    EXPECT_EQ(c["server_to_client"]["bytes"], f["server_payload_bytes"]);
    EXPECT_GT(c["handshake_rtt_s"].get<double>(), 0);
    EXPECT_LT(c["handshake_rtt_s"].get<double>(), 0.1);  // loopback
  }
}

// docs/conventions.md: a file that exists but cannot be read as a capture is a runtime failure
// (1); a file that does not exist is a usage error (2), as in every program.
TEST(Analyze, UnreadableCaptureIsARuntimeFailure) {
  const netlab::test::temp_dir dir("analyze");
  const std::string garbage = dir / "not-a-capture.pcap";
  std::ofstream(garbage) << "not a capture at all";
  const auto r = netlab::test::run({bin_path("lab-delay"), "analyze", garbage});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const auto missing = netlab::test::run({bin_path("lab-delay"), "analyze", "/nonexistent/x.pcap"});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
}

}  // namespace
