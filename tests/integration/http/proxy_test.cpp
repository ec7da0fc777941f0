// lab-http proxy with curl -x in front of lab-http serve: MISS then HIT, REVALIDATED for a stale
// entry (304 from the origin turned into the cached 200), Via and no hop-by-hop fields, counters,
// 502 and 504, a client that vanishes mid-response, and the removed --fetch-threads refused.
#include <gtest/gtest.h>

#include <array>
#include <chrono>

#include <nlohmann/json.hpp>

#include "netlib/io/tcp_client.hpp"
#include "serve_fixture.hpp"

namespace {

using namespace netlab::test;

struct proxy_fixture {
  site_dir site;
  running_server origin{site};
  std::unique_ptr<process> proxy;
  std::string address;
  explicit proxy_fixture(std::vector<std::string> extra = {}) {
    // style.css was last modified 10 days ago: heuristically fresh for a day (RFC 9111 §4.2.2).
    std::filesystem::last_write_time(site.root + "/style.css",
                                     std::filesystem::file_time_type::clock::now() - std::chrono::hours(240));
    std::vector<std::string> argv{bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proxy = std::make_unique<process>(argv);
    address = proxy->wait_listening();
  }
  run_result curl(const std::string& path, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{"curl", "-sS", "--max-time", "20", "-D", "-", "-x", "http://" + address};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(origin.url(path));
    return run(argv);
  }
};

std::string header(const std::string& response, const std::string& name) {
  const auto p = response.find("\r\n" + name + ": ");
  if (p == std::string::npos) return {};
  const auto start = p + name.size() + 4;
  return response.substr(start, response.find("\r\n", start) - start);
}

TEST(Proxy, MissThenHitThenRevalidated) {
  NETLAB_REQUIRE_PEER("curl");
  proxy_fixture f;
  auto miss = f.curl("/style.css");
  ASSERT_EQ(miss.exit_code, 0) << miss.err;
  EXPECT_EQ(header(miss.out, "X-Cache"), "MISS");
  EXPECT_EQ(header(miss.out, "Via"), "1.1 netlab-proxy");
  EXPECT_NE(miss.out.find("body { color: black; }"), std::string::npos);
  auto hit = f.curl("/style.css");
  EXPECT_EQ(header(hit.out, "X-Cache"), "HIT");
  EXPECT_NE(hit.out.find("body { color: black; }"), std::string::npos);
  EXPECT_FALSE(header(hit.out, "Age").empty());
  // index.html was just written: no freshness, so the proxy revalidates with the origin.
  auto first = f.curl("/index.html");
  EXPECT_EQ(header(first.out, "X-Cache"), "MISS");
  auto again = f.curl("/index.html");
  EXPECT_EQ(again.out.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << again.out;
  EXPECT_EQ(header(again.out, "X-Cache"), "REVALIDATED");
  EXPECT_NE(again.out.find("<img src=\"img/a.png\">"), std::string::npos);
  auto stats = run({"curl", "-sS", "http://" + f.address + "/netlab-proxy/stats"});
  auto j = nlohmann::json::parse(stats.out);
  EXPECT_EQ(j["hits"], 1);
  EXPECT_EQ(j["misses"], 2);
  EXPECT_EQ(j["revalidated"], 1);
}

TEST(Proxy, NoStoreAndClientConditionals) {
  NETLAB_REQUIRE_PEER("curl");
  proxy_fixture f;
  auto a = f.curl("/style.css", {"-H", "Cache-Control: no-store"});
  auto b = f.curl("/style.css");
  EXPECT_EQ(header(b.out, "X-Cache"), "MISS");  // the no-store request was not stored
  const std::string etag = header(b.out, "ETag");
  auto c = f.curl("/style.css", {"-H", "If-None-Match: " + etag});
  EXPECT_EQ(c.out.rfind("HTTP/1.1 304 ", 0), 0u) << c.out;
  EXPECT_EQ(header(c.out, "X-Cache"), "HIT");
}

TEST(Proxy, BadGatewayAndGatewayTimeout) {
  NETLAB_REQUIRE_PEER("curl");
  proxy_fixture f({"--origin-timeout", "1"});
  int closed_port = 0;
  {
    netlib::io::tcp_listener l("127.0.0.1", 0);
    closed_port = l.local_endpoint().port();
  }
  auto bad = run({"curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-x", "http://" + f.address,
                  "http://127.0.0.1:" + std::to_string(closed_port) + "/"});
  EXPECT_EQ(bad.out, "502");
  netlib::io::tcp_listener silent("127.0.0.1", 0);  // accepts nothing, answers nothing
  const auto start = std::chrono::steady_clock::now();
  auto slow = run({"curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-x", "http://" + f.address,
                   "http://127.0.0.1:" + std::to_string(silent.local_endpoint().port()) + "/"});
  EXPECT_EQ(slow.out, "504");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
}

TEST(Proxy, ClientGoneMidResponseHurtsNobody) {
  NETLAB_REQUIRE_PEER("curl");
  proxy_fixture f;
  {
    netlib::io::tcp_client c(std::chrono::seconds(10));
    c.connect("127.0.0.1", static_cast<unsigned short>(process::port_of(f.address)));
    c.write("GET " + f.origin.url("/big.bin") + " HTTP/1.1\r\nHost: x\r\n\r\n");
    std::array<std::byte, 1024> buf;
    ASSERT_GT(c.read_some(buf), 0u);
  }  // closed after 1 KiB of a 3 MiB response
  auto ok = f.curl("/img/a.png", {"-o", f.site.dir + "/a.out"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(read_whole(f.site.dir + "/a.out"), read_whole(f.site.root + "/img/a.png"));
  EXPECT_EQ(::kill(f.proxy->pid(), 0), 0);  // still running
}

// --fetch-threads was once accepted and ignored; it is gone, so it is an unknown option like any
// other (docs/conventions.md: a usage error, exit 2, one line naming the option).
TEST(Proxy, FetchThreadsIsAnUnknownOption) {
  // A proxy that took the option would start and serve: the deadline ends it, and the test fails.
  auto r = run({bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0", "--fetch-threads", "4"}, {},
               std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("unknown option --fetch-threads"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace
