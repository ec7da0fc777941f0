// Captures recorded elsewhere (zeek's test traces), replayed as a single port: every station is on
// port 0, so learned unicast is filtered and broadcasts flood to no port.
#include "replay_support.hpp"

#include "support/peers.hpp"
#include "support/real_captures.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

using namespace netlab::test;
using nlohmann::json;

const std::filesystem::path real_captures = real_captures_folder();

TEST(RealCaptures, DceRpcMapiLearnsItsTwentyThreeSourceMacs) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_dce-rpc_mapi.pcap");
  const json doc = replay_json({(real_captures / "zeek_dce-rpc_mapi.pcap").string()});
  ASSERT_EQ(doc["frames"].size(), 800U);
  std::set<std::string> sources;
  for (const auto& f : doc["frames"]) {
    sources.insert(f["src"].get<std::string>());
    EXPECT_EQ(f["in_port"], 0);
    EXPECT_EQ(f["out_ports"], json::array());  // a single port never sends anywhere
  }
  EXPECT_EQ(sources.size(), 23U);
  EXPECT_EQ(doc["table"].size(), 23U);
  EXPECT_EQ(doc["summary"]["decisions"]["filter"], 781);
}

TEST(RealCaptures, NmapVersionScanFloodsItsArpBroadcasts) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_nmap-vsn.pcap");
  const json doc = replay_json({(real_captures / "zeek_nmap-vsn.pcap").string()});
  int broadcast_floods = 0;
  for (const auto& f : doc["frames"]) {
    if (f["dst"] == "ff:ff:ff:ff:ff:ff") {
      EXPECT_EQ(f["decision"], "flood");
      ++broadcast_floods;
    }
  }
  EXPECT_EQ(broadcast_floods, 503);
  EXPECT_EQ(doc["table"].size(), 6U);
}

// The decoder path agrees with tshark on every frame's addresses.
TEST(RealCaptures, AddressesAgreeWithTshark) {
  NETLAB_REQUIRE_PEER("tshark");
  for (const std::string name : {"four_hosts.pcapng", "edge_cases.pcapng"}) {
    const auto path = captures_dir() + "/" + name;
    const auto t = run({"tshark", "-r", path, "-T", "fields", "-e", "eth.src", "-e", "eth.dst"});
    ASSERT_EQ(t.exit_code, 0) << t.err;
    const json doc = replay_json({path});
    std::istringstream lines(t.out);
    std::string line;
    std::size_t i = 0;
    for (; std::getline(lines, line); ++i) {
      ASSERT_LT(i, doc["frames"].size());
      const auto& f = doc["frames"][i];
      const std::string ours =
          f["src"].is_null() ? "\t" : f["src"].get<std::string>() + "\t" + f["dst"].get<std::string>();
      if (f["src"].is_null()) continue;  // the runt: tshark shows what it can of it
      EXPECT_EQ(line, ours) << name << " frame " << i + 1;
    }
    EXPECT_EQ(i, doc["frames"].size()) << name;
  }
}

}  // namespace
