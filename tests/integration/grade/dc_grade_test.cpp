// netlab-grade dc: the reference model's own answers get full score; a student's solution written
// from the handout's definition alone (Python: binascii.crc_hqx over the 5-tuple, next hop = hash
// mod 2, spines in order) gets full score for hashes and paths; planted mistakes fail exactly the
// right checks with partial credit; an unreadable file scores only what it cannot lose.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <map>

#include "grade_fixture.hpp"
#include "support/peers.hpp"

namespace dc_grade_test {

using namespace netlab::test;

const std::vector<std::string> model{"--topology", "leaf-spine:4x2", "--flows", "40", "--hash", "crc16"};

nlohmann::json reference() {
  std::vector<std::string> argv{bin_path("lab-dc"), "ecmp"};
  argv.insert(argv.end(), model.begin(), model.end());
  argv.insert(argv.end(), {"--json", "--paths"});
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// The reference's answers in the student's format.
nlohmann::json answers_from(const nlohmann::json& ref) {
  nlohmann::json flows = nlohmann::json::array();
  for (const auto& p : ref["paths"]) {
    nlohmann::json f{{"flow", p["flow"]}, {"path", p["path"]}};
    if (!p["hops"].empty()) f["hash"] = p["hops"][0]["hash"];
    flows.push_back(f);
  }
  return {{"flows", flows}, {"links", ref["links"]}};
}

std::vector<std::string> args(const std::string& file, const std::string& what) {
  std::vector<std::string> a{"dc", "--answers", file, "--grade", what, "--lab-dc", bin_path("lab-dc")};
  a.insert(a.end(), model.begin(), model.end());
  return a;
}

TEST(DcGrade, TheModelsOwnAnswersGetFullScore) {
  grade_site dir;
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << answers_from(reference()).dump();
  const auto g = grade(args(file, "hash,path,loads"));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  ASSERT_EQ(g.doc["checks"].size(), 4u);
  EXPECT_EQ(g.doc["score"], 1 + 2 + 3 + 2);
}

TEST(DcGrade, AStudentSolutionFromTheHandoutsDefinitionGetsFullScore) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  grade_site dir;
  std::vector<std::string> argv{bin_path("lab-dc"), "ecmp"};
  argv.insert(argv.end(), model.begin(), model.end());
  argv.insert(argv.end(), {"--list-flows", "--json"});
  const auto flows = run(argv);
  ASSERT_EQ(flows.exit_code, 0) << flows.err;
  // A leaf-spine:4x2 has two hosts per leaf (h1 h2 on leaf1, ...) and two spines, in order.
  const std::string student = R"(
import binascii, json, socket, struct, sys
doc = json.load(sys.stdin)
out = []
for f in doc["flows"]:
    key = socket.inet_aton(f["src_ip"]) + socket.inet_aton(f["dst_ip"]) + struct.pack(">HHB", f["src_port"], f["dst_port"], 6)
    h = binascii.crc_hqx(key, 0xFFFF)
    leaf = lambda host: "leaf%d" % ((int(host[1:]) + 1) // 2)
    a, b = leaf(f["src"]), leaf(f["dst"])
    path = [f["src"], a, f["dst"]] if a == b else [f["src"], a, "spine%d" % (h % 2 + 1), b, f["dst"]]
    entry = {"flow": f["flow"], "path": path}
    if a != b:
        entry["hash"] = h
    out.append(entry)
print(json.dumps({"flows": out}))
)";
  const auto r = run({"/usr/bin/python3", "-c", student}, flows.out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << r.out;
  const auto g = grade(args(file, "hash,path"));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_EQ(g.doc["score"], 1 + 2 + 3);
}

TEST(DcGrade, PlantedMistakesFailTheRightChecksWithPartialCredit) {
  grade_site dir;
  auto doc = answers_from(reference());
  auto& flows = doc["flows"];
  // Flow 3 crosses the spines in this set; send it the other way and get its hash wrong.
  std::size_t crossing = 0;
  while (flows[crossing]["path"].size() != 5) ++crossing;
  auto& path = flows[crossing]["path"];
  path[2] = path[2] == "spine1" ? "spine2" : "spine1";
  flows[crossing]["hash"] = flows[crossing]["hash"].get<std::uint64_t>() + 1;
  flows.erase(flows.size() - 1);  // the last flow is missing
  for (auto& l : doc["links"]) {
    if (l["tier"] == 1) {
      l["a_to_b"]["bytes"] = 1;  // one direction of a link between switches wrong
      break;
    }
  }
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << doc.dump();
  const auto g = grade(args(file, "hash,path,loads"));
  EXPECT_EQ(g.exit_code, 1);
  const auto failed = g.failed();
  const auto ref = reference();
  std::size_t with_choice = 0;
  for (const auto& p : ref["paths"]) with_choice += !p["hops"].empty();
  const bool last_has_choice = !ref["paths"].back()["hops"].empty();
  EXPECT_EQ(failed.at("answers_complete"), "1 flows missing, 0 flows not in the set");
  EXPECT_EQ(failed.at("ecmp_paths"),
            fmt::format("{} of {} paths of flows with a choice right", with_choice - 1 - last_has_choice, with_choice));
  EXPECT_NE(failed.at("first_hop_hash").find(" hashes right"), std::string::npos);
  EXPECT_EQ(failed.at("link_bytes"), "15 of 16 link directions between switches right");
  for (const auto& c : g.doc["checks"]) {
    if (c["name"] == "ecmp_paths") {
      EXPECT_DOUBLE_EQ(c["score"].get<double>(),
                       3.0 * static_cast<double>(with_choice - 1 - last_has_choice) / static_cast<double>(with_choice));
      EXPECT_NE(c["received"].get<std::string>().find(fmt::format("flow {}:", crossing)), std::string::npos)
          << c.dump();
    }
    if (c["name"] == "answers_complete") {
      EXPECT_DOUBLE_EQ(c["score"].get<double>(), 39.0 / 40);
    }
  }
}

// Only what ECMP decides is weighed: a student who never hashes (no hashes; every path through
// the first spine; bytes from those paths) gets about what guessing gives, not the ~60 % that
// flows within a leaf and host links used to hand out.
TEST(DcGrade, AStudentWhoNeverHashesScoresLittle) {
  grade_site dir;
  const auto ref = reference();
  nlohmann::json flows = nlohmann::json::array();
  std::map<std::pair<std::string, std::string>, double> bytes;
  for (const auto& p : ref["paths"]) {
    auto path = p["path"];
    if (path.size() == 5) path[2] = "spine1";
    flows.push_back({{"flow", p["flow"]}, {"path", path}});
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      bytes[{path[i].get<std::string>(), path[i + 1].get<std::string>()}] += p["bytes"].get<double>();
    }
  }
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : ref["links"]) {
    const auto a = l["a"].get<std::string>(), b = l["b"].get<std::string>();
    links.push_back({{"a", a}, {"b", b}, {"a_to_b", bytes[{a, b}]}, {"b_to_a", bytes[{b, a}]}});
  }
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << nlohmann::json{{"flows", flows}, {"links", links}}.dump();
  const auto g = grade(args(file, "hash,path,loads"));
  EXPECT_EQ(g.exit_code, 1);
  const double share = g.doc["score"].get<double>() / g.doc["max_score"].get<double>();
  std::cout << "a student who never hashes scores " << g.doc["score"] << " of " << g.doc["max_score"] << " ("
            << fmt::format("{:.0f}", 100 * share) << " %)\n";
  EXPECT_LT(share, 0.4) << g.doc.dump(2);
  EXPECT_EQ(g.failed().count("answers_complete"), 0u);  // it did answer every flow
}

