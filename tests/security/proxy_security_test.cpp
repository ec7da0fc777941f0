// Attacks on lab-http proxy (issue 17, defects 1, 2 and the proxy items of 9), each against a live
// proxy on the loopback with hostile origins run by tests/security/proxy_probe.py:
//   - 200 fetches from an origin that sends one byte a second stay open while a normal client is
//     served at once; when their clients leave, the proxy's origin connections close;
//   - the total deadline of an origin exchange gives 504, however the origin trickles;
//   - a response with Set-Cookie from `lab-http serve --cookies` is not replayed to another client;
//   - an origin that does not speak HTTP gives 502 at once;
//   - a client trickling its request head is cut off at the head timeout;
//   - the proxy does not connect to ports outside its allow-list.
#include <cstdio>
#include <filesystem>
#include <thread>

#include "security/security_env.hpp"
#include "support/peers.hpp"

namespace {

using namespace security_test;
using netlab::test::bin_path;
using netlab::test::process;

nlohmann::json probe(const std::vector<std::string>& args) {
  return run_probe("proxy_probe.py", args, std::chrono::seconds(120));
}

std::size_t fd_count(pid_t pid) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec))
    ++n;
  return n;
}

// Polls (bounded: 15 s) until the process has no more than `baseline` descriptors open.
std::size_t settle_fds(pid_t pid, std::size_t baseline) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  std::size_t n = fd_count(pid);
  while (n > baseline && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    n = fd_count(pid);
  }
  return n;
}

