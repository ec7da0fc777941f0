// lab-dc run on rate-limited links and lab-dc run --collective, in real network namespaces (needs
// root, ip and tc; skipped with the reason otherwise, and a failure under CI=true).
//
// Stated tolerances: a TCP flow's completion time, and a job's all-reduce time, within 25% of the
// max-min fair model's, and two elephants sharing an uplink between 1.6 and 2.4 times as long as
// one alone (the model says 2). On this 2-core machine, shared with other builds (load 11 to 20),
// the measured errors were 0 to 3% for flows and 1 to 3% for all-reduces; the rest of the margin
// is for a busier machine: every packet crosses 3 to 5 namespaces in software, and a starved
// sender leaves its link idle. Timing is not checked under ASan or TSan (instrumented senders are
// several times slower); everything else is: exact UDP bytes, the links' real rate, the reduced
// values element by element, the kernel's path of every flow, and the colliding links.
#include <unistd.h>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace dc_capacity_test {

using netlab::test::bin_path;
using netlab::test::run;
using nlohmann::json;

#define REQUIRE_ROOT_IP_TC()           \
  do {                                 \
    NETLAB_REQUIRE_ROOT("lab-dc run"); \
    NETLAB_REQUIRE_PEER("ip");         \
    NETLAB_REQUIRE_PEER("tc");         \
  } while (0)

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool timing_meaningful = false;
#else
constexpr bool timing_meaningful = true;
#endif

constexpr double tolerance = 0.25;

