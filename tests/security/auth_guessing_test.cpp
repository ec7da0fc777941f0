// Password guessing (issue 17, defect 4): a guesser over the loopback with many sessions in
// parallel, against each server that checks passwords with its default credentials guard, must not
// get more than a few guesses per second for one account; after a lockout the right password works
// again. The probe (tests/security/guess_probe.py) uses Python's standard clients and prints the
// guesses per second it reached, which each test prints too.
#include <cstdio>

#include "security/login_site.hpp"
#include "security/security_env.hpp"

namespace auth_guessing_test {

using namespace security_test;

// The bound the issue sets: "a few guesses per second per account".
constexpr double max_guesses_per_second = 3.0;

using site = login_site;

nlohmann::json probe(const std::vector<std::string>& args) {
  return run_probe("guess_probe.py", args, std::chrono::seconds(120));
}

// Parallel guessing for 6 s with the server's defaults.
void expect_throttled(const std::string& proto, int sessions) {
  site s;
  netlab::test::process server(s.argv(proto, {}));
  const auto doc = probe({"rate", proto, port_of(server), "6", std::to_string(sessions)});
  ASSERT_TRUE(doc.is_object());
  const double rate = doc.value("guesses_per_second", -1.0);
  std::printf(
      "%s password guessing: %d sessions, %d guesses in %.1f s (%.2f per second for one account), "
      "%d refused while locked out\n",
      proto.c_str(), sessions, doc.value("guesses", -1), doc.value("seconds", 0.0), rate, doc.value("refused", -1));
  EXPECT_TRUE(doc.value("control_ok", false)) << "the right password was not seen to work: " << doc.dump();
  EXPECT_EQ(doc.value("wrong_accepted", -1), 0) << doc.dump();
  EXPECT_GE(doc.value("guesses", 0), 1) << "no guess was answered: " << doc.dump();
  EXPECT_LE(rate, max_guesses_per_second) << doc.dump();
}

// A small lockout: three failures lock alice out, the right password is refused, then accepted.
void expect_recovery(const std::string& proto) {
  site s;
  netlab::test::process server(
      s.argv(proto, {"--auth-max-failures", "3", "--auth-delay", "100ms", "--auth-lockout", "2s"}));
  const auto doc = probe({"recover", proto, port_of(server)});
  ASSERT_TRUE(doc.is_object());
  std::printf("%s lockout: right password refused while locked: %s, accepted again after %.2f s\n", proto.c_str(),
              doc.value("right_refused_while_locked", false) ? "yes" : "no",
              doc["recovered_after_seconds"].is_number() ? doc["recovered_after_seconds"].get<double>() : -1.0);
  EXPECT_EQ(doc.value("guesses", 0), 3) << doc.dump();
  EXPECT_TRUE(doc.value("right_refused_while_locked", false)) << doc.dump();
  EXPECT_TRUE(doc.value("recovered", false)) << doc.dump();
}

TEST(Security, SmtpAuthGuessingIsThrottled) {
  expect_throttled("smtp", 50);
}
TEST(Security, Pop3PassGuessingIsThrottled) {
  expect_throttled("pop3", 50);
}
TEST(Security, FtpPassGuessingIsThrottled) {
  expect_throttled("ftp", 150);
}
TEST(Security, HttpBasicGuessingIsThrottled) {
  expect_throttled("http", 50);
}

TEST(Security, SmtpLockoutEndsForTheRightPassword) {
  expect_recovery("smtp");
}
TEST(Security, Pop3LockoutEndsForTheRightPassword) {
  expect_recovery("pop3");
}
TEST(Security, FtpLockoutEndsForTheRightPassword) {
  expect_recovery("ftp");
}
TEST(Security, HttpLockoutEndsForTheRightPassword) {
  expect_recovery("http");
}

}  // namespace auth_guessing_test
