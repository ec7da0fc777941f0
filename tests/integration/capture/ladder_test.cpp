// netlab-ladder on the project's own capture: conversation list, text ladder with handshake,
// data sizes, FIN and RTTs, SVG output, and the --json interface with --conversation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string capture = netlab::test::source_path("captures/net/loopback-http.pcapng");

netlab::test::run_result ladder(std::vector<std::string> args) {
  args.insert(args.begin(), netlab::test::bin_path("netlab-ladder"));
  return netlab::test::run(args);
}

TEST(Ladder, ListsConversationsLikeTshark) {
  const auto r = ladder({capture});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("36 packets, 36 TCP, 3 conversations"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("127.0.0.1:18080"), std::string::npos);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);  // summary, header, 3 rows
}

TEST(Ladder, TextLadderShowsHandshakeDataTeardownAndRtt) {
  const auto r = ladder({capture, "--conversation", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& out = r.out;
  const auto syn = out.find("|-- SYN seq=0 ");
  const auto synack = out.find(" SYN,ACK seq=0 ack=1 --|");
  const auto body = out.find("len=8893 \"8893 B\"");
  const auto fin = out.find("FIN,ACK");
  ASSERT_NE(syn, std::string::npos) << out;
  ASSERT_NE(synack, std::string::npos) << out;
  ASSERT_NE(body, std::string::npos) << out;
  ASSERT_NE(fin, std::string::npos) << out;
  EXPECT_LT(syn, synack);
  EXPECT_LT(synack, body);
  EXPECT_LT(body, fin);
  EXPECT_NE(out.find("rtt "), std::string::npos);
  EXPECT_NE(out.find("client sent 90 B, server sent 9081 B"), std::string::npos) << out;
}

TEST(Ladder, SvgIsWrittenWithOneArrowPerSegment) {
  const fs::path svg = fs::temp_directory_path() / ("netlab-ladder-" + std::to_string(::getpid()) + ".svg");
  const auto r = ladder({capture, "-c", "0", "--svg", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(svg);
  const std::string text{std::istreambuf_iterator<char>(in), {}};
  fs::remove(svg);
  EXPECT_EQ(text.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(text.find("</svg>"), std::string::npos);
  std::size_t arrows = 0;
  for (auto pos = text.find("marker-end"); pos != std::string::npos; pos = text.find("marker-end", pos + 1)) ++arrows;
  EXPECT_EQ(arrows, 12u);
  EXPECT_NE(text.find(">SYN seq=0<"), std::string::npos);
  EXPECT_NE(text.find("time (s)"), std::string::npos);
}

TEST(Ladder, JsonWithConversationHasTheLadder) {
  const auto r = ladder({capture, "--json", "--conversation", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = json::parse(r.out);
  EXPECT_EQ(doc.at("conversations").size(), 3u);
  EXPECT_EQ(doc.at("conversation"), 2);
  const auto& steps = doc.at("ladder");
  ASSERT_EQ(steps.size(), 12u);
  EXPECT_EQ(steps[0].at("flags"), "SYN");
  EXPECT_EQ(steps[0].at("direction"), "client_to_server");
  EXPECT_EQ(steps[1].at("flags"), "SYN,ACK");
  EXPECT_TRUE(steps[1].contains("rtt_s"));
  std::uint64_t sent = 0;
  for (const auto& s : steps) {
    if (s.at("direction") == "client_to_server") sent += s.at("length").get<std::uint64_t>();
  }
  EXPECT_EQ(sent, doc["conversations"][2].at("client_payload_bytes").get<std::uint64_t>());
  double last = 0;
  for (const auto& s : steps) {
    EXPECT_GE(s.at("time_s").get<double>(), last);
    last = s.at("time_s").get<double>();
  }
  EXPECT_DOUBLE_EQ(last, doc["conversations"][2].at("duration_s").get<double>());
}

TEST(Ladder, HelpAndVersion) {
  const auto help = ladder({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("Example:"), std::string::npos);
  EXPECT_EQ(ladder({"--version"}).exit_code, 0);
  const auto rec = netlab::test::run({netlab::test::bin_path("netlab-record"), "--help"});
  EXPECT_EQ(rec.exit_code, 0);
  EXPECT_NE(rec.out.find("Example:"), std::string::npos);
}

}  // namespace
