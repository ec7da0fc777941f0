// lab-dc's model commands as a student runs them: the JSON adds up, the switches' hashes agree
// with Python's own CRC implementations (binascii.crc_hqx is CRC-16/CCITT with the register
// given, zlib.crc32 is CRC-32), usage errors are one line naming what to fix, and te's schemes
// keep their order.
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/peers.hpp"
#include "support/process.hpp"
#include "support/third_party.hpp"

namespace dc_cli_test {

using netlab::test::bin_path;
using netlab::test::run;
using nlohmann::json;

json run_json(const std::vector<std::string>& args) {
  std::vector<std::string> argv{bin_path("lab-dc")};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = run(argv, {}, std::chrono::seconds(120));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  return json::parse(r.out);
}

std::size_t lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(DcCli, ecmp_json_adds_up) {
  const auto j = run_json({"ecmp", "--topology", "leaf-spine:4x2x3", "--flows", "300", "--size", "2MB", "--window",
                           "2s", "--hash", "crc32", "--seed", "per-switch", "--json"});
  EXPECT_EQ(j["topology"]["hosts"], 12);
  EXPECT_EQ(j["flows"]["count"], 300);
  double up = 0, down = 0, mlu = 0;
  for (const auto& l : j["links"]) {
    for (const char* dir : {"a_to_b", "b_to_a"}) {
      const double bytes = l[dir]["bytes"];
      const double util = l[dir]["utilisation"];
      EXPECT_NEAR(util, bytes * 8 / (l["capacity_bps"].get<double>() * 2.0), 1e-12);
      mlu = std::max(mlu, util);
    }
    if (l["tier"] == 0) {
      up += l["a_to_b"]["bytes"].get<double>();  // the host is a: its link goes host -> leaf
      down += l["b_to_a"]["bytes"].get<double>();
    }
  }
  EXPECT_EQ(up, 300 * 2e6);    // every flow leaves its host once ...
  EXPECT_EQ(down, 300 * 2e6);  // ... and arrives once
  EXPECT_DOUBLE_EQ(j["mlu"].get<double>(), mlu);
  EXPECT_EQ(j["tiers"][1]["uplinks"], 8);
}

// The hashes lab-dc reports are the CRCs of the documented key bytes, seeded as documented.
TEST(DcCli, switch_hashes_agree_with_python) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  for (const std::string hash : {"crc16", "crc32"}) {
    const auto j = run_json({"ecmp", "--topology", "fat-tree:4", "--flows", "40", "--hash", hash, "--seed",
                             "per-switch", "--hash-seed", "9", "--json", "--paths"});
    std::string script = R"(
import binascii, json, socket, struct, sys, zlib
doc = json.load(sys.stdin)
bad = 0
n = 0
for f in doc["paths"]:
    key = socket.inet_aton(f["src_ip"]) + socket.inet_aton(f["dst_ip"]) + struct.pack(">HHB", f["src_port"], f["dst_port"], 6)
    for hop in f["hops"]:
        seed = hop["seed"]
        if sys.argv[1] == "crc16":
            h = binascii.crc_hqx(key, 0xFFFF ^ (seed & 0xFFFF))  # the register starts at 0xFFFF ^ seed
        else:
            h = zlib.crc32(key, seed)  # zlib takes a previous CRC: the register starts at 0xFFFFFFFF ^ seed
        n += 1
        if h != hop["hash"] or h % hop["choices"] != hop["pick"]:
            bad += 1
print(n, bad)
)";
    const auto r = run({"/usr/bin/python3", "-c", script, hash}, j.dump());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream in(r.out);
    int n = 0, bad = -1;
    in >> n >> bad;
    EXPECT_GT(n, 40) << hash;
    EXPECT_EQ(bad, 0) << hash << ": " << r.out;
  }
}

