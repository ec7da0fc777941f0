// lab-ftp serve under load and faults: 50 concurrent clients each RETR and STOR a file (every
// byte compared), beside clients vanishing mid-RETR and mid-STOR; after each round the server's
// descriptors are back to the baseline, and a second round does not grow its memory.
#include <cstdio>

#include "load/load_env.hpp"

namespace {

using namespace load_test;

TEST(FtpLoad, FiftyConcurrentTransfersByteIdenticalWhileOthersVanish) {
  raise_own_fd_limit();
  temp_dir dir("netlab-load-ftp");
  const fs::path root = dir.path / "root";
  const std::string data = pattern(1024 * 1024 + 3);
  write_file(root / "data.bin", data);
  write_file(dir.path / "users.txt", "load:loadpass\n");
  netlab::test::process server({netlab::test::bin_path("lab-ftp"), "serve", "--root", root.string(), "--users",
                                (dir.path / "users.txt").string(), "--write", "--listen", "127.0.0.1:0",
                                "--max-per-address", "0"});  // every client is 127.0.0.1
  const std::string port = std::to_string(port_of(server.wait_listening()));
  const std::size_t baseline = fd_count(server.pid());
  const int transfers = scaled(50, 5);
  const int vanishing = scaled(10, 2);
  long rss[2] = {0, 0};
  for (int round = 0; round < 2; ++round) {
    const auto r = drive(
        {"ftp-transfers", port, (root / "data.bin").string(), std::to_string(transfers), std::to_string(vanishing)});
    EXPECT_EQ(r.value("retr_identical", -1), transfers) << r.dump();
    EXPECT_EQ(r.value("stor_done", -1), transfers) << r.dump();
    EXPECT_EQ(r.value("vanished", -1), vanishing) << r.dump();
    EXPECT_TRUE(r["errors"].empty()) << r.dump();
    int identical = 0;
    for (int i = 0; i < transfers; ++i) {
      const fs::path up = root / ("up-" + std::to_string(i) + ".bin");
      identical += read_file(up) == data ? 1 : 0;
      fs::remove(up);
    }
    EXPECT_EQ(identical, transfers);
    EXPECT_EQ(settle_fds(server.pid(), baseline), baseline) << "round " << round;
    rss[round] = vm_rss_kb(server.pid());
    std::printf("ftp round %d: %d transfers each way byte-identical, %d vanished, server VmRSS %ld KiB\n", round + 1,
                identical, vanishing, rss[round]);
  }
  EXPECT_TRUE(rss_within_bound(rss[0], rss[1])) << rss[0] << " KiB then " << rss[1] << " KiB";
}

}  // namespace
