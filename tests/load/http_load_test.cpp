// lab-http serve under load and faults: 5,000 concurrent keep-alive connections, 500 slowloris
// connections beside normal clients, clients vanishing mid-response; after each run the server's
// descriptors are back to the baseline (plus the file cache's open large file) and a second
// identical round does not grow its memory.
#include <cstdio>

#include "load/load_env.hpp"

namespace {

using namespace load_test;

struct http_server {
  temp_dir site{"netlab-load-http"};
  std::unique_ptr<netlab::test::process> proc;
  int port = 0;
  std::size_t baseline_fds = 0;

  // The server starts with a soft descriptor limit of 1024 (prlimit, util-linux): serving
  // thousands of connections proves that tcp_server raised it itself.
  explicit http_server(std::vector<std::string> extra = {}) {
    raise_own_fd_limit();
    write_file(site.path / "root/index.html", "<html><body>load test page</body></html>\n");
    write_file(site.path / "root/big.bin", pattern(2 * 1024 * 1024 + 7));
    std::vector<std::string> argv{"/usr/bin/prlimit",
                                  "--nofile=1024:",
                                  netlab::test::bin_path("lab-http"),
                                  "serve",
                                  "--root",
                                  (site.path / "root").string(),
                                  "--listen",
                                  "127.0.0.1:0",
                                  "--max-per-address",  // every client is 127.0.0.1
                                  "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<netlab::test::process>(argv);
    port = port_of(proc->wait_listening());
    baseline_fds = fd_count(proc->pid());
  }
  [[nodiscard]] std::string port_arg() const { return std::to_string(port); }
};

TEST(HttpLoad, FiveThousandKeepAliveConnectionsAllAnsweredNoLeakNoGrowth) {
  const int n = scaled(5000, 50);
  // The idle timeout is raised: on a loaded 2-core machine opening 5,000 connections takes long
  // enough that the first ones would otherwise be closed as idle before the last one opens.
  http_server server({"--max-connections", std::to_string(n + 100), "--idle-timeout", "120"});
  // tcp_server raised the server's descriptor limit from 1024 to the hard limit at start-up.
  const auto [soft, hard] = fd_limits(server.proc->pid());
  EXPECT_EQ(soft, hard);
  long rss[2] = {0, 0};
  for (int round = 0; round < 2; ++round) {
    const auto r = drive({"http-keepalive", server.port_arg(), std::to_string(n)});
    EXPECT_EQ(r.value("opened", -1), n) << r.dump();
    EXPECT_EQ(r.value("first_answered", -1), n) << r.dump();
    EXPECT_EQ(r.value("second_answered", -1), n) << r.dump();
    EXPECT_TRUE(r["errors"].empty()) << r.dump();
    EXPECT_EQ(settle_fds(server.proc->pid(), server.baseline_fds), server.baseline_fds) << "round " << round;
    rss[round] = vm_rss_kb(server.proc->pid());
    std::printf("http keep-alive round %d: %d connections in %.2f s, server VmRSS %ld KiB\n", round + 1, n,
                r.value("seconds", 0.0), rss[round]);
  }
  EXPECT_TRUE(rss_within_bound(rss[0], rss[1])) << rss[0] << " KiB then " << rss[1] << " KiB";
}

TEST(HttpLoad, SlowlorisDoesNotStarveNormalClients) {
  const int slow = scaled(500, 20);
  http_server server({"--head-timeout", "2", "--max-connections", std::to_string(slow + 200)});
  const auto r = drive({"slowloris", server.port_arg(), std::to_string(slow), "50"});
  EXPECT_EQ(r.value("slow_opened", -1), slow) << r.dump();
  EXPECT_EQ(r.value("normal_ok", -1), 50) << r.dump();
  // Bound on the slowest normal request while every slow connection dribbles its head.
  EXPECT_LT(r.value("max_normal_ms", 1e9), 2000.0) << r.dump();
  // The head timeout (2 s) closed every slow connection.
  EXPECT_EQ(r.value("closed_by_server", -1), slow) << r.dump();
  EXPECT_EQ(settle_fds(server.proc->pid(), server.baseline_fds), server.baseline_fds);
  std::printf("slowloris: %d slow connections, 50 normal requests, slowest %.1f ms\n", slow,
              r.value("max_normal_ms", 0.0));
}

// How many of the process's descriptors are `path` open.
std::size_t descriptors_of(pid_t pid, const std::string& path) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::error_code link_ec;
    n += fs::read_symlink(it->path(), link_ec) == fs::path(path) ? 1 : 0;
  }
  return n;
}

// The large file stays open in the server's file cache (like nginx's open_file_cache) from the
// first response on: after each round the server holds its baseline plus exactly that one
// descriptor, however many clients vanished mid-response.
TEST(HttpLoad, ClientsVanishingMidResponseLeaveOthersServed) {
  http_server server;
  const std::string big = (server.site.path / "root/big.bin").string();
  long rss[2] = {0, 0};
  for (int round = 0; round < 2; ++round) {
    const auto r = drive({"http-vanish", server.port_arg(), "/big.bin", big, std::to_string(scaled(40, 4)),
                          std::to_string(scaled(20, 2))});
    EXPECT_EQ(r.value("vanished", -1), scaled(40, 4)) << r.dump();
    EXPECT_EQ(r.value("identical", -1), scaled(20, 2)) << r.dump();
    EXPECT_TRUE(r["errors"].empty()) << r.dump();
    EXPECT_EQ(settle_fds(server.proc->pid(), server.baseline_fds + 1), server.baseline_fds + 1) << "round " << round;
    EXPECT_EQ(descriptors_of(server.proc->pid(), big), 1u) << "round " << round << ": the file cache's one descriptor";
    rss[round] = vm_rss_kb(server.proc->pid());
  }
  EXPECT_TRUE(rss_within_bound(rss[0], rss[1])) << rss[0] << " KiB then " << rss[1] << " KiB";
}

}  // namespace