// One flow too many costs one flow's share of the completeness check, not all of it.
TEST(DcGrade, OneExtraFlowCostsOneFlow) {
  grade_site dir;
  auto doc = answers_from(reference());
  doc["flows"].push_back({{"flow", 40}, {"path", {"h1", "leaf1", "h2"}}});
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << doc.dump();
  const auto g = grade(args(file, "hash,path,loads"));
  EXPECT_EQ(g.failed().at("answers_complete"), "0 flows missing, 1 flows not in the set");
  for (const auto& c : g.doc["checks"]) {
    if (c["name"] == "answers_complete") {
      EXPECT_DOUBLE_EQ(c["score"].get<double>(), 39.0 / 40);
    }
  }
  EXPECT_DOUBLE_EQ(g.doc["score"].get<double>(), 39.0 / 40 + 2 + 3 + 2);
  // The table prints the partial score with two decimals.
  auto a = args(file, "hash,path,loads");
  a.insert(a.begin(), bin_path("netlab-grade"));
  const auto table = run(a);
  EXPECT_NE(table.out.find("0.97/1"), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("0.975"), std::string::npos) << table.out;
}

// A CRC-16 computed with the register starting at 0 instead of 0xFFFF: every wrong hash is the
// right one XOR one constant, which the feedback says, with the key bytes.
TEST(DcGrade, AWrongInitialValueIsNamedFromTheConstantDifference) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  grade_site dir;
  const auto ref = reference();
  const std::string student = R"(
