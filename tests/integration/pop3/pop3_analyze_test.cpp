// lab-pop3 analyze on real-world captures (shared/real-captures, facts in its FACTS.txt).
#include <nlohmann/json.hpp>

#include "integration/mail/mail_env.hpp"
#include "support/real_captures.hpp"

namespace {

using namespace mail_test;

nlohmann::json analyze(const std::string& path) {
  const auto r = netlab::test::run({netlab::test::bin_path("lab-pop3"), "analyze", path, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

std::string dialogue(const nlohmann::json& session) {
  std::string out;
  for (const auto& c : session["commands"])
    out += (out.empty() ? "" : " | ") + c["verb"].get<std::string>() + "=" +
           (c["status"].is_null() ? "-" : c["status"].get<std::string>());
  return out;
}

using netlab::test::real_capture;

TEST(Pop3Analyze, ZeekPop3SevenSessionsAndThreeRetrievals) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_pop3_pop3.pcap");
  const auto doc = analyze(real_capture("zeek_pop3_pop3.pcap"));
  ASSERT_EQ(doc["sessions"].size(), 7U);
  EXPECT_TRUE(doc["sessions"][0]["commands"].empty());
  const auto& last = doc["sessions"][6];
  EXPECT_EQ(dialogue(last),
            "AUTH=-ERR | CAPA=+OK | AUTH=+ | <auth-continuation>=+OK | STAT=+OK | LIST=+OK | UIDL=+OK | "
            "RETR=+OK | RETR=+OK | RETR=+OK | QUIT=+OK");
  EXPECT_EQ(last["commands"][5]["body_bytes"], 24);
  EXPECT_EQ(last["commands"][6]["body_bytes"], 84);
  // Unstuffed sizes add up to the server's own STAT total (19191 octets).
  EXPECT_EQ(last["messages"],
            nlohmann::json::parse(
                R"([{"number":"1","bytes":5565},{"number":"2","bytes":8412},{"number":"3","bytes":5214}])"));
  EXPECT_EQ(dialogue(doc["sessions"][3]), "AUTH=-ERR | CAPA=+OK | AUTH=+ | <auth-continuation>=-ERR");
}

TEST(Pop3Analyze, ZeekGarbageBeforeAnAnswerIsSkipped) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_pop3-unknown-commands.pcap");
  const auto s = analyze(real_capture("zeek_pop3-unknown-commands.pcap"))["sessions"].at(0);
  EXPECT_EQ(dialogue(s), "USER=+OK | PASS=+OK | STAT=+OK | QUIT=+OK");
  EXPECT_EQ(s["commands"][1]["argument"], "<hidden>");
  EXPECT_GT(s["garbage_lines"].get<int>(), 0);
}

TEST(Pop3Analyze, ZeekStlsOnBsdLoopback) {
  NETLAB_REQUIRE_REAL_CAPTURE("zeek_tls_pop3-starttls.pcap");
  const auto s = analyze(real_capture("zeek_tls_pop3-starttls.pcap"))["sessions"].at(0);
  EXPECT_EQ(dialogue(s), "STLS=+OK");
  EXPECT_TRUE(s["encrypted"].get<bool>());
  EXPECT_EQ(s["greeting"].get<std::string>().rfind("+OK ladymacbeth.local Cyrus POP3", 0), 0U);
}

}  // namespace
