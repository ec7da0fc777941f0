// lab-http serve's file cache with --file-cache-valid 0 (every request compares the cached file
// with the disk) never serves stale bytes: a file edited, replaced, touched, deleted or swapped
// for a symbolic link out of the root between two GETs gives the new answer (new bytes, new ETag)
// on the next request. Run with --file-cache-settle 0 so that freshly written files are cached at
// once (the default keeps files changed in the last 2 s out of the cache), with the default
// settling too, and without the cache. The default validity (a change seen within 1 s, nothing
// but the checked inode served meanwhile) is tested in virtual time by
// tests/integration/io/http_disk_files_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "netlib/io/tcp_client.hpp"
#include "serve_fixture.hpp"

namespace {

using namespace netlab::test;
namespace fs = std::filesystem;

struct cache_reply {
  std::string status, etag, body;
};

// One GET on its own connection ("Connection: close"), split into status, ETag and body.
cache_reply cache_get(const running_server& server, const std::string& path) {
  netlib::io::tcp_client c(std::chrono::seconds(10));
  c.connect("127.0.0.1", static_cast<unsigned short>(process::port_of(server.address)));
  c.write("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const std::string raw = c.read_to_end(8 << 20);
  cache_reply r;
  const auto end = raw.find("\r\n\r\n");
  if (raw.size() < 12 || end == std::string::npos) return r;
  r.status = raw.substr(9, 3);
  const auto e = raw.find("\r\nETag: ");
  if (e != std::string::npos && e < end) r.etag = raw.substr(e + 8, raw.find("\r\n", e + 8) - (e + 8));
  r.body = raw.substr(end + 4);
  return r;
}

class ServeFileCache : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(ServeFileCache, AnEditBetweenTwoGetsGivesTheNewBytesAndANewETag) {
  site_dir site;
  running_server server(site, GetParam());
  const std::string file = site.root + "/style.css";
  const auto first = cache_get(server, "/style.css");
  ASSERT_EQ(first.status, "200");
  EXPECT_EQ(first.body, read_whole(file));
  EXPECT_EQ(cache_get(server, "/style.css").body, first.body) << "served again (from the cache when settled)";
  write_file(file, "body { color: red; background: white; }\n");  // in place, another size
  const auto second = cache_get(server, "/style.css");
  EXPECT_EQ(second.status, "200");
  EXPECT_EQ(second.body, "body { color: red; background: white; }\n");
  EXPECT_NE(second.etag, first.etag);
}

TEST_P(ServeFileCache, SameSizeRewriteReplaceAndTouchAreSeen) {
  site_dir site;
  running_server server(site, GetParam());
  const std::string file = site.root + "/img/a.png";
  ASSERT_EQ(cache_get(server, "/img/a.png").body, pattern(5000));
  std::string changed = pattern(5000);
  changed[100] = static_cast<char>(changed[100] ^ 0x55);
  write_file(file, changed);  // same size, in place; the modification time moves a whole second on
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(5));
  const auto touched = cache_get(server, "/img/a.png");
  EXPECT_EQ(touched.body, changed);
  write_file(site.dir + "/new.png", pattern(5000));  // same size, a new inode renamed over the old one
  fs::rename(site.dir + "/new.png", file);
  EXPECT_EQ(cache_get(server, "/img/a.png").body, pattern(5000));
  fs::remove(file);
  EXPECT_EQ(cache_get(server, "/img/a.png").status, "404");
}

TEST_P(ServeFileCache, IndexPagesAndSymlinksSwappedOutOfTheRoot) {
  site_dir site;
  running_server server(site, GetParam());
  ASSERT_EQ(cache_get(server, "/").status, "200");
  write_file(site.root + "/index.html", "<p>new index</p>\n");
  EXPECT_EQ(cache_get(server, "/").body, "<p>new index</p>\n");
  fs::create_symlink(site.root + "/style.css", site.root + "/link.css");
  const auto inside = cache_get(server, "/link.css");
  ASSERT_EQ(inside.status, "200");
  EXPECT_EQ(inside.body, read_whole(site.root + "/style.css"));
  fs::remove(site.root + "/link.css");
  fs::create_symlink(site.dir + "/outside.txt", site.root + "/link.css");
  EXPECT_EQ(cache_get(server, "/link.css").status, "404") << "a link now pointing outside the root is refused";
}

TEST_P(ServeFileCache, ManyRequestsOnOneConnectionAllGetTheWholeFile) {
  site_dir site;
  running_server server(site, GetParam());
  std::string requests;
  for (int i = 0; i < 200; ++i) requests += "GET /img/b.png HTTP/1.1\r\nHost: x\r\n\r\n";
  requests += "GET /img/b.png HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  netlib::io::tcp_client c(std::chrono::seconds(10));
  c.connect("127.0.0.1", static_cast<unsigned short>(process::port_of(server.address)));
  c.write(requests);
  const std::string raw = c.read_to_end(16 << 20);
  const std::string body = pattern(7000);
  std::size_t answers = 0;
  for (std::size_t p = 0; (p = raw.find("HTTP/1.1 200 OK\r\n", p)) != std::string::npos; ++p) {
    const auto end = raw.find("\r\n\r\n", p);
    ASSERT_NE(end, std::string::npos);
    ASSERT_EQ(raw.compare(end + 4, body.size(), body), 0) << "answer " << answers;
    ++answers;
  }
  EXPECT_EQ(answers, 201u);
}

INSTANTIATE_TEST_SUITE_P(Cache, ServeFileCache,
                         ::testing::Values(std::vector<std::string>{"--file-cache-settle", "0", "--file-cache-valid",
                                                                    "0"},
                                           std::vector<std::string>{"--file-cache-valid", "0"},
                                           std::vector<std::string>{"--file-cache", "0B"}),
                         [](const auto& p) {
                           return std::string(p.index == 0 ? "CachedAtOnce" : p.index == 1 ? "Default" : "NoCache");
                         });

}  // namespace
