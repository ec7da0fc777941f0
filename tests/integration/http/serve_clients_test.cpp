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
  auto ims_only =
      curl({"-o", "/dev/null", "-w", "%{http_code}", "-H", "If-Modified-Since: " + lm, server.url("/img/a.png")});
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
  EXPECT_EQ(r.out, "200 " + std::to_string(read_whole(site.root + "/index.html").size()) +
                       " text/html; charset=utf-8\n200 23 text/css; charset=utf-8\n200 5000 image/png\n"
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

// The HTTP handout's step 3: If-Modified-Since must be an HTTP-date (RFC 9110 §5.6.7, "GMT"); the
// date the handout's command now writes gets 304, `date -u -R` ("+0000", what it wrote before) is
// not an HTTP-date and is ignored, so the answer is 200.
TEST(ServeClients, HandoutIfModifiedSinceCommandGets304WhereDateRGot200) {
  NETLAB_REQUIRE_PEER("curl");
  site_dir site;
  running_server server(site);
  const auto status = [&](const std::string& date_command) {
    const auto r = run({"bash", "-c",
                        "curl -s -o /dev/null -w '%{http_code}' -H \"If-Modified-Since: $(" + date_command + ")\" " +
                            server.url("/style.css")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  EXPECT_EQ(status("LC_ALL=C date -u '+%a, %d %b %Y %H:%M:%S GMT'"), "304");
  EXPECT_EQ(status("date -u -R"), "200");
}

// Responses the server core writes whole (405, 501, 400, 505) are logged with their body size and
// the request line as it came (also for a refused head: no Host, HTTP/2.0); a request line that
// was never read whole is "-" (Common Log Format), never "".
TEST(ServeClients, AccessLogCountsErrorBodiesAndMarksAMissingRequestLine) {
  NETLAB_REQUIRE_PEER("curl");
  site_dir site;
  running_server server(site, {"--access-log", site.dir + "/access.log"});
  const std::pair<std::vector<std::string>, std::string> cases[] = {{{"-X", "DELETE"}, "\"DELETE / HTTP/1.1\" 405 "},
                                                                    {{"-X", "BREW"}, "\"BREW / HTTP/1.1\" 501 "}};
  std::vector<std::string> bodies;
  for (const auto& [flags, logged] : cases) {
    std::vector<std::string> args{"-s"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(server.url("/"));
    bodies.push_back(curl(args).out);
    ASSERT_FALSE(bodies.back().empty());
  }
  const auto raw = [&](const std::string& bytes) {
    const auto r = run({"/usr/bin/python3", "-c",
                        "import socket,sys; s=socket.create_connection(('127.0.0.1',int(sys.argv[1])),timeout=10); "
                        "s.sendall(sys.argv[2].encode().decode('unicode_escape').encode('latin-1')); "
                        "s.shutdown(socket.SHUT_WR); d=b''\nwhile True:\n b=s.recv(65536)\n if not b: break\n d+=b\n"
                        "sys.stdout.buffer.write(d)",
                        std::to_string(process::port_of(server.address)), bytes});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  const std::string no_host = raw("GET / HTTP/1.1\\r\\n\\r\\n");
  const std::string http2 = raw("GET / HTTP/2.0\\r\\nHost: x\\r\\n\\r\\n");
  const std::string too_long = raw("GET /" + std::string(9000, 'a') + " HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n");
  server.proc->signal(SIGTERM);
  server.proc->wait();
  const std::string log = read_whole(site.dir + "/access.log");
  const auto body_of = [](const std::string& response) { return response.substr(response.find("\r\n\r\n") + 4); };
  EXPECT_NE(log.find(cases[0].second + std::to_string(bodies[0].size()) + "\n"), std::string::npos) << log;
  EXPECT_NE(log.find(cases[1].second + std::to_string(bodies[1].size()) + "\n"), std::string::npos) << log;
  EXPECT_NE(log.find("\"GET / HTTP/1.1\" 400 " + std::to_string(body_of(no_host).size()) + "\n"), std::string::npos)
      << log;
  EXPECT_NE(log.find("\"GET / HTTP/2.0\" 505 " + std::to_string(body_of(http2).size()) + "\n"), std::string::npos)
      << log;
  // A request line longer than the server reads (414): no request line to log.
  EXPECT_NE(log.find("] \"-\" 414 " + std::to_string(body_of(too_long).size()) + "\n"), std::string::npos) << log;
  EXPECT_EQ(log.find("\"\""), std::string::npos) << log;
  EXPECT_EQ(log.find(" 400 -\n"), std::string::npos) << log;
}

}  // namespace
