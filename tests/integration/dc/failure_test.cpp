// Link failures as a student meets them: lab-dc ecmp --fail (the model; no root), and lab-dc run
// --fail in network namespaces (needs root and ip; skipped with the reason otherwise, a failure
// under CI=true): the link set down in step 2 while the flows run, every flow's path read with ip
// route get before and after must be the model's, the flows that moved the same in both, the
// flows whose captured packets changed links the very ones ip route get says moved, and every
// link direction counting exactly the model's bytes in the steps before and after (UDP).
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/peers.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace dc_failure_test {

using netlab::test::bin_path;
using netlab::test::run;
using nlohmann::json;

json lab_json(const std::vector<std::string>& args, std::chrono::seconds deadline = std::chrono::seconds(120)) {
  std::vector<std::string> argv{bin_path("lab-dc")};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--json");
  const auto r = run(argv, {}, deadline);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out.empty() ? "{}" : r.out);
}

TEST(DcFailure, ecmp_fail_compares_the_three_hashings) {
  const auto j =
      lab_json({"ecmp", "--topology", "leaf-spine:8x4x4", "--flows", "2000", "--hash", "l4", "--fail", "leaf1-spine2"});
  ASSERT_TRUE(j.contains("failure"));
  EXPECT_EQ(j["failure"]["links"][0]["a"], "leaf1");
  EXPECT_EQ(j["failure"]["links"][0]["b"], "spine2");
  const auto& m = j["failure"]["moves"];
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0]["group"], "modulo");
  EXPECT_EQ(m[1]["group"], "threshold");
  EXPECT_EQ(m[2]["group"], "resilient");
  // Resilient: exactly the flows that crossed the link; the others move some that did not.
  EXPECT_EQ(m[2]["moved"], m[2]["had_to_move"]);
  EXPECT_EQ(m[2]["moved_needlessly"], 0);
  EXPECT_GT(m[0]["moved_needlessly"].get<int>(), m[1]["moved_needlessly"].get<int>());
  EXPECT_GT(m[1]["moved_needlessly"].get<int>(), 0);
  // The loads are with the link down: nothing on it.
  for (const auto& l : j["links"]) {
    if (l["a"] == "leaf1" && l["b"] == "spine2") {
      EXPECT_EQ(l["a_to_b"]["bytes"], 0);
      EXPECT_EQ(l["b_to_a"]["bytes"], 0);
    }
  }
}

// The numbers docs/labs/datacenter.md quotes in steps 15 and 17.
TEST(DcFailure, the_handouts_numbers) {
  const auto j =
      lab_json({"ecmp", "--topology", "leaf-spine:8x4", "--flows", "1000", "--hash", "l4", "--fail", "leaf1-spine2"});
  const auto& m = j["failure"]["moves"];
  const std::vector<std::vector<int>> want{{914, 234, 60, 170, 110}, {914, 234, 57, 76, 19}, {914, 234, 55, 55, 0}};
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(m[i]["group"].get<std::string>());
    EXPECT_EQ(m[i]["crossing"], want[i][0]);
    EXPECT_EQ(m[i]["through_changed_groups"], want[i][1]);
    EXPECT_EQ(m[i]["had_to_move"], want[i][2]);
    EXPECT_EQ(m[i]["moved"], want[i][3]);
    EXPECT_EQ(m[i]["moved_needlessly"], want[i][4]);
  }
  const netlab::test::temp_dir dir("dc-unequal");
  const auto topo = dir / "unequal.txt";
  {
    std::ofstream out(topo);
    out << "host h1\nhost h2\nhost h3\nhost h4\nswitch leaf1\nswitch leaf2\nswitch spine1\nswitch spine2\nswitch "
           "spine3\nlink h1 leaf1 10Gbps\nlink h2 leaf1 10Gbps\nlink h3 leaf2 10Gbps\nlink h4 leaf2 10Gbps\n"
           "link leaf1 spine1 40Gbps\nlink leaf1 spine2 10Gbps\nlink leaf1 spine3 10Gbps\n"
           "link leaf2 spine1 40Gbps\nlink leaf2 spine2 10Gbps\nlink leaf2 spine3 10Gbps\n";
  }
  const auto plain = run({bin_path("lab-dc"), "ecmp", "--topology", topo, "--flows", "1000", "--hash", "l4"});
  const auto wcmp = run({bin_path("lab-dc"), "ecmp", "--topology", topo, "--flows", "1000", "--hash", "l4", "--wcmp"});
  EXPECT_NE(plain.out.find("leaf -> spine uplinks: 0 of 6 unused (0%), Jain's index 0.992; downlinks: 0 of 6 unused, "
                           "Jain 0.992; busiest 99.2%"),
            std::string::npos)
      << plain.out;
  EXPECT_NE(wcmp.out.find("busiest 50.6%"), std::string::npos) << wcmp.out;
}

