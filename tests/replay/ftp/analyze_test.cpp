// lab-ftp analyze on the project's own capture (facts written by tshark, captures/ftp/make-facts.py)
// and on the real-world FTP captures in ../shared/real-captures (facts from its README/FACTS.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "support/process.hpp"
#include "support/real_captures.hpp"

using namespace netlab::test;
using nlohmann::json;

namespace {

json analyze(const std::string& capture, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{bin_path("lab-ftp"), "analyze", capture, "--json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

// A real-world capture's path, the test skipped when it is absent.
#define REQUIRE_REAL(var, name)      \
  NETLAB_REQUIRE_REAL_CAPTURE(name); \
  const std::string var = netlab::test::real_capture(name)

// (command, bytes, mode) of each transfer, in order.
std::vector<std::tuple<std::string, std::uint64_t, std::string>> transfers(const json& session) {
  std::vector<std::tuple<std::string, std::uint64_t, std::string>> out;
  for (const auto& t : session["transfers"]) out.emplace_back(t["command"], t["bytes"], t["mode"]);
  return out;
}

}  // namespace

TEST(AnalyzeOwnCapture, MatchesTsharkFacts) {
  const std::string capture = source_path("captures/ftp/ftp-sessions.pcapng");
  std::ifstream in(source_path("captures/ftp/ftp-sessions.facts.json"));
  const json facts = json::parse(in);
  const json doc = analyze(capture, {"--control-port", "2121"});
  const auto& sessions = doc["sessions"];
  ASSERT_EQ(sessions.size(), facts["sessions"].size());
  std::multiset<std::pair<std::uint64_t, std::string>> ours, theirs;
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    const auto& want = facts["sessions"][i]["commands"];
    const auto& got = sessions[i]["commands"];
    ASSERT_EQ(got.size(), want.size()) << "session " << i;
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k]["verb"], want[k]["verb"]) << "session " << i << " command " << k;
      EXPECT_EQ(got[k]["argument"], want[k]["argument"]) << "session " << i << " command " << k;
      EXPECT_EQ(got[k]["reply_code"], want[k]["reply_code"]) << "session " << i << " command " << k;
    }
    for (const auto& t : sessions[i]["transfers"]) {
      ours.emplace(t["bytes"].get<std::uint64_t>(), t["sha256"].get<std::string>());
      EXPECT_EQ(t["reply_code"], 226);
      EXPECT_GE(t["duration_s"].get<double>(), 0.0) << t.dump();  // every duration key ends in _s
      EXPECT_FALSE(t.contains("seconds")) << t.dump();
    }
  }
  for (const auto& d : facts["data_connections"])
    theirs.emplace(d["bytes"].get<std::uint64_t>(), d["sha256"].get<std::string>());
  EXPECT_EQ(ours, theirs);
  using T = std::tuple<std::string, std::uint64_t, std::string>;
  EXPECT_EQ(transfers(sessions[0]), (std::vector<T>{{"RETR", 100000, "passive"}}));
  EXPECT_EQ(transfers(sessions[1]), (std::vector<T>{{"STOR", 100000, "active"}}));
  EXPECT_EQ(sessions[1]["transfers"][0]["direction"], "upload");
  EXPECT_EQ(sessions[2]["transfers"][0]["mode"], "passive");
  EXPECT_EQ(sessions[3]["transfers"][1]["mode"], "active");
  EXPECT_EQ(sessions[3]["commands"][8]["reply_code"], 504);  // the bounce attempt
}

