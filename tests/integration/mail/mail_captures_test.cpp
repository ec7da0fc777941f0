// lab-smtp analyze and lab-pop3 analyze on the project's own capture, against its facts file.
#include <nlohmann/json.hpp>

#include "integration/mail/mail_env.hpp"

namespace {

using namespace mail_test;

nlohmann::json run_json(const std::string& lab, const std::string& capture) {
  const auto r = netlab::test::run({netlab::test::bin_path(lab), "analyze", capture, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

std::string dialogue(const nlohmann::json& session, const char* answer) {
  std::string out;
  for (const auto& c : session["commands"]) {
    const auto& a = c[answer];
    out += (out.empty() ? "" : " | ") + c["verb"].get<std::string>() + "=" +
           (a.is_null()     ? "-"
            : a.is_number() ? std::to_string(a.get<int>())
                            : a.get<std::string>());
  }
  return out;
}

TEST(MailCaptures, MailPathMatchesItsFacts) {
  const std::string capture = netlab::test::source_path("captures/mail/mail-path.pcapng");
  const auto facts =
      nlohmann::json::parse(mail_env::read(netlab::test::source_path("captures/mail/mail-path.facts.json")));
  const auto smtp = run_json("lab-smtp", capture);
  EXPECT_EQ(smtp["packets"], facts["packets"]);
  ASSERT_EQ(smtp["sessions"].size(), facts["smtp_sessions"].size());
  for (std::size_t i = 0; i < facts["smtp_sessions"].size(); ++i) {
    const auto& want = facts["smtp_sessions"][i];
    const auto& got = smtp["sessions"][i];
    EXPECT_EQ(got["server"], want["server"]);
    EXPECT_EQ(dialogue(got, "reply_code"), want["dialogue"]) << i;
    EXPECT_EQ(got["encrypted"], want["encrypted"]) << i;
    ASSERT_EQ(got["messages"].size(), want["messages"].size()) << i;
    for (std::size_t m = 0; m < want["messages"].size(); ++m)
      for (const char* key : {"from", "to", "bytes", "reply_code"})
        EXPECT_EQ(got["messages"][m][key], want["messages"][m][key]) << i << " " << key;
  }
  const auto pop3 = run_json("lab-pop3", capture);
  ASSERT_EQ(pop3["sessions"].size(), facts["pop3_sessions"].size());
  const auto& want = facts["pop3_sessions"][0];
  const auto& got = pop3["sessions"][0];
  EXPECT_EQ(dialogue(got, "status"), want["dialogue"]);
  EXPECT_EQ(got["messages"], want["retrieved"]);
  EXPECT_EQ(got["encrypted"], want["encrypted"]);
  EXPECT_EQ(got["commands"][2]["verb"], "STAT");
  EXPECT_EQ(got["commands"][2]["text"], want["stat"]);
}

}  // namespace
