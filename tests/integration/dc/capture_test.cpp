// Flows from captures, checked against tshark's own conversation tables (tshark -q -z conv,tcp
// -z conv,udp): the same conversations, the same frames each way, the same bytes (tshark prints
// kB and MB rounded: those within the rounding), and one flow per direction that carried bytes,
// from the conversation's side A or B. On a capture written here (TCP and UDP, IPv4 and IPv6,
// one-way UDP) and on the repository's recorded captures.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "netlib/capture/capture_writer.hpp"
#include "support/ip_frames.hpp"
#include "support/peers.hpp"
#include "support/process.hpp"
#include "support/third_party.hpp"

namespace dc_capture_test {

using namespace netlab::test;
using nlohmann::json;

struct tshark_conv {
  std::string protocol, a, b;
  std::uint64_t frames_ba = 0, frames_ab = 0;
  double bytes_ba = 0, bytes_ab = 0, unit_ba = 1, unit_ab = 1;
};

// "A <-> B  frames bytes-with-unit  frames bytes-with-unit ..." under each "TCP/UDP Conversations".
std::vector<tshark_conv> tshark_conversations(const std::string& file) {
  const auto r =
      run({"tshark", "-n", "-q", "-r", file, "-z", "conv,tcp", "-z", "conv,udp"}, {}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<tshark_conv> out;
  std::istringstream in(r.out);
  std::string line, protocol;
  static const std::regex row(
      R"(^(\S+)\s+<->\s+(\S+)\s+(\d+)\s+(\d+)\s+(bytes|kB|MB)\s+(\d+)\s+(\d+)\s+(bytes|kB|MB)\s)");
  const auto unit = [](const std::string& u) { return u == "bytes" ? 1.0 : u == "kB" ? 1e3 : 1e6; };
  while (std::getline(in, line)) {
    if (line.find("TCP Conversations") != std::string::npos) protocol = "tcp";
    if (line.find("UDP Conversations") != std::string::npos) protocol = "udp";
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    tshark_conv c;
    c.protocol = protocol;
    c.a = m[1];
    c.b = m[2];
    c.frames_ba = std::stoull(m[3]);
    c.unit_ba = unit(m[5]);
    c.bytes_ba = std::stod(m[4]) * c.unit_ba;
    c.frames_ab = std::stoull(m[6]);
    c.unit_ab = unit(m[8]);
    c.bytes_ab = std::stod(m[7]) * c.unit_ab;
    out.push_back(c);
  }
  return out;
}

// tshark writes IPv6 endpoints without brackets ("::1:80"), netlab with them ("[::1]:80").
std::string plain(std::string endpoint) {
  if (!endpoint.empty() && endpoint[0] == '[') {
    endpoint.erase(0, 1);
    endpoint.erase(endpoint.find(']'), 1);
  }
  return endpoint;
}

void compare_with_tshark(const std::string& file, std::size_t at_least) {
  const auto r =
      run({bin_path("lab-dc"), "ecmp", "--topology", "leaf-spine:2x2x4", "--capture", file, "--json", "--paths"}, {},
          std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  const auto ours = j["conversations"];
  const auto theirs = tshark_conversations(file);
  ASSERT_GE(theirs.size(), at_least) << file;
  ASSERT_EQ(ours.size(), theirs.size()) << file;
  std::map<std::string, json> by_key;
  for (const auto& c : ours) by_key[c["protocol"].get<std::string>() + " " + plain(c["a"]) + " " + plain(c["b"])] = c;
  std::map<std::string, double> flow_bytes;  // "proto src dst" -> bytes
  for (const auto& f : j["paths"]) {
    const auto src = f["src_ip"].get<std::string>(), dst = f["dst_ip"].get<std::string>();
    flow_bytes[f["protocol"].get<std::string>() + " " + src + ":" + std::to_string(f["src_port"].get<int>()) + " " +
               dst + ":" + std::to_string(f["dst_port"].get<int>())] += f["bytes"].get<double>();
  }
  std::size_t directions = 0;
  for (const auto& t : theirs) {
    SCOPED_TRACE(file + ": " + t.protocol + " " + t.a + " <-> " + t.b);
    const auto it = by_key.find(t.protocol + " " + t.a + " " + t.b);
    ASSERT_NE(it, by_key.end()) << "not found (or sides swapped)";
    const auto& c = it->second;
    EXPECT_EQ(c["frames_ab"].get<std::uint64_t>(), t.frames_ab);
    EXPECT_EQ(c["frames_ba"].get<std::uint64_t>(), t.frames_ba);
    EXPECT_LE(std::abs(c["bytes_ab"].get<double>() - t.bytes_ab), t.unit_ab / 2);
    EXPECT_LE(std::abs(c["bytes_ba"].get<double>() - t.bytes_ba), t.unit_ba / 2);
    // One flow per direction that carried bytes, with exactly the conversation's bytes.
    const auto key_ab = t.protocol + " " + t.a + " " + t.b, key_ba = t.protocol + " " + t.b + " " + t.a;
    EXPECT_EQ(flow_bytes[key_ab], c["bytes_ab"].get<double>());
    EXPECT_EQ(flow_bytes[key_ba], c["bytes_ba"].get<double>());
    directions += (c["bytes_ab"].get<double>() > 0) + (c["bytes_ba"].get<double>() > 0);
  }
  EXPECT_EQ(j["paths"].size(), directions);
}

TEST(DcCapture, a_written_capture_matches_tshark) {
  NETLAB_REQUIRE_PEER("tshark");
  const auto dir = make_temp_folder("dc-capture");
  const std::string file = dir + "/mixed.pcapng";
  {
    auto w = netlib::capture::capture_writer::create(file);
    w.add_interface(netlib::packet::link_type::ethernet, "eth0");
    long long ns = 1'700'000'000'000'000'000LL;
    const auto put = [&](const std::vector<std::byte>& f) { w.write(0, netlib::from_nanoseconds(ns += 1'000'000), f); };
    const ip_frame web{"10.1.0.1", 40000, "10.1.0.2", 80};
    put(web.tcp(tcp_syn, 0));
    put(web.reversed().tcp(tcp_syn | tcp_ack, 0));
    put(web.tcp(tcp_ack, 0));
    put(web.tcp(tcp_ack | tcp_psh, 300));
    for (int i = 0; i < 9; ++i) put(web.reversed().tcp(tcp_ack, 1400));  // about 13 kB: tshark rounds to kB
    put(web.tcp(tcp_fin | tcp_ack, 0));
    put(web.reversed().tcp(tcp_fin | tcp_ack, 0));
    const ip_frame dns{"10.1.0.3", 5353, "10.1.0.4", 53};
    for (int i = 0; i < 3; ++i) {
      put(dns.udp(40));
      put(dns.reversed().udp(120));
    }
    const ip_frame stream{"10.1.0.5", 9000, "10.1.0.6", 9001};  // one way only
    for (int i = 0; i < 20; ++i) put(stream.udp(200));
    const ip_frame v6{"2001:db8::1", 50000, "2001:db8::2", 443};
    put(v6.tcp(tcp_syn, 0));
    put(v6.reversed().tcp(tcp_syn | tcp_ack, 0));
    put(v6.tcp(tcp_ack | tcp_psh, 500));
    const ip_frame v6u{"2001:db8::9", 123, "2001:db8::1", 123};
    put(v6u.udp(48));
    put(v6u.reversed().udp(48));
  }
  compare_with_tshark(file, 5);
  std::filesystem::remove_all(dir);
}

TEST(DcCapture, recorded_captures_match_tshark) {
  NETLAB_REQUIRE_PEER("tshark");
  compare_with_tshark(source_path("captures/net/loopback-http.pcapng"), 3);
  compare_with_tshark(source_path("captures/net/loopback-http-ipv6.pcap"), 1);
  compare_with_tshark(source_path("captures/mail/mail-path.pcapng"), 4);
  compare_with_tshark(source_path("captures/ftp/ftp-sessions.pcapng"), 10);
}

}  // namespace dc_capture_test
