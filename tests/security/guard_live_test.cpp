// Issue 31, items 2 to 4, against the live servers with Python's standard clients
// (tests/security/guess_probe.py), each client on an address of 127.0.0.0/8 of its own:
//   - a stranger's wrong passwords (40, 20 at a time) do not keep the owner out: the right
//     password from an address that never failed is accepted at once (before: the account was
//     locked for 5 minutes, the owner refused);
//   - a login held for its turn longer than --idle-timeout is answered (before: the idle timeout
//     closed the connection first, no answer at all);
//   - spraying one password over many accounts from rotating addresses is slowed per network
//     (before: POP3 2,100 and HTTP 3,300 to 4,200 tries a second);
//   - through `lab-http proxy`, one guesser does not lock out the proxy's other users: the proxy
//     says who its client is (Forwarded, RFC 7239) and the origin, told to trust it with
//     --trusted-proxy, keys the guard on that client (before: bob got 429).
#include <cstdio>

#include "security/login_site.hpp"
#include "security/security_env.hpp"

namespace guard_live_test {

using namespace security_test;

using site = login_site;

nlohmann::json probe(const std::vector<std::string>& args) {
  return run_probe("guess_probe.py", args, std::chrono::seconds(150));
}

void expect_owner_let_in(const std::string& proto) {
  site s;
  netlab::test::process server(s.argv(proto, {}));
  const auto doc = probe({"owner", proto, port_of(server)});
  std::printf(
      "%s: a stranger's 40 wrong passwords (%s); then the owner, from an address that never failed: %s "
      "after %.2f s\n",
      proto.c_str(), doc["stranger"].dump().c_str(), doc.value("owner", std::string("?")).c_str(),
      doc.value("owner_seconds", -1.0));
  EXPECT_EQ(doc.value("owner", std::string()), "ok") << doc.dump();
  EXPECT_LT(doc.value("owner_seconds", 1e9), 5.0) << doc.dump();
}

TEST(GuardLive, SmtpOwnerGetsInWhileAStrangerGuesses) {
  expect_owner_let_in("smtp");
}
TEST(GuardLive, Pop3OwnerGetsInWhileAStrangerGuesses) {
  expect_owner_let_in("pop3");
}
TEST(GuardLive, FtpOwnerGetsInWhileAStrangerGuesses) {
  expect_owner_let_in("ftp");
}
TEST(GuardLive, HttpOwnerGetsInWhileAStrangerGuesses) {
  expect_owner_let_in("http");
}

void expect_held_answered(const std::string& proto) {
  site s;
  netlab::test::process server(s.argv(proto, {"--idle-timeout", "1", "--auth-delay", "3s"}));
  const auto doc = probe({"held", proto, port_of(server)});
  std::printf(
      "%s, --idle-timeout 1 --auth-delay 3s: first attempt %s; the second, held for its turn: %s after "
      "%.2f s\n",
      proto.c_str(), doc.value("first", std::string("?")).c_str(), doc.value("second", std::string("?")).c_str(),
      doc.value("second_seconds", -1.0));
  EXPECT_EQ(doc.value("first", std::string()), "guess") << doc.dump();
  const std::string second = doc.value("second", std::string());
  EXPECT_TRUE(second == "guess" || second == "refused") << "no answer: " << doc.dump();
}

TEST(GuardLive, SmtpHeldLoginLongerThanTheIdleTimeoutIsAnswered) {
  expect_held_answered("smtp");
}
TEST(GuardLive, Pop3HeldLoginLongerThanTheIdleTimeoutIsAnswered) {
  expect_held_answered("pop3");
}
TEST(GuardLive, HttpHeldLoginLongerThanTheIdleTimeoutIsAnswered) {
  expect_held_answered("http");
}

void expect_spray_slowed(const std::string& proto) {
  site s;
  netlab::test::process server(s.argv(proto, {}));
  const auto doc = probe({"spray", proto, port_of(server), "6", "40", "2"});
  std::printf(
      "%s: one password sprayed over many accounts from rotating addresses of 2 /24 networks, 40 "
      "sessions for 6 s: %d checked (%.2f per second), %d refused\n",
      proto.c_str(), doc.value("guesses", -1), doc.value("guesses_per_second", -1.0), doc.value("refused", -1));
  EXPECT_EQ(doc.value("wrong_accepted", -1), 0) << doc.dump();
  EXPECT_GE(doc.value("guesses", 0), 1) << doc.dump();
  EXPECT_LE(doc.value("guesses", 1 << 30), 2 * 25) << doc.dump();  // per network: the free allowance and its turns
}

TEST(GuardLive, Pop3SprayFromRotatingAddressesIsSlowed) {
  expect_spray_slowed("pop3");
}
TEST(GuardLive, HttpSprayFromRotatingAddressesIsSlowed) {
  expect_spray_slowed("http");
}

TEST(GuardLive, ProxiedGuesserDoesNotLockOutTheProxysOtherUsers) {
  site s;
  // A short delay: the guesser's held answers (10 ms doubling: 2.6 s at the 9th failure) stay within
  // the proxy's 10 s origin timeout.
  netlab::test::process origin(s.argv("http", {"--trusted-proxy", "127.0.0.1", "--auth-delay", "10ms"}));
  const std::string origin_port = port_of(origin);
  netlab::test::process proxy({netlab::test::bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0"});
  const auto doc = probe({"proxy", port_of(proxy), origin_port});
  std::printf("through lab-http proxy: a guesser's 12 wrong passwords got %s; then bob with his right one: %d\n",
              doc["guesser"].dump().c_str(), doc.value("bob_status", 0));
  EXPECT_EQ(doc.value("bob_status", 0), 200) << doc.dump();
}

}  // namespace guard_live_test
