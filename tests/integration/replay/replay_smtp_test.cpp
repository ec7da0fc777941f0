// netlab-replay with an SMTP session recorded from lab-smtp (tests/integration/replay/data/
// record-smtp-session.sh: smtplib sends to alice and bob, then RCPT without MAIL, RSET, QUIT):
// replayed against lab-smtp with the same users everything matches; with bob missing from the
// users file exactly the RCPT for bob differs (250 recorded, 550 now).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "support/process.hpp"

namespace replay_smtp_test_local {

using namespace netlab::test;

const std::string capture = source_path("tests/integration/replay/data/smtp-session.pcapng");

struct mail_dir {
  std::string dir;
  mail_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "netlab-replay-smtp-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
  }
  ~mail_dir() { std::filesystem::remove_all(dir); }
  mail_dir(const mail_dir&) = delete;
  mail_dir& operator=(const mail_dir&) = delete;
};

nlohmann::json replay_against(const std::string& users, int want_exit) {
  mail_dir d;
  std::ofstream(d.dir + "/users.txt") << users;
  process server({bin_path("lab-smtp"), "serve", "--maildir", d.dir + "/mail", "--domain", "example.org", "--users",
                  d.dir + "/users.txt", "--listen", "127.0.0.1:0"});
  const auto r = run({bin_path("netlab-replay"), capture, "--target", server.wait_listening(), "--json"});
  EXPECT_EQ(r.exit_code, want_exit) << r.out << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(ReplaySmtp, OwnServerMatchesTheRecording) {
  const auto j = replay_against("alice:secret\nbob:hunter2\n", 0);
  ASSERT_EQ(j["conversations"].size(), 1u);
  const auto& c = j["conversations"][0];
  EXPECT_EQ(c["protocol"], "smtp");
  ASSERT_EQ(c["exchanges"].size(), 10u) << c.dump(2);
  EXPECT_EQ(c["exchanges"][5]["request"], "data");
  EXPECT_EQ(c["exchanges"][6]["request"], "<message, 33 bytes>");
  EXPECT_EQ(c["exchanges"][7]["recorded"]["status"], 503);
}

TEST(ReplaySmtp, MissingUserIsFoundAndNamed) {
  const auto j = replay_against("alice:secret\n", 1);
  const auto& ex = j["conversations"][0]["exchanges"];
  std::vector<std::string> differing;
  for (const auto& e : ex) {
    if (!e["matched"].get<bool>()) differing.push_back(e["request"].get<std::string>());
  }
  EXPECT_EQ(differing, std::vector<std::string>{"rcpt TO:<bob@example.org>"}) << ex.dump(2);
  EXPECT_EQ(ex[4]["differences"], nlohmann::json::array({"reply code: recorded 250, now 550"}));
}

}  // namespace replay_smtp_test_local