json run_json(const std::vector<std::string>& args, int expected_exit = 0) {
  std::vector<std::string> argv{bin_path("lab-dc"), "run"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--json");
  const auto r = run(argv, {}, std::chrono::seconds(180));
  EXPECT_EQ(r.exit_code, expected_exit) << r.err;
  return json::parse(r.out.empty() ? "{}" : r.out);
}

TEST(DcCapacity, udp_bytes_stay_exact_on_links_that_really_run_at_the_scaled_rate) {
  REQUIRE_ROOT_IP_TC();
  const auto j = run_json({"--topology", "leaf-spine:2x2", "--flows", "64", "--size", "64KiB", "--one-step"});
  ASSERT_EQ(j["phases"].size(), 1u);
  EXPECT_EQ(j["scale"], 0.01);
  EXPECT_EQ(j["queues"], "fifo");  // UDP's sender takes turns: no fair queues needed
  const auto& p = j["phases"][0];
  EXPECT_EQ(p["exact_link_directions"], p["link_directions"]);
  // The busiest host link carried its bytes at 100 Mbit/s at most: the run cannot be shorter.
  double busiest = 0;
  for (const auto& l : p["links"]) {
    if (l["tier"] == 0)
      busiest =
          std::max({busiest, l["a_to_b"]["measured_bytes"].get<double>(), l["b_to_a"]["measured_bytes"].get<double>()});
  }
  EXPECT_GE(p["duration_s"].get<double>(), busiest * 8 / 1e8 * 0.97) << busiest;
}

TEST(DcCapacity, two_elephants_on_one_uplink_take_twice_as_long) {
  REQUIRE_ROOT_IP_TC();
  // leaf-spine 2 leaves, 1 spine, 2 hosts per leaf; traffic seed 11 gives h4->h2 alone on its
  // links and h2->h3, h1->h4 both on leaf1's one uplink. 10 MB each at 100 Mbit/s (the 10 Gbps
  // links at 1/100), 66 B of headers per 1448 B: 0.836 s alone, 1.67 s shared.
  const auto j = run_json({"--topology", "leaf-spine:2x1x2", "--flows", "3", "--size", "10MB", "--protocol", "tcp",
                           "--traffic-seed", "11", "--one-step"});
  ASSERT_EQ(j["phases"].size(), 1u);
  const auto& p = j["phases"][0];
  ASSERT_TRUE(p.contains("fct")) << p.dump().substr(0, 500);
  const auto& flows = p["fct"]["flows"];
  ASSERT_EQ(flows.size(), 3u);
  EXPECT_EQ(flows[0]["sharing"], 1);
  EXPECT_EQ(flows[1]["sharing"], 2);
  EXPECT_EQ(flows[2]["sharing"], 2);
  const double wire = 10e6 + 66 * std::ceil(10e6 / 1448);
  EXPECT_NEAR(flows[0]["model_s"].get<double>(), wire * 8 / 1e8, 1e-9);
  EXPECT_NEAR(flows[1]["model_s"].get<double>(), 2 * wire * 8 / 1e8, 1e-9);
  EXPECT_EQ(p["fct"]["finished"], 3);
  if (timing_meaningful) {
    for (const auto& f : flows) {
      EXPECT_NEAR(f["measured_s"].get<double>() / f["model_s"].get<double>(), 1.0, tolerance) << f;
    }
    const double shared = std::max(flows[1]["measured_s"].get<double>(), flows[2]["measured_s"].get<double>());
    const double ratio = shared / flows[0]["measured_s"].get<double>();
    EXPECT_GE(ratio, 1.6);
    EXPECT_LE(ratio, 2.4);
    EXPECT_TRUE(p["fct"]["within_tolerance"].get<bool>());
  }
}

TEST(DcCapacity, a_real_ring_all_reduce_is_exact_and_collides_where_the_model_says) {
  REQUIRE_ROOT_IP_TC();
  // leaf-spine:2x2, ring h4 h2 h3 h1 (random, seed 7): h2->h3 and h1->h4 leave leaf1 and the
  // kernel's hash (seed 1) puts both on spine1: two colliding link directions, half the bus
  // bandwidth.
  const auto j =
      run_json({"--topology", "leaf-spine:2x2", "--collective", "--job", "ranks=4,placement=random,seed=7,buffer=4MB"});
  if (!j["seed_sysctl"].get<bool>())
    GTEST_SKIP() << "this kernel has no fib_multipath_hash_seed: the model cannot know its seed";
  if (!j["rehash"].get<bool>())
    GTEST_SKIP() << "this kernel cannot attach tcx programs (Linux 6.6): TCP keeps its socket hash";
  EXPECT_EQ(j["paths_agree"], 4);
  EXPECT_TRUE(j["collisions_agree"].get<bool>());
  EXPECT_EQ(j["model_collisions"].size(), 2u);
  ASSERT_EQ(j["kernel_collisions"].size(), 2u);
  EXPECT_EQ(j["kernel_collisions"][0]["from"], "leaf1");
  EXPECT_TRUE(j["complete"].get<bool>());
  const auto& r = j["results"][0];
  EXPECT_EQ(r["elements"], 1000000);
  EXPECT_EQ(r["checked_elements"], 2 * 4 * 1000000);  // 4 ranks, the warm-up and the timed all-reduce
  EXPECT_EQ(r["wrong_elements"], 0);
  EXPECT_EQ(r["measured"]["step_end_s"].size(), 6u);
  // The model: every ring edge at 50 Mbit/s (two share each collided link), so busbw is half the
  // 100 Mbit/s links less the headers: 0.5 · 1448 / (1448 + 66) within the rounding of pieces.
  EXPECT_NEAR(r["model"]["busbw_Bps"].get<double>() * 8 / 1e8, 0.5 * 1448 / 1514, 0.005);
  if (timing_meaningful) {
    EXPECT_NEAR(r["measured"]["mean_allreduce_s"].get<double>() / r["model"]["mean_allreduce_s"].get<double>(), 1.0,
                tolerance);
    EXPECT_TRUE(r["within_tolerance"].get<bool>());
  }
}

TEST(DcCapacity, the_kernel_routes_every_channel_where_the_model_does_in_a_fat_tree) {
  REQUIRE_ROOT_IP_TC();
  // Two jobs of 4 random ranks, 2 channels per ring edge, on a k = 4 fat-tree with one host per
  // edge switch (8 hosts): 16 flows of up to 6 links, walked with ip route get at every switch.
  const auto j = run_json({"--topology", "fat-tree:4x1", "--collective", "--job",
                           "ranks=4,placement=random,seed=3,buffer=400KB,channels=2", "--job",
                           "ranks=4,placement=random,seed=4,buffer=400KB,channels=2"});
  if (!j["seed_sysctl"].get<bool>()) GTEST_SKIP() << "this kernel has no fib_multipath_hash_seed";
  if (!j["rehash"].get<bool>()) GTEST_SKIP() << "this kernel cannot attach tcx programs (Linux 6.6)";
  ASSERT_EQ(j["flows"].size(), 16u);
  EXPECT_EQ(j["paths_agree"], 16);
  for (const auto& f : j["flows"]) EXPECT_EQ(f["path"], f["kernel_path"]) << f["job"] << " flow " << f["flow"];
  EXPECT_TRUE(j["collisions_agree"].get<bool>());
  EXPECT_EQ(j["model_collisions"], j["kernel_collisions"]);
  for (const auto& r : j["results"]) EXPECT_EQ(r["wrong_elements"], 0) << r["name"];
}

TEST(DcCapacity, bad_scales_and_jobs_are_usage_errors) {
  REQUIRE_ROOT_IP_TC();
  for (const auto& args : std::vector<std::vector<std::string>>{{"--scale", "2"},
                                                                {"--scale", "fast"},
                                                                {"--collective", "--job", "ranks=9"},
                                                                {"--collective", "--job", "buffer=1GB"},
                                                                {"--job", "ranks=2"}}) {
    std::vector<std::string> argv{bin_path("lab-dc"), "run"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = run(argv, {}, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace dc_capacity_test
