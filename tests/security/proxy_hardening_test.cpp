// Issue 31, items 7 and 14 (the proxy's), against a live `lab-http proxy` with the hostile origins
// of tests/security/hardening_probe.py:
//   - a chunked response of 20,000,000 bytes arrives whole (the origin parser's 16 MiB body limit
//     cut it at 16,772,275 bytes: a streamed body has no size limit but the client's);
//   - an origin whose head and broken body arrive in one read gives 502, not an empty reply.
#include <cstdio>

#include "security/security_env.hpp"

namespace proxy_hardening_test {

using namespace security_test;
using netlab::test::process;

nlohmann::json probe(const std::vector<std::string>& args) {
  return run_probe("hardening_probe.py", args, std::chrono::seconds(180));
}

struct proxy_process {
  std::unique_ptr<process> proc;
  std::string port;
  explicit proxy_process(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{netlab::test::bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<process>(argv);
    port = std::to_string(process::port_of(proc->wait_listening()));
  }
};

TEST(ProxyHardening, ChunkedBodyLargerThan16MiBArrivesWhole) {
  proxy_process proxy;
  const auto r = probe({"chunked-origin", proxy.port, "20000000"});
  std::printf("chunked response of 20,000,000 bytes through the proxy: status %d, %lld bytes, last chunk %s\n",
              r.value("status", 0), static_cast<long long>(r.value("received", -1LL)),
              r.value("complete", false) ? "received" : "missing");
  EXPECT_EQ(r.value("status", 0), 200) << r.dump();
  EXPECT_EQ(r.value("received", -1LL), 20000000LL) << r.dump();
  EXPECT_TRUE(r.value("complete", false)) << r.dump();
  EXPECT_TRUE(r.value("sha_ok", false)) << r.dump();
}

TEST(ProxyHardening, HeadAndBrokenBodyInOneReadGive502) {
  proxy_process proxy;
  const auto r = probe({"head-and-broken-body", proxy.port});
  std::printf("origin head and a broken chunked body in one write: the client got status %d (%s)\n",
              r.value("status", 0), r.value("status", 0) == 0 ? "an empty reply" : "a response");
  EXPECT_EQ(r.value("status", 0), 502) << r.dump();
}

}  // namespace proxy_hardening_test
