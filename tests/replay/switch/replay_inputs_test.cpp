// lab-switch replay inputs and outputs: per-port files merged by time, --write-out, errors.
#include "replay_support.hpp"

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "netlib/packet/ethernet.hpp"

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace netlab::test;
using nlohmann::json;

// Splits a multi-interface pcapng into one pcap per interface: DIR/ifN.pcap.
std::vector<std::string> split_by_interface(const std::string& pcapng, const std::filesystem::path& dir) {
  auto in = netlib::capture::capture_reader::open(pcapng);
  std::map<std::uint32_t, netlib::capture::capture_writer> out;
  while (auto rec = in.next()) {
    auto it = out.find(rec->interface_id);
    if (it == out.end()) {
      auto w = netlib::capture::capture_writer::create(dir / ("if" + std::to_string(rec->interface_id) + ".pcap"));
      w.set_pcap_precision(netlib::capture::pcap_precision::nanoseconds);
      w.add_interface(netlib::packet::link_type::ethernet);
      it = out.emplace(rec->interface_id, std::move(w)).first;
    }
    it->second.write(0, rec->ts, rec->data);
  }
  std::vector<std::string> args;
  for (auto& [id, w] : out) {
    w.flush();
    args.push_back("--port");
    args.push_back(std::to_string(id) + "=" + (dir / ("if" + std::to_string(id) + ".pcap")).string());
  }
  return args;
}

TEST(ReplayInputs, PerPortFilesMergedByTimeMatchTheMultiInterfaceCapture) {
  temp_dir dir;
  const std::string capture = captures_dir() + "/four_hosts.pcapng";
  auto args = split_by_interface(capture, dir.path());
  ASSERT_EQ(args.size(), 8U);
  std::reverse(args.begin(), args.end());  // the order of --port options does not matter
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) std::swap(args[i], args[i + 1]);
  const json split = replay_json(args);
  const json whole = replay_json({capture});
  ASSERT_EQ(split["frames"].size(), 36U);
  for (std::size_t i = 0; i < 36; ++i) {
    EXPECT_EQ(split["frames"][i]["in_port"], whole["frames"][i]["in_port"]) << i;
    EXPECT_EQ(split["frames"][i]["src"], whole["frames"][i]["src"]) << i;
    EXPECT_EQ(split["frames"][i]["decision"], whole["frames"][i]["decision"]) << i;
    EXPECT_EQ(split["frames"][i]["out_ports"], whole["frames"][i]["out_ports"]) << i;
  }
  EXPECT_EQ(split["table"], whole["table"]);
}

TEST(ReplayInputs, WriteOutHasOnePcapPerPortWithTheEdgeTagging) {
  temp_dir dir;
  const json doc = replay_json({captures_dir() + "/vlans.pcapng", "--vlan-config", captures_dir() + "/vlans.vlan.conf",
                                "--write-out", dir.path().string()});
  std::map<unsigned, int> expected;
  for (const auto& f : doc["frames"]) {
    for (const auto& p : f["out_ports"]) ++expected[p.get<unsigned>()];
  }
  for (unsigned port = 0; port < 4; ++port) {
    auto in = netlib::capture::capture_reader::open(dir.path() / ("port" + std::to_string(port) + ".pcap"));
    int frames = 0;
    while (auto rec = in.next()) {
      ++frames;
      const auto eth = netlib::packet::decode_ethernet(rec->data);
      ASSERT_TRUE(eth);
      if (port == 3) {  // the trunk: every frame tagged with its VLAN
        ASSERT_EQ(eth->tags.size(), 1U);
        EXPECT_TRUE(eth->tags[0].vid == 10 || eth->tags[0].vid == 20);
      } else {
        EXPECT_TRUE(eth->tags.empty()) << "port " << port << " is an access port";
      }
    }
    EXPECT_EQ(frames, expected[port]) << "port " << port;
  }
  EXPECT_EQ(expected[3], 4);
}

