// netlab-grade http --client: real clients (curl, wget, Python urllib, lab-http get) against the
// reference lab-http serve get full score or lose exactly what they legitimately miss; the broken
// client (no Host field) fails exactly the checks that depend on it.
#include "grade_fixture.hpp"

namespace {

using namespace netlab::test;

grade_run grade_client(const std::string& command, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"http", "--client", command, "--deadline", "20"};
  args.insert(args.end(), extra.begin(), extra.end());
  return grade(args);
}

const char* const urllib_client =
    "/usr/bin/python3 -c 'import sys, urllib.request as u; "
    "[sys.stdout.buffer.write(u.urlopen(x, timeout=10).read()) for x in sys.argv[1:]]' {urls}";

TEST(ClientHttpGrade, CurlGetsFullScore) {
  NETLAB_REQUIRE_PEER("curl");
  const auto g = grade_client("curl -s {url}");
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_TRUE(g.failed().empty()) << g.doc.dump(2);
  EXPECT_EQ(g.doc["checks"].size(), 6u);
  EXPECT_EQ(g.doc["score"], 11);
}

TEST(ClientHttpGrade, WgetToOutAndLabHttpGetGetFullScore) {
  NETLAB_REQUIRE_PEER("wget");
  for (const char* cmd : {"wget -q -O {out} {url}", "lab-http get {url} -o {out}"}) {
    const auto g = grade_client(cmd);
    EXPECT_EQ(g.exit_code, 0) << cmd << "\n" << g.doc.dump(2);
    EXPECT_TRUE(g.failed().empty()) << cmd << "\n" << g.doc.dump(2);
  }
}

TEST(ClientHttpGrade, SeveralTargetsReuseOneConnectionWithCurlAndWget) {
  NETLAB_REQUIRE_PEER("curl");
  NETLAB_REQUIRE_PEER("wget");
  for (const char* cmd : {"curl -s {urls}", "wget -q -O - {urls}"}) {
    const auto g = grade_client(cmd, {"--path", "/index.html", "--path", "/logo.bin", "--path", "/second.txt"});
    EXPECT_EQ(g.exit_code, 0) << cmd << "\n" << g.doc.dump(2);
    EXPECT_TRUE(g.failed().empty()) << cmd << "\n" << g.doc.dump(2);
    EXPECT_EQ(g.doc["checks"].size(), 7u);
  }
}

TEST(ClientHttpGrade, PythonUrllibLosesOnlyConnectionReuse) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  const auto g = grade_client(urllib_client, {"--path", "/index.html", "--path", "/second.txt"});
  EXPECT_EQ(g.exit_code, 1);
  // urllib.request sends "Connection: close" and opens a connection per URL.
  const std::map<std::string, std::string> expected{{"connection_reused", "2 requests came on 2 connections"}};
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
}

TEST(ClientHttpGrade, ConditionalGetWithCurlTimeCondition) {
  NETLAB_REQUIRE_PEER("curl");
  const auto g = grade_client("curl -sR -o {out} {url} && curl -sR -z {out} -o {out} {url}", {"--conditional"});
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_TRUE(g.failed().empty()) << g.doc.dump(2);
  // A client that never revalidates fails exactly that check.
  const auto plain = grade_client("curl -s -o {out} {url}", {"--conditional"});
  EXPECT_EQ(plain.failed_names(), std::set<std::string>{"conditional_get"}) << plain.doc.dump(2);
}

TEST(ClientHttpGrade, BrokenClientWithoutHostFailsHostAndWhatFollows) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  const auto g = grade_client("/usr/bin/python3 " + source_path("tests/integration/grade/client_broken.py") +
                              " http {host} {port} {path}");
  EXPECT_EQ(g.exit_code, 1);
  const auto failed = g.failed();
  // The server answers the Host-less request 400, so the file is neither fetched nor saved.
  EXPECT_EQ(g.failed_names(), (std::set<std::string>{"host_header", "targets_fetched", "body_identical"}))
      << g.doc.dump(2);
  EXPECT_EQ(failed.at("host_header"), "a request has no Host field");
  for (const auto& c : g.doc["checks"]) {
    if (c["name"] != "host_header") continue;
    EXPECT_NE(c["sent"].get<std::string>().find("GET /index.html HTTP/1.1\\r\\n"), std::string::npos);
    EXPECT_EQ(c["rule"], "RFC 9112 §3.2, RFC 9110 §7.2");
  }
}

TEST(ClientHttpGrade, FailingCommandAndDeadline) {
  const auto g = grade_client("exit 3");
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.failed().at("client_exits_0"), "the command exited with status 3");
  EXPECT_EQ(g.failed().at("request_line_http11"), "the client sent no request");
  const auto slow = grade({"http", "--client", "sleep 30", "--deadline", "1"});
  EXPECT_EQ(slow.failed().at("client_exits_0"), "the command was killed at the deadline");
  // --deadline is a duration as every duration flag takes it (docs/conventions.md, "Units").
  const auto millis = grade({"http", "--client", "sleep 30", "--deadline", "800ms"});
  EXPECT_EQ(millis.failed().at("client_exits_0"), "the command was killed at the deadline") << millis.err;
}

TEST(ClientHttpGrade, DeadlineTakesUnits) {
  // Parsed, then refused for the missing --target/--client: the duration itself was accepted.
  for (const char* d : {"20s", "500ms", "2min", "20", "0.5"}) {
    const auto r = run({bin_path("netlab-grade"), "http", "--deadline", d});
    EXPECT_EQ(r.exit_code, 2) << d;
    EXPECT_NE(r.err.find("give --target HOST:PORT or --client CMD"), std::string::npos) << d << ": " << r.err;
  }
  for (const char* d : {"11min", "100ms", "20 parsecs"}) {
    const auto r = run({bin_path("netlab-grade"), "http", "--client", "true", "--deadline", d});
    EXPECT_EQ(r.exit_code, 2) << d;
    EXPECT_NE(r.err.find("--deadline"), std::string::npos) << d << ": " << r.err;
  }
}

TEST(ClientHttpGrade, UsageErrorsExitTwo) {
  EXPECT_EQ(run({bin_path("netlab-grade"), "http"}).exit_code, 2);
  EXPECT_EQ(run({bin_path("netlab-grade"), "http", "--target", "127.0.0.1:1", "--client", "true"}).exit_code, 2);
  EXPECT_EQ(run({bin_path("netlab-grade"), "http", "--client", "true", "--path", "nope"}).exit_code, 2);
}

}  // namespace
