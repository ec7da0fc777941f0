// The recipes of the DNS, DHCP and NAT lab captures, run again as root with Debian's daemons and
// clients (named, unbound, dig, host, nslookup; dnsmasq, busybox udhcpc; nftables, curl), each in
// network namespaces of its own: every new recording must yield the committed facts that do not
// depend on chance (captures/make-lab-facts.py: tshark's reading of what was asked and answered,
// by whom, with which flags and records; which messages DHCP exchanged and what the server gave;
// which flows crossed the NAT, whether their ports were kept, their TTLs), and netlab-grade's key
// of the new recording must agree with tshark answer by answer (key_tshark.hpp). Without root or a
// daemon the test is skipped, saying which; under CI=true (CI runs as root) that is a failure.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <ostream>

#include "integration/grade/key_tshark.hpp"
#include "support/peers.hpp"
#include "support/process.hpp"

namespace recipes_test {

namespace fs = std::filesystem;
using namespace netlab::test;

struct recipe {
  std::string name;                  // captures/<name>/
  std::vector<std::string> outputs;  // the captures it writes
  std::string facts;                 // the committed facts file
  std::vector<std::string> peers;    // programs it needs
};

const std::vector<recipe>& recipes() {
  static const std::vector<recipe> list{
      {"dns",
       {"resolver.pcapng"},
       "resolver.facts.json",
       {"ip", "ethtool", "named", "unbound", "dig", "host", "nslookup", "getent", "tshark"}},
      {"dhcp", {"client.pcapng"}, "client.facts.json", {"ip", "ethtool", "dnsmasq", "busybox", "tshark"}},
      {"nat",
       {"inside.pcapng", "outside.pcapng"},
       "nat.facts.json",
       {"ip", "ethtool", "nft", "dnsmasq", "curl", "dig", "tshark"}},
  };
  return list;
}

void PrintTo(const recipe& r, std::ostream* os) {
  *os << r.name;
}

class Recipes : public testing::TestWithParam<recipe> {};

TEST_P(Recipes, RecordAgainWithTheCommittedFacts) {
  const auto& r = GetParam();
  if (::geteuid() != 0) {
    if (in_ci()) FAIL() << "the capture recipes need root in CI";
    GTEST_SKIP() << "the capture recipes need root (network namespaces, capturing)";
  }
  for (const auto& p : r.peers) NETLAB_REQUIRE_PEER(p);
  std::string pattern = (fs::temp_directory_path() / "netlab-recipe-XXXXXX").string();
  const std::string out = ::mkdtemp(pattern.data());
  struct remove_at_end {
    std::string dir;
    ~remove_at_end() { fs::remove_all(dir); }
  } cleanup{out};
  const auto script = source_path("captures/" + r.name + "/record-" + r.name + ".sh");
  const auto prefix = "nlt" + std::to_string(::getpid() % 100000) + r.name;
  const auto run_recipe = run(
      {"/usr/bin/env", "BIN=" + std::string(NETLAB_BIN_DIR), "OUT=" + out, "NETNS_PREFIX=" + prefix, "/bin/sh", script},
      {}, std::chrono::seconds(180));
  ASSERT_EQ(run_recipe.exit_code, 0) << run_recipe.out << run_recipe.err;
  std::vector<std::string> argv{"/usr/bin/python3", source_path("captures/make-lab-facts.py"), r.name};
  for (const auto& o : r.outputs) argv.push_back(out + "/" + o);
  const auto facts = run(argv);
  ASSERT_EQ(facts.exit_code, 0) << facts.err;
  std::ifstream committed(source_path("captures/" + r.name + "/" + r.facts));
  auto expected = nlohmann::json::parse(committed);
  const auto got = nlohmann::json::parse(facts.out);
  EXPECT_EQ(got, expected) << "committed:\n" << expected.dump(1) << "\nrecorded again:\n" << got.dump(1);
  // netlab-grade's answers for the new recording, against tshark.
  const auto capture = out + "/" + r.outputs.back();
  const auto inside = r.outputs.size() == 2 ? out + "/" + r.outputs.front() : std::string();
  EXPECT_GT(key_tshark::expect_key_agrees(capture, inside, key_tshark::full_key(capture, inside)), 0u);
}

INSTANTIATE_TEST_SUITE_P(Lab, Recipes, testing::ValuesIn(recipes()),
                         [](const testing::TestParamInfo<recipe>& i) { return i.param.name; });

}  // namespace recipes_test
