// lab-http analyze on real-world captures (../shared/real-captures, facts in its FACTS.txt) and on
// the project's own loopback capture (captures/net, facts in loopback-http.facts.json).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/peers.hpp"
#include "support/process.hpp"
#include "support/real_captures.hpp"

namespace {

using namespace netlab::test;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json analyze(const std::string& path) {
  const auto r = run({bin_path("lab-http"), "analyze", path, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

using netlab::test::real_capture;

TEST(HttpAnalyze, OwnLoopbackCapture) {
  const auto doc = analyze(source_path("captures/net/loopback-http.pcapng"));
  const auto& t = doc["transactions"];
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0]["target"], "/hello.txt");
  EXPECT_EQ(t[0]["body_bytes"], 18);
  EXPECT_EQ(t[1]["body_bytes"], 8893);
  EXPECT_EQ(t[2]["status"], 404);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t[i]["connection"], i);
}

TEST(HttpAnalyze, ZeekGet) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_http_get.pcap");
  const auto t = analyze(real_capture("zeek_http_get.pcap"))["transactions"];
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]["method"], "GET");
  EXPECT_EQ(t[0]["target"], "/download/CHANGES.bro-aux.txt");
  EXPECT_EQ(t[0]["status"], 200);
  EXPECT_EQ(t[0]["body_bytes"], 4705);
}

TEST(HttpAnalyze, ZeekPipelinedRequestsInOrder) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_http_pipelined-requests.pcap");
  const auto t = analyze(real_capture("zeek_http_pipelined-requests.pcap"))["transactions"];
  ASSERT_EQ(t.size(), 5u);
  const int bodies[] = {946, 6716, 94, 2349, 27579};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(t[i]["status"], 200);
    EXPECT_EQ(t[i]["body_bytes"], bodies[i]);
    EXPECT_EQ(t[i]["connection"], 0);
  }
  EXPECT_EQ(t[0]["target"], "/style/enhanced.css");
  EXPECT_EQ(t[4]["target"], "/projects/calendar/images/header-sunbird.png");
}

TEST(HttpAnalyze, Zeek100ContinueThenChunked) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_http_100-continue.pcap");
  const auto t = analyze(real_capture("zeek_http_100-continue.pcap"))["transactions"];
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]["method"], "POST");
  EXPECT_EQ(t[0]["request_body_bytes"], 2001);
  EXPECT_EQ(t[0]["interim"], nlohmann::json::array({100}));
  EXPECT_EQ(t[0]["status"], 200);
  EXPECT_EQ(t[0]["transfer"], "chunked");
  EXPECT_EQ(t[0]["body_bytes"], 60731);  // chunked framing removed
}

TEST(HttpAnalyze, ZeekByteRangesUntilClose) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_http_byteranges.pcap");
  const auto t = analyze(real_capture("zeek_http_byteranges.pcap"))["transactions"];
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]["status"], 206);
  EXPECT_EQ(t[0]["transfer"], "until-close");
  EXPECT_EQ(t[0]["body_bytes"], 56493);
}

TEST(HttpAnalyze, PcapPlusPlusManyConnections) {
  NETLAB_REQUIRE_REAL_CAPTURE("pcapplusplus_http-packets2.pcap");
  const auto doc = analyze(real_capture("pcapplusplus_http-packets2.pcap"));
  const auto& t = doc["transactions"];
  ASSERT_EQ(t.size(), 57u);
  int moved = 0, on1 = 0, on3 = 0;
  for (const auto& x : t) {
    moved += x["status"] == 301;
    on1 += x["connection"] == 1;
    on3 += x["connection"] == 3;
  }
  EXPECT_EQ(moved, 53);
  EXPECT_EQ(on1, 27);
  EXPECT_EQ(on3, 26);
  EXPECT_EQ(doc["responses_without_request"], 1);  // tcp#0: the capture began after its request
  double last = 0;
  for (const auto& x : t) {  // in the order the requests were sent
    EXPECT_GE(x["request_time_s"].get<double>(), last);
    last = x["request_time_s"].get<double>();
  }
}

}  // namespace

namespace {

TEST(HttpAnalyze, OwnServeSessionMatchesFacts) {
  const auto facts = nlohmann::json::parse(read_file(source_path("captures/http/serve-session.facts.json")));
  const auto doc = analyze(source_path("captures/http/serve-session.pcapng"));
  EXPECT_EQ(doc["tcp_conversations"], facts["tcp_conversations"]);
  const auto& got = doc["transactions"];
  const auto& want = facts["transactions"];
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(want[i].dump());
    for (const auto& key : {"connection", "method", "target", "status", "conditional", "cookies_sent", "cookies_set"})
      EXPECT_EQ(got[i][key], want[i][key]) << key;
    if (want[i].contains("body_bytes")) {
      EXPECT_EQ(got[i]["body_bytes"], want[i]["body_bytes"]);
    }
    EXPECT_EQ(got[i]["not_modified"], want[i]["status"] == 304);
  }
}

TEST(HttpAnalyze, AgreesWithTshark) {
  NETLAB_REQUIRE_PEER("tshark");
  const std::string cap = source_path("captures/http/serve-session.pcapng");
  const auto req = run({"tshark", "-r", cap, "-Y", "http.request", "-T", "fields", "-e", "tcp.stream", "-e",
                        "http.request.method", "-e", "http.request.uri"});
  const auto resp =
      run({"tshark", "-r", cap, "-Y", "http.response", "-T", "fields", "-e", "tcp.stream", "-e", "http.response.code"});
  ASSERT_EQ(req.exit_code, 0) << req.err;
  ASSERT_FALSE(req.out.empty()) << req.err;
  std::string ours_req, ours_resp;
  const auto doc = analyze(cap);
  for (const auto& t : doc["transactions"]) {
    ours_req += std::to_string(t["connection"].get<int>()) + "\t" + t["method"].get<std::string>() + "\t" +
                t["target"].get<std::string>() + "\n";
    ours_resp += std::to_string(t["connection"].get<int>()) + "\t" + std::to_string(t["status"].get<int>()) + "\n";
  }
  EXPECT_EQ(ours_req, req.out);
  EXPECT_EQ(ours_resp, resp.out);
}

}  // namespace