import binascii, json, socket, struct, sys
doc = json.load(sys.stdin)
out = []
for p in doc["paths"]:
    key = socket.inet_aton(p["src_ip"]) + socket.inet_aton(p["dst_ip"]) + struct.pack(">HHB", p["src_port"], p["dst_port"], 6)
    entry = {"flow": p["flow"], "path": p["path"]}
    if p["hops"]:
        entry["hash"] = binascii.crc_hqx(key, 0)  # wrong: the register starts at 0xFFFF
    out.append(entry)
print(json.dumps({"flows": out}))
)";
  const auto r = run({"/usr/bin/python3", "-c", student}, ref.dump());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << r.out;
  const auto g = grade(args(file, "hash"));
  const auto reason = g.failed().at("first_hop_hash");
  EXPECT_NE(reason.find("0 of "), std::string::npos) << reason;
  EXPECT_NE(reason.find("every wrong hash differs from the right one by the same XOR, 0x"), std::string::npos)
      << reason;
  for (const auto& c : g.doc["checks"]) {
    if (c["name"] != "first_hop_hash") continue;
    // The key bytes of a flow: 13 bytes of the 5-tuple, from 0a 00 00 ...
    EXPECT_NE(c["sent"].get<std::string>().find("key 0a 00 00 "), std::string::npos) << c.dump();
  }
}

TEST(DcGrade, AnUnreadableFileScoresZeroAndGradescopeGetsEveryCheck) {
  grade_site dir;
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << "{not json";
  auto a = args(file, "path");
  const auto gs = dir.dir + "/results.json";
  a.insert(a.end(), {"--gradescope", gs});
  const auto g = grade(a);
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.doc["score"], 0);
  std::ifstream in(gs);
  const auto results = nlohmann::json::parse(in);
  EXPECT_EQ(results["tests"].size(), 2u);
  EXPECT_EQ(results["score"], 0);
}

// A missing answers file is a submission that scores 0 (exit 1, Gradescope file written), not a
// usage error (docs/conventions.md): the same as an unreadable one, for the ECMP and the schedule
// grading alike.
TEST(DcGrade, AMissingFileScoresZeroAndGradescopeGetsEveryCheck) {
  grade_site dir;
  for (const bool schedule : {false, true}) {
    auto a = args(dir.dir + "/MISSING.json", "path");
    if (schedule) {
      a = {"dc",
           "--answers",
           dir.dir + "/MISSING.json",
           "--lab-dc",
           bin_path("lab-dc"),
           "--topology",
           "leaf-spine:4x2",
           "--job",
           "ranks=8,placement=random,seed=2,buffer=64MB"};
    }
    const auto gs = dir.dir + "/results.json";
    std::filesystem::remove(gs);
    a.insert(a.end(), {"--gradescope", gs});
    const auto g = grade(a);
    EXPECT_EQ(g.exit_code, 1) << g.err;
    EXPECT_EQ(g.doc["score"], 0) << g.doc.dump(2);
    std::ifstream in(gs);
    ASSERT_TRUE(in) << "no Gradescope file for a missing submission";
    const auto results = nlohmann::json::parse(in);
    EXPECT_GE(results["tests"].size(), 2u);
    EXPECT_EQ(results["score"], 0);
  }
}

}  // namespace dc_grade_test
