// netlab-replay with an SMTP session recorded from lab-smtp (tests/integration/replay/data/
// record-smtp-session.sh: smtplib sends to alice and bob, then RCPT without MAIL, RSET, QUIT):
// replayed against lab-smtp with the same users everything matches; with bob missing from the
// users file exactly the RCPT for bob differs (250 recorded, 550 now).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "support/peers.hpp"
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

// captures/mail/mail-path.pcapng's conversation 2 is lab-smtp send --starttls: EHLO, STARTTLS
// answered 220, then TLS. The three plain exchanges are replayed and match; the report says that
// the encrypted rest was not replayed, how many bytes that is, and counts the conversation.
TEST(ReplaySmtp, StarttlsSessionSaysTheEncryptedRestWasNotReplayed) {
  NETLAB_REQUIRE_PEER("openssl");
  mail_dir d;
  std::ofstream(d.dir + "/users.txt") << "alice:secret\nbob:hunter2\n";
  const auto cert = run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days",
                         "1", "-keyout", d.dir + "/key.pem", "-out", d.dir + "/cert.pem"});
  ASSERT_EQ(cert.exit_code, 0) << cert.err;
  process server({bin_path("lab-smtp"), "serve", "--maildir", d.dir + "/mail", "--domain", "example.org", "--users",
                  d.dir + "/users.txt", "--listen", "127.0.0.1:0", "--tls-cert", d.dir + "/cert.pem", "--tls-key",
                  d.dir + "/key.pem"});
  const auto target = server.wait_listening();
  const auto mail_path = source_path("captures/mail/mail-path.pcapng");
  const auto r = run({bin_path("netlab-replay"), mail_path, "--target", target, "--conversation", "2", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& c = j["conversations"][0];
  ASSERT_EQ(c["exchanges"].size(), 3u) << c.dump(2);
  EXPECT_EQ(c["exchanges"][2]["request"], "STARTTLS");
  EXPECT_EQ(c["exchanges"][2]["recorded"]["status"], 220);
  ASSERT_TRUE(c["encrypted_rest"].is_object()) << c.dump(2);
  EXPECT_EQ(c["encrypted_rest"]["after"], "STARTTLS");
  EXPECT_EQ(c["encrypted_rest"]["replayed"], false);
  EXPECT_GT(c["encrypted_rest"]["client_bytes"].get<std::uint64_t>(), 200u);  // at least a ClientHello
  EXPECT_GT(c["encrypted_rest"]["server_bytes"].get<std::uint64_t>(), 500u);  // a ServerHello and certificate
  EXPECT_EQ(j["summary"]["encrypted_rest_not_replayed"], 1);

  const auto text = run({bin_path("netlab-replay"), mail_path, "--target", target, "--conversation", "2"});
  EXPECT_NE(text.out.find(fmt::format("3 of 3 exchanges match; the rest, encrypted after STARTTLS ({} bytes from the "
                                      "client, {} from the server), was not replayed",
                                      c["encrypted_rest"]["client_bytes"].get<std::uint64_t>(),
                                      c["encrypted_rest"]["server_bytes"].get<std::uint64_t>())),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("1 replayed only up to the switch to TLS (the encrypted rest cannot be replayed)"),
            std::string::npos)
      << text.out;

  // A plain session says nothing of the kind.
  const auto plain = run({bin_path("netlab-replay"), capture, "--target", target, "--json"});
  EXPECT_TRUE(nlohmann::json::parse(plain.out)["conversations"][0]["encrypted_rest"].is_null()) << plain.out;
}

}  // namespace replay_smtp_test_local