struct origin_site {
  temp_dir dir{"netlab-sec-proxy"};
  std::unique_ptr<process> server;
  std::string address;
  explicit origin_site(std::vector<std::string> extra = {}) {
    write_file(dir.path / "root/index.html", "<p>through the proxy</p>\n");
    // Ten days old: heuristically fresh for a day (RFC 9111 §4.2.2), so a stored copy is a HIT.
    fs::last_write_time(dir.path / "root/index.html", fs::file_time_type::clock::now() - std::chrono::hours(240));
    std::vector<std::string> argv{bin_path("lab-http"),         "serve",    "--root",
                                  (dir.path / "root").string(), "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    server = std::make_unique<process>(argv);
    address = server->wait_listening();
  }
  [[nodiscard]] std::string url(const std::string& path) const { return "http://" + address + path; }
};

struct proxy_process {
  std::unique_ptr<process> proc;
  std::string address;
  explicit proxy_process(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<process>(argv);
    address = proc->wait_listening();
  }
  [[nodiscard]] std::string port() const { return std::to_string(process::port_of(address)); }
};

std::string header(const std::string& response, const std::string& name) {
  const auto p = response.find("\r\n" + name + ": ");
  if (p == std::string::npos) return {};
  const auto start = p + name.size() + 4;
  return response.substr(start, response.find("\r\n", start) - start);
}

// Defect 1: a fixed pool of 16 fetch threads was exhausted by 16 slow fetches; other clients then
// waited 30 s, and the fetches went on after their clients had left.
TEST(ProxySecurity, SlowOriginFetchesLockNobodyOutAndEndWithTheirClients) {
  origin_site site;
  // The 200 fetches all come from 127.0.0.1: no per-address cap here (ConnectionCaps tests it).
  proxy_process proxy({"--origin-timeout", "60", "--max-per-address", "0"});
  const std::size_t baseline = fd_count(proxy.proc->pid());
  const int fetches = 200;
  const auto r = probe({"slow-origin", proxy.port(), site.url("/index.html"), std::to_string(fetches), "1"});
  std::printf(
      "slow origin: %d fetches open at the origin (of %d), a normal client served %d in %.1f ms; "
      "%d origin connections open %.2f s after the clients left\n",
      r.value("origin_accepted", -1), fetches, r.value("normal_status", 0), r.value("normal_ms", -1.0),
      r.value("origin_open_after_leave", -1), r.value("seconds_to_close", -1.0));
  EXPECT_EQ(r.value("origin_accepted", -1), fetches) << r.dump();  // no pool: every fetch runs
  EXPECT_EQ(r.value("normal_status", 0), 200) << r.dump();
  EXPECT_LT(r.value("normal_ms", 1e9), 2000.0) << r.dump();          // generous: measured in ms
  EXPECT_EQ(r.value("origin_open_after_leave", -1), 0) << r.dump();  // cancelled with their clients
  EXPECT_EQ(settle_fds(proxy.proc->pid(), baseline), baseline);
}

// Defect 1: --origin-timeout applied to each read, so a trickling origin kept a fetch for ever.
TEST(ProxySecurity, TotalDeadlineOfAnOriginExchangeGives504) {
  proxy_process proxy({"--origin-timeout", "2"});
  const auto r = probe({"deadline", proxy.port(), "0.5"});
  std::printf("trickling origin, --origin-timeout 2: %d after %.2f s\n", r.value("status", 0),
              r.value("seconds", -1.0));
  EXPECT_EQ(r.value("status", 0), 504) << r.dump();
  EXPECT_LT(r.value("seconds", 1e9), 6.0) << r.dump();
  EXPECT_EQ(r.value("origin_open_after", -1), 0) << r.dump();
}

// Defect 2: a response carrying Set-Cookie was stored and replayed to the next client, who then
// shared the first client's session.
TEST(ProxySecurity, SetCookieResponsesAreNotReplayedToAnotherClient) {
  NETLAB_REQUIRE_PEER("curl");
  origin_site site({"--cookies"});
  proxy_process proxy;
  const auto direct = netlab::test::run({"curl", "-sS", "-D", "-", "-o", "/dev/null", site.url("/index.html")});
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  EXPECT_NE(header(direct.out, "Set-Cookie"), "");
  EXPECT_EQ(header(direct.out, "Cache-Control"), "private");  // serve --cookies marks it
  std::string cookies[2], x_cache[2];
  for (int i = 0; i < 2; ++i) {  // two clients, no cookie jar: each is a new visitor
    const auto r = netlab::test::run(
        {"curl", "-sS", "-D", "-", "-o", "/dev/null", "-x", "http://" + proxy.address, site.url("/index.html")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    cookies[i] = header(r.out, "Set-Cookie");
    x_cache[i] = header(r.out, "X-Cache");
  }
  std::printf("Set-Cookie through the proxy: %s (%s), then %s (%s)\n", cookies[0].c_str(), x_cache[0].c_str(),
              cookies[1].c_str(), x_cache[1].c_str());
  EXPECT_NE(cookies[0], "");
  EXPECT_NE(cookies[1], "");
  EXPECT_NE(cookies[0], cookies[1]) << "the second client got the first client's session";
  EXPECT_NE(x_cache[1], "HIT");
}

// Slowloris against the proxy: each byte refreshed the idle timeout, so a client trickling its
// request head held a connection for ever. The whole head must now come within --head-timeout.
TEST(ProxySecurity, TricklingRequestHeadIsCutAtTheHeadTimeout) {
  proxy_process proxy({"--head-timeout", "2"});
  const auto r = probe({"slow-head", proxy.port(), "0.25", "15"});
  std::printf("request head one byte every 0.25 s, --head-timeout 2: closed %s after %.2f s\n",
              r.value("closed_by_proxy", false) ? "by the proxy" : "by nobody", r.value("seconds", -1.0));
  EXPECT_TRUE(r.value("closed_by_proxy", false)) << r.dump();
  EXPECT_LT(r.value("seconds", 1e9), 6.0) << r.dump();
}

// Defect 9: an origin that speaks another protocol kept the client waiting for --origin-timeout
// (10 s) and then got 504; it is a bad gateway, known from the first bytes.
TEST(ProxySecurity, NonHttpOriginGives502AtOnce) {
  proxy_process proxy;
  for (const std::string how : {"greeting", "reply"}) {
    const auto r = probe({"not-http", proxy.port(), how});
    std::printf("origin that is not HTTP (%s): %d after %.2f s\n", how.c_str(), r.value("status", 0),
                r.value("seconds", -1.0));
    EXPECT_EQ(r.value("status", 0), 502) << r.dump();
    EXPECT_LT(r.value("seconds", 1e9), 3.0) << r.dump();
  }
}

// Defect 9: the proxy connected to any port (SMTP, SSH, ...) on the client's word. Like Squid's
// Safe_ports it now connects only to the allowed ports: 80 and 1025-65535 unless told otherwise.
TEST(ProxySecurity, OnlyAllowedOriginPorts) {
  NETLAB_REQUIRE_PEER("curl");
  origin_site site;
  proxy_process proxy;
  auto status = [](const std::string& proxy_address, const std::string& url) {
    return netlab::test::run(
               {"curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-x", "http://" + proxy_address, url})
        .out;
  };
  EXPECT_EQ(status(proxy.address, "http://127.0.0.1:25/"), "403");
  EXPECT_EQ(status(proxy.address, "http://127.0.0.1:22/"), "403");
  EXPECT_EQ(status(proxy.address, site.url("/index.html")), "200");
  proxy_process narrow({"--allow-ports", "80"});
  EXPECT_EQ(status(narrow.address, site.url("/index.html")), "403");
}

}  // namespace
