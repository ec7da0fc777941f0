// netlab-grade dc --job: the reference model's own schedule gets full score; a student's schedule
// written from the handout's definitions alone (Python: CRC-16 over the 5-tuple, next hop = hash
// mod 2, progressive filling for the max-min fair rates, a step ends with its slowest flow) gets
// full score; planted mistakes fail exactly the right checks with partial credit.
#include <fmt/format.h>

#include <fstream>

#include "grade_fixture.hpp"
#include "support/peers.hpp"

namespace dc_schedule_grade_test {

using namespace netlab::test;

// Eight random ranks on a leaf-spine:4x2: seed 2 puts two ring edges on one uplink (two colliding
// link directions), so the schedule has something to get wrong.
const std::vector<std::string> model{"--topology", "leaf-spine:4x2", "--job",
                                     "ranks=8,placement=random,seed=2,buffer=64MB"};

nlohmann::json collective(const std::vector<std::string>& extra) {
  std::vector<std::string> argv{bin_path("lab-dc"), "collective"};
  argv.insert(argv.end(), model.begin(), model.end());
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

nlohmann::json answers_from(const nlohmann::json& ref) {
  const auto& s = ref["schedulers"][0];
  nlohmann::json jobs = nlohmann::json::array(), flows = nlohmann::json::array(), collisions = nlohmann::json::array();
  for (const auto& j : s["jobs"]) {
    jobs.push_back({{"name", j["name"]},
                    {"allreduce_s", j["mean_allreduce_s"]},
                    {"algbw_Bps", j["algbw_Bps"]},
                    {"busbw_Bps", j["busbw_Bps"]},
                    {"step_end_s", j["step_end_s"]}});
  }
  for (const auto& f : ref["flows"]) flows.push_back({{"flow", f["flow"]}, {"path", f["path"]}});
  for (const auto& c : s["collisions"]) collisions.push_back({{"from", c["from"]}, {"to", c["to"]}});
  return {{"jobs", jobs}, {"flows", flows}, {"collisions", collisions}};
}

std::vector<std::string> args(const std::string& file) {
  std::vector<std::string> a{"dc", "--answers", file, "--lab-dc", bin_path("lab-dc")};
  a.insert(a.end(), model.begin(), model.end());
  return a;
}

TEST(DcScheduleGrade, TheModelsOwnScheduleGetsFullScore) {
  grade_site dir;
  const auto ref = collective({"--schedulers", "fair", "--json", "--paths"});
  ASSERT_EQ(ref["schedulers"][0]["collisions"].size(), 2u);
  const auto file = dir.dir + "/schedule.json";
  std::ofstream(file) << answers_from(ref).dump();
  const auto g = grade(args(file));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  ASSERT_EQ(g.doc["checks"].size(), 5u);
  EXPECT_EQ(g.doc["score"], 1 + 2 + 2 + 2 + 3);
}

TEST(DcScheduleGrade, AScheduleFromTheHandoutsDefinitionsGetsFullScore) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  grade_site dir;
  const auto flows = collective({"--list-flows", "--json"});
  const std::string student = R"(
import binascii, json, socket, struct, sys
doc = json.load(sys.stdin)
C = 10e9
job = doc["jobs"][0]
n, size = job["ranks"], job["buffer_bytes"]
leaf = lambda host: "leaf%d" % ((int(host[1:]) + 1) // 2)
paths, arcs = [], []
for f in doc["flows"]:
    key = socket.inet_aton(f["src_ip"]) + socket.inet_aton(f["dst_ip"]) + struct.pack(">HHB", f["src_port"], f["dst_port"], 6)
    h = binascii.crc_hqx(key, 0xFFFF)
    a, b = leaf(f["src"]), leaf(f["dst"])
    p = [f["src"], a, f["dst"]] if a == b else [f["src"], a, "spine%d" % (h % 2 + 1), b, f["dst"]]
    paths.append(p)
    arcs.append(list(zip(p, p[1:])))

def fair_rates(active):
    rate, left, room = {}, set(active), {}
    for i in active:
        for a in arcs[i]:
            room[a] = C
    while left:
        count = {}
        for i in left:
            for a in arcs[i]:
                count[a] = count.get(a, 0) + 1
        grow = min(room[a] / k for a, k in count.items())
        for i in left:
            rate[i] = rate.get(i, 0) + grow
        for a, k in count.items():
            room[a] -= grow * k
        full = {a for a, k in count.items() if room[a] <= 1e-3}
        left = {i for i in left if not any(a in full for a in arcs[i])}
    return rate

t, ends = 0.0, []
for step in range(2 * (n - 1)):
    left = {i: size / n for i in range(len(paths))}
    while left:
        r = fair_rates(list(left))
        dt = min(left[i] * 8 / r[i] for i in left)
        t += dt
        for i in list(left):
            left[i] -= r[i] * dt / 8
            if left[i] <= 1e-3:
                del left[i]
    ends.append(t)
algbw = size / t
collisions = []
switch = lambda x: not x.startswith("h")
for a in sorted({a for p in arcs for a in p if switch(a[0]) and switch(a[1])}):
    edges = [i for i in range(len(arcs)) if a in arcs[i]]
    if len(edges) >= 2 and len(edges) * C > C:
        collisions.append({"from": a[0], "to": a[1]})
print(json.dumps({"jobs": [{"name": job["name"], "allreduce_s": t, "algbw_Bps": algbw, "busbw_Bps": algbw * 2 * (n - 1) / n,
                            "step_end_s": ends}],
                  "flows": [{"flow": i, "path": p} for i, p in enumerate(paths)],
                  "collisions": collisions}))
)";
  const auto r = run({"/usr/bin/python3", "-c", student}, flows.dump());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto file = dir.dir + "/schedule.json";
  std::ofstream(file) << r.out;
  const auto g = grade(args(file));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_EQ(g.doc["score"], 10);
}

TEST(DcScheduleGrade, PlantedMistakesFailTheRightChecksWithPartialCredit) {
  grade_site dir;
  auto doc = answers_from(collective({"--schedulers", "fair", "--json", "--paths"}));
  doc["jobs"][0]["busbw_Bps"] = doc["jobs"][0]["busbw_Bps"].get<double>() * 2;  // forgot the collision
  auto& steps = doc["jobs"][0]["step_end_s"];
  steps.erase(steps.size() - 1);                            // one step short
  doc["flows"][0]["path"] = nlohmann::json::array({"h1"});  // one path wrong
  doc["collisions"].erase(0);                               // one collision missed
  const auto file = dir.dir + "/schedule.json";
  std::ofstream(file) << doc.dump();
  const auto g = grade(args(file));
  EXPECT_EQ(g.exit_code, 1);
  const auto failed = g.failed();
  EXPECT_FALSE(failed.contains("schedule_complete"));
  EXPECT_EQ(failed.at("ring_paths"), "7 of 8 paths right");
  EXPECT_EQ(failed.at("colliding_links"), "1 of 2 link directions (of those listed by either) right");
  EXPECT_EQ(failed.at("step_times"), "13 of 14 step times right");
  EXPECT_EQ(failed.at("bus_bandwidth"), "2 of 3 values right");
  for (const auto& c : g.doc["checks"]) {
    if (c["name"] == "bus_bandwidth") {
      EXPECT_DOUBLE_EQ(c["score"].get<double>(), 2.0);
    }
    if (c["name"] == "step_times") {
      EXPECT_NEAR(c["score"].get<double>(), 2.0 * 13 / 14, 1e-9);
    }
  }
  // Only some checks, by name; ECMP-only kinds are refused with --job.
  auto some = args(file);
  some.insert(some.end(), {"--grade", "steps"});
  EXPECT_EQ(grade(some).doc["checks"].size(), 2u);
  std::vector<std::string> wrong{bin_path("netlab-grade")};
  const auto base = args(file);
  wrong.insert(wrong.end(), base.begin(), base.end());
  wrong.insert(wrong.end(), {"--grade", "hash"});
  const auto refused = run(wrong);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("with --job, grade path, collisions, steps or bandwidth"), std::string::npos)
      << refused.err;
}

TEST(DcScheduleGrade, AnUnreadableFileScoresZero) {
  grade_site dir;
  const auto file = dir.dir + "/schedule.json";
  std::ofstream(file) << "{not json";
  const auto g = grade(args(file));
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.doc["score"], 0);
  EXPECT_NE(g.failed().at("schedule_complete").find("schedule.json"), std::string::npos);
}

}  // namespace dc_schedule_grade_test
