// lab-http serve against real clients: curl (connection reuse, conditional GET, Range, HEAD,
// HTTPS), wget, Python's http.client; traversal attempts; Basic auth; cookies; the access log.
#include <gtest/gtest.h>

#include "serve_fixture.hpp"

namespace {

using namespace netlab::test;

run_result curl(std::vector<std::string> args) {
  args.insert(args.begin(), "curl");
  args.insert(args.begin() + 1, {"-sS", "--max-time", "20"});
  return run(args);
}

TEST(ServeClients, CurlReusesOneConnectionForSeveralFiles) {
  NETLAB_REQUIRE_PEER("curl");
  site_dir site;
  running_server server(site);
  auto r = curl({"-v", server.url("/"), "-o", site.dir + "/o1", server.url("/style.css"), "-o", site.dir + "/o2",
                 server.url("/img/a.png"), "-o", site.dir + "/o3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t reuses = 0;
  for (std::size_t p = 0; (p = r.err.find("Re-using existing connection", p)) != std::string::npos; ++p) ++reuses;
  EXPECT_EQ(reuses, 2u) << r.err;
  EXPECT_EQ(read_whole(site.dir + "/o2"), read_whole(site.root + "/style.css"));
  EXPECT_EQ(read_whole(site.dir + "/o3"), read_whole(site.root + "/img/a.png"));
  EXPECT_NE(r.err.find("< Content-Type: text/css; charset=utf-8"), std::string::npos);
  EXPECT_NE(r.err.find("< Last-Modified: "), std::string::npos);
  EXPECT_NE(r.err.find("< Date: "), std::string::npos);
  EXPECT_NE(r.err.find("< Server: netlab-http"), std::string::npos);
}

TEST(ServeClients, CurlConditionalGet) {
  NETLAB_REQUIRE_PEER("curl");
  site_dir site;
  running_server server(site);
  auto first = curl({"-D", "-", "-o", "/dev/null", server.url("/img/a.png")});
  const auto pos = first.out.find("ETag: ");
  ASSERT_NE(pos, std::string::npos) << first.out;
  const std::string etag = first.out.substr(pos + 6, first.out.find('\r', pos) - pos - 6);
  auto inm = curl({"-D", "-", "-H", "If-None-Match: " + etag, server.url("/img/a.png")});
  EXPECT_EQ(inm.out.rfind("HTTP/1.1 304 Not Modified\r\n", 0), 0u) << inm.out;
  EXPECT_EQ(inm.out.substr(inm.out.find("\r\n\r\n") + 4), "");  // no body
  // If-Modified-Since from the file's own time (curl -z FILE); If-None-Match wins when both come.
  auto ims = curl({"-o", "/dev/null", "-w", "%{http_code}", "-z", site.root + "/img/a.png", server.url("/img/a.png")});
  EXPECT_EQ(ims.out, "304");
  // (explicit headers here: curl -z would itself report 304 for an unchanged 200)
  const std::string lm = first.out.substr(first.out.find("Last-Modified: ") + 15, 29);
  auto both = curl({"-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: \"stale\"", "-H",
                    "If-Modified-Since: " + lm, server.url("/img/a.png")});
  EXPECT_EQ(both.out, "200");
  auto ims_only = curl({"-o", "/dev/null", "-w", "%{http_code}", "-H", "If-Modified-Since: " + lm, server.url("/img/a.png")});
  EXPECT_EQ(ims_only.out, "304");
}

TEST(ServeClients, CurlRangeAndHead) {
  NETLAB_REQUIRE_PEER("curl");
  site_dir site;
  running_server server(site);
  auto part = curl({"-r", "100-199", "-o", site.dir + "/part", "-w", "%{http_code}", server.url("/img/b.png")});
  EXPECT_EQ(part.out, "206");
  EXPECT_EQ(read_whole(site.dir + "/part"), read_whole(site.root + "/img/b.png").substr(100, 100));
  auto tail = curl({"-r", "-10", "-D", "-", server.url("/img/b.png")});
  EXPECT_NE(tail.out.find("Content-Range: bytes 6990-6999/7000"), std::string::npos) << tail.out;
  auto bad = curl({"-r", "90000-", "-o", "/dev/null", "-w", "%{http_code}", server.url("/img/b.png")});
  EXPECT_EQ(bad.out, "416");
  auto head = curl({"-I", server.url("/big.bin")});
  EXPECT_EQ(head.out.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << head.out;
  EXPECT_NE(head.out.find("Content-Length: 3145745\r\n"), std::string::npos);
  EXPECT_NE(head.out.find("Content-Type: application/octet-stream"), std::string::npos);
}

TEST(ServeClients, LargeFileIntactWithWget) {
  NETLAB_REQUIRE_PEER("wget");
  site_dir site;
  running_server server(site);
  auto r = run({"wget", "-q", "-T", "20", "-t", "1", "-O", site.dir + "/big.out", server.url("/big.bin")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_whole(site.dir + "/big.out") == read_whole(site.root + "/big.bin"));
}

TEST(ServeClients, PythonHttpClientKeepsOneConnection) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  site_dir site;
  running_server server(site);
  const std::string script =
      "import http.client,sys\n"
      "host,port=sys.argv[1].rsplit(':',1)\n"
      "c=http.client.HTTPConnection(host,int(port),timeout=20)\n"
      "socks=set()\n"
      "for p in ['/','/style.css','/img/a.png','/nope']:\n"
      "  c.request('GET',p); r=c.getresponse(); b=r.read(); socks.add(id(c.sock))\n"
      "  print(r.status,len(b),r.getheader('Content-Type'))\n"
      "c.request('HEAD','/big.bin'); r=c.getresponse(); print(r.status,r.getheader('Content-Length'),len(r.read()))\n"
      "print('connections',len(socks))\n";
  auto r = run({"/usr/bin/python3", "-c", script, server.address});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "200 " + std::to_string(read_whole(site.root + "/index.html").size()) + " text/html; charset=utf-8\n200 23 text/css; charset=utf-8\n200 5000 image/png\n"
            "404 14 text/plain; charset=utf-8\n200 3145745 0\nconnections 1\n");
}

TEST(ServeClients, HttpsWithSelfSignedCertificate) {
  NETLAB_REQUIRE_PEER("curl");
  NETLAB_REQUIRE_PEER("openssl");
  site_dir site;
  auto gen = run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", site.dir + "/key.pem", "-out",
                  site.dir + "/cert.pem", "-days", "2", "-subj", "/CN=localhost", "-addext",
                  "subjectAltName=IP:127.0.0.1,DNS:localhost"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  running_server server(site, {"--tls-cert", site.dir + "/cert.pem", "--tls-key", site.dir + "/key.pem"});
  auto r = curl({"-v", "--cacert", site.dir + "/cert.pem", "https://" + server.address + "/style.css", "-o",
                 site.dir + "/s1", "https://" + server.address + "/big.bin", "-o", site.dir + "/s2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("SSL connection using TLS"), std::string::npos);
  EXPECT_NE(r.err.find("Re-using existing connection"), std::string::npos);
  EXPECT_EQ(read_whole(site.dir + "/s1"), read_whole(site.root + "/style.css"));
  EXPECT_TRUE(read_whole(site.dir + "/s2") == read_whole(site.root + "/big.bin"));
}

TEST(ServeClients, TraversalAttemptsRefused) {
  NETLAB_REQUIRE_PEER("curl");
  site_dir site;
  running_server server(site);
  auto code = [&](const std::string& path) {
    return curl({"--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", server.url(path)}).out;
  };
  EXPECT_EQ(code("/../outside.txt"), "403");
  EXPECT_EQ(code("/img/../../outside.txt"), "403");
  EXPECT_EQ(code("/%2e%2e/outside.txt"), "403");
  EXPECT_EQ(code("/img%2f..%2f..%2foutside.txt"), "400");
  EXPECT_EQ(code("/escape.txt"), "404");  // a symbolic link pointing outside the root
  EXPECT_EQ(code("/img/../style.css"), "200");
}

TEST(ServeClients, BasicAuthCookiesAndAccessLog) {
  NETLAB_REQUIRE_PEER("curl");
  site_dir site;
  running_server server(site, {"--auth-dir", "private", "--auth-users", site.dir + "/users.txt", "--cookies",
                               "--access-log", site.dir + "/access.log"});
  auto denied = curl({"-D", "-", server.url("/private/")});
  EXPECT_EQ(denied.out.rfind("HTTP/1.1 401 Unauthorized\r\n", 0), 0u) << denied.out;
  EXPECT_NE(denied.out.find("WWW-Authenticate: Basic realm=\"netlab\""), std::string::npos);
  auto granted = curl({"-u", "alice:wonderland", server.url("/private/")});
  EXPECT_EQ(granted.out, "secret page\n");
  const std::string jar = site.dir + "/jar.txt";
  auto v1 = curl({"-c", jar, "-b", jar, server.url("/visits")});
  auto v2 = curl({"-c", jar, "-b", jar, server.url("/visits")});
  EXPECT_NE(v1.out.find("<b id=\"visits\">1</b>"), std::string::npos) << v1.out;
  EXPECT_NE(v2.out.find("<b id=\"visits\">2</b>"), std::string::npos) << v2.out;
  auto fresh = curl({server.url("/visits")});  // no cookie: a new visitor
  EXPECT_NE(fresh.out.find("<b id=\"visits\">1</b>"), std::string::npos);
  const std::string log = read_whole(site.dir + "/access.log");
  EXPECT_NE(log.find("127.0.0.1 - - ["), std::string::npos) << log;
  EXPECT_NE(log.find("] \"GET /private/ HTTP/1.1\" 401 "), std::string::npos) << log;
  EXPECT_NE(log.find("127.0.0.1 - alice ["), std::string::npos) << log;
  EXPECT_NE(log.find("\"GET /private/ HTTP/1.1\" 200 12"), std::string::npos) << log;
}

}  // namespace
