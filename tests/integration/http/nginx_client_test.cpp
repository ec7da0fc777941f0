// lab-http get against a real nginx, started by the test in the foreground with its own
// configuration in a temporary folder (127.0.0.1, a free port, no system service): a plain GET, a
// page and its objects over one keep-alive connection (and pipelined, and one connection per
// object), conditional GETs from the client's cache answered 304. nginx's own access log (with the
// connection serial number and the request count on it) is the server-side evidence; the bytes
// saved by the client (-o and the cache's body files) must equal the files.
// Absent: Range requests (lab-http get has no option to send one).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>

#include <nlohmann/json.hpp>

#include "serve_fixture.hpp"
#include "support/third_party.hpp"

namespace {

using namespace netlab::test;

const char* const nginx_bin = "/usr/sbin/nginx";

// One line per request: connection serial, request number on it, request line, status, body bytes.
std::string nginx_conf(const std::string& dir, const std::string& root, int port) {
  return "daemon off;\nmaster_process off;\nworker_processes 1;\npid " + dir +
         "/nginx.pid;\n"
         "error_log " +
         dir +
         "/error.log warn;\n"
         "events { worker_connections 64; }\n"
         "http {\n"
         "  types { text/html html; text/css css; image/png png; application/octet-stream bin; }\n"
         "  log_format netlab '$connection $connection_requests \"$request\" $status $body_bytes_sent';\n"
         "  access_log " +
         dir +
         "/access.log netlab;\n"
         "  client_body_temp_path " +
         dir + "/body; proxy_temp_path " + dir +
         "/proxy;\n"
         "  fastcgi_temp_path " +
         dir + "/fastcgi; uwsgi_temp_path " + dir + "/uwsgi; scgi_temp_path " + dir +
         "/scgi;\n"
         "  keepalive_timeout 30s; keepalive_requests 1000;\n"
         "  server { listen 127.0.0.1:" +
         std::to_string(port) + "; server_name localhost; root " + root +
         "; }\n"
         "}\n";
}

struct log_entry {
  std::string connection;
  int number_on_connection = 0;
  std::string request;
  int status = 0;
  long long bytes = 0;
};

struct nginx_server {
  site_dir site;
  std::string conf_dir = site.dir + "/nginx";
  std::unique_ptr<process> proc;
  int port = 0;

  nginx_server() {
    std::filesystem::create_directories(conf_dir);
    proc = start_daemon(
        [this](int p) {
          write_file(conf_dir + "/nginx.conf", nginx_conf(conf_dir, site.root, p));
          return std::vector<std::string>{nginx_bin, "-e", conf_dir + "/error.log", "-p",
                                          conf_dir,  "-c", conf_dir + "/nginx.conf"};
        },
        port);
  }
  [[nodiscard]] std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port) + path;
  }
  // The access log so far. nginx writes a request's line when the response is finished, so a
  // client that has read the whole response may look before the line is there: poll briefly.
  [[nodiscard]] std::vector<log_entry> log(std::size_t at_least) const {
    static const std::regex line_re(R"re((\d+) (\d+) "([^"]*)" (\d+) (\d+))re");
    std::vector<log_entry> out;
    for (int tries = 0; tries < 100; ++tries) {
      out.clear();
      std::ifstream in(conf_dir + "/access.log");
      for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_match(line, m, line_re))
          out.push_back({m[1], std::stoi(m[2]), m[3], std::stoi(m[4]), std::stoll(m[5])});
      }
      if (out.size() >= at_least) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return out;
  }
};

nlohmann::json nginx_get_json(const std::vector<std::string>& extra) {
  std::vector<std::string> argv{bin_path("lab-http"), "get", "--json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto r = run(argv, {}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

// The bodies the client's cache folder holds (one *.body file per URL), sorted.
std::vector<std::string> cached_bodies(const std::string& cache) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(cache))
    if (e.path().extension() == ".body") out.push_back(read_whole(e.path().string()));
  std::sort(out.begin(), out.end());
  return out;
}

const char* const page_objects[] = {"/index.html", "/style.css", "/img/a.png", "/img/b.png"};

TEST(NginxClient, PlainGetOfAPageAndALargeFile) {
  NETLAB_REQUIRE_PEER(nginx_bin);
  nginx_server nginx;
  auto page = nginx_get_json({nginx.url("/index.html"), "-o", nginx.site.dir + "/page.html"});
  ASSERT_EQ(page["objects"].size(), 1u) << page.dump();
  EXPECT_EQ(page["objects"][0]["status"], 200);
  EXPECT_EQ(read_whole(nginx.site.dir + "/page.html"), read_whole(nginx.site.root + "/index.html"));
  auto big = nginx_get_json({nginx.url("/big.bin"), "-o", nginx.site.dir + "/big.bin"});
  EXPECT_EQ(big["objects"][0]["body_bytes"], 3 * 1024 * 1024 + 17);
  EXPECT_TRUE(read_whole(nginx.site.dir + "/big.bin") == read_whole(nginx.site.root + "/big.bin")) << "bytes differ";
  auto missing = nginx_get_json({nginx.url("/nope.html")});
  EXPECT_EQ(missing["objects"][0]["status"], 404);
  const auto log = nginx.log(3);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].request, "GET /index.html HTTP/1.1");
  EXPECT_EQ(log[0].status, 200);
  EXPECT_EQ(log[1].request, "GET /big.bin HTTP/1.1");
  EXPECT_EQ(log[1].bytes, 3 * 1024 * 1024 + 17);
  EXPECT_EQ(log[2].status, 404);
}

