// Every answer of the IP, ICMP, TLS and TCP-timing questions in the key of every capture in
// captures/ equals the value read with tshark: `netlab-grade questions CAPTURE --key --json` on one
// side, captures/tshark-answers.py (tshark's JSON dissection, nothing of netlab) on the other,
// compared id by id: an id the key asks that tshark cannot answer, or one tshark answers that the
// key does not ask, fails as surely as a different answer. "coded" answers (NAME (CODE)) are
// compared by their code, durations within their printed rounding (1 µs), rates within 1 B/s per
// thousand. One test per capture file (ctest runs them in parallel).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace tshark_answers_test {  // named: unity batches share one translation unit

namespace fs = std::filesystem;
using netlab::test::bin_path;
using netlab::test::source_path;
using nlohmann::json;

std::vector<std::string> all_captures() {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(source_path("captures"))) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".pcap" || ext == ".pcapng")) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The families the oracle answers (questions_ip.cpp, questions_tls.cpp, questions_tcp2.cpp).
bool in_families(const std::string& id) {
  static const std::regex families(
      R"re((ip|ipv6|icmp|icmpv6|tls)\..*|tcp\.(syn_seq|synack_seq|synack_ack|segment_seq|segment_length|ack_time|sample_rtt|estimated_rtt|dev_rtt|timeout|min_window|retransmissions|throughput|slow_start_end|slow_start_end_seq|flight_at_loss|congestion_avoidance_start)\..*)re");
  return std::regex_match(id, families);
}

// The code of "NAME (CODE)" (decimal or 0x hex), or of a bare number.
std::optional<unsigned long long> code_of(const std::string& answer) {
  std::string v = answer;
  if (const auto open = answer.rfind('('); open != std::string::npos && answer.back() == ')')
    v = answer.substr(open + 1, answer.size() - open - 2);
  try {
    const bool hex = v.rfind("0x", 0) == 0;
    const std::string digits = hex ? v.substr(2) : v;
    std::size_t used = 0;
    const auto n = std::stoull(digits, &used, hex ? 16 : 10);
    if (used != digits.size()) return std::nullopt;
    return n;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// "0.412 ms" or "0.223925 s" in seconds.
std::optional<double> seconds_of(const std::string& answer) {
  std::istringstream in(answer);
  double v = 0;
  std::string unit;
  if (!(in >> v >> unit)) return std::nullopt;
  if (unit == "ms") return v / 1e3;
  if (unit == "s") return v;
  return std::nullopt;
}

bool same(const std::string& kind, const std::string& key, const std::string& tshark) {
  if (kind == "coded") {
    const auto a = code_of(key), b = code_of(tshark);
    return a && a == b;
  }
  if (kind == "duration") {
    const auto a = seconds_of(key), b = seconds_of(tshark);
    return a && b && std::abs(*a - *b) <= 1.5e-6;
  }
  if (kind == "rate") {
    const double a = std::stod(key), b = std::stod(tshark);
    return std::abs(a - b) <= 1 + 1e-3 * b;
  }
  return key == tshark;
}

class TsharkAnswers : public testing::TestWithParam<std::string> {};

TEST_P(TsharkAnswers, EveryAnswerOfTheKeyEqualsTsharks) {
  NETLAB_REQUIRE_PEER("tshark");
  const auto& capture = GetParam();
  const auto key_run = netlab::test::run({bin_path("netlab-grade"), "questions", capture, "--key", "--json"}, {},
                                         std::chrono::seconds(120));
  ASSERT_EQ(key_run.exit_code, 0) << key_run.err;
  const auto key = json::parse(key_run.out);
  const auto oracle_run = netlab::test::run({"/usr/bin/python3", source_path("captures/tshark-answers.py"), capture},
                                            {}, std::chrono::seconds(300));
  ASSERT_EQ(oracle_run.exit_code, 0) << oracle_run.err;
  const auto oracle = json::parse(oracle_run.out).get<std::map<std::string, std::string>>();
  std::set<std::string> asked;
  for (const auto& q : key.at("questions")) {
    const auto id = q.at("id").get<std::string>();
    if (!in_families(id)) continue;
    asked.insert(id);
    const auto it = oracle.find(id);
    if (it == oracle.end()) {
      ADD_FAILURE() << id << ": the key answers " << q.at("answer") << ", tshark gives no answer";
      continue;
    }
    EXPECT_TRUE(same(q.at("kind"), q.at("answer"), it->second))
        << id << " (" << q.at("kind") << "): key " << q.at("answer") << ", tshark " << it->second;
  }
  for (const auto& [id, answer] : oracle) {
    EXPECT_TRUE(asked.contains(id)) << id << ": tshark answers " << answer << ", the key does not ask it";
  }
  RecordProperty("compared", static_cast<int>(asked.size()));
  std::cout << capture << ": " << asked.size() << " answers compared with tshark\n";
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  const fs::path p(info.param);
  std::string name = p.parent_path().filename().string() + "_" + p.filename().string();
  for (auto& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(All, TsharkAnswers, testing::ValuesIn(all_captures()), test_name);

// The comparison itself: a different code, a duration off by more than its rounding, a missing
// answer are all told apart (so the test above can fail).
TEST(TsharkAnswersCompare, TellsDifferencesApart) {
  EXPECT_TRUE(same("coded", "UDP (17)", "(17)"));
  EXPECT_TRUE(same("coded", "0x04d2 (1234)", "0x04d2 (1234)"));
  EXPECT_TRUE(same("coded", "TLS_AES_256_GCM_SHA384 (0x1302)", "(4866)"));
  EXPECT_FALSE(same("coded", "UDP (17)", "(6)"));
  EXPECT_TRUE(same("duration", "0.412 ms", "0.413 ms"));
  EXPECT_FALSE(same("duration", "0.412 ms", "0.415 ms"));
  EXPECT_TRUE(same("duration", "0.223925 s", "0.223925 s"));
  EXPECT_FALSE(same("number", "1448", "1447"));
  EXPECT_FALSE(same("list", "0, 1480", "0, 1480, 2960"));
}

}  // namespace tshark_answers_test
