// netlab-grade switch: the reference switch's own decisions get full score; planted mistakes
// (a forward turned into a flood, a missing frame) fail exactly the right checks with partial
// credit; an unreadable decisions file scores 0.
#include <fstream>

#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

nlohmann::json reference(const std::string& capture, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{bin_path("lab-switch"), "replay", capture, "--json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

std::vector<std::string> switch_args(const std::string& capture, const std::string& decisions) {
  return {"switch", "--capture", capture, "--decisions", decisions, "--lab-switch", bin_path("lab-switch")};
}

TEST(SwitchGrade, ReferenceDecisionsGetFullScore) {
  grade_site dir;
  const auto capture = source_path("captures/switch/four_hosts.pcapng");
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << reference(capture).dump();
  const auto g = grade(switch_args(capture, file));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  // four_hosts: 30 forwards, 6 floods, no filter or drop frames: three checks.
  ASSERT_EQ(g.doc["checks"].size(), 3u) << g.doc.dump(2);
  EXPECT_EQ(g.doc["checks"][0]["name"], "decisions_complete");
  EXPECT_EQ(g.doc["checks"][1]["name"], "flood_step3");
  EXPECT_EQ(g.doc["checks"][2]["name"], "forward_step5");
  EXPECT_EQ(g.doc["score"], 7);
}

// Each check cites the standard and clause that makes its decision right: the bridge's rules are
// IEEE 802.1D-2004 clause 7 (8.x numbers are 802.1Q's), VLAN filtering is 802.1Q-2018's.
TEST(SwitchGrade, RulesCiteTheRightStandardAndClause) {
  grade_site dir;
  const auto capture = source_path("captures/switch/edge_cases.pcapng");
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << reference(capture).dump();
  const auto g = grade(switch_args(capture, file));
  std::map<std::string, std::string> rules;
  for (const auto& c : g.doc["checks"]) rules[c["name"].get<std::string>()] = c["rule"].get<std::string>();
  ASSERT_EQ(rules.size(), 5u) << g.doc.dump(2);
  EXPECT_NE(rules["drop_step2"].find("IEEE 802.1D-2004 §7.12.6"), std::string::npos) << rules["drop_step2"];
  EXPECT_NE(rules["drop_step2"].find("IEEE 802.1Q-2018 §8.6.2"), std::string::npos) << rules["drop_step2"];
  EXPECT_NE(rules["flood_step3"].find("IEEE 802.1D-2004 §7.7.2, §7.9"), std::string::npos) << rules["flood_step3"];
  EXPECT_NE(rules["filter_step4"].find("IEEE 802.1D-2004 §7.7.1"), std::string::npos) << rules["filter_step4"];
  EXPECT_NE(rules["forward_step5"].find("IEEE 802.1D-2004 §7.8"), std::string::npos) << rules["forward_step5"];
  for (const auto& [name, rule] : rules) {
    // Every citation names its standard with the edition, and no 802.1D citation uses a clause 8 number.
    EXPECT_EQ(rule.find("802.1D §"), std::string::npos) << name << ": " << rule;
    EXPECT_EQ(rule.find("802.1D-2004 §8"), std::string::npos) << name << ": " << rule;
  }
}

TEST(SwitchGrade, VlanCaptureWithItsConfigGetsFullScoreFromTheBareArray) {
  grade_site dir;
  const auto capture = source_path("captures/switch/vlans.pcapng");
  const auto config = source_path("captures/switch/vlans.vlan.conf");
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << reference(capture, {"--vlan-config", config})["frames"].dump();
  auto args = switch_args(capture, file);
  args.insert(args.end(), {"--vlan-config", config});
  const auto g = grade(args);
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_EQ(g.doc["score"], g.doc["max_score"]);
}

TEST(SwitchGrade, PlantedMistakesFailTheRightChecksWithPartialCredit) {
  grade_site dir;
  const auto capture = source_path("captures/switch/four_hosts.pcapng");
  auto doc = reference(capture);
  auto& frames = doc["frames"];
  // Frame 2 is forwarded to port 0 by the reference; the "student" floods it.
  ASSERT_EQ(frames[1]["decision"], "forward");
  frames[1]["decision"] = "flood";
  frames[1]["out_ports"] = {0, 2, 3};
  frames.erase(frames.size() - 1);  // frame 36 (a forward) is missing
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << doc.dump();
  const auto g = grade(switch_args(capture, file));
  EXPECT_EQ(g.exit_code, 1);
  const std::map<std::string, std::string> expected{
      {"decisions_complete", "1 frames missing, 0 frames not in the capture"},
      {"forward_step5", "28 of 30 forward frames decided right"},
  };
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
  const auto& fwd = g.doc["checks"][2];
  EXPECT_DOUBLE_EQ(fwd["score"].get<double>(), 3.0 * 28 / 30);
  EXPECT_NE(fwd["received"].get<std::string>().find("frame 2: flood [0, 2, 3]"), std::string::npos) << fwd.dump();
  EXPECT_NE(fwd["expected"].get<std::string>().find("frame 2: forward [0]"), std::string::npos) << fwd.dump();
  EXPECT_NE(fwd["received"].get<std::string>().find("frame 36: no decision"), std::string::npos) << fwd.dump();
}

TEST(SwitchGrade, UnreadableDecisionsScoreZero) {
  grade_site dir;
  const auto capture = source_path("captures/switch/four_hosts.pcapng");
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << "frame 1 flood\n";
  const auto g = grade(switch_args(capture, file));
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.doc["score"], 0);
  EXPECT_EQ(g.failed().size(), 3u);
  EXPECT_NE(g.failed().at("decisions_complete").find("student.json: "), std::string::npos);
}

// A student whose switch implements a documented policy (here stop-learning on a full table, and
// hairpin ports) and says so in its file is graded against that policy: a correct answer scores
// full marks. The instructor's --policy fixes the policy instead.
TEST(SwitchGrade, DeclaredPolicyIsGradedForThatPolicy) {
  grade_site dir;
  const auto capture = source_path("captures/switch/mac_flood.pcapng");
  auto doc = reference(capture, {"--policy", "stop-learning"});
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << doc.dump();
  const auto undeclared = grade(switch_args(capture, file));
  EXPECT_EQ(undeclared.exit_code, 1);
  EXPECT_LT(undeclared.doc["score"].get<double>(), undeclared.doc["max_score"].get<double>());

  doc["switch"] = {{"policy", "stop-learning"}};
  std::ofstream(file, std::ios::trunc) << doc.dump();
  const auto declared = grade(switch_args(capture, file));
  EXPECT_EQ(declared.exit_code, 0) << declared.doc.dump(2);
  EXPECT_EQ(declared.doc["score"], declared.doc["max_score"]);
  EXPECT_NE(declared.doc["target"].get<std::string>().find("declared --policy stop-learning"), std::string::npos)
      << declared.doc["target"];

  auto fixed = switch_args(capture, file);
  fixed.insert(fixed.end(), {"--policy", "evict-fair"});
  const auto instructor = grade(fixed);
  EXPECT_EQ(instructor.exit_code, 1);
  EXPECT_LT(instructor.doc["score"].get<double>(), instructor.doc["max_score"].get<double>());

  // Hairpin on port 1, where hosts 2 and 3 share a segment: frame 6 goes back out of port 1.
  const auto edges = source_path("captures/switch/edge_cases.pcapng");
  auto hairpin = reference(edges, {"--hairpin", "1"});
  ASSERT_EQ(hairpin["frames"][5]["decision"], "forward");
  hairpin["switch"] = {{"hairpin", {1}}};
  std::ofstream(file, std::ios::trunc) << hairpin.dump();
  const auto h = grade(switch_args(edges, file));
  EXPECT_EQ(h.exit_code, 0) << h.doc.dump(2);
  EXPECT_EQ(h.doc["score"], h.doc["max_score"]);

  // Only the documented policies can be declared.
  doc["switch"] = {{"policy", "flood-everything"}};
  std::ofstream(file, std::ios::trunc) << doc.dump();
  const auto bad = grade(switch_args(capture, file));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.failed().at("decisions_complete").find("evict-fair"), std::string::npos) << bad.doc.dump(2);
}

