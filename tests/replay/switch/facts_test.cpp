// Every capture in captures/switch/ against its expected facts (NAME.facts.json) and its golden
// text output (NAME.golden.txt, the run with --table added).
#include "replay_support.hpp"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

namespace {

using namespace netlab::test;
using nlohmann::json;

std::vector<std::filesystem::path> facts_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(captures_dir())) {
    if (e.path().string().ends_with(".facts.json")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The run's arguments with file names made relative to captures/switch.
std::vector<std::string> run_args(const json& facts, const json& run) {
  std::vector<std::string> args{captures_dir() + "/" + facts["capture"].get<std::string>()};
  for (const auto& a : run["args"]) {
    const auto s = a.get<std::string>();
    args.push_back(s.ends_with(".conf") ? captures_dir() + "/" + s : s);
  }
  return args;
}

// The interface the checks rely on: field names, types, order and spelling.
void check_interface(const json& doc) {
  static const std::regex mac_re("^([0-9a-f]{2}:){5}[0-9a-f]{2}$");
  static const std::set<std::string> decisions{"forward", "flood", "filter", "drop"};
  ASSERT_TRUE(doc["frames"].is_array());
  std::uint64_t n = 0;
  for (const auto& f : doc["frames"]) {
    EXPECT_EQ(f["frame"].get<std::uint64_t>(), ++n);
    EXPECT_TRUE(f["in_port"].is_number_unsigned());
    if (!f["src"].is_null()) {
      EXPECT_TRUE(std::regex_match(f["src"].get<std::string>(), mac_re)) << f;
    }
    if (!f["dst"].is_null()) {
      EXPECT_TRUE(std::regex_match(f["dst"].get<std::string>(), mac_re)) << f;
    }
    EXPECT_TRUE(decisions.contains(f["decision"].get<std::string>())) << f;
    const auto ports = f["out_ports"].get<std::vector<unsigned>>();
    EXPECT_TRUE(std::is_sorted(ports.begin(), ports.end()) &&
                std::adjacent_find(ports.begin(), ports.end()) == ports.end());
  }
  for (const auto& e : doc["table"]) {
    EXPECT_TRUE(std::regex_match(e["mac"].get<std::string>(), mac_re));
    EXPECT_TRUE(e["vlan"].is_null() || e["vlan"].is_number_unsigned());
    EXPECT_TRUE(e["port"].is_number_unsigned());
    EXPECT_GE(e["age_s"].get<double>(), 0.0);
    EXPECT_TRUE(e["static"].is_boolean());
  }
}

void check_counts(const json& doc, const json& run, const std::set<std::string>& legit) {
  std::map<std::string, int> decisions;
  std::map<std::string, int> events;
  std::map<std::string, int> drops;
  int legit_floods = 0;
  for (const auto& f : doc["frames"]) {
    const auto d = f["decision"].get<std::string>();
    ++decisions[d];
    if (d == "drop")
      ++drops[f["reason"].get<std::string>().starts_with("ethernet:") ? "malformed" : f["reason"].get<std::string>()];
    for (const auto& e : f["events"]) ++events[e["event"].get<std::string>()];
    if (d == "flood" && !f["src"].is_null() && legit.contains(f["src"]) && legit.contains(f["dst"])) ++legit_floods;
  }
  if (run.contains("frames")) {
    EXPECT_EQ(doc["frames"].size(), run["frames"].get<std::size_t>());
  }
  if (run.contains("decisions")) {
    for (const auto& [k, v] : run["decisions"].items()) EXPECT_EQ(decisions[k], v.get<int>()) << "decision " << k;
  }
  if (run.contains("events")) {
    for (const auto& [k, v] : run["events"].items()) EXPECT_EQ(events[k], v.get<int>()) << "event " << k;
  }
  if (run.contains("drops")) {
    for (const auto& [k, v] : run["drops"].items())
      EXPECT_EQ(drops[k == "link_local" ? "link-local" : k], v.get<int>()) << k;
  }
  if (run.contains("table_size")) {
    EXPECT_EQ(doc["table"].size(), run["table_size"].get<std::size_t>());
  }
  if (run.contains("legit_unicast_floods")) {
    EXPECT_EQ(legit_floods, run["legit_unicast_floods"].get<int>());
  }
  if (run.contains("legit_unicast_floods_min")) {
    EXPECT_GE(legit_floods, run["legit_unicast_floods_min"].get<int>());
  }
}

void check_table_and_frames(const json& doc, const json& run) {
  if (run.contains("table")) {
    ASSERT_EQ(doc["table"].size(), run["table"].size());
    for (std::size_t i = 0; i < run["table"].size(); ++i) {
      const auto& want = run["table"][i];
      const auto& got = doc["table"][i];
      EXPECT_EQ(got["mac"], want["mac"]);
      EXPECT_EQ(got["port"], want["port"]);
      EXPECT_EQ(got["vlan"], want.contains("vlan") ? want["vlan"] : json(nullptr));
    }
  }
  for (const auto& c : run.value("frame_checks", json::array())) {
    const auto& f = doc["frames"].at(c["frame"].get<std::size_t>() - 1);
    EXPECT_EQ(f["decision"], c["decision"]) << "frame " << c["frame"];
    EXPECT_EQ(f["out_ports"], c["out_ports"]) << "frame " << c["frame"];
    if (c.contains("event")) {
      bool found = false;
      for (const auto& e : f["events"]) found = found || e["event"] == c["event"];
      EXPECT_TRUE(found) << "frame " << c["frame"] << " has no " << c["event"] << " event";
    }
  }
}

TEST(Captures, FactsHold) {
  const auto files = facts_files();
  ASSERT_GE(files.size(), 6U);
  for (const auto& path : files) {
    const json facts = json::parse(read_file(path));
    std::set<std::string> legit;
    for (const auto& m : facts.value("legit_macs", json::array())) legit.insert(m.get<std::string>());
    for (const auto& run : facts["runs"]) {
      SCOPED_TRACE(path.filename().string() + " " + run["args"].dump());
      const json doc = replay_json(run_args(facts, run));
      check_interface(doc);
      check_counts(doc, run, legit);
      check_table_and_frames(doc, run);
    }
  }
}

TEST(Captures, GoldenTextOutput) {
  int checked = 0;
  for (const auto& path : facts_files()) {
    const json facts = json::parse(read_file(path));
    for (const auto& run : facts["runs"]) {
      if (!run.contains("golden")) continue;
      auto args = run_args(facts, run);
      args.insert(args.begin(), "replay");
      args.push_back("--table");
      const auto r = lab_switch(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string want = read_file(captures_dir() + "/" + run["golden"].get<std::string>());
      std::istringstream got_lines(r.out);
      std::istringstream want_lines(want);
      std::string g;
      std::string w;
      for (int line = 1; std::getline(want_lines, w); ++line) {
        ASSERT_TRUE(std::getline(got_lines, g)) << run["golden"] << ": output ends before line " << line;
        ASSERT_EQ(g, w) << run["golden"] << " line " << line;
      }
      EXPECT_FALSE(std::getline(got_lines, g)) << run["golden"] << ": extra output: " << g;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 5);
}

TEST(Captures, RecipesReproduceTheCommittedCaptures) {
  temp_dir dir;
  const auto r = lab_switch({"make-captures", dir.path().string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int compared = 0;
  const json doc = json::parse(r.out);
  for (const auto& f : doc["files"]) {
    const std::filesystem::path made = f["path"].get<std::string>();
    const auto committed = std::filesystem::path(captures_dir()) / made.filename();
    EXPECT_EQ(read_file(made), read_file(committed)) << made.filename() << " differs from its recipe's output";
    ++compared;
  }
  EXPECT_EQ(compared, 7);
}

}  // namespace
