// Golden tests: every captures/golden/NAME.facts.json (written by `netlab-record --golden NAME`)
// is a test entry. Its checks re-run the analyzers named in it (netlab-ladder --json, lab-http
// analyze --json, ...) on NAME.pcapng and compare with the stored output, so adding a golden is
// committing three files, with no C++ edit. Also: netlab-record --golden itself, as root.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "golden_checks.hpp"
#include "support/peers.hpp"
#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using netlab::test::bin_path;
using nlohmann::json;

std::vector<fs::path> golden_facts(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().string().ends_with(".facts.json")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < 20; ++i) out += "\n  " + lines[i];
  if (lines.size() > 20) out += "\n  ... " + std::to_string(lines.size() - 20) + " more";
  return out;
}

// Checks one facts file; returns the number of checks run.
std::size_t check_golden(const fs::path& facts_file) {
  SCOPED_TRACE(facts_file.filename().string());
  const auto facts = netlab::test::load_json(facts_file);
  const auto capture = facts_file.parent_path() / facts.at("capture").get<std::string>();
  EXPECT_TRUE(fs::exists(capture)) << capture;
  EXPECT_TRUE(fs::exists(facts_file.parent_path() / facts.at("recipe").get<std::string>()));
  const auto& checks = facts.at("checks");
  EXPECT_GE(checks.size(), 1u);
  EXPECT_EQ(checks.at(0).at("argv").at(0), "netlab-ladder");
  for (const auto& check : checks) {
    const auto diffs = netlab::test::run_golden_check(check, capture);
    EXPECT_TRUE(diffs.empty()) << check.at("argv").dump() << " differs from the golden facts:" << joined(diffs);
  }
  return checks.size();
}

TEST(Golden, EveryGoldenCaptureStillYieldsItsFacts) {
  const auto files = golden_facts(netlab::test::source_path("captures/golden"));
  ASSERT_FALSE(files.empty()) << "no captures/golden/*.facts.json";
  for (const auto& f : files) check_golden(f);
}

TEST(Golden, APlantedDifferenceIsNamed) {
  const auto files = golden_facts(netlab::test::source_path("captures/golden"));
  ASSERT_FALSE(files.empty());
  auto facts = netlab::test::load_json(files.front());
  const auto capture = files.front().parent_path() / facts.at("capture").get<std::string>();
  auto check = facts.at("checks").at(0);
  check["expect"]["conversations"][0]["server_sha256"] = std::string(64, '0');
  check["expect"]["packets"] = check["expect"]["packets"].get<int>() + 1;
  const auto diffs = netlab::test::run_golden_check(check, capture);
  ASSERT_EQ(diffs.size(), 2u) << joined(diffs);
  EXPECT_TRUE(diffs[0].starts_with("netlab-ladder.conversations[0].server_sha256: expected \"000")) << diffs[0];
  EXPECT_TRUE(diffs[1].starts_with("netlab-ladder.packets: expected")) << diffs[1];
}

TEST(Golden, UsageErrors) {
  const auto rec = bin_path("netlab-record");
  EXPECT_EQ(netlab::test::run({rec, "--golden", "x"}).exit_code, 2);                   // no session command
  EXPECT_EQ(netlab::test::run({rec, "--golden", "../x", "--", "true"}).exit_code, 2);  // not a plain name
  EXPECT_EQ(netlab::test::run({rec, "--golden", "x", "-o", "x.pcap", "--", "true"}).exit_code, 2);
  EXPECT_EQ(netlab::test::run({rec, "--golden", "x", "--protocol", "gopher", "--", "true"}).exit_code, 2);
  const auto help = netlab::test::run({rec, "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--golden"), std::string::npos);
  EXPECT_NE(help.out.find("no C++ edit"), std::string::npos);
}

