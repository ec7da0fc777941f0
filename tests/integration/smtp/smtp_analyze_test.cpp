// lab-smtp analyze on real-world captures (shared/real-captures, facts in its FACTS.txt) and on
// the project's own captures in captures/mail.
#include <nlohmann/json.hpp>

#include "integration/mail/mail_env.hpp"
#include "support/real_captures.hpp"

namespace {

using namespace mail_test;

nlohmann::json analyze(const std::string& path) {
  const auto r = netlab::test::run({netlab::test::bin_path("lab-smtp"), "analyze", path, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

std::string dialogue(const nlohmann::json& session) {
  std::string out;
  for (const auto& c : session["commands"])
    out += (out.empty() ? "" : " | ") + c["verb"].get<std::string>() + "=" +
           (c["reply_code"].is_null() ? "-" : std::to_string(c["reply_code"].get<int>()));
  return out;
}

using netlab::test::real_capture;

TEST(SmtpAnalyze, ZeekSmtpAuthLoginAndThreeRecipients) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_smtp.pcap");
  const auto doc = analyze(real_capture("zeek_smtp.pcap"));
  ASSERT_EQ(doc["sessions"].size(), 2U);
  const auto& a = doc["sessions"][0];
  EXPECT_EQ(dialogue(a),
            "EHLO=250 | AUTH=334 | <auth-continuation>=334 | <auth-continuation>=235 | MAIL=250 | RCPT=250 | DATA=354 "
            "| QUIT=221");
  ASSERT_EQ(a["messages"].size(), 1U);
  EXPECT_EQ(a["messages"][0]["from"], "gurpartap@patriots.in");
  EXPECT_EQ(a["messages"][0]["to"], nlohmann::json::array({"raj_deol2002in@yahoo.co.in"}));
  EXPECT_EQ(a["messages"][0]["bytes"], 14545);  // 14546 on the wire, one dot unstuffed
  const auto& b = doc["sessions"][1];
  EXPECT_EQ(b["messages"][0]["to"].size(), 3U);
  EXPECT_EQ(b["messages"][0]["bytes"], 804);
  EXPECT_EQ(b["messages"][0]["reply_code"], 250);
}

TEST(SmtpAnalyze, ZeekPipelinedRcptAndData) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_smtp-multi-addr.pcap");
  const auto s = analyze(real_capture("zeek_smtp-multi-addr.pcap"))["sessions"].at(0);
  EXPECT_EQ(s["commands"][1]["argument"], "From:<root@gras-os-desk.cern.ch> SIZE=695");
  EXPECT_EQ(dialogue(s),
            "EHLO=250 | MAIL=250 | RCPT=250 | DATA=354 | <unsolicited>=451");  // the server timed out later
  EXPECT_EQ(s["messages"][0]["bytes"], 684);
  EXPECT_EQ(s["messages"][0]["from"], "root@gras-os-desk.cern.ch");
}

TEST(SmtpAnalyze, ZeekErrorPaths) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_smtp-mail-transactions-invalid.pcap");
  const auto s = analyze(real_capture("zeek_smtp-mail-transactions-invalid.pcap"))["sessions"].at(0);
  EXPECT_EQ(
      dialogue(s),
      "EHLO=250 | MAIL=250 | RCPT=250 | DATA=354 | RCPT=503 | DATA=503 | HELLO,=500 | .=500 | MAIL=250 | DATA=503 | "
      "HELLO,=500 | .=500 | DATA=503 | HELLO,=500 | .=500 | MAIL=503 | RCPT=250 | DATA=354 | QUIT=221");
  ASSERT_EQ(s["messages"].size(), 2U);
  EXPECT_EQ(s["messages"][0]["bytes"], 18);
  EXPECT_EQ(s["messages"][1]["bytes"], 39);
  EXPECT_EQ(s["messages"][1]["from"], "bob@example.org");
}

TEST(SmtpAnalyze, ZeekStartTlsMarksTheRestEncrypted) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_tls_smtp-starttls.pcap");
  const auto s = analyze(real_capture("zeek_tls_smtp-starttls.pcap"))["sessions"].at(0);
  EXPECT_EQ(dialogue(s), "EHLO=250 | STARTTLS=220");
  EXPECT_TRUE(s["encrypted"].get<bool>());
  EXPECT_GT(s["encrypted_server_bytes"].get<int>(), 1000);
}

// docs/conventions.md: a missing capture is a usage error (2) naming it.
TEST(SmtpAnalyze, UnreadableCaptureIsAClearError) {
  const auto r = netlab::test::run({netlab::test::bin_path("lab-smtp"), "analyze", "/nonexistent.pcap"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent.pcap"), std::string::npos) << r.err;
}

}  // namespace
