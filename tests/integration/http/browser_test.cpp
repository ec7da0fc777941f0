// A real browser (Debian's chromium, headless) against lab-http serve: a page with two images, a
// stylesheet and a background image the stylesheet names; the same page through lab-http proxy
// (the second load, from a fresh browser profile, served from the proxy's cache); the cookie lab's
// /visits page loaded twice with one profile, the count growing. The page's own script writes what
// the browser made of it (each image's decoded size, the stylesheet's colour) into the DOM that
// --dump-dom prints; the server's access log shows every request and its status. Each chromium run
// is bounded by a deadline (the harness kills its whole process group).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>

#include <nlohmann/json.hpp>

#include "serve_fixture.hpp"
#include "support/third_party.hpp"

namespace {

using namespace netlab::test;

// A valid 1x1 PNG (one opaque pixel), so that the browser decodes it: naturalWidth becomes 1.
const std::string one_pixel_png(
    "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
    "\x00\x00\x00\rIDATx\x9c"
    "c\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xae"
    "B`\x82",
    70);

const char* const page_html = R"(<!doctype html>
<html><head><title>netlab browser test</title><link rel="stylesheet" href="style.css">
<script>
window.addEventListener("load", () => {
  const sizes = [...document.images].map(i => i.naturalWidth + "x" + i.naturalHeight).join(" ");
  document.getElementById("result").textContent = sizes + " " + getComputedStyle(document.body).color;
});
</script></head>
<body><img src="img/a.png"><img src="/img/b.png"><p id="result">not loaded</p></body></html>
)";

struct browser_site {
  std::string dir = make_temp_folder("netlab-browser");
  std::string root = dir + "/root";
  std::string log = dir + "/access.log";
  browser_site() {
    write_file(root + "/index.html", page_html);
    write_file(root + "/style.css", "body { background: url(img/bg.png); color: navy; }\n");
    for (const char* img : {"/img/a.png", "/img/b.png", "/img/bg.png"}) write_file(root + img, one_pixel_png);
  }
  ~browser_site() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  // Access-log requests "METHOD PATH" -> statuses, in order.
  [[nodiscard]] std::map<std::string, std::vector<int>> requests() const {
    static const std::regex clf(R"re(^\S+ \S+ \S+ \[[^\]]+\] "(\S+) (\S+) HTTP/1\.[01]" (\d{3}) \S+$)re");
    std::map<std::string, std::vector<int>> out;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_match(line, m, clf)) out[m[1].str() + " " + m[2].str()].push_back(std::stoi(m[3]));
    }
    return out;
  }
};

struct origin_server {
  std::unique_ptr<process> proc;
  std::string address;
  origin_server(const browser_site& site, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{bin_path("lab-http"), "serve",       "--root",       site.root,
                                  "--listen",           "127.0.0.1:0", "--access-log", site.log};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<process>(argv);
    address = proc->wait_listening();
  }
  [[nodiscard]] std::string url(const std::string& path) const { return "http://" + address + path; }
};

// Runs headless chromium on `url` with a profile folder and extra flags; returns the DOM it dumps.
std::string dump_dom(const std::string& url, const std::string& profile, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{"chromium",
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-quic",
                                "--no-first-run",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--disable-dev-shm-usage",
                                "--user-data-dir=" + profile};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.insert(argv.end(), {"--dump-dom", url});
  const auto r = run(argv, {}, std::chrono::seconds(45));
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(r.err.size() > 2000 ? r.err.size() - 2000 : 0);
  return r.out;
}

const char* const rendered = "<p id=\"result\">1x1 1x1 rgb(0, 0, 128)</p>";  // navy from style.css
const char* const assets[] = {"GET /style.css", "GET /img/a.png", "GET /img/b.png", "GET /img/bg.png"};

TEST(Browser, LoadsThePageItsImagesAndItsStylesheet) {
  NETLAB_REQUIRE_PEER("chromium");
  browser_site site;
  origin_server server(site);
  const std::string dom = dump_dom(server.url("/"), site.dir + "/profile");
  EXPECT_NE(dom.find(rendered), std::string::npos) << dom;
  const auto requests = site.requests();
  EXPECT_EQ(requests.at("GET /"), std::vector<int>{200});
  for (const char* a : assets) {
    ASSERT_TRUE(requests.contains(a)) << a << " was not requested";
    EXPECT_EQ(requests.at(a), std::vector<int>{200}) << a;
  }
}

// Two loads through the proxy, each from a fresh profile (so the browser's own cache is empty):
// the origin sees the stylesheet and the images once, and the page twice (200, then the proxy's
// conditional request answered 304, since a page just written has no heuristic freshness).
TEST(Browser, ThroughTheCachingProxyTheSecondLoadIsServedFromTheCache) {
  NETLAB_REQUIRE_PEER("chromium");
  browser_site site;
  // Assets last modified ten days ago: heuristically fresh for a day (RFC 9111 §4.2.2).
  for (const char* p : {"/style.css", "/img/a.png", "/img/b.png", "/img/bg.png"})
    std::filesystem::last_write_time(site.root + p,
                                     std::filesystem::file_time_type::clock::now() - std::chrono::hours(240));
  origin_server server(site);
  process proxy({bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0"});
  const std::string proxy_address = proxy.wait_listening();
  // Chromium sends loopback URLs directly unless told not to (<-loopback>).
  const std::vector<std::string> via_proxy{"--proxy-server=http://" + proxy_address, "--proxy-bypass-list=<-loopback>"};
  EXPECT_NE(dump_dom(server.url("/"), site.dir + "/profile1", via_proxy).find(rendered), std::string::npos);
  EXPECT_NE(dump_dom(server.url("/"), site.dir + "/profile2", via_proxy).find(rendered), std::string::npos);
  const auto requests = site.requests();
  EXPECT_EQ(requests.at("GET /"), (std::vector<int>{200, 304}));
  for (const char* a : assets) {
    ASSERT_TRUE(requests.contains(a)) << a << " was not requested";
    EXPECT_EQ(requests.at(a), std::vector<int>{200}) << a << ": fetched from the origin more than once";
  }
  const auto stats = run(
      {bin_path("lab-http"), "get", "http://" + proxy_address + "/netlab-proxy/stats", "-o", site.dir + "/stats.json"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const auto j = nlohmann::json::parse(read_whole(site.dir + "/stats.json"));
  EXPECT_GE(j["hits"].get<int>(), 4) << j.dump();
  EXPECT_GE(j["revalidated"].get<int>(), 1) << j.dump();
}

TEST(Browser, CookieVisitCountGrowsWithTheSameProfile) {
  NETLAB_REQUIRE_PEER("chromium");
  browser_site site;
  origin_server server(site, {"--cookies"});
  const std::string profile = site.dir + "/profile";
  const std::string first = dump_dom(server.url("/visits"), profile);
  EXPECT_NE(first.find("<b id=\"visits\">1</b>"), std::string::npos) << first;
  const std::string second = dump_dom(server.url("/visits"), profile);
  EXPECT_NE(second.find("<b id=\"visits\">2</b>"), std::string::npos) << second;
  EXPECT_EQ(site.requests().at("GET /visits"), (std::vector<int>{200, 200}));
}

}  // namespace