TEST(DcCli, usage_errors_are_one_line) {
  const auto dir = netlab::test::make_temp_folder("dc-cli");
  std::ofstream(dir + "/bad.txt") << "switch a\nswitch b\nlink a c 10Gbps\n";
  std::ofstream(dir + "/m.txt") << "0s leaf1 leaf2 1Gbps\n1s leaf1 leafX 1Gbps\n";
  std::ofstream(dir + "/binary.bin") << std::string(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0",
      11);
  // As root (CI, sudo) an error about a file shows none of its words (issue 31); as anyone else
  // it names the word.
  const bool root = geteuid() == 0;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"ecmp", "--topology", "fat-tree:5"}, "fat-tree:5: K must be even and at least 2"},
      {{"ecmp", "--topology", "fat-tree:66"},
       "fat-tree:66 has 77319 nodes; at most 4096 (the largest with K/2 hosts per "
       "edge switch is fat-tree:22)"},
      {{"ecmp", "--topology", "fat-tree:4x"}, "expected fat-tree:K or fat-tree:KxHOSTS with an even K"},
      {{"ecmp", "--topology", "leaf-spine:4"}, "expected leaf-spine:LEAVESxSPINES"},
      {{"ecmp", "--topology", dir + "/bad.txt"},
       root ? "line 3: a link names a node not declared before it" : "line 3: unknown node 'c'"},
      {{"ecmp", "--topology", dir + "/binary.bin"}, "line 1: binary data"},
      {{"ecmp", "--topology", dir + "/nothing.txt"}, "no such file"},
      {{"ecmp", "--topology", dir}, "is a folder, not a file"},
      {{"ecmp", "--topology", "/dev/null"}, "not a regular file"},
      {{"ecmp", "--hosts", "0"}, "--hosts: Value 0 not in range 2"},
      {{"ecmp", "--hash", "l3", "--fields", "5"}, "--hash l3 is Linux's L3 policy, which hashes the 2-tuple"},
      {{"ecmp", "--pattern", "zipf"}, "--pattern zipf"},
      {{"ecmp", "--hash", "md5"}, "--hash"},
      {{"ecmp", "--size", "10"}, "--size"},
      {{"ecmp", "--hosts", "99"}, "99 participants"},
      {{"te"}, "either --matrix FILE or --generate"},
      {{"te", "--matrix", dir + "/m.txt"},
       root ? "line 2: the destination is not a node of the topology" : "line 2: unknown node 'leafX'"},
      {{"te", "--generate", "--schemes", "ecmp,magic"}, "--schemes magic"},
      {{"run", "--hash-seed", "0"}, "--hash-seed 0"},
  };
  for (const auto& [args, want] : cases) {
    std::vector<std::string> argv{bin_path("lab-dc")};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = run(argv);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("lab-dc: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
  }
  std::filesystem::remove_all(dir);
}

// The same file errors for an ordinary user name the word at fault.
TEST(DcCli, an_ordinary_user_sees_the_word_at_fault) {
  if (geteuid() != 0) {
    const auto dir = netlab::test::make_temp_folder("dc-cli");
    std::ofstream(dir + "/bad.txt") << "switch a\nswitch b\nlink a c 10Gbps\n";
    const auto r = run({bin_path("lab-dc"), "ecmp", "--topology", dir + "/bad.txt"});
    EXPECT_NE(r.err.find("line 3: unknown node 'c'"), std::string::npos) << r.err;
    std::filesystem::remove_all(dir);
    return;
  }
  if (access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "running as root and setpriv is missing";
  const auto dir = netlab::test::make_temp_folder("dc-cli");
  std::filesystem::permissions(dir, std::filesystem::perms::all);
  std::ofstream(dir + "/bad.txt") << "switch a\nswitch b\nlink a c 10Gbps\n";
  std::filesystem::permissions(dir + "/bad.txt", std::filesystem::perms::all);
  const auto r = run({"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", bin_path("lab-dc"),
                      "ecmp", "--topology", dir + "/bad.txt"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("line 3: unknown node 'c' (declare it first with 'switch c' or 'host c')"), std::string::npos)
      << r.err;
  std::filesystem::remove_all(dir);
}

TEST(DcCli, topology_text_round_trips_through_a_file) {
  const auto dir = netlab::test::make_temp_folder("dc-topo");
  const auto text = run({bin_path("lab-dc"), "topology", "--topology", "fat-tree:4", "--fabric-rate", "40Gbps"});
  ASSERT_EQ(text.exit_code, 0);
  std::ofstream(dir + "/ft.txt") << text.out;
  const auto a = run_json({"ecmp", "--topology", "fat-tree:4", "--fabric-rate", "40Gbps", "--json"});
  const auto b = run_json({"ecmp", "--topology", dir + "/ft.txt", "--json"});
  EXPECT_EQ(a["links"], b["links"]);
  EXPECT_EQ(a["mlu"], b["mlu"]);
  std::filesystem::remove_all(dir);
}

TEST(DcCli, polarize_shows_the_second_tier) {
  const auto j = run_json({"polarize", "--topology", "fat-tree:4", "--flows", "2000", "--hash", "linux", "--json"});
  ASSERT_EQ(j["configurations"].size(), 3u);
  EXPECT_TRUE(j["two_tiers_of_choices"].get<bool>());
  const auto unused = [&](int c) { return j["configurations"][c]["tiers"][2]["unused_uplink_share"].get<double>(); };
  EXPECT_EQ(unused(0), 0.5);
  EXPECT_EQ(unused(1), 0.0);
  EXPECT_EQ(unused(2), 0.0);
}

TEST(DcCli, te_optimal_is_never_beaten) {
  const auto dir = netlab::test::make_temp_folder("dc-te");
  const auto topo = run({bin_path("lab-dc"), "topology", "--topology", "leaf-spine:4x2"});
  std::string text = topo.out;
  const auto at = text.find("link leaf1 spine1 10Gbps");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 24, "link leaf1 spine1 2.5Gbps");
  std::ofstream(dir + "/weak.txt") << text;
  const auto j = run_json({"te", "--topology", dir + "/weak.txt", "--generate", "--matrices", "10", "--json",
                           "--save-matrices", dir + "/m.txt", "--svg", dir + "/mlu.svg"});
  ASSERT_EQ(j["matrices"].size(), 10u);
  for (const auto& m : j["matrices"]) {
    const double opt = m["mlu"]["optimal"];
    for (const auto& [name, v] : m["mlu"].items()) {
      if (!v.is_null()) {
        EXPECT_GE(v.get<double>(), opt - 1e-9) << name;
      }
    }
    EXPECT_GE(m["mlu"]["ecmp"].get<double>(), opt);
  }
  EXPECT_TRUE(j["matrices"][0]["mlu"]["robust"].is_null());
  // The saved matrices read back to the same answers.
  const auto again = run_json({"te", "--topology", dir + "/weak.txt", "--matrix", dir + "/m.txt", "--json"});
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_NEAR(again["matrices"][i]["mlu"]["optimal"].get<double>(), j["matrices"][i]["mlu"]["optimal"].get<double>(),
                1e-6);
  }
  EXPECT_TRUE(std::filesystem::file_size(dir + "/mlu.svg") > 1000);
  std::filesystem::remove_all(dir);
}

