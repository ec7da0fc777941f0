// lab-throughput serve and measure over loopback: a bounded transfer completes with the exact
// byte count, its time series adds up, and failures are runtime errors (exit 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <nlohmann/json.hpp>

#include "support/process.hpp"

namespace {

using netlab::test::bin_path;
using nlohmann::json;

TEST(BulkTransfer, CompletesWithTheExactByteCount) {
  netlab::test::process server({bin_path("lab-throughput"), "serve"});
  const auto address = server.wait_listening();
  const auto r = netlab::test::run(
      {bin_path("lab-throughput"), "measure", "--server", address, "--bytes", "20MB", "--interval", "10ms", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["bytes_requested"], 20000000);
  EXPECT_EQ(j["bytes_received"], 20000000);
  EXPECT_GT(j["goodput_bps"].get<double>(), 1e6);  // loopback does far better than 1 Mbps
  std::uint64_t sum = 0;
  for (const auto& p : j["series"]) sum += p["bytes"].get<std::uint64_t>();
  EXPECT_EQ(sum, 20000000u);
  EXPECT_NEAR(j["goodput_bps"].get<double>(), 8 * 20e6 / j["duration_s"].get<double>(), 1);
  // A second transfer on the same server.
  const auto again = netlab::test::run({bin_path("lab-throughput"), "measure", "--server", address, "--bytes", "1B"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("received 1 B"), std::string::npos) << again.out;
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(), 0);
  EXPECT_NE(server.out().find("sent 20 MB to 127.0.0.1:"), std::string::npos) << server.out();
}

// The series' last bucket ends with the last byte and says so (its real width, its real end); the
// others are one --interval wide. connect_s and first_byte_s count from the same origin, the start
// of the connection attempt, so the first byte never comes before the connection.
TEST(BulkTransfer, TheLastBucketHasItsRealWidthAndTheFirstByteFollowsTheConnect) {
  netlab::test::process server({bin_path("lab-throughput"), "serve"});
  const auto address = server.wait_listening();
  for (int round = 0; round < 3; ++round) {
    const auto r = netlab::test::run({bin_path("lab-throughput"), "measure", "--server", address, "--bytes", "20MB",
                                      "--interval", "10ms", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = json::parse(r.out);
    const double duration = j["duration_s"].get<double>();
    EXPECT_GE(j["first_byte_s"].get<double>(), j["connect_s"].get<double>()) << r.out;
    const auto& series = j["series"];
    ASSERT_FALSE(series.empty());
    double widths = 0;
    for (std::size_t i = 0; i + 1 < series.size(); ++i) {
      EXPECT_DOUBLE_EQ(series[i]["width_s"].get<double>(), 0.01) << i;
      widths += series[i]["width_s"].get<double>();
    }
    const auto& last = series.back();
    widths += last["width_s"].get<double>();
    EXPECT_NEAR(last["t_s"].get<double>(), duration, 1e-9) << r.out;
    EXPECT_NEAR(widths, duration, 1e-6) << r.out;
    EXPECT_LE(last["width_s"].get<double>(), 0.01 + 1e-9);
    EXPECT_NEAR(last["goodput_bps"].get<double>(), 8.0 * last["bytes"].get<double>() / last["width_s"].get<double>(),
                1e-6 * last["goodput_bps"].get<double>());
  }
  // One bucket longer than the whole transfer: it is labelled with the transfer's end, not 10 s.
  const auto r = netlab::test::run(
      {bin_path("lab-throughput"), "measure", "--server", address, "--bytes", "1MB", "--interval", "10s", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  ASSERT_EQ(j["series"].size(), 1u) << r.out;
  EXPECT_LT(j["series"][0]["t_s"].get<double>(), 10.0) << r.out;
  EXPECT_NEAR(j["series"][0]["t_s"].get<double>(), j["duration_s"].get<double>(), 1e-9) << r.out;
  EXPECT_NEAR(j["series"][0]["width_s"].get<double>(), j["duration_s"].get<double>(), 1e-9) << r.out;
  const auto text = netlab::test::run(
      {bin_path("lab-throughput"), "measure", "--server", address, "--bytes", "1MB", "--interval", "10s"});
  EXPECT_NE(text.out.find(", to the last byte)"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("  10.000 s"), std::string::npos) << text.out;
}

TEST(BulkTransfer, RequestOverTheServersLimitFails) {
  netlab::test::process server({bin_path("lab-throughput"), "serve", "--max-bytes", "1MB"});
  const auto address = server.wait_listening();
  const auto r = netlab::test::run({bin_path("lab-throughput"), "measure", "--server", address, "--bytes", "2MB"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ended after 0 of 2000000 bytes"), std::string::npos) << r.err;
}

TEST(BulkTransfer, NoServerIsARuntimeFailure) {
  std::string address;
  {
    netlab::test::process server({bin_path("lab-throughput"), "serve"});
    address = server.wait_listening();
  }
  const auto r = netlab::test::run({bin_path("lab-throughput"), "measure", "--server", address, "--bytes", "1MB"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(netlab::test::run({bin_path("lab-throughput"), "measure", "--server", address, "--bytes", "1"}).exit_code,
            2);
}

}  // namespace