TEST(DcFailure, paths_show_the_resilient_bucket) {
  const auto j = lab_json(
      {"ecmp", "--topology", "leaf-spine:4x4", "--flows", "50", "--group", "resilient", "--buckets", "32", "--paths"});
  EXPECT_EQ(j["hash"]["next_hop"], "resilient");
  std::size_t hops = 0;
  for (const auto& p : j["paths"]) {
    for (const auto& h : p["hops"]) {
      ++hops;
      EXPECT_EQ(h["buckets"], 32);
      EXPECT_EQ(h["bucket"].get<std::uint32_t>(), h["hash"].get<std::uint32_t>() % 32);
      // A new group of four fills 8 buckets each from its last member: bucket b holds member 3 - b / 8.
      EXPECT_EQ(h["pick"].get<std::uint32_t>(), 3 - h["bucket"].get<std::uint32_t>() / 8);
    }
  }
  EXPECT_GT(hops, 0u);
}

TEST(DcFailure, bad_link_names_are_usage_errors) {
  for (const auto& [name, says] : std::vector<std::pair<std::string, std::string>>{{"leaf1-spine9", "no such link"},
                                                                                   {"leaf1-leaf2", "no such link"},
                                                                                   {"h1-leaf1", "a host's only link"},
                                                                                   {"leaf1", "no such link"}}) {
    const auto r = run({bin_path("lab-dc"), "ecmp", "--fail", name});
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  const auto cut = run({bin_path("lab-dc"), "ecmp", "--topology", "leaf-spine:4x1", "--fail", "leaf1-spine1"});
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_NE(cut.err.find("no route from leaf1"), std::string::npos) << cut.err;
  const auto few =
      run({bin_path("lab-dc"), "ecmp", "--topology", "leaf-spine:4x4", "--group", "resilient", "--buckets", "3"});
  EXPECT_EQ(few.exit_code, 2);
  EXPECT_NE(few.err.find("--buckets 3: a resilient group needs at least one bucket per member"), std::string::npos)
      << few.err;
  const auto twice = run({bin_path("lab-dc"), "ecmp", "--fail", "leaf1-spine2", "--fail", "spine2-leaf1"});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("named twice"), std::string::npos) << twice.err;
}

TEST(DcFailure, the_model_commands_take_fail_too) {
  // polarize, te and collective see the fabric without the link.
  const auto p = lab_json({"polarize", "--topology", "fat-tree:4", "--flows", "500", "--fail", "agg1-1-core1"});
  EXPECT_NE(p["topology"]["description"].get<std::string>().find("with agg1-1-core1 down"), std::string::npos)
      << p.dump();
  const auto c =
      lab_json({"collective", "--topology", "leaf-spine:4x2", "--fail", "leaf1-spine2", "--schedulers", "fair"});
  EXPECT_NE(c["topology"]["description"].get<std::string>().find("with leaf1-spine2 down"), std::string::npos);
  const auto te =
      lab_json({"te", "--topology", "leaf-spine:4x2", "--generate", "--matrices", "3", "--fail", "leaf1-spine2"});
  EXPECT_NE(te["topology"]["description"].get<std::string>().find("with leaf1-spine2 down"), std::string::npos);
  const auto cut = run({bin_path("lab-dc"), "te", "--topology", "leaf-spine:4x1", "--generate", "--matrices", "3",
                        "--fail", "leaf1-spine1"});
  EXPECT_EQ(cut.exit_code, 2) << cut.err;
  EXPECT_NE(cut.err.find("--fail: with it down"), std::string::npos) << cut.err;
}

void check_run(const json& j, std::size_t flows) {
  ASSERT_TRUE(j.contains("failure")) << j.dump();
  ASSERT_TRUE(j["failure"].is_object()) << j.dump();
  const auto& f = j["failure"];
  EXPECT_EQ(f["flows"], flows);
  EXPECT_EQ(f["paths_agree_before"], flows);
  EXPECT_EQ(f["paths_agree_after"], flows);
  EXPECT_EQ(f["kernel_moved"], f["model_moved"]);
  EXPECT_EQ(f["same_flows"], flows);
  EXPECT_GT(f["kernel_moved"].get<int>(), 0);
  ASSERT_EQ(j["phases"].size(), 3u);
  // Before and after the failure: every datagram arrives and every link direction counts the
  // model's bytes exactly.
  for (const std::size_t i : {0u, 2u}) {
    const auto& p = j["phases"][i];
    SCOPED_TRACE(p["name"].get<std::string>());
    EXPECT_EQ(p["datagrams_received"], p["datagrams_sent"]);
    EXPECT_EQ(p["exact_link_directions"], p["link_directions"]);
  }
  // During: the link went down halfway (each flow of 4 KiB is five datagrams, sent round robin,
  // so every flow sent before and after), and the flows whose packets changed links, as captured
  // on the links between switches, are exactly those ip route get says moved.
  const auto& during = j["phases"][1];
  EXPECT_NE(during["name"].get<std::string>().find("set down after 50% of the traffic"), std::string::npos)
      << during["name"];
  EXPECT_EQ(during["datagrams_sent"].get<std::uint64_t>(), j["phases"][0]["datagrams_sent"].get<std::uint64_t>());
  EXPECT_EQ(during["datagrams_received"].get<std::uint64_t>() + f["datagrams_lost"].get<std::uint64_t>(),
            during["datagrams_sent"].get<std::uint64_t>());
  EXPECT_GT(f["down_after_s"].get<double>(), 0.0);
  ASSERT_EQ(f["capture"]["dropped"], 0) << "the capture lost frames: the comparison below would mean nothing";
  EXPECT_EQ(f["measured_flows"], flows);
  EXPECT_EQ(f["traffic_moved"], f["kernel_moved"]);
  EXPECT_EQ(f["traffic_agrees"], flows);
  ASSERT_EQ(f["moves"].size(), f["traffic_moved"].get<std::size_t>());
  for (const auto& m : f["moves"]) {
    EXPECT_TRUE(m["kernel_path_moved"].get<bool>()) << m.dump();
    EXPECT_NE(m["before"], m["after"]) << m.dump();
    // Up and down again: both directions of every path were captured, the way up as well as the
    // way down (a socket of one protocol would have seen only the frames arriving at its end).
    EXPECT_EQ(m["before"].size(), m["after"].size()) << m.dump();
    EXPECT_GE(m["before"].size(), 2u) << m.dump();
    EXPECT_EQ(m["before"].size() % 2, 0u) << m.dump();
  }
}

