// lab-http proxy under large responses (issue 17, defect 7): eight parallel fetches of a 100 MB
// file through the proxy (curl --parallel) keep the proxy's peak resident memory (VmHWM) within
// its cache budget plus a small buffer per connection, because bodies are streamed, not held.
// The proxy held every body whole before: 1.5 GB for this case.
#include <cstdio>
#include <sstream>

#include "load/load_env.hpp"
#include "support/peers.hpp"

namespace {

using namespace load_test;

TEST(ProxyLoad, EightParallelHundredMegabyteFetchesKeepMemoryBounded) {
  NETLAB_REQUIRE_PEER("curl");
  temp_dir site("netlab-load-proxy");
  constexpr std::size_t size = 100 * 1000 * 1000;
  write_file(site.path / "root/big.bin", pattern(size));
  netlab::test::process origin({netlab::test::bin_path("lab-http"), "serve", "--root", (site.path / "root").string(),
                                "--listen", "127.0.0.1:0"});
  const std::string origin_address = origin.wait_listening();
  // --origin-timeout covers the exchange up to the response head; the bodies take what they take.
  netlab::test::process proxy(
      {netlab::test::bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0", "--cache-size", "64MB"});
  const std::string proxy_address = proxy.wait_listening();
  const long start_kb = vm_hwm_kb(proxy.pid());
  const int fetches = 8;
  std::vector<std::string> argv{"curl",
                                "-sS",
                                "--max-time",
                                "150",
                                "-Z",
                                "--parallel-max",
                                std::to_string(fetches),
                                "-x",
                                "http://" + proxy_address,
                                "-w",
                                "%{http_code} %{size_download}\\n"};
  for (int i = 0; i < fetches; ++i) {
    argv.insert(argv.end(), {"-o", "/dev/null", "http://" + origin_address + "/big.bin"});
  }
  const auto r = netlab::test::run(argv, {}, std::chrono::seconds(170));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  int complete = 0;
  int status = 0;
  std::size_t bytes = 0;
  while (lines >> status >> bytes) complete += status == 200 && bytes == size ? 1 : 0;
  EXPECT_EQ(complete, fetches) << r.out;
  // One more, kept, compared with the file: the streamed bytes are the origin's.
  const auto one = netlab::test::run({"curl", "-sS", "--max-time", "60", "-x", "http://" + proxy_address, "-o",
                                      (site.path / "copy.bin").string(), "http://" + origin_address + "/big.bin"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(read_file(site.path / "copy.bin") == read_file(site.path / "root/big.bin"));
  const long peak_kb = vm_hwm_kb(proxy.pid());
  // The bound: the cache budget (64 MB, unused here: the object is over --max-object-size) plus
  // 1 MiB per fetch, over the proxy's peak before the fetches.
  const long bound_kb = start_kb + 64 * 1000 + fetches * 1024;
  std::printf("proxy: %d parallel fetches of %zu bytes, peak VmHWM %ld KiB (%ld KiB before; bound %ld KiB)\n", fetches,
              size, peak_kb, start_kb, bound_kb);
  if (!under_asan) {
    EXPECT_LE(peak_kb, bound_kb);
  }
}

}  // namespace
