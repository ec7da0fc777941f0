// netlab-grade dc: the reference model's own answers get full score; a student's solution written
// from the handout's definition alone (Python: binascii.crc_hqx over the 5-tuple, next hop = hash
// mod 2, spines in order) gets full score for hashes and paths; planted mistakes fail exactly the
// right checks with partial credit; an unreadable file scores only what it cannot lose.
#include <fmt/format.h>

#include <fstream>

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
  doc["links"][0]["a_to_b"]["bytes"] = 1;  // one link direction wrong
  const auto file = dir.dir + "/student.json";
  std::ofstream(file) << doc.dump();
  const auto g = grade(args(file, "hash,path,loads"));
  EXPECT_EQ(g.exit_code, 1);
  const auto failed = g.failed();
  EXPECT_EQ(failed.at("answers_complete"), "1 flows missing, 0 flows not in the set");
  EXPECT_EQ(failed.at("ecmp_paths"), "38 of 40 paths right");
  EXPECT_NE(failed.at("first_hop_hash").find(" hashes right"), std::string::npos);
  EXPECT_EQ(failed.at("link_bytes"), "31 of 32 link directions right");
  for (const auto& c : g.doc["checks"]) {
    if (c["name"] == "ecmp_paths") {
      EXPECT_DOUBLE_EQ(c["score"].get<double>(), 3.0 * 38 / 40);
      EXPECT_NE(c["received"].get<std::string>().find(fmt::format("flow {}:", crossing)), std::string::npos) << c.dump();
    }
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

}  // namespace dc_grade_test