TEST(ReplayInputs, SummaryPrintsOnlyTotals) {
  const auto r = lab_switch({"replay", captures_dir() + "/mac_flood.pcapng", "--summary"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "frames 2728 (skipped 0)\n"
            "decisions forward 226 flood 2502 filter 0 drop 0 (malformed 0, link-local 0, port-down 0, vlan 0, "
            "invalid-source 0)\n"
            "events learn 2503 move 0 age 0 evict 455 flush 0 refuse 0\n"
            "table 2048 entries (2048 dynamic)\n"
            "port 0 rx 2500 frames 150000 bytes (dropped 0, filtered 0) tx 2 frames 120 bytes\n"
            "port 1 rx 114 frames 8408 bytes (dropped 0, filtered 0) tx 2614 frames 158408 bytes\n"
            "port 2 rx 101 frames 7460 bytes (dropped 0, filtered 0) tx 2602 frames 157520 bytes\n"
            "port 3 rx 13 frames 948 bytes (dropped 0, filtered 0) tx 2514 frames 151008 bytes\n");
  const json doc = replay_json({captures_dir() + "/mac_flood.pcapng", "--summary"});
  EXPECT_FALSE(doc.contains("frames"));
  EXPECT_EQ(doc["summary"]["frames"], 2728);
  EXPECT_EQ(doc["summary"]["table_size"], 2048);
  ASSERT_EQ(doc["summary"]["ports"].size(), 4U);
  EXPECT_EQ(doc["summary"]["ports"][0]["rx_frames"], 2500);  // the attacker's port
  EXPECT_EQ(doc["summary"]["ports"][0]["tx_frames"], 2);     // only the two broadcast ARP requests
}

TEST(ReplayInputs, OptionsChangeTheSwitch) {
  // capacity 2 with stop-learning: the third and fourth hosts are never learned
  json doc = replay_json({captures_dir() + "/four_hosts.pcapng", "--capacity", "2", "--policy", "stop-learning"});
  EXPECT_EQ(doc["table"].size(), 2U);
  // a static entry and a hairpin port
  doc = replay_json({captures_dir() + "/four_hosts.pcapng", "--static", "02:00:00:00:00:09=2", "--hairpin", "1"});
  ASSERT_EQ(doc["table"].size(), 5U);
  EXPECT_EQ(doc["table"][4]["mac"], "02:00:00:00:00:09");
  EXPECT_EQ(doc["table"][4]["static"], true);
  EXPECT_EQ(doc["table"][4]["age_s"], 0.0);
  EXPECT_EQ(doc["frames"][14]["out_ports"], json({0, 1, 2, 3}));  // host 2's broadcast from hairpin port 1
}

TEST(ReplayInputs, PortDownFlushesAndDropsUntilUp) {
  const json doc =
      replay_json({captures_dir() + "/four_hosts.pcapng", "--port-down", "1@0.0125", "--port-up", "1@0.0185"});
  const auto& f14 = doc["frames"][13];  // host 1 to host 2 right after port 1 went down
  ASSERT_GE(f14["events"].size(), 2U);
  EXPECT_EQ(f14["events"][0]["event"], "port_down");
  EXPECT_EQ(f14["events"][1]["event"], "flush");
  EXPECT_EQ(f14["events"][1]["mac"], "02:00:00:00:00:02");
  EXPECT_EQ(f14["decision"], "flood");
  EXPECT_EQ(f14["out_ports"], json({2, 3}));
  EXPECT_EQ(doc["frames"][14]["decision"], "drop");
  EXPECT_EQ(doc["frames"][14]["reason"], "port-down");
  EXPECT_EQ(doc["frames"][19]["events"][0]["event"], "port_up");
  EXPECT_EQ(doc["frames"][19]["out_ports"], json({0, 1, 2}));
  const auto r = lab_switch({"replay", captures_dir() + "/four_hosts.pcapng", "--port-down", "9@1"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(ReplayInputs, ErrorsAreOneLineWithTheRightExitCode) {
  temp_dir dir;
  const auto bogus = dir.path() / "bogus.pcapng";
  std::ofstream(bogus) << "this is not a capture";
  auto r = lab_switch({"replay", bogus.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = lab_switch({"replay", dir.path().string() + "/missing.pcapng"});
  EXPECT_EQ(r.exit_code, 2);
  r = lab_switch({"replay", captures_dir() + "/four_hosts.pcapng", "--static", "02:00:00:00:00:09"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("MAC=PORT"), std::string::npos) << r.err;
  r = lab_switch({"replay", captures_dir() + "/four_hosts.pcapng", "--aging", "soon"});
  EXPECT_EQ(r.exit_code, 2);
  const auto conf = dir.path() / "bad.conf";
  std::ofstream(conf) << "port 0 access 10\nport 1 hybrid 10\n";
  r = lab_switch({"replay", captures_dir() + "/four_hosts.pcapng", "--vlan-config", conf.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("line 2: unknown mode 'hybrid'"), std::string::npos) << r.err;
  r = lab_switch({"replay"});
  EXPECT_EQ(r.exit_code, 2);
  r = lab_switch({"replay", "--port", "x=a.pcap"});
  EXPECT_EQ(r.exit_code, 2);
  // One file per port: a second file for port 0 would silently replace the first.
  const auto a = captures_dir() + "/four_hosts.pcapng";
  r = lab_switch({"replay", "--port", "0=" + a, "--port", "0=" + captures_dir() + "/aging_gap.pcapng"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--port 0 is given twice"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = lab_switch({"replay", "--port", "0=" + dir.path().string() + "/missing.pcap"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;
}

}  // namespace
