// lab-throughput's calculators as graders call them: exact JSON keys and values.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "support/process.hpp"

namespace {

using netlab::test::bin_path;
using nlohmann::json;

json run_json(std::vector<std::string> args) {
  args.insert(args.begin(), bin_path("lab-throughput"));
  const auto r = netlab::test::run(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

TEST(ThroughputCli, PathBottleneck) {
  auto j = run_json({"path", "--link", "2Mbps", "--link", "1Mbps", "--json"});
  EXPECT_DOUBLE_EQ(j["throughput_bps"].get<double>(), 1e6);
  EXPECT_EQ(j["bottleneck"], 1);
  j = run_json({"path", "--link", "2Mbps", "--link", "1Mbps", "--shared", "5Mbps", "--flows", "10", "--json"});
  EXPECT_DOUBLE_EQ(j["throughput_bps"].get<double>(), 5e5);
  EXPECT_EQ(j["bottleneck"], "shared");
}

TEST(ThroughputCli, SwitchingTextbookExample) {
  const auto j = run_json(
      {"switching", "--link", "1Mbps", "--user-rate", "100kbps", "--active", "0.1", "--users", "35", "--json"});
  EXPECT_EQ(j["circuit_users"], 10);
  EXPECT_NEAR(j["probability_more_active"].get<double>(), 0.0004243, 1e-7);
}

TEST(ThroughputCli, HttpModes) {
  const std::vector<std::pair<std::vector<std::string>, double>> cases{
      {{"--mode", "nonpersistent"}, 0.148},
      {{"--mode", "persistent"}, 0.100},
      {{"--mode", "pipelined"}, 0.076},
      {{"--mode", "parallel", "--parallel", "2"}, 0.100},
      {{"--mode", "parallel", "--parallel", "1"}, 0.148}};
  for (const auto& [mode, expected] : cases) {
    std::vector<std::string> args{"http", "--rtt", "24ms", "--dns-rtt", "4ms", "--objects", "2", "--json"};
    args.insert(args.end(), mode.begin(), mode.end());
    EXPECT_NEAR(run_json(args)["total_s"].get<double>(), expected, 1e-12) << mode[1];
  }
  // With sizes and a rate: + (100 kb + 2 × 50 kb) / 1 Mbps = 0.2 s.
  const auto j = run_json({"http", "--rtt", "24ms", "--dns-rtt", "4ms", "--objects", "2", "--mode", "pipelined",
                           "--base-size", "100kb", "--object-size", "50kb", "--rate", "1Mbps", "--json"});
  EXPECT_NEAR(j["total_s"].get<double>(), 0.276, 1e-12);
}

TEST(ThroughputCli, CacheProblemP9) {
  const auto j = run_json({"cache", "--request-rate", "16/s", "--object-size", "850000b", "--access", "15Mbps",
                           "--internet-delay", "3s", "--hit-rate", "0.4", "--json"});
  EXPECT_NEAR(j["without_cache"]["response_s"].get<double>(), 3.607143, 1e-6);
  EXPECT_NEAR(j["with_cache"]["response_s"].get<double>(), 1.874561, 1e-6);
}

TEST(ThroughputCli, BadInputIsAUsageError) {
  const auto r = netlab::test::run({bin_path("lab-throughput"), "http", "--rtt", "24ms", "--mode", "keepalive"});
  EXPECT_EQ(r.exit_code, 2);
  const auto s = netlab::test::run({bin_path("lab-throughput"), "path", "--link", "0bps"});
  EXPECT_EQ(s.exit_code, 2) << s.err;
}

// An option that would change nothing is refused, saying why, never silently ignored.
TEST(ThroughputCli, IgnoredOptionsAreUsageErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"path", "--link", "2Mbps", "--flows", "3"}, "--flows is not used without --shared"},
      {{"http", "--rtt", "24ms", "--base-size", "100kb"}, "--base-size is not used without --rate"},
      {{"http", "--rtt", "24ms", "--object-size", "50kb", "--objects", "2"},
       "--object-size is not used without --rate"},
      {{"http", "--rtt", "24ms", "--rate", "1Mbps"}, "--rate is not used without --base-size or --object-size"},
      {{"http", "--rtt", "24ms", "--parallel", "4"}, "--parallel is only used with --mode parallel"},
  };
  for (const auto& [args, message] : cases) {
    auto argv = args;
    argv.insert(argv.begin(), bin_path("lab-throughput"));
    const auto r = netlab::test::run(argv);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
