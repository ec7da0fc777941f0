// lab-http get against Python's http.server and against lab-http serve: the four modes (connection
// counts), per-object records, the model next to the measurement, cookies, the cache, -o.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "serve_fixture.hpp"

namespace {

using namespace netlab::test;

nlohmann::json get_json(const std::vector<std::string>& extra) {
  std::vector<std::string> argv{bin_path("lab-http"), "get", "--json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(GetClient, ModesAgainstOwnServer) {
  site_dir site;
  running_server server(site);
  const std::pair<std::vector<std::string>, int> modes[] = {
      {{}, 1}, {{"--pipelined"}, 1}, {{"--non-persistent"}, 4}, {{"--parallel", "3"}, 4}};
  for (const auto& [flags, connections] : modes) {
    std::vector<std::string> args{server.url("/"), "--objects"};
    args.insert(args.end(), flags.begin(), flags.end());
    auto j = get_json(args);
    SCOPED_TRACE(j.dump());
    ASSERT_EQ(j["objects"].size(), 4u);  // the page, style.css, img/a.png, img/b.png
    EXPECT_EQ(j["referenced_objects"], 3);
    EXPECT_EQ(j["connections"], connections);
    EXPECT_EQ(j["objects"][2]["url"], server.url("/img/a.png"));
    EXPECT_EQ(j["objects"][2]["body_bytes"], 5000);
    EXPECT_EQ(j["objects"][3]["body_bytes"], 7000);
    EXPECT_GT(j["rtt_s"].get<double>(), 0.0);
    EXPECT_GT(j["model"]["total_s"].get<double>(), 0.0);
  }
  auto persistent = get_json({server.url("/"), "--objects"});
  EXPECT_EQ(persistent["model"]["rtts"], 5.0);  // 2 RTT + 3 objects x 1 RTT
  auto np = get_json({server.url("/"), "--objects", "--non-persistent"});
  EXPECT_EQ(np["model"]["rtts"], 8.0);  // 2 RTT + 3 x 2 RTT
}

// The RTT is the handshake the kernel timed (TCP_INFO: SYN to SYN-ACK), not the whole connect()
// call, so on the loopback the model (5 RTT for a page and 3 objects) lands below the
// measurement, as the HTTP handout's question 1 says; the old RTT (the connect() call) put it above.
TEST(GetClient, RttIsTheKernelsHandshakeSampleAndTheModelStaysBelowTheLoopbackMeasurement) {
  site_dir site;
  running_server server(site);
  auto j = get_json({server.url("/"), "--objects"});
  SCOPED_TRACE(j.dump());
  EXPECT_EQ(j["rtt_source"], "tcp_handshake");
  EXPECT_GT(j["rtt_s"].get<double>(), 0.0);
  EXPECT_LE(j["rtt_s"].get<double>(), j["connect_call_s"].get<double>());
  EXPECT_LT(j["model"]["total_s"].get<double>(), j["total_s"].get<double>());
  auto text = run({bin_path("lab-http"), "get", server.url("/")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("(the first TCP handshake, SYN to SYN-ACK, as the kernel timed it: TCP_INFO)"),
            std::string::npos)
      << text.out;
}

// -o -: the body alone on stdout, the timing report on stderr.
TEST(GetClient, BodyToStdoutSendsTheReportToStderr) {
  site_dir site;
  running_server server(site);
  auto r = run({bin_path("lab-http"), "get", server.url("/style.css"), "-o", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, read_whole(site.root + "/style.css"));
  EXPECT_NE(r.err.find("measured RTT"), std::string::npos) << r.err;
  auto both = run({bin_path("lab-http"), "get", server.url("/style.css"), "-o", "-", "--json"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(both.out, "");
}

// https with a certificate for other names: the error names the host asked for and every name the
// certificate holds (CN, DNS and IP subjectAltNames).
TEST(GetClient, TlsNameMismatchSaysWhatTheCertificateHolds) {
  site_dir site;
  const std::string cert = site.dir + "/cert.pem", key = site.dir + "/key.pem";
  const auto made = run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                         "-days", "1", "-subj", "/CN=www.example.test", "-addext",
                         "subjectAltName=DNS:www.example.test,DNS:example.test,IP:10.1.2.3"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  running_server server(site, {"--tls-cert", cert, "--tls-key", key});
  auto r = run({bin_path("lab-http"), "get", "https://" + server.address + "/", "--cacert", cert});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lab-http: error: TLS handshake with " + server.address +
                       " failed: the certificate does not name '127.0.0.1': it holds CN=www.example.test, "
                       "DNS:www.example.test, DNS:example.test, IP:10.1.2.3\n");
}

TEST(GetClient, AgainstPythonHttpServer) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  site_dir site;
  process py({"/usr/bin/python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", site.root, "0"});
  const auto line = py.wait_for_line("Serving HTTP on");
  ASSERT_TRUE(line) << py.err();
  const std::string port =
      line->substr(line->find(" port ") + 6, line->find(' ', line->find(" port ") + 6) - line->find(" port ") - 6);
  const std::string base = "http://127.0.0.1:" + port + "/";
  // http.server speaks HTTP/1.0 and closes after each response: persistent and pipelined modes
  // must notice and reconnect.
  for (const std::vector<std::string>& flags : {std::vector<std::string>{}, {"--pipelined"}, {"--parallel", "2"}}) {
    std::vector<std::string> args{base, "--objects", "-o", site.dir + "/page.html"};
    args.insert(args.end(), flags.begin(), flags.end());
    auto j = get_json(args);
    ASSERT_EQ(j["objects"].size(), 4u) << j.dump();
    for (const auto& o : j["objects"]) EXPECT_EQ(o["status"], 200) << o.dump();
    // One per object at least; a server that resets a connection with pipelined requests unread
    // costs a retry on a new one.
    EXPECT_GE(j["connections"], 4);
    EXPECT_EQ(read_whole(site.dir + "/page.html"), read_whole(site.root + "/index.html"));
  }
  auto missing = run({bin_path("lab-http"), "get", base + "nope.html"});
  EXPECT_EQ(missing.exit_code, 0);
  EXPECT_NE(missing.out.find(" 404 "), std::string::npos) << missing.out;
  // --fail: http.server's 404 (reason "File not found") exits 1, one line naming it.
  missing = run({bin_path("lab-http"), "get", base + "nope.html", "--fail", "-o", site.dir + "/nope.html"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "lab-http: error: " + base + "nope.html: the server answered 404 File not found (--fail)\n");
  EXPECT_FALSE(std::filesystem::exists(site.dir + "/nope.html"));
}

// --fail (as curl's): an error status exits 1 with one line naming the first object that got one,
// and the error page's body is not written; without it the status is only reported (exit 0).
TEST(GetClient, FailTurnsAnErrorStatusIntoExitOne) {
  site_dir site;
  write_file(site.root + "/broken.html",
             "<html><body><img src=\"img/a.png\"><img src=\"gone.png\">"
             "<img src=\"gone2.png\"></body></html>\n");
  running_server server(site);
  const std::string out = site.dir + "/out.html";
  auto r = run({bin_path("lab-http"), "get", server.url("/nope.html"), "--fail", "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lab-http: error: " + server.url("/nope.html") + ": the server answered 404 Not Found (--fail)\n");
  EXPECT_NE(r.out.find(" 404 "), std::string::npos) << r.out;  // the report is still printed
  EXPECT_FALSE(std::filesystem::exists(out));
  r = run({bin_path("lab-http"), "get", server.url("/nope.html"), "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The page is fine, two of its objects are not: the page is written, the exit code is 1.
  r = run({bin_path("lab-http"), "get", server.url("/broken.html"), "--objects", "--fail", "-o", out});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lab-http: error: " + server.url("/gone.png") +
                       ": the server answered 404 Not Found (--fail; 1 more with an error status)\n");
  EXPECT_EQ(read_whole(out), read_whole(site.root + "/broken.html"));
  // --json: the document on stdout as always, the error line on stderr.
  r = run({bin_path("lab-http"), "get", server.url("/nope.html"), "--fail", "--json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out)["objects"][0]["status"], 404);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // A success is a success.
  r = run({bin_path("lab-http"), "get", server.url("/"), "--objects", "-f"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(GetClient, CookieJarAndCacheRevalidation) {
  site_dir site;
  running_server server(site, {"--cookies"});
  const std::string jar = site.dir + "/jar.txt";
  auto first = run({bin_path("lab-http"), "get", server.url("/visits"), "--cookie-jar", jar, "-o", "-"});
  auto second = run({bin_path("lab-http"), "get", server.url("/visits"), "--cookie-jar", jar, "-o", "-"});
  EXPECT_NE(first.out.find("<b id=\"visits\">1</b>"), std::string::npos) << first.out;
  EXPECT_NE(second.out.find("<b id=\"visits\">2</b>"), std::string::npos) << second.out;
  EXPECT_NE(read_whole(jar).find("\tsid\t"), std::string::npos);
  const std::string cache = site.dir + "/cache";
  auto fill = get_json({server.url("/"), "--objects", "--cache", cache});
  EXPECT_EQ(fill["objects"][1]["cache"], "stored");
  auto again = get_json({server.url("/"), "--objects", "--cache", cache, "-o", site.dir + "/from-cache.html"});
  for (const auto& o : again["objects"]) {
    EXPECT_EQ(o["status"], 304) << o.dump();
    EXPECT_EQ(o["cache"], "revalidated");
  }
  EXPECT_EQ(again["objects"][2]["body_bytes"], 5000);
  EXPECT_EQ(read_whole(site.dir + "/from-cache.html"), read_whole(site.root + "/index.html"));
}

TEST(GetClient, ErrorsAreOneLineWithExitCodes) {
  auto bad_url = run({bin_path("lab-http"), "get", "ftp://x/"});
  EXPECT_EQ(bad_url.exit_code, 2);
  site_dir site;
  int port = 0;
  {
    running_server server(site);
    port = process::port_of(server.address);
  }
  auto refused = run({bin_path("lab-http"), "get", "http://127.0.0.1:" + std::to_string(port) + "/"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
}

}  // namespace
