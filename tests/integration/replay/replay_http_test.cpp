// netlab-replay with captures/net/loopback-http.pcapng (curl fetching hello.txt, numbers.txt and
// a missing file from Python's http.server; recipe in captures/net/record-loopback.sh): replayed
// against our lab-http and against http.server serving the same files, everything matches; with
// one planted difference (a changed file, a removed file) exactly that exchange differs, named.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace replay_http_test_local {

using namespace netlab::test;

const std::string capture = source_path("captures/net/loopback-http.pcapng");

// The recipe's files: hello.txt and numbers.txt (`seq 1 2000`).
struct recipe_site {
  std::string dir;
  recipe_site() {
    std::string pattern = (std::filesystem::temp_directory_path() / "netlab-replay-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    std::ofstream(dir + "/hello.txt") << "hello from netlab\n";
    std::ofstream numbers(dir + "/numbers.txt");
    for (int i = 1; i <= 2000; ++i) numbers << i << '\n';
  }
  ~recipe_site() { std::filesystem::remove_all(dir); }
  recipe_site(const recipe_site&) = delete;
  recipe_site& operator=(const recipe_site&) = delete;
};

run_result replay(const std::string& target, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{bin_path("netlab-replay"), capture, "--target", target};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run(argv);
}

nlohmann::json replay_json(const std::string& target, int want_exit, std::vector<std::string> extra = {}) {
  extra.push_back("--json");
  const auto r = replay(target, extra);
  EXPECT_EQ(r.exit_code, want_exit) << r.out << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(ReplayHttp, OwnServerMatchesTheRecording) {
  recipe_site site;
  process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
  const auto j = replay_json(server.wait_listening(), 0);
  EXPECT_EQ(j["summary"]["replayed"], 3);
  EXPECT_EQ(j["summary"]["matched"], 3);
  EXPECT_EQ(j["conversations"][1]["exchanges"][0]["request"], "GET /numbers.txt");
  EXPECT_EQ(j["conversations"][1]["exchanges"][0]["replayed"]["body_bytes"], 8893);
  EXPECT_EQ(j["conversations"][2]["exchanges"][0]["recorded"]["status"], 404);
}

TEST(ReplayHttp, PythonHttpServerMatchesTheRecording) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  recipe_site site;
  process py({"/usr/bin/python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", site.dir, "0"});
  const auto line = py.wait_for_line("Serving HTTP on");
  ASSERT_TRUE(line) << py.err();
  const auto at = line->find(" port ") + 6;
  const auto j = replay_json("127.0.0.1:" + line->substr(at, line->find(' ', at) - at), 0, {"--pace"});
  EXPECT_EQ(j["summary"]["matched"], 3);
}

TEST(ReplayHttp, ChangedFileIsFoundAndNamed) {
  recipe_site site;
  std::ofstream(site.dir + "/numbers.txt", std::ios::app) << "2001\n";
  process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
  const auto target = server.wait_listening();
  const auto r = replay(target);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("DIFF #1 GET /numbers.txt: recorded 200, now 200"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("body: recorded 8893 bytes sha256"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("now 8898 bytes sha256"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 conversations replayed, 2 match, 1 differ, 0 skipped"), std::string::npos) << r.out;
  const auto j = replay_json(target, 1);
  EXPECT_TRUE(j["conversations"][0]["matched"].get<bool>());
  EXPECT_FALSE(j["conversations"][1]["matched"].get<bool>());
  EXPECT_TRUE(j["conversations"][2]["matched"].get<bool>());
}

TEST(ReplayHttp, MissingFileIsAStatusDifference) {
  recipe_site site;
  std::filesystem::remove(site.dir + "/hello.txt");
  process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
  const auto j = replay_json(server.wait_listening(), 1);
  const auto& e = j["conversations"][0]["exchanges"][0];
  EXPECT_EQ(e["differences"], nlohmann::json::array({"status: recorded 200, now 404"}));
  EXPECT_EQ(j["summary"]["matched"], 2);
}

TEST(ReplayHttp, OneConversationAndErrors) {
  recipe_site site;
  process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
  const auto target = server.wait_listening();
  const auto j = replay_json(target, 0, {"--conversation", "2"});
  ASSERT_EQ(j["conversations"].size(), 1u);
  EXPECT_EQ(j["conversations"][0]["exchanges"][0]["request"], "GET /missing");
  EXPECT_EQ(replay(target, {"--conversation", "9"}).exit_code, 1);
  EXPECT_EQ(run({bin_path("netlab-replay"), capture}).exit_code, 2);
  EXPECT_EQ(run({bin_path("netlab-replay"), "/nonexistent.pcapng", "--target", target}).exit_code, 2);
}

TEST(ReplayHttp, NoServerIsADifferenceNotACrash) {
  std::string target;
  {
    recipe_site site;
    process server({bin_path("lab-http"), "serve", "--root", site.dir, "--listen", "127.0.0.1:0"});
    target = server.wait_listening();
  }
  const auto j = replay_json(target, 1);
  EXPECT_EQ(j["summary"]["matched"], 0);
  const auto d = j["conversations"][0]["exchanges"][0]["differences"][0].get<std::string>();
  EXPECT_NE(d.find("no response now: cannot connect"), std::string::npos) << d;
}

}  // namespace replay_http_test_local