// The handout's steps (docs/labs/datacenter.md) as a student runs them: each question has an
// answer its command shows, with the figures the handout quotes.
double up_bytes(const json& j, const std::string& a, const std::string& b) {
  for (const auto& l : j["links"]) {
    if (l["a"] == a && l["b"] == b) return l["a_to_b"]["bytes"].get<double>();
  }
  ADD_FAILURE() << "no link " << a << " -- " << b;
  return -1;
}

TEST(DcCli, handout_step1_another_crc_seed_swaps_a_leafs_uplinks_or_leaves_them) {
  const std::vector<std::string> base{"ecmp", "--topology", "leaf-spine:4x2", "--flows",
                                      "200",  "--hash",     "crc16",          "--json"};
  const auto with = [&](std::vector<std::string> extra) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_json(args);
  };
  const auto same = with({});
  const auto from0 = with({"--seed", "per-switch"});
  const auto from1 = with({"--seed", "per-switch", "--hash-seed", "1"});
  EXPECT_EQ(from0["links"], same["links"]);                     // the seeds drawn from 0 flip no leaf (1 in 16)
  for (const std::string leaf : {"leaf1", "leaf2", "leaf3"}) {  // the seeds drawn from 1 flip these
    EXPECT_EQ(up_bytes(from1, leaf, "spine1"), up_bytes(same, leaf, "spine2")) << leaf;
    EXPECT_EQ(up_bytes(from1, leaf, "spine2"), up_bytes(same, leaf, "spine1")) << leaf;
  }
  EXPECT_EQ(up_bytes(from1, "leaf4", "spine1"), up_bytes(same, "leaf4", "spine1"));  // and leave leaf4 alone
  EXPECT_NE(up_bytes(same, "leaf4", "spine1"), up_bytes(same, "leaf4", "spine2"));
  EXPECT_NEAR(from1["tiers"][1]["uplink_jain"].get<double>(), 0.943, 5e-4);
  EXPECT_NEAR(same["tiers"][1]["uplink_jain"].get<double>(), 0.943, 5e-4);
  for (const auto& l : same["links"]) {  // host links: no seed changes them
    if (l["tier"] == 0) {
      EXPECT_EQ(up_bytes(from1, l["a"], l["b"]), l["a_to_b"]["bytes"].get<double>());
    }
  }
}