// --fail against nginx: its 404 and 403 exit 1 with one line (nginx's reason phrases), no body
// written; a 200 exits 0.
TEST(NginxClient, FailOnAnErrorStatus) {
  NETLAB_REQUIRE_PEER(nginx_bin);
  nginx_server nginx;
  const std::string out = nginx.site.dir + "/out.html";
  auto r =
      run({bin_path("lab-http"), "get", nginx.url("/nope.html"), "--fail", "-o", out}, {}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lab-http: error: " + nginx.url("/nope.html") + ": the server answered 404 Not Found (--fail)\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  // A folder without an index: nginx refuses to list it.
  std::filesystem::create_directories(nginx.site.root + "/empty");
  r = run({bin_path("lab-http"), "get", nginx.url("/empty/"), "--fail"}, {}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lab-http: error: " + nginx.url("/empty/") + ": the server answered 403 Forbidden (--fail)\n");
  r = run({bin_path("lab-http"), "get", nginx.url("/index.html"), "--objects", "--fail", "-o", out}, {},
          std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_whole(out), read_whole(nginx.site.root + "/index.html"));
}

// The four objects on one connection (nginx's connection serial is the same on every line and
// its per-connection request counter runs 1..4), persistent and pipelined; one connection each
// with --non-persistent. The cache folder then holds exactly the four files' bytes.
TEST(NginxClient, KeepAliveAndPipelinedFetchTheObjectsOnOneConnection) {
  NETLAB_REQUIRE_PEER(nginx_bin);
  nginx_server nginx;
  const std::pair<std::vector<std::string>, int> modes[] = {{{}, 1}, {{"--pipelined"}, 1}, {{"--non-persistent"}, 4}};
  std::size_t logged = 0;
  for (const auto& [flags, connections] : modes) {
    const std::string cache = nginx.site.dir + "/cache" + std::to_string(logged);
    std::vector<std::string> args{nginx.url("/index.html"), "--objects", "--cache", cache};
    args.insert(args.end(), flags.begin(), flags.end());
    auto j = nginx_get_json(args);
    SCOPED_TRACE(j.dump());
    ASSERT_EQ(j["objects"].size(), 4u);
    EXPECT_EQ(j["connections"], connections);
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(j["objects"][i]["status"], 200);
      EXPECT_EQ(j["objects"][i]["url"], nginx.url(page_objects[i]));
      EXPECT_EQ(j["objects"][i]["body_bytes"], read_whole(nginx.site.root + page_objects[i]).size());
    }
    std::vector<std::string> files;
    for (const char* p : page_objects) files.push_back(read_whole(nginx.site.root + p));
    std::sort(files.begin(), files.end());
    EXPECT_TRUE(cached_bodies(cache) == files) << "the bytes received differ from the files";
    const auto log = nginx.log(logged + 4);
    ASSERT_EQ(log.size(), logged + 4);
    std::map<std::string, int> per_connection;
    for (std::size_t i = 0; i < 4; ++i) {
      const auto& e = log[logged + i];
      EXPECT_EQ(e.request, std::string("GET ") + page_objects[i] + " HTTP/1.1");
      EXPECT_EQ(e.status, 200);
      ++per_connection[e.connection];
      if (connections == 1) {
        EXPECT_EQ(e.number_on_connection, static_cast<int>(i) + 1);
      }
    }
    EXPECT_EQ(per_connection.size(), static_cast<std::size_t>(connections));
    logged += 4;
  }
}

// The second fetch with the same cache sends If-None-Match / If-Modified-Since for every object;
// nginx answers 304 with no body and the client rebuilds the page from its cache.
TEST(NginxClient, ConditionalGetFromTheCacheGets304) {
  NETLAB_REQUIRE_PEER(nginx_bin);
  nginx_server nginx;
  const std::string cache = nginx.site.dir + "/cache";
  auto fill = nginx_get_json({nginx.url("/index.html"), "--objects", "--cache", cache});
  ASSERT_EQ(fill["objects"].size(), 4u) << fill.dump();
  for (const auto& o : fill["objects"]) EXPECT_EQ(o["cache"], "stored") << o.dump();
  auto again =
      nginx_get_json({nginx.url("/index.html"), "--objects", "--cache", cache, "-o", nginx.site.dir + "/page.html"});
  ASSERT_EQ(again["objects"].size(), 4u) << again.dump();
  for (const auto& o : again["objects"]) {
    EXPECT_EQ(o["status"], 304) << o.dump();
    EXPECT_EQ(o["cache"], "revalidated") << o.dump();
  }
  EXPECT_EQ(again["objects"][3]["body_bytes"], 7000);
  EXPECT_EQ(read_whole(nginx.site.dir + "/page.html"), read_whole(nginx.site.root + "/index.html"));
  const auto log = nginx.log(8);
  ASSERT_EQ(log.size(), 8u);
  for (std::size_t i = 4; i < 8; ++i) {
    EXPECT_EQ(log[i].status, 304) << log[i].request;
    EXPECT_EQ(log[i].bytes, 0);
  }
  // A changed file is fetched again: nginx's ETag and Last-Modified no longer match.
  write_file(nginx.site.root + "/style.css", "body { color: navy; }\n");
  std::filesystem::last_write_time(nginx.site.root + "/style.css",
                                   std::filesystem::file_time_type::clock::now() + std::chrono::seconds(5));
  auto changed = nginx_get_json({nginx.url("/index.html"), "--objects", "--cache", cache});
  EXPECT_EQ(changed["objects"][1]["status"], 200) << changed.dump();
  EXPECT_EQ(changed["objects"][1]["body_bytes"], 22);
}

}  // namespace