// --aging is a duration as every duration flag takes it, checked by netlab-grade (a bad one is a
// usage error, not a failure of the reference switch), and reaches the reference switch.
TEST(SwitchGrade, AgingIsADurationGivenToTheReference) {
  grade_site dir;
  const auto capture = source_path("captures/switch/aging_gap.pcapng");
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << reference(capture, {"--aging", "10s"}).dump();
  for (const char* aging : {"10s", "10000ms", "10"}) {
    auto args = switch_args(capture, file);
    args.insert(args.end(), {"--aging", aging});
    const auto g = grade(args);
    EXPECT_EQ(g.exit_code, 0) << aging << ": " << g.doc.dump(2);
  }
  auto never = switch_args(capture, file);
  never.insert(never.end(), {"--aging", "0"});
  EXPECT_EQ(grade(never).exit_code, 1);  // entries never age: another switch, other decisions
  std::vector<std::string> bad{bin_path("netlab-grade")};
  const auto args = switch_args(capture, file);
  bad.insert(bad.end(), args.begin(), args.end());
  bad.insert(bad.end(), {"--aging", "10xs"});
  const auto r = run(bad);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--aging: '10xs'"), std::string::npos) << r.err;
}

TEST(SwitchGrade, UsageErrorsExitTwo) {
  EXPECT_EQ(run({bin_path("netlab-grade"), "switch", "--decisions", "x.json"}).exit_code, 2);
  EXPECT_EQ(
      run({bin_path("netlab-grade"), "switch", "--capture", "/nonexistent.pcapng", "--decisions", "x.json"}).exit_code,
      2);
}

}  // namespace