TEST(DcCli, handout_step2_says_which_flows_cross_the_fabric) {
  const auto random =
      run_json({"ecmp", "--topology", "leaf-spine:4x2", "--flows", "8", "--size", "40MB", "--hash", "crc16", "--json"});
  EXPECT_EQ(random["flows"]["crossing_fabric"], 5);
  EXPECT_EQ(random["flows"]["within_switch"], 3);
  EXPECT_EQ(up_bytes(random, "leaf4", "spine1") + up_bytes(random, "leaf4", "spine2"), 0.0);
  const auto perm = run_json({"ecmp", "--topology", "leaf-spine:4x2", "--flows", "8", "--size", "40MB", "--hash",
                              "crc16", "--pattern", "permutation", "--json"});
  EXPECT_EQ(perm["flows"]["crossing_fabric"], 8);
  EXPECT_EQ(perm["tiers"][1]["unused_uplinks"], 2);
  for (const std::string leaf : {"leaf1", "leaf2", "leaf3", "leaf4"}) {
    EXPECT_EQ(up_bytes(perm, leaf, "spine1") + up_bytes(perm, leaf, "spine2"), 80e6) << leaf;  // two flows per leaf
  }
}

TEST(DcCli, handout_step6_the_capture_crosses_the_fabric) {
  const auto j = run_json({"ecmp", "--topology", "leaf-spine:2x2", "--capture",
                           std::string(NETLAB_SOURCE_DIR) + "/captures/ftp/ftp-sessions.pcapng", "--json"});
  EXPECT_EQ(j["flows"]["count"], 20);
  EXPECT_EQ(j["flows"]["crossing_fabric"], 20);
  EXPECT_EQ(j["tiers"][1]["unused_uplinks"], 0);
}

TEST(DcCli, handout_step7_shows_where_caution_pays_and_where_it_costs) {
  const auto dir = netlab::test::make_temp_folder("dc-te-step7");
  std::string text = run({bin_path("lab-dc"), "topology", "--topology", "leaf-spine:4x2"}).out;
  const auto at = text.find("link leaf1 spine1 10Gbps");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 24, "link leaf1 spine1 2.5Gbps");
  std::ofstream(dir + "/weak.txt") << text;
  const auto mean = [](const json& j, const char* scheme) { return j["summary"][scheme]["mean"].get<double>(); };
  const auto calm = run_json({"te", "--topology", dir + "/weak.txt", "--generate", "--matrices", "24", "--json"});
  EXPECT_NEAR(mean(calm, "predicted"), 0.334, 5e-4);
  EXPECT_NEAR(mean(calm, "robust"), 0.327, 5e-4);
  EXPECT_NEAR(mean(calm, "optimal"), 0.326, 5e-4);
  for (int row : {9, 11}) {  // predicted loses on calm matrices after a burst
    const auto& m = calm["matrices"][row]["mlu"];
    EXPECT_GT(m["predicted"].get<double>(), m["optimal"].get<double>() + 0.05) << row;
  }
  const auto bursty = run_json({"te", "--topology", dir + "/weak.txt", "--generate", "--matrices", "24", "--bursty",
                                "40%", "--burst-probability", "50%", "--json"});
  EXPECT_NEAR(mean(bursty, "robust"), 0.504, 5e-4);
  EXPECT_NEAR(mean(bursty, "predicted"), 0.540, 5e-4);
  for (int row : {1, 8, 23}) {  // caution pays
    const auto& m = bursty["matrices"][row]["mlu"];
    EXPECT_GT(m["predicted"].get<double>(), m["robust"].get<double>() + 0.10) << row;
  }
  const auto& five = bursty["matrices"][5]["mlu"];  // and costs
  EXPECT_GT(five["robust"].get<double>(), five["predicted"].get<double>() + 0.02);
  // In a symmetric Clos every tuned split is ECMP's, row by row.
  const auto sym = run_json({"te", "--topology", "leaf-spine:4x2", "--generate", "--matrices", "24", "--json"});
  for (const auto& m : sym["matrices"]) {
    for (const char* scheme : {"optimal", "predicted", "robust"}) {
      if (!m["mlu"][scheme].is_null()) {
        EXPECT_NEAR(m["mlu"][scheme].get<double>(), m["mlu"]["ecmp"].get<double>(), 1e-4) << scheme;
      }
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(DcCli, quiz_is_reproducible) {
  const auto a = run_json({"quiz", "--seed", "5", "--count", "6", "--answers", "--json"});
  const auto b = run_json({"quiz", "--seed", "5", "--count", "3", "--answers", "--json"});
  ASSERT_EQ(a["questions"].size(), 6u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a["questions"][i], b["questions"][i]);
  for (const auto& q : a["questions"]) {
    EXPECT_FALSE(q["answer"].empty());
    if (q["kind"] == "collision") {
      const int k = q["given"]["uplinks"], m = q["given"]["elephants"];
      double none = 1;
      for (int i = 0; i < m; ++i) none *= double(k - i) / k;
      EXPECT_NEAR(q["answer"]["collision_probability"].get<double>(), 1 - none, 1e-12);
    }
  }
}

}  // namespace dc_cli_test
