// netlab-replay with the POP3 conversation of captures/mail/mail-path.pcapng (Python poplib reads
// bob's maildrop: USER, PASS, STAT, LIST, UIDL, RETR 1, TOP 2 0, DELE 1, QUIT; recipe
// captures/mail/record-mail.sh). The maildrop is rebuilt as the recipe built it: the two
// plain-text SMTP conversations of the same capture are replayed into lab-smtp serve (so the
// messages are the recorded bytes, with new Return-Path, Delivered-To and Received: fields) and the
// third message, recorded
// under TLS, is sent again with lab-smtp send. Then lab-pop3 serve on that Maildir matches the
// recording; a changed message and a wrong password are found and named.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/peers.hpp"
#include "support/process.hpp"
#include "support/synthetic_capture.hpp"

namespace replay_pop3_test_local {

using namespace netlab::test;

const std::string capture = source_path("captures/mail/mail-path.pcapng");
constexpr const char* pop3_conversation = "3";

struct maildrop {
  std::string dir;
  maildrop() {
    std::string pattern = (std::filesystem::temp_directory_path() / "netlab-replay-pop3-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    std::ofstream(dir + "/users.txt") << "alice:secret\nbob:hunter2\n";
    process smtp({bin_path("lab-smtp"), "serve", "--maildir", dir + "/mail", "--domain", "example.org", "--users",
                  dir + "/users.txt", "--listen", "127.0.0.1:0"});
    const auto target = smtp.wait_listening();
    for (const char* id : {"0", "1"}) {
      const auto r = run({bin_path("netlab-replay"), capture, "--target", target, "--conversation", id});
      EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    }
    const auto r = run({bin_path("lab-smtp"), "send", "--server", target, "--from", "alice@example.org", "--to",
                        "bob@example.org", "--subject", "tls"},
                       "secret body\n");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  ~maildrop() { std::filesystem::remove_all(dir); }
  maildrop(const maildrop&) = delete;
  maildrop& operator=(const maildrop&) = delete;

  // bob's messages in delivery order.
  [[nodiscard]] std::vector<std::filesystem::path> messages() const {
    std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> found;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/mail/bob/new")) {
      found.emplace_back(e.last_write_time(), e.path());
    }
    std::sort(found.begin(), found.end());
    std::vector<std::filesystem::path> out;
    for (auto& f : found) out.push_back(f.second);
    return out;
  }
};

nlohmann::json replay_pop3(const maildrop& m, const std::string& users, int want_exit) {
  std::ofstream(m.dir + "/pop3-users.txt") << users;
  process pop3({bin_path("lab-pop3"), "serve", "--maildir", m.dir + "/mail", "--users", m.dir + "/pop3-users.txt",
                "--listen", "127.0.0.1:0"});
  const auto r = run({bin_path("netlab-replay"), capture, "--target", pop3.wait_listening(), "--conversation",
                      pop3_conversation, "--json"});
  EXPECT_EQ(r.exit_code, want_exit) << r.out << r.err;
  return nlohmann::json::parse(r.out);
}

std::vector<std::string> differing(const nlohmann::json& j) {
  std::vector<std::string> out;
  for (const auto& e : j["conversations"][0]["exchanges"]) {
    if (!e["matched"].get<bool>()) out.push_back(e["request"].get<std::string>());
  }
  return out;
}

TEST(ReplayPop3, RebuiltMaildropMatchesTheRecording) {
  maildrop m;
  ASSERT_EQ(m.messages().size(), 3u);
  const auto j = replay_pop3(m, "bob:hunter2\n", 0);
  const auto& c = j["conversations"][0];
  EXPECT_EQ(c["protocol"], "pop3");
  ASSERT_EQ(c["exchanges"].size(), 10u) << c.dump(2);
  EXPECT_EQ(c["exchanges"][3]["request"], "STAT");
  EXPECT_EQ(c["exchanges"][3]["replayed"]["listing"], "messages 3");
  EXPECT_EQ(c["exchanges"][5]["replayed"]["listing"], "messages 1 2 3") << "UIDL: numbers only";
  EXPECT_EQ(c["exchanges"][6]["request"], "RETR 1");
  EXPECT_EQ(c["exchanges"][6]["recorded"]["body_bytes"], 107) << "266 octets less the 159-byte Received: field";
  // Replayed: the same 107 bytes once Return-Path, Delivered-To and Received: are removed.
  EXPECT_EQ(c["exchanges"][6]["replayed"]["body_bytes"], 107);
  EXPECT_EQ(m.messages().size(), 2u) << "DELE 1 and QUIT were replayed too";
}

TEST(ReplayPop3, ChangedMessageIsFoundAndNamed) {
  maildrop m;
  const auto first = m.messages().front();
  const auto delivered = std::filesystem::last_write_time(first);  // keeps its place in the maildrop
  std::ofstream(first, std::ios::app) << "P.S. changed\r\n";
  std::filesystem::last_write_time(first, delivered);
  const auto j = replay_pop3(m, "bob:hunter2\n", 1);
  EXPECT_EQ(differing(j), std::vector<std::string>{"RETR 1"});
  const auto d = j["conversations"][0]["exchanges"][6]["differences"][0].get<std::string>();
  EXPECT_NE(d.find("message (trace fields removed): recorded 107 bytes"), std::string::npos) << d;
  EXPECT_NE(d.find("now 121 bytes"), std::string::npos) << d;
}

TEST(ReplayPop3, RejectedPasswordIsNamed) {
  maildrop m;
  const auto j = replay_pop3(m, "bob:changed\n", 1);
  const auto diffs = differing(j);
  ASSERT_FALSE(diffs.empty());
  EXPECT_EQ(diffs.front(), "PASS ****");
  EXPECT_EQ(j["conversations"][0]["exchanges"][2]["differences"][0], "status: recorded +OK, now -ERR");
}

// A POP3 session that switched to TLS: the greeting, CAPA, STLS answered +OK, then TLS records
// (RFC 2595 §4), written as a capture here. Replayed against lab-pop3 serve with a certificate, the
// three plain exchanges match and the report says the encrypted rest (its byte counts) was not
// replayed, rather than reading the TLS records as commands.
TEST(ReplayPop3, StlsSessionSaysTheEncryptedRestWasNotReplayed) {
  NETLAB_REQUIRE_PEER("openssl");
  maildrop m;
  const std::string greeting = "+OK POP3 ready\r\n", capa = "CAPA\r\n",
                    capa_reply = "+OK Capability list follows\r\nUSER\r\nSTLS\r\n.\r\n", stls = "STLS\r\n",
                    stls_reply = "+OK Begin TLS negotiation\r\n";
  // TLS records: type 22 (handshake), version, a 2-byte length, then that many bytes.
  const std::string client_tls = std::string{'\x16', '\x03', '\x01', '\x00', '\x2a'} + std::string(42, '\x01');
  const std::string server_tls = std::string{'\x16', '\x03', '\x03', '\x00', '\x3b'} + std::string(59, '\x02');
  // (from the client, payload) in order, on one connection to port 110.
  const std::vector<std::pair<bool, std::string>> dialogue{{false, greeting},  {true, capa},        {false, capa_reply},
                                                           {true, stls},       {false, stls_reply}, {true, client_tls},
                                                           {false, server_tls}};
  const auto file = m.dir + "/stls.pcapng";
  netlab::test::write_dialogue(file, 110, dialogue);
  const auto cert = run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days",
                         "1", "-keyout", m.dir + "/key.pem", "-out", m.dir + "/cert.pem"});
  ASSERT_EQ(cert.exit_code, 0) << cert.err;
  process pop3({bin_path("lab-pop3"), "serve", "--maildir", m.dir + "/mail", "--users", m.dir + "/users.txt",
                "--listen", "127.0.0.1:0", "--tls-cert", m.dir + "/cert.pem", "--tls-key", m.dir + "/key.pem"});
  const auto r = run({bin_path("netlab-replay"), file, "--target", pop3.wait_listening(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& c = j["conversations"][0];
  EXPECT_EQ(c["protocol"], "pop3");
  ASSERT_EQ(c["exchanges"].size(), 3u) << c.dump(2);
  EXPECT_EQ(c["exchanges"][2]["request"], "STLS");
  EXPECT_EQ(c["encrypted_rest"]["after"], "STLS") << c.dump(2);
  EXPECT_EQ(c["encrypted_rest"]["client_bytes"], client_tls.size());
  EXPECT_EQ(c["encrypted_rest"]["server_bytes"], server_tls.size());
  EXPECT_EQ(j["summary"]["encrypted_rest_not_replayed"], 1);
}

}  // namespace replay_pop3_test_local
