// lab-delay echo and ping over loopback: injected loss shows up as the seeded expectation says,
// injected delay shows up in the RTTs, and a dead server is a runtime failure (exit 1).
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <cmath>
#include <csignal>
#include <nlohmann/json.hpp>
#include <random>

#include "support/process.hpp"

namespace {

using netlab::test::bin_path;
using nlohmann::json;

// The echo server's documented loss rule: mt19937_64(seed), one draw per datagram, dropped when
// (x >> 11) · 2^-53 < p. Counting it here checks the rule and its cross-platform mapping.
int expected_drops(std::uint64_t seed, double p, int datagrams) {
  std::mt19937_64 engine(seed);
  int drops = 0;
  for (int i = 0; i < datagrams; ++i)
    if (static_cast<double>(engine() >> 11) * 0x1.0p-53 < p) ++drops;
  return drops;
}

json ping(const std::string& server, std::vector<std::string> extra) {
  std::vector<std::string> argv{bin_path("lab-delay"), "ping", "--server", server, "--json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = netlab::test::run(argv, {}, std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

TEST(PingEcho, InjectedLossMatchesTheSeededExpectation) {
  constexpr int count = 60;
  netlab::test::process echo({bin_path("lab-delay"), "echo", "--loss", "0.2", "--seed", "7"});
  const auto server = echo.wait_listening();
  EXPECT_EQ(server.rfind("127.0.0.1:", 0), 0u);
  const auto j = ping(server, {"--count", std::to_string(count), "--timeout", "150ms"});
  const int expected = expected_drops(7, 0.2, count);
  EXPECT_EQ(j["sent"], count);
  // Exactly the seeded drops, plus at most three replies slower than the timeout on a loaded machine.
  EXPECT_GE(j["lost"].get<int>(), expected);
  EXPECT_LE(j["lost"].get<int>(), expected + 3);
  // And the seeded count itself is a plausible Binomial(60, 0.2) draw (mean 12, sd 3.1).
  EXPECT_LE(std::abs(expected - 12), 10);
  EXPECT_NEAR(j["loss_rate"].get<double>(), j["lost"].get<double>() / count, 1e-12);
  EXPECT_GT(j["rtt_avg_s"].get<double>(), 0);
  EXPECT_LE(j["rtt_min_s"].get<double>(), j["rtt_avg_s"].get<double>());
  EXPECT_LE(j["rtt_avg_s"].get<double>(), j["rtt_max_s"].get<double>());
  echo.signal(SIGTERM);
  EXPECT_EQ(echo.wait(), 0);
  EXPECT_NE(echo.out().find(fmt::format("received {}, dropped {}", count, expected)), std::string::npos) << echo.out();
}

TEST(PingEcho, InjectedDelayShowsInTheRtt) {
  netlab::test::process echo({bin_path("lab-delay"), "echo", "--delay", "20ms"});
  const auto server = echo.wait_listening();
  const auto j = ping(server, {"--count", "5", "--timeout", "1s"});
  EXPECT_EQ(j["received"], 5);
  EXPECT_GE(j["rtt_min_s"].get<double>(), 0.020);
  EXPECT_LT(j["rtt_avg_s"].get<double>(), 0.020 + 0.2);
  ASSERT_EQ(j["probes"].size(), 5u);
  EXPECT_EQ(j["probes"][4]["seq"], 5);
}

TEST(PingEcho, HumanOutputHasTheSummaryLine) {
  netlab::test::process echo({bin_path("lab-delay"), "echo"});
  const auto server = echo.wait_listening();
  const auto r = netlab::test::run({bin_path("lab-delay"), "ping", "--server", server, "--count", "3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("3 sent, 3 received, 0.0% loss"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rtt min/avg/max/mdev = "), std::string::npos) << r.out;
}

// --json: stdout is exactly one JSON document; the listening line goes to stderr. Without --json
// it stays on stdout (that is what the tests and the tour wait for). --interval 0 is accepted.
TEST(PingEcho, EchoJsonIsOneDocumentOnStdout) {
  netlab::test::process echo({bin_path("lab-delay"), "echo", "--json"});
  const auto line = echo.wait_for_err_line("listening on ");
  ASSERT_TRUE(line) << echo.err();
  const std::string server = line->substr(std::string("listening on ").size());
  const auto j = ping(server, {"--count", "3", "--interval", "0", "--timeout", "1"});
  EXPECT_EQ(j["received"], 3);
  echo.signal(SIGTERM);
  ASSERT_EQ(echo.wait(), 0) << echo.err();
  const auto doc = json::parse(echo.out());  // throws unless stdout is one document
  EXPECT_EQ(doc["echoed"], 3);
  EXPECT_EQ(echo.out().find("listening"), std::string::npos) << echo.out();
}

TEST(PingEcho, NoServerIsARuntimeFailure) {
  // Bind an echo server to learn a free port, stop it, then ping the dead port.
  std::string server;
  {
    netlab::test::process echo({bin_path("lab-delay"), "echo"});
    server = echo.wait_listening();
  }
  const auto r =
      netlab::test::run({bin_path("lab-delay"), "ping", "--server", server, "--count", "2", "--timeout", "100ms"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no replies"), std::string::npos) << r.err;
  const auto bad = netlab::test::run({bin_path("lab-delay"), "ping", "--server", "127.0.0.1", "--count", "1"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

}  // namespace
