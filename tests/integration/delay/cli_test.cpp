// lab-delay's calculator, quiz and simulation commands as graders call them: exact JSON keys,
// exit codes, determinism of the quiz, and every quiz answer reproduced by its check command.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace {

using netlab::test::bin_path;
using nlohmann::json;

json run_json(std::vector<std::string> args) {
  args.insert(args.begin(), bin_path("lab-delay"));
  const auto r = netlab::test::run(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

TEST(DelayCli, NodalJson) {
  const auto j = run_json({"nodal", "--length", "1500B", "--rate", "10Mbps", "--distance", "2500km", "--speed",
                           "2.5e8m/s", "--processing", "1ms", "--queueing", "2ms", "--json"});
  EXPECT_DOUBLE_EQ(j["transmission_s"].get<double>(), 0.0012);
  EXPECT_DOUBLE_EQ(j["propagation_s"].get<double>(), 0.01);
  EXPECT_NEAR(j["total_s"].get<double>(), 0.0142, 1e-12);
}

TEST(DelayCli, QueueJsonNamesTheModelAndReportsUnbounded) {
  auto j = run_json({"queue", "--length", "1500B", "--rate", "10Mbps", "--arrival-rate", "500/s", "--json"});
  EXPECT_DOUBLE_EQ(j["traffic_intensity"].get<double>(), 0.6);
  EXPECT_NEAR(j["queueing_delay_s"].get<double>(), 0.0018, 1e-12);
  EXPECT_EQ(j["model"], "M/M/1");
  EXPECT_EQ(j["unbounded"], false);
  j = run_json(
      {"queue", "--length", "1500B", "--rate", "10Mbps", "--arrival-rate", "500/s", "--model", "md1", "--json"});
  EXPECT_NEAR(j["queueing_delay_s"].get<double>(), 0.0009, 1e-12);
  EXPECT_EQ(j["model"], "M/D/1");
  j = run_json({"queue", "--length", "1500B", "--rate", "10Mbps", "--arrival-rate", "1000/s", "--json"});
  EXPECT_EQ(j["unbounded"], true);
  EXPECT_TRUE(j["queueing_delay_s"].is_null());
}

TEST(DelayCli, EndToEndJson) {
  auto j = run_json({"e2e", "--links", "3", "--length", "1500B", "--rate", "2Mbps", "--packets", "4", "--json"});
  EXPECT_NEAR(j["total_s"].get<double>(), 0.036, 1e-12);  // (3 + 4 - 1) × 6 ms
  j = run_json({"e2e", "--links", "2", "--length", "1000b", "--rate", "1Mbps", "--distance", "200km", "--speed",
                "2e8m/s", "--json"});
  EXPECT_NEAR(j["total_s"].get<double>(), 0.004, 1e-12);  // 2 × (1 ms + 1 ms)
  j = run_json({"e2e", "--link", "1Mbps", "--link", "500kbps", "--length", "1000b", "--packets", "3", "--json"});
  EXPECT_NEAR(j["total_s"].get<double>(), 0.007, 1e-12);
  j = run_json({"e2e", "--links", "3", "--rate", "2Mbps", "--message", "8Mb", "--length", "10kb", "--json"});
  EXPECT_NEAR(j["total_s"].get<double>(), 4.01, 1e-9);
  EXPECT_NEAR(j["whole_message_s"].get<double>(), 12, 1e-9);
}

TEST(DelayCli, ExplainShowsTheFormulaWithNumbers) {
  const auto r = netlab::test::run({bin_path("lab-delay"), "queue", "--length", "1500B", "--rate", "10Mbps",
                                    "--arrival-rate", "500/s", "--explain"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("I = L·a/R = 12000 b × 500 /s / 1e+07 bps = 0.6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("M/M/1: d_queue = I·(L/R)/(1 - I)"), std::string::npos) << r.out;
}

TEST(DelayCli, BadInputIsAUsageError) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"nodal", "--length", "1500", "--rate", "10Mbps"},
                                                                {"nodal", "--length", "0B", "--rate", "10Mbps"},
                                                                {"queue", "--length", "1500B", "--rate", "10Mbps"},
                                                                {"e2e", "--length", "1500B"},
                                                                {"little", "--time", "1s"}}) {
    auto argv = args;
    argv.insert(argv.begin(), bin_path("lab-delay"));
    const auto r = netlab::test::run(argv);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("lab-delay: error:"), std::string::npos);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(DelayCli, QuizIsDeterministicPerSeed) {
  const auto a = netlab::test::run({bin_path("lab-delay"), "quiz", "--seed", "42", "--count", "8", "--answers"});
  const auto b = netlab::test::run({bin_path("lab-delay"), "quiz", "--seed", "42", "--count", "8", "--answers"});
  const auto c = netlab::test::run({bin_path("lab-delay"), "quiz", "--seed", "43", "--count", "8", "--answers"});
  const auto shorter = netlab::test::run({bin_path("lab-delay"), "quiz", "--seed", "42", "--count", "3"});
  ASSERT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
  EXPECT_EQ(shorter.out.find("Answer:"), std::string::npos);
  // The first problems do not depend on the count.
  EXPECT_EQ(a.out.substr(0, a.out.find("Question 2")).substr(0, shorter.out.find("\n")),
            shorter.out.substr(0, shorter.out.find("\n")));
}

// Runs a problem's check command (lab-delay/lab-throughput ...) with --json.
json run_check(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> argv;
  for (std::string word; in >> word;) argv.push_back(argv.empty() ? bin_path(word) : word);
  argv.emplace_back("--json");
  const auto r = netlab::test::run(argv);
  EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
  return json::parse(r.out);
}

void expect_same(const json& expected, const json& actual, const std::string& where) {
  if (expected.is_number()) {
    ASSERT_TRUE(actual.is_number()) << where;
    EXPECT_NEAR(actual.get<double>(), expected.get<double>(), 1e-9 * std::max(1.0, std::abs(expected.get<double>())))
        << where;
  } else {
    EXPECT_EQ(actual, expected) << where;
  }
}

TEST(DelayCli, EveryQuizAnswerIsReproducedByItsCheckCommand) {
  const auto quiz = run_json({"quiz", "--seed", "2024", "--count", "21", "--answers", "--json"});
  ASSERT_EQ(quiz["questions"].size(), 21u);
  std::set<std::string> kinds;
  for (const auto& p : quiz["questions"]) {
    kinds.insert(p["kind"]);
    const auto out = run_check(p["check_command"]);
    const std::string kind = p["kind"];
    for (const auto& [key, value] : p["answer"].items()) {
      if (kind == "cache") {  // the calculator nests the two cases
        static const std::map<std::string, std::pair<std::string, std::string>> where{
            {"access_intensity", {"without_cache", "access_intensity"}},
            {"response_without_cache_s", {"without_cache", "response_s"}},
            {"access_intensity_with_cache", {"with_cache", "access_intensity"}},
            {"response_with_cache_s", {"with_cache", "response_s"}}};
        const auto& [side, k] = where.at(key);
        expect_same(value, out[side][k], p["check_command"].get<std::string>() + " " + key);
      } else {
        expect_same(value, out[key], p["check_command"].get<std::string>() + " " + key);
      }
    }
  }
  EXPECT_GE(kinds.size(), 5u);
}

TEST(DelayCli, SimulateJsonSweep) {
  const auto j = run_json({"simulate", "--length", "1000b", "--rate", "1Mbps", "--intensity", "0.5,1.5", "--buffer",
                           "5", "--packets", "20000", "--seed", "3", "--json"});
  EXPECT_EQ(j["model"], "M/M/1/5");  // --buffer K: K packets in the system, as in `queue --buffer`
  EXPECT_EQ(j["capacity_packets"], 5);
  ASSERT_EQ(j["points"].size(), 2u);
  const auto& low = j["points"][0];
  const auto& high = j["points"][1];
  EXPECT_LT(low["loss_rate"].get<double>(), high["loss_rate"].get<double>());
  EXPECT_NEAR(high["loss_rate"].get<double>(), high["formula_loss"].get<double>(), 0.03);
  for (const char* key :
       {"mean_queueing_s", "ci95_half_width_s", "p95_queueing_s", "p99_queueing_s", "formula_queueing_s"})
    EXPECT_TRUE(low[key].is_number()) << key;
}

TEST(DelayCli, SimulateWritesAnSvgPlot) {
  const netlab::test::temp_dir dir("delay-cli");
  const std::string path = dir / "sweep.svg";
  const auto r = netlab::test::run({bin_path("lab-delay"), "simulate", "--packets", "5000", "--svg", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto cat = netlab::test::run({"/bin/cat", path});
  EXPECT_EQ(cat.out.rfind("<svg", 0), 0u);
  EXPECT_NE(cat.out.find("</svg>"), std::string::npos);
  EXPECT_NE(cat.out.find("polyline"), std::string::npos);
}

// --buffer K means the same in queue and simulate (K packets in the system, the one being sent
// included), and queue --buffer gives the finite-buffer delay beside the finite-buffer loss.
TEST(DelayCli, BufferMeansTheSameKInQueueAndSimulate) {
  const auto q =
      run_json({"queue", "--length", "1000b", "--rate", "1Mbps", "--arrival-rate", "900/s", "--buffer", "5", "--json"});
  EXPECT_EQ(q["model"], "M/M/1/5");
  EXPECT_EQ(q["capacity_packets"], 5);
  // M/M/1/5 at I = 0.9: the finite-buffer delay (1.79 ms), not the infinite-buffer 9 ms
  EXPECT_NEAR(q["queueing_delay_s"].get<double>(), 0.00179029, 1e-7);
  EXPECT_NEAR(q["infinite_buffer_queueing_delay_s"].get<double>(), 0.009, 1e-12);
  EXPECT_NEAR(q["loss_probability"].get<double>(), 0.126023, 1e-6);
  const auto s = run_json({"simulate", "--length", "1000b", "--rate", "1Mbps", "--intensity", "0.9", "--buffer", "5",
                           "--packets", "200000", "--json"});
  const auto& p = s["points"][0];
  EXPECT_NEAR(p["formula_loss"].get<double>(), q["loss_probability"].get<double>(), 1e-12);
  EXPECT_NEAR(p["formula_queueing_s"].get<double>(), q["queueing_delay_s"].get<double>(), 1e-12);
  EXPECT_NEAR(p["loss_rate"].get<double>(), q["loss_probability"].get<double>(), 0.01);
  EXPECT_NEAR(p["mean_queueing_s"].get<double>(), q["queueing_delay_s"].get<double>(), 1e-4);
  // There is no M/D/1/K formula: --buffer with --model md1 says so instead of giving M/M/1/K numbers.
  const auto md1 = netlab::test::run({bin_path("lab-delay"), "queue", "--length", "1000b", "--rate", "1Mbps",
                                      "--arrival-rate", "900/s", "--buffer", "5", "--model", "md1"});
  EXPECT_EQ(md1.exit_code, 2) << md1.err;
}

// A trace with its own lengths: the intensity is computed from the lengths served, so --intensity
// 0.9 is a utilisation of about 0.9 (the trace's 500-byte packets are not scaled as 1500-byte ones).
TEST(DelayCli, TraceIntensityUsesTheTracesLengths) {
  const netlab::test::temp_dir dir("delay-cli");
  const std::string path = dir / "trace.txt";
  {
    std::ofstream out(path);
    for (int i = 0; i < 2000; ++i) out << i * 0.001 << ' ' << (i % 2 ? 300 : 700) << '\n';  // mean 500 B
  }
  const auto j = run_json({"simulate", "--arrivals", "trace", "--trace", path, "--rate", "10Mbps", "--intensity", "0.9",
                           "--packets", "20000", "--json"});
  EXPECT_DOUBLE_EQ(j["mean_length_bits"].get<double>(), 4000);
  const auto& p = j["points"][0];
  EXPECT_NEAR(p["traffic_intensity"].get<double>(), 0.9, 1e-9);
  EXPECT_NEAR(p["utilisation"].get<double>(), 0.9, 0.02);
  EXPECT_NEAR(p["arrival_rate_per_s"].get<double>(), 0.9 * 10e6 / 4000, 1e-6);
  // The report names only what the run used: the trace's sizes, no --length, no seed (nothing drawn).
  EXPECT_EQ(j["sizes"], "trace") << j.dump();
  EXPECT_FALSE(j.contains("length_bits")) << j.dump();
  EXPECT_FALSE(j.contains("seed")) << j.dump();
  // --length (or --seed) would not be used: the trace gives every length.
  const auto r = netlab::test::run(
      {bin_path("lab-delay"), "simulate", "--arrivals", "trace", "--trace", path, "--length", "1500B"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--length is not used"), std::string::npos) << r.err;
  const auto seeded =
      netlab::test::run({bin_path("lab-delay"), "simulate", "--arrivals", "trace", "--trace", path, "--seed", "3"});
  EXPECT_EQ(seeded.exit_code, 2) << seeded.err;
  EXPECT_NE(seeded.err.find("--seed is not used"), std::string::npos) << seeded.err;
  // A trace of times alone: the lengths are drawn from --sizes with mean --length, so both are reported.
  const std::string times = dir / "trace-times.txt";
  {
    std::ofstream out(times);
    for (int i = 0; i < 2000; ++i) out << i * 0.001 << '\n';
  }
  const auto drawn = run_json(
      {"simulate", "--arrivals", "trace", "--trace", times, "--intensity", "0.5", "--packets", "2000", "--json"});
  EXPECT_EQ(drawn["sizes"], "exponential") << drawn.dump();
  EXPECT_EQ(drawn["length_bits"], 12000) << drawn.dump();
  EXPECT_EQ(drawn["seed"], 1) << drawn.dump();
}

TEST(DelayCli, IgnoredOptionsAreUsageErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"e2e", "--links", "3", "--rate", "2Mbps", "--message", "8Mb", "--length", "10kb", "--packets", "5"},
           {"e2e", "--link", "2Mbps", "--rate", "1Mbps", "--length", "1500B"},
           {"simulate", "--trace", "x.txt"}}) {
    auto argv = args;
    argv.insert(argv.begin(), bin_path("lab-delay"));
    const auto r = netlab::test::run(argv);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// --explain: "12 s" once (not "12 s (12 s)"), no doubled brackets, "1 packet".
TEST(DelayCli, ExplanationsReadWell) {
  const auto e2e = netlab::test::run({bin_path("lab-delay"), "e2e", "--links", "3", "--rate", "2Mbps", "--message",
                                      "8Mb", "--length", "10kb", "--explain"});
  ASSERT_EQ(e2e.exit_code, 0) << e2e.err;
  EXPECT_NE(e2e.out.find(": 12 s\n"), std::string::npos) << e2e.out;
  EXPECT_EQ(e2e.out.find("12 s (12 s)"), std::string::npos) << e2e.out;
  const auto q = netlab::test::run({bin_path("lab-delay"), "queue", "--length", "1500B", "--rate", "10Mbps",
                                    "--arrival-rate", "500/s", "--explain"});
  EXPECT_EQ(q.out.find("((1"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("/ (1 - 0.6) = 0.0018 s (1.8 ms)"), std::string::npos) << q.out;
  const auto one = netlab::test::run(
      {bin_path("lab-delay"), "e2e", "--links", "2", "--rate", "1Mbps", "--length", "1000b", "--explain"});
  EXPECT_NE(one.out.find("2 equal store-and-forward links, 1 packet:"), std::string::npos) << one.out;
  EXPECT_EQ(one.out.find("packet(s)"), std::string::npos) << one.out;
}

// JSON numbers without floating-point noise: 3 × 6 ms is 0.018, not 0.018000000000000002.
TEST(DelayCli, JsonNumbersAreShortest) {
  const auto r = netlab::test::run({bin_path("lab-delay"), "e2e", "--links", "2", "--length", "1500B", "--rate",
                                    "2Mbps", "--packets", "2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"total_s\": 0.018"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("00000000"), std::string::npos) << r.out;
}

// The sweep table: every time column in one unit, decimal points aligned.
TEST(DelayCli, SimulateTableIsAlignedOnDecimalPoints) {
  const auto r =
      netlab::test::run({bin_path("lab-delay"), "simulate", "--packets", "5000", "--intensity", "0.1,0.5,0.9,1.2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string header;
  std::getline(in, header);
  EXPECT_NE(header.find("sim mean (ms)"), std::string::npos) << r.out;
  std::vector<std::size_t> points;
  for (std::string line; std::getline(in, line) && !line.empty();) {
    // The second column's decimal point: the first '.' after the intensity column.
    const auto first = line.find('.');
    points.push_back(line.find('.', first + 1));
  }
  ASSERT_EQ(points.size(), 4u) << r.out;
  for (auto p : points) EXPECT_EQ(p, points.front()) << r.out;
}

// Long delays are written in days, never in megaseconds.
TEST(DelayCli, NoMegaseconds) {
  const auto r = netlab::test::run(
      {bin_path("lab-delay"), "queue", "--length", "1500B", "--rate", "10Mbps", "--arrival-rate", "833.33333/s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("Ms"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ks"), std::string::npos) << r.out;
}

}  // namespace
