// lab-dc collective as a student runs it: one job alone at the link rate under every scheduler,
// random placement colliding where rack-aware does not, two jobs under the four schedulers in the
// order the handout states, the flows list, one-line usage errors, the quiz's collective
// questions against the command, and the progress chart laid out inside its picture in Chromium.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "support/peers.hpp"
#include "support/process.hpp"
#include "support/third_party.hpp"

namespace dc_collective_cli_test {

using netlab::test::bin_path;
using netlab::test::run;
using nlohmann::json;

json collective(std::vector<std::string> args) {
  std::vector<std::string> argv{bin_path("lab-dc"), "collective"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--json");
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out.empty() ? "{}" : r.out);
}

const json& scheduler(const json& doc, const std::string& name) {
  for (const auto& s : doc["schedulers"]) {
    if (s["name"] == name) return s;
  }
  static const json none;
  ADD_FAILURE() << "no scheduler " << name;
  return none;
}

TEST(DcCollectiveCli, one_job_alone_reaches_the_link_rate_under_every_scheduler) {
  const auto j = collective({"--topology", "leaf-spine:4x2"});
  ASSERT_EQ(j["jobs"].size(), 1u);
  EXPECT_EQ(j["jobs"][0]["ranks"], 8);
  EXPECT_EQ(j["jobs"][0]["steps"], 14);
  ASSERT_EQ(j["schedulers"].size(), 4u);
  for (const auto& s : j["schedulers"]) {
    const auto& job = s["jobs"][0];
    EXPECT_NEAR(job["busbw_of_link"].get<double>(), 1.0, 0.01) << s["name"];
    // 256 MB, 8 ranks: 14 steps of 32 MB at 10 Gbps.
    EXPECT_NEAR(job["mean_allreduce_s"].get<double>(), 14 * 32e6 * 8 / 10e9, 1e-6) << s["name"];
    EXPECT_NEAR(job["algbw_Bps"].get<double>() * 2 * 7 / 8, job["busbw_Bps"].get<double>(), 1e-3);
  }
}

TEST(DcCollectiveCli, random_placement_collides_and_rack_aware_does_not) {
  // The same eight hosts of a leaf-spine:4x4 (seed 1): in the order drawn, two ring edges leave
  // leaf4 by one uplink; ordered rack by rack, the ring leaves each rack once.
  const auto random =
      collective({"--topology", "leaf-spine:4x4", "--job", "ranks=8,placement=random,seed=1", "--paths"});
  const auto aware = collective({"--topology", "leaf-spine:4x4", "--job", "ranks=8,placement=rack-aware,seed=1"});
  auto hosts = random["jobs"][0]["ring"].get<std::vector<std::string>>();
  auto sorted = aware["jobs"][0]["ring"].get<std::vector<std::string>>();
  EXPECT_NE(hosts, sorted);
  std::sort(hosts.begin(), hosts.end());
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(hosts, sorted);
  const auto& fair = scheduler(random, "fair");
  EXPECT_EQ(fair["collisions"].size(), 2u);
  for (const auto& c : fair["collisions"]) {
    EXPECT_EQ(c["ring_edges"], 2);
    EXPECT_DOUBLE_EQ(c["demand_bps"].get<double>(), 20e9);
  }
  EXPECT_NEAR(fair["jobs"][0]["busbw_of_link"].get<double>(), 0.5, 1e-9);
  EXPECT_TRUE(scheduler(aware, "fair")["collisions"].empty());
  EXPECT_NEAR(scheduler(aware, "fair")["jobs"][0]["busbw_of_link"].get<double>(), 1.0, 1e-9);
  // The provider's paths keep the job's flows apart; the bound is the link rate.
  EXPECT_TRUE(scheduler(random, "mccs")["collisions"].empty());
  EXPECT_EQ(scheduler(random, "mccs")["same_job_shared_arcs"], 0);
  EXPECT_NEAR(scheduler(random, "lp")["jobs"][0]["busbw_of_link"].get<double>(), 1.0, 1e-6);
  ASSERT_EQ(random["flows"].size(), 8u);
  for (const auto& f : random["flows"]) {
    EXPECT_EQ(f["path"].front(), f["src"]);
    EXPECT_EQ(f["provider_path"].back(), f["dst"]);
  }
}

TEST(DcCollectiveCli, two_jobs_under_the_four_schedulers) {
  // The handout's pair: a GPU-heavy job and a communication-heavy one on a leaf-spine:4x4.
  const auto j =
      collective({"--topology", "leaf-spine:4x4", "--job",
                  "name=vision,ranks=8,placement=random,seed=3,buffer=256MB,compute=200ms,iterations=4", "--job",
                  "name=llm,ranks=8,placement=random,seed=4,buffer=1GB,compute=100ms,iterations=4"});
  const auto& fair = scheduler(j, "fair");
  const auto& crux = scheduler(j, "crux");
  const auto& mccs = scheduler(j, "mccs");
  const auto& lp = scheduler(j, "lp");
  ASSERT_EQ(crux["priorities"].size(), 2u);
  EXPECT_EQ(crux["priorities"][0]["level"], 0);  // vision computes more per second of its busiest link
  EXPECT_GT(crux["priorities"][0]["gpu_intensity"].get<double>(), crux["priorities"][1]["gpu_intensity"].get<double>());
  const auto allreduce = [](const json& s, int job) { return s["jobs"][job]["mean_allreduce_s"].get<double>(); };
  // Crux speeds up the GPU-intensive job and raises the share of time the GPUs compute.
  EXPECT_LT(allreduce(crux, 0), allreduce(fair, 0));
  EXPECT_GT(crux["gpu_busy"].get<double>(), fair["gpu_busy"].get<double>());
  // No schedule beats the bound; MCCS's paths reach it here.
  for (const auto* s : {&fair, &crux, &mccs}) {
    for (int job = 0; job < 2; ++job) EXPECT_GE(allreduce(*s, job), allreduce(lp, job) * (1 - 1e-9)) << (*s)["name"];
    EXPECT_GE((*s)["makespan_s"].get<double>(), lp["makespan_s"].get<double>() * (1 - 1e-9));
  }
  EXPECT_TRUE(mccs["collisions"].empty());
  EXPECT_NEAR(mccs["makespan_s"].get<double>(), lp["makespan_s"].get<double>(), 1e-6);
  EXPECT_FALSE(fair["collisions"].empty());
  EXPECT_EQ(fair["collisions"], crux["collisions"]);  // the same ECMP paths
  // Every step of every iteration is there.
  EXPECT_EQ(fair["jobs"][0]["step_end_s"].size(), 4u * 14);
}

TEST(DcCollectiveCli, flows_list_and_usage_errors) {
  const auto r =
      run({bin_path("lab-dc"), "collective", "--job", "ranks=4,channels=2", "--job", "ranks=2", "--list-flows"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t lines = 0;
  for (char c : r.out) lines += c == '\n';
  EXPECT_EQ(lines, 2u + 4 * 2 + 2);  // two comment lines, then A's 8 flows and B's 2
  EXPECT_NE(r.out.find("\n0 A 0 0 h1 h2 tcp 10.0.0.2 "), std::string::npos) << r.out;
  for (const auto& args : std::vector<std::vector<std::string>>{{"--job", "ranks=1"},
                                                                {"--job", "ranks=9"},
                                                                {"--job", "ranks=4", "--job", "ranks=5"},
                                                                {"--job", "placement=spread"},
                                                                {"--job", "ranks=4,ranks=5"},
                                                                {"--schedulers", "lp", "--svg", "x.svg"},
                                                                {"--schedulers", "fifo"}}) {
    std::vector<std::string> argv{bin_path("lab-dc"), "collective"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto e = run(argv);
    EXPECT_EQ(e.exit_code, 2) << args.back() << ": " << e.err;
    EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
  }
}

TEST(DcCollectiveCli, the_quizs_collective_questions_match_the_command) {
  const auto r = run({bin_path("lab-dc"), "quiz", "--seed", "3", "--count", "40", "--answers", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto quiz = json::parse(r.out);
  std::size_t seen = 0;
  for (const auto& q : quiz["questions"]) {
    const auto& g = q["given"];
    const auto& a = q["answer"];
    if (q["kind"] == "ring-steps") {
      ++seen;
      const int n = g["ranks"];
      const double b = g["buffer_bytes"], c = g["link_bps"];
      EXPECT_EQ(a["steps"], 2 * (n - 1));
      EXPECT_DOUBLE_EQ(a["bytes_per_step"].get<double>(), b / n);
      // The command the answer names gives the same time.
      const auto doc = collective(
          {"--topology", "leaf-spine:" + std::to_string(n / 2) + "x2", "--host-rate",
           std::to_string(static_cast<long>(c)) + "bps", "--fabric-rate", std::to_string(static_cast<long>(c)) + "bps",
           "--job", "ranks=" + std::to_string(n) + ",buffer=" + std::to_string(static_cast<long>(b)) + "B",
           "--schedulers", "fair"});
      EXPECT_NEAR(doc["schedulers"][0]["jobs"][0]["mean_allreduce_s"].get<double>(), a["time_s"].get<double>(), 1e-9);
    } else if (q["kind"] == "busbw") {
      ++seen;
      const int n = g["ranks"];
      const double algbw = g["buffer_bytes"].get<double>() / g["time_s"].get<double>();
      EXPECT_DOUBLE_EQ(a["algbw_Bps"].get<double>(), algbw);
      EXPECT_DOUBLE_EQ(a["busbw_Bps"].get<double>(), algbw * 2 * (n - 1) / n);
    } else if (q["kind"] == "ring-collision") {
      ++seen;
      const int k = g["uplinks"], m = g["ring_edges"];
      double apart = 1;
      for (int i = 0; i < m; ++i) apart *= double(k - i) / k;
      EXPECT_NEAR(a["no_collision_probability"].get<double>(), apart, 1e-12);
    }
  }
  EXPECT_GE(seen, 6u);
}

// The progress chart in Chromium: one panel per scheduler, one line per job in each, nothing
// outside the picture.
TEST(DcCollectiveCli, the_progress_chart_is_drawn_inside_the_picture) {
  NETLAB_REQUIRE_PEER("chromium");
  const auto dir = netlab::test::make_temp_folder("dc-collective-svg");
  const auto r =
      run({bin_path("lab-dc"), "collective", "--job", "ranks=4,placement=random,seed=2,compute=20ms,iterations=3",
           "--job", "ranks=4,placement=random,seed=5,compute=50ms,iterations=3", "--svg", dir + "/p.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(dir + "/p.svg");
  std::stringstream svg;
  svg << in.rdbuf();
  const std::string page = dir + "/page.html";
  std::ofstream(page) << "<!doctype html><html><body style=\"margin:0\">" << svg.str() << R"(
<pre id="result"></pre>
<script>
const root = document.querySelector('svg');
const box = root.getBoundingClientRect();
const inside = r => r.left >= box.left - 0.5 && r.top >= box.top - 0.5 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5;
const out = {};
out.panels = document.querySelectorAll('g.panel').length;
out.lines = [...document.querySelectorAll('g.panel')].map(p => p.querySelectorAll('polyline').length);
out.text_outside = [...document.querySelectorAll('text')].filter(t => !inside(t.getBoundingClientRect())).length;
out.lines_outside = [...document.querySelectorAll('polyline')].filter(l => !inside(l.getBoundingClientRect())).length;
document.getElementById('result').textContent = JSON.stringify(out);
</script></body></html>)";
  const auto c = run({"chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
                      "--user-data-dir=" + dir + "/profile", "--window-size=1200,1400", "--dump-dom", "file://" + page},
                     {}, std::chrono::seconds(60));
  ASSERT_EQ(c.exit_code, 0) << c.err.substr(c.err.size() > 2000 ? c.err.size() - 2000 : 0);
  std::smatch m;
  static const std::regex result(R"(<pre id="result">([^<]*)</pre>)");
  ASSERT_TRUE(std::regex_search(c.out, m, result)) << c.out.substr(0, 2000);
  std::string text = m[1];
  for (auto p = text.find("&quot;"); p != std::string::npos; p = text.find("&quot;")) text.replace(p, 6, "\"");
  const auto found = json::parse(text);
  EXPECT_EQ(found["panels"], 3);  // fair, crux, mccs (the bound has no progress to draw)
  EXPECT_EQ(found["lines"], json::array({2, 2, 2}));
  EXPECT_EQ(found["text_outside"], 0);
  EXPECT_EQ(found["lines_outside"], 0);
  std::filesystem::remove_all(dir);
}

}  // namespace dc_collective_cli_test