// --refresh-facts on a copy of each committed golden rewrites exactly the committed facts file:
// the facts are what netlab-record writes, and they can be regenerated without re-recording.
TEST(Golden, RefreshFactsReproducesTheCommittedFacts) {
  const auto dir = fs::temp_directory_path() / ("netlab-golden-refresh-" + std::to_string(::getpid()));
  for (const auto& f : golden_facts(netlab::test::source_path("captures/golden"))) {
    SCOPED_TRACE(f.filename().string());
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto committed = netlab::test::load_json(f);
    const auto name = committed.at("name").get<std::string>();
    fs::copy_file(f.parent_path() / committed.at("capture").get<std::string>(), dir / (name + ".pcapng"));
    std::vector<std::string> argv{bin_path("netlab-record"), "--golden", name, "--dir", dir.string(),
                                  "--refresh-facts"};
    for (const auto& p : committed.at("protocols")) argv.insert(argv.end(), {"--protocol", p.get<std::string>()});
    const auto r = netlab::test::run(argv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> diffs;
    netlab::test::json_diff(committed, netlab::test::load_json(dir / (name + ".facts.json")), name, diffs);
    EXPECT_TRUE(diffs.empty()) << joined(diffs);
    EXPECT_FALSE(fs::exists(dir / (name + ".recipe")));
  }
  fs::remove_all(dir);
  EXPECT_EQ(netlab::test::run({bin_path("netlab-record"), "--golden", "none", "--dir", dir.string(), "--refresh-facts"})
                .exit_code,
            1);
}

// Which analyzers a golden stores: those that recognise traffic. The mail capture's SMTP sessions
// greet with 220 as FTP does; lab-ftp analyze reports them, but they are not taken for FTP.
TEST(Golden, RecognisesTheProtocolsOfEachCaptureFolder) {
  const auto dir = fs::temp_directory_path() / ("netlab-golden-detect-" + std::to_string(::getpid()));
  const std::vector<std::pair<std::string, json>> cases{
      {"captures/mail/mail-path.pcapng", json::array({"smtp", "pop3"})},
      {"captures/ftp/ftp-sessions.pcapng", json::array({"ftp"})},
      {"captures/http/serve-session.pcapng", json::array({"http"})},
      {"captures/switch/vlans.pcapng", json::array()}};
  for (const auto& [capture, protocols] : cases) {
    SCOPED_TRACE(capture);
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(netlab::test::source_path(capture), dir / "x.pcapng");
    const auto r = netlab::test::run(
        {bin_path("netlab-record"), "--golden", "x", "--dir", dir.string(), "--refresh-facts", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out).at("protocols"), protocols);
    const auto facts = netlab::test::load_json(dir / "x.facts.json");
    EXPECT_EQ(facts.at("checks").size(), protocols.size() + 1);
    for (const auto& check : facts.at("checks"))
      EXPECT_TRUE(netlab::test::run_golden_check(check, dir / "x.pcapng").empty());
  }
  fs::remove_all(dir);
}

#define REQUIRE_ROOT() \
  if (::geteuid() != 0) GTEST_SKIP() << "capturing on lo needs root (CAP_NET_RAW)"

fs::path temp_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("netlab-golden-test-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// lab-http serve on its own loopback address (so the filter sees nothing of other tests), port 0;
// the readiness line is read through a FIFO (a blocking read, no sleep); one curl GET.
const char* session_sh =
    "set -eu\n"
    "d=$(mktemp -d); printf 'golden\\n' > \"$d/g.txt\"; mkfifo \"$d/out\"\n"
    "\"$BIN/lab-http\" serve --root \"$d\" --listen 127.0.0.23:0 > \"$d/out\" & srv=$!\n"
    "exec 3< \"$d/out\"; read -r line <&3\n"
    "curl -sS -o /dev/null \"http://${line#listening on }/g.txt\"\n"
    "kill $srv; wait $srv || true; rm -rf \"$d\"\n";

TEST(Golden, RecordTurnsASessionIntoAPassingGolden) {
  REQUIRE_ROOT();
  NETLAB_REQUIRE_PEER("curl");
  const auto dir = temp_dir("record");
  const auto r = netlab::test::run({bin_path("netlab-record"), "--golden", "one-get", "--dir", dir.string(), "--filter",
                                    "host 127.0.0.23", "--json", "--seconds", "30", "--", "sh", "-c", session_sh});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = json::parse(r.out);
  EXPECT_EQ(summary.at("protocols"), json::array({"http"}));
  EXPECT_EQ(summary.at("checks"), 2);
  EXPECT_TRUE(fs::exists(dir / "one-get.pcapng"));
  EXPECT_TRUE(fs::exists(dir / "one-get.recipe"));
  const auto facts = netlab::test::load_json(dir / "one-get.facts.json");
  EXPECT_EQ(facts.at("capture"), "one-get.pcapng");
  const auto& ladder = facts.at("checks").at(0).at("expect");
  ASSERT_EQ(ladder.at("conversations").size(), 1u);
  EXPECT_EQ(ladder.at("conversations")[0].at("state"), "closed");
  const auto& http = facts.at("checks").at(1).at("expect");
  ASSERT_EQ(http.at("transactions").size(), 1u);
  EXPECT_EQ(http.at("transactions")[0].at("status"), 200);
  EXPECT_EQ(http.at("transactions")[0].at("target"), "/g.txt");
  EXPECT_EQ(http.at("transactions")[0].at("body_bytes"), 7);
  EXPECT_EQ(check_golden(dir / "one-get.facts.json"), 2u);
  fs::remove_all(dir);
}

TEST(Golden, AFailingSessionWritesNoGolden) {
  REQUIRE_ROOT();
  const auto dir = temp_dir("failing");
  const auto r = netlab::test::run({bin_path("netlab-record"), "--golden", "bad", "--dir", dir.string(), "--filter",
                                    "host 127.0.0.23", "--", "sh", "-c", "exit 3"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("exited with 3"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

}  // namespace