TEST(AnalyzeRealCaptures, NetbsdPasvThenPort) {
  REQUIRE_REAL(path, "zeek_ftp_ipv4.pcap");
  const json doc = analyze(path);
  ASSERT_EQ(doc["sessions"].size(), 1u);
  using T = std::tuple<std::string, std::uint64_t, std::string>;
  EXPECT_EQ(transfers(doc["sessions"][0]),
            (std::vector<T>{
                {"LIST", 342, "passive"}, {"RETR", 77, "passive"}, {"LIST", 342, "active"}, {"RETR", 77, "active"}}));
  EXPECT_EQ(doc["tcp_conversations"], 5);
  for (const auto& t : doc["sessions"][0]["transfers"]) EXPECT_EQ(t["reply_code"], 226);
  EXPECT_EQ(doc["sessions"][0]["transfers"][1]["path"], "robots.txt");
}

TEST(AnalyzeRealCaptures, Ipv6EpsvAndEprt) {
  REQUIRE_REAL(path, "zeek_ftp_ipv6.pcap");
  const json doc = analyze(path);
  ASSERT_EQ(doc["sessions"].size(), 1u);
  using T = std::tuple<std::string, std::uint64_t, std::string>;
  EXPECT_EQ(transfers(doc["sessions"][0]), (std::vector<T>{{"LIST", 342, "passive"},
                                                           {"NLST", 43, "passive"},
                                                           {"RETR", 77, "passive"},
                                                           {"RETR", 77, "active"},
                                                           {"LIST", 342, "active"}}));
}

TEST(AnalyzeRealCaptures, EpsvRetrAndSize) {
  REQUIRE_REAL(path, "zeek_ftp_retr.pcap");
  const json doc = analyze(path);
  ASSERT_EQ(doc["sessions"].size(), 1u);
  const auto& s = doc["sessions"][0];
  const auto size =
      std::find_if(s["commands"].begin(), s["commands"].end(), [](const json& c) { return c["verb"] == "SIZE"; });
  ASSERT_NE(size, s["commands"].end());
  EXPECT_EQ((*size)["argument"], "/README");
  EXPECT_EQ((*size)["reply_code"], 213);
  ASSERT_EQ(s["transfers"].size(), 1u);
  EXPECT_EQ(s["transfers"][0]["bytes"], 16557);
  EXPECT_EQ(s["transfers"][0]["reply_code"], 226);
}

TEST(AnalyzeRealCaptures, BigTransferCutShortWithGaps) {
  REQUIRE_REAL(path, "zeek_ftp_bigtransfer.pcap");
  const json doc = analyze(path);
  const auto& s = doc["sessions"][0];
  ASSERT_EQ(s["transfers"].size(), 2u);
  EXPECT_EQ(s["transfers"][0]["command"], "LIST");
  EXPECT_EQ(s["transfers"][0]["bytes"], 270);
  EXPECT_EQ(s["transfers"][1]["command"], "RETR");
  EXPECT_EQ(s["transfers"][1]["bytes"], 20814);
  EXPECT_GT(s["transfers"][1]["gap_bytes"].get<std::uint64_t>(), 0u);
}

TEST(AnalyzeRealCaptures, ControlOnlyNavigationWithGaps) {
  REQUIRE_REAL(path, "zeek_ftp_cwd-navigation.pcap");
  const json doc = analyze(path);
  ASSERT_EQ(doc["sessions"].size(), 1u);
  const auto& commands = doc["sessions"][0]["commands"];
  EXPECT_EQ(commands.size(), 3445u);
  std::map<std::string, int> count;
  for (const auto& c : commands) ++count[c["verb"].get<std::string>()];
  EXPECT_EQ(count["RETR"], 687);
  EXPECT_EQ(count["PASV"], 688);
  EXPECT_EQ(count["CWD"], 1379);
  EXPECT_TRUE(doc["sessions"][0]["transfers"].empty());  // the data connections were not captured
  EXPECT_GT(doc["sessions"][0]["data_connections_not_captured"].get<int>(), 600);
}

// docs/conventions.md: a capture named on the command line that does not exist is a usage error.
TEST(AnalyzeErrors, MissingCaptureExitsTwo) {
  const auto r = run({bin_path("lab-ftp"), "analyze", "/nonexistent.pcap"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}
