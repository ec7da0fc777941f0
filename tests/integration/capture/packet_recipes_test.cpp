// The recipes of captures/ip, captures/tls and captures/tcp run again (as root: they build network
// namespaces) into a scratch folder, and the fresh capture must give the committed capture's
// stable facts: the same answers for every id the facts file calls stable (hops, routers,
// fragments; versions, suites, SNI, ALPN; segment sizes), the same sets of values (MTUs, error
// types), and every question the facts say must be asked (a loss and its repair). Both readers
// are checked on the fresh capture: tshark (the recipe writes the facts with
// captures/tshark-answers.py) and netlab-grade's key. The recipe must also clean up after itself:
// no namespace of its own left behind. Skipped without root or without a program a recipe uses,
// except under CI=true, where it fails. Time: the recipes themselves take about 19 s (ip), 4 s
// (tls) and 10 s (tcp) on the 2-core development machine; with tshark's reading and the keys the
// three tests took 41, 34 and 28 s there at a load average of 13 (other builds running).
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace packet_recipes_test {  // named: unity batches share one translation unit

namespace fs = std::filesystem;
using netlab::test::bin_path;
using netlab::test::source_path;
using nlohmann::json;

struct recipe {
  std::string folder, script;
  std::vector<std::string> captures;  // file names it writes
  std::vector<std::string> programs;  // what it runs besides netlab's
};

const std::vector<recipe>& recipes() {
  static const std::vector<recipe> all{
      {"ip", "record-ip.sh", {"ipv4-path.pcapng", "ipv6-path.pcapng"}, {"ip", "tc", "ping", "traceroute", "tracepath"}},
      {"tls", "record-tls.sh", {"tls-handshakes.pcapng"}, {"ip", "openssl", "curl"}},
      {"tcp", "record-tcp.sh", {"bulk-upload.pcapng"}, {"ip", "tc", "curl"}},
  };
  return all;
}

struct temp_dir {
  fs::path path;
  explicit temp_dir(const std::string& name)
      : path(fs::temp_directory_path() / ("netlab-recipe-" + name + "-" + std::to_string(::getpid()))) {
    fs::create_directories(path);
  }
  ~temp_dir() { fs::remove_all(path); }
};

json load(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

// The code of "NAME (CODE)", or the answer itself.
std::string comparable(const std::string& answer) {
  static const std::regex coded(R"re(.*\(([0-9a-fx]+)\)$)re");
  std::smatch m;
  if (std::regex_match(answer, m, coded)) {
    const std::string c = m[1];
    return std::to_string(c.rfind("0x", 0) == 0 ? std::stoull(c.substr(2), nullptr, 16) : std::stoull(c));
  }
  return answer;
}

// One recipe's namespaces (nl28ip<pid>-h, nl28tls<pid>, nl28tcp<pid>-r...): other tests, the other
// recipes among them (ctest -j), may make their own meanwhile.
std::set<std::string> recipe_namespaces(const std::string& folder) {
  const auto r = netlab::test::run({"ip", "netns", "list"});
  std::set<std::string> out;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("nl28" + folder, 0) == 0) out.insert(line.substr(0, line.find(' ')));
  }
  return out;
}

class PacketRecipes : public testing::TestWithParam<recipe> {};

TEST_P(PacketRecipes, ReproduceTheCommittedFacts) {
  const auto& r = GetParam();
  if (::geteuid() != 0) {
    if (netlab::test::in_ci()) FAIL() << "the capture recipes need root in CI (network namespaces)";
    GTEST_SKIP() << "the capture recipes need root (network namespaces, capturing)";
  }
  for (const auto& p : r.programs) NETLAB_REQUIRE_PEER(p);
  NETLAB_REQUIRE_PEER("tshark");
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  temp_dir out(r.folder);
  const auto before = recipe_namespaces(r.folder);
  const auto run = netlab::test::run({"/usr/bin/env", "BIN=" + std::string(NETLAB_BIN_DIR), "OUT=" + out.path.string(),
                                      "sh", source_path("captures/" + r.folder + "/" + r.script)},
                                     {}, std::chrono::seconds(300));
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(recipe_namespaces(r.folder), before) << "the recipe left a network namespace behind";
  for (const auto& capture : r.captures) {
    SCOPED_TRACE(r.folder + "/" + capture);
    EXPECT_NE(run.out.find("wrote "), std::string::npos) << run.out;
    const auto stem = capture.substr(0, capture.rfind('.'));
    const auto committed = load(source_path("captures/" + r.folder + "/" + stem + ".facts.json"));
    const auto fresh = load(out.path / (stem + ".facts.json"));
    EXPECT_EQ(fresh.at("stable"), committed.at("stable"));
    EXPECT_EQ(fresh.at("sets"), committed.at("sets"));
    for (const auto& [pattern, count] : committed.at("present").items()) {
      if (count.get<int>() > 0) {
        EXPECT_GT(fresh.at("present").value(pattern, 0), 0) << pattern << " is not asked";
      }
    }
    // netlab-grade's key of the fresh capture gives the stable facts too.
    const auto key_run =
        netlab::test::run({bin_path("netlab-grade"), "questions", (out.path / capture).string(), "--key", "--json"});
    ASSERT_EQ(key_run.exit_code, 0) << key_run.err;
    const auto key_doc = json::parse(key_run.out);
    std::map<std::string, std::string> key;
    for (const auto& q : key_doc.at("questions")) key[q.at("id")] = q.at("answer");
    for (const auto& [id, answer] : committed.at("stable").items()) {
      const auto it = key.find(id);
      ASSERT_NE(it, key.end()) << id << " is not asked of the fresh capture";
      EXPECT_EQ(comparable(it->second), comparable(answer.get<std::string>())) << id;
    }
  }
}

std::string recipe_name(const testing::TestParamInfo<recipe>& p) {
  return p.param.folder;
}

INSTANTIATE_TEST_SUITE_P(All, PacketRecipes, testing::ValuesIn(recipes()), recipe_name);

}  // namespace packet_recipes_test
