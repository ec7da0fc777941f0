// The project's own captures (captures/net, recorded with netlab-record): netlab-ladder --json
// yields the facts written beside each capture, and the replay driver feeds each conversation's
// two directions with the capture's timestamps. (Agreement with tshark, for every capture:
// tests/integration/capture/tshark_agreement_test.cpp.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "netlib/capture/tcp_replay.hpp"
#include "tshark_oracle.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<fs::path> fact_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(netlab::test::source_path("captures/net"))) {
    if (e.path().string().ends_with(".facts.json")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

json load(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

fs::path capture_of(const fs::path& facts, const json& f) {
  return facts.parent_path() / f.at("capture").get<std::string>();
}

TEST(OwnCaptures, LadderJsonYieldsTheFacts) {
  const auto files = fact_files();
  ASSERT_GE(files.size(), 2u);
  for (const auto& ff : files) {
    SCOPED_TRACE(ff.filename().string());
    const auto facts = load(ff);
    const auto r =
        netlab::test::run({netlab::test::bin_path("netlab-ladder"), capture_of(ff, facts).string(), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = json::parse(r.out);
    EXPECT_EQ(doc.at("packets"), facts.at("packets"));
    EXPECT_EQ(doc.at("decode_errors"), 0);
    const auto& ours = doc.at("conversations");
    const auto& expected = facts.at("conversations");
    ASSERT_EQ(ours.size(), expected.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
      for (const char* key : {"client", "server", "client_payload_bytes", "server_payload_bytes", "client_sha256",
                              "server_sha256", "handshake_seen"}) {
        EXPECT_EQ(ours[i].at(key), expected[i].at(key)) << "conversation " << i << " " << key;
      }
      EXPECT_EQ(ours[i].at("state"), "closed");
      EXPECT_GE(ours[i].at("duration_s").get<double>(), 0.0);
      EXPECT_GE(ours[i].at("start_s").get<double>(), 0.0);
    }
  }
}

// A consumer that keeps what the replay driver feeds it.
struct transcript : netlib::capture::stream_consumer {
  std::string to_server, to_client;
  std::vector<netlib::time_point> times;
  int ends = 0;
  bool closed = false;
  void on_bytes(netlib::packet::tcp_direction d, netlib::byte_view b, netlib::time_point t) override {
    (d == netlib::packet::tcp_direction::client_to_server ? to_server : to_client) += netlib::as_chars(b);
    times.push_back(t);
  }
  void on_end_of_stream(netlib::packet::tcp_direction, netlib::time_point) override { ++ends; }
  void on_close(const netlib::packet::tcp_conversation&) override { closed = true; }
};

TEST(OwnCaptures, ReplayDriverFeedsBothDirectionsInCaptureOrder) {
  for (const auto& ff : fact_files()) {
    SCOPED_TRACE(ff.filename().string());
    const auto facts = load(ff);
    const auto& expected = facts.at("conversations");
    for (std::size_t id = 0; id < expected.size(); ++id) {
      transcript t;
      const auto stats = netlib::capture::replay_conversation(capture_of(ff, facts), id, t);
      EXPECT_EQ(stats.decode_errors, 0u);
      EXPECT_EQ(t.to_server.substr(0, t.to_server.find("\r\n")), expected[id].at("client_first_line"));
      EXPECT_EQ(t.to_client.substr(0, t.to_client.find("\r\n")), expected[id].at("server_first_line"));
      EXPECT_EQ(netlab::test::sha256_hex(t.to_client), expected[id].at("server_sha256"));
      EXPECT_EQ(t.ends, 2);
      EXPECT_TRUE(t.closed);
      EXPECT_TRUE(std::is_sorted(t.times.begin(), t.times.end()));
      ASSERT_FALSE(t.times.empty());
      EXPECT_GE(t.times.front(), stats.first_ts);
      EXPECT_LE(t.times.back(), stats.last_ts);
    }
  }
}

}  // namespace