#define REQUIRE_RUN()                                                         \
  do {                                                                        \
    NETLAB_REQUIRE_ROOT("lab-dc run --fail");                                 \
    if (access("/usr/sbin/ip", X_OK) != 0 && access("/sbin/ip", X_OK) != 0) { \
      if (netlab::test::in_ci()) FAIL() << "ip (iproute2) is missing in CI";  \
      GTEST_SKIP() << "ip (iproute2) is not installed";                       \
    }                                                                         \
  } while (0)

TEST(DcFailure, run_fail_with_multipath_routes_matches_the_model) {
  REQUIRE_RUN();
  const auto j = lab_json({"run", "--topology", "leaf-spine:4x4x1", "--flows", "200", "--size", "4KiB", "--scale",
                           "off", "--fail", "leaf1-spine2"});
  if (!j.value("seed_sysctl", false)) GTEST_SKIP() << "no fib_multipath_hash_seed: --fail needs it";
  check_run(j, 200);
  const auto& h = j["failure"]["model_hashings"];
  EXPECT_EQ(j["failure"]["model_moved"], h[1]["moved"]);  // the kernel's multipath routes: hash-threshold
}

TEST(DcFailure, run_fail_with_resilient_groups_moves_only_the_links_flows) {
  REQUIRE_RUN();
  const auto j = lab_json({"run", "--topology", "fat-tree:4x1", "--flows", "200", "--size", "4KiB", "--scale", "off",
                           "--group", "resilient", "--buckets", "64", "--fail", "agg1-1-core1"});
  if (!j.value("seed_sysctl", false)) GTEST_SKIP() << "no fib_multipath_hash_seed: --fail needs it";
  check_run(j, 200);
  const auto& h = j["failure"]["model_hashings"];
  EXPECT_EQ(j["failure"]["kernel_moved"], h[2]["moved"]);
  EXPECT_EQ(h[2]["moved"], h[2]["had_to_move"]);
}

TEST(DcFailure, run_fail_wcmp_on_unequal_links) {
  REQUIRE_RUN();
  // Two leaves, three spines; spine1's links run at 40 Gbps, the others at 10 (the handout's file).
  const netlab::test::temp_dir dir("dc-unequal-run");
  const auto topo = dir / "unequal.txt";
  {
    std::ofstream out(topo);
    out << "host h1\nhost h2\nhost h3\nhost h4\nswitch leaf1\nswitch leaf2\nswitch spine1\nswitch spine2\nswitch "
           "spine3\n"
           "link h1 leaf1 10Gbps\nlink h2 leaf1 10Gbps\nlink h3 leaf2 10Gbps\nlink h4 leaf2 10Gbps\n"
           "link leaf1 spine1 40Gbps\nlink leaf1 spine2 10Gbps\nlink leaf1 spine3 10Gbps\n"
           "link leaf2 spine1 40Gbps\nlink leaf2 spine2 10Gbps\nlink leaf2 spine3 10Gbps\n";
  }
  for (const char* group : {"threshold", "resilient"}) {
    SCOPED_TRACE(group);
    const auto j = lab_json({"run", "--topology", topo, "--flows", "300", "--size", "4KiB", "--scale", "off", "--wcmp",
                             "--group", group, "--fail", "leaf1-spine2"});
    if (!j.value("seed_sysctl", false)) GTEST_SKIP() << "no fib_multipath_hash_seed: --fail needs it";
    check_run(j, 300);
    // spine1's 40 Gbps links carry about four times what a 10 Gbps link carries.
    double fast = 0, slow = 0;
    for (const auto& l : j["phases"][0]["links"]) {
      if (l["a"] == "leaf1" && l["b"] == "spine1") fast = l["a_to_b"]["measured_bytes"].get<double>();
      if (l["a"] == "leaf1" && l["b"] == "spine3") slow = l["a_to_b"]["measured_bytes"].get<double>();
    }
    EXPECT_GT(fast, 2.5 * slow);
  }
}

}  // namespace dc_failure_test
