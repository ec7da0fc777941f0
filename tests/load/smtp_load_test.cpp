// lab-smtp serve under load and faults: 200 concurrent senders, every message stored in Maildir
// new/ exactly once, beside senders vanishing mid-DATA (nothing of theirs is stored); after each
// round the descriptors are back to the baseline, and a second round does not grow memory.
#include <cstdio>
#include <map>

#include "load/load_env.hpp"

namespace {

using namespace load_test;

// token -> how many files of DIR hold it ("token TAG-N end" lines written by the driver).
std::map<std::string, int> tokens_in(const fs::path& dir, const std::string& tag) {
  const std::string prefix = "token " + tag + "-";
  std::map<std::string, int> seen;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string m = read_file(e.path());
    for (auto at = m.find(prefix); at != std::string::npos; at = m.find(prefix, at + 1)) {
      const auto from = at + prefix.size();
      ++seen[m.substr(from, m.find_first_of(" \r\n", from) - from)];
    }
  }
  return seen;
}

std::size_t count_files(const fs::path& dir) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) ++n;
  return n;
}

TEST(SmtpLoad, TwoHundredSendersEachStoredExactlyOnceMidDataVanishersStoreNothing) {
  raise_own_fd_limit();
  temp_dir dir("netlab-load-smtp");
  write_file(dir.path / "users.txt", "alice:secret\n");
  const int senders = scaled(200, 10);
  const int vanishing = scaled(20, 2);
  netlab::test::process server({netlab::test::bin_path("lab-smtp"), "serve", "--maildir", (dir.path / "mail").string(),
                                "--domain", "example.org", "--users", (dir.path / "users.txt").string(),
                                "--max-connections", std::to_string(senders + vanishing + 50), "--max-per-address", "0",
                                "--listen", "127.0.0.1:0"});
  const std::string port = std::to_string(port_of(server.wait_listening()));
  const std::size_t baseline = fd_count(server.pid());
  const fs::path new_dir = dir.path / "mail/alice/new";
  long rss[2] = {0, 0};
  for (int round = 0; round < 2; ++round) {
    const std::string tag = "r" + std::to_string(round);
    const auto r = drive({"smtp-senders", port, std::to_string(senders), std::to_string(vanishing), tag});
    EXPECT_EQ(r.value("accepted", -1), senders) << r.dump();
    EXPECT_EQ(r.value("vanished", -1), vanishing) << r.dump();
    EXPECT_TRUE(r["errors"].empty()) << r.dump();
    EXPECT_EQ(settle_fds(server.pid(), baseline), baseline) << "round " << round;
    EXPECT_EQ(count_files(new_dir), static_cast<std::size_t>(senders * (round + 1)));
    const auto seen = tokens_in(new_dir, tag);
    int once = 0;
    for (int i = 0; i < senders; ++i) once += seen.count(std::to_string(i)) && seen.at(std::to_string(i)) == 1 ? 1 : 0;
    EXPECT_EQ(once, senders) << "messages stored exactly once";
    for (const auto& [token, n] : seen) EXPECT_EQ(token.rfind("gone-", 0), std::string::npos) << token << " stored";
    EXPECT_EQ(count_files(dir.path / "mail/alice/tmp"), 0U);
    rss[round] = vm_rss_kb(server.pid());
    std::printf("smtp round %d: %d senders stored once each, %d vanished mid-DATA stored nothing, VmRSS %ld KiB\n",
                round + 1, once, vanishing, rss[round]);
  }
  EXPECT_TRUE(rss_within_bound(rss[0], rss[1])) << rss[0] << " KiB then " << rss[1] << " KiB";
}

}  // namespace
