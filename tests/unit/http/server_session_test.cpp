// The server's connection rules and the static site's decisions, with an in-memory file system.
#include "netlib/http/server_session.hpp"

#include <gtest/gtest.h>

#include <map>

#include "netlib/http/http_date.hpp"
#include "netlib/http/serializer.hpp"
#include "netlib/http/static_site.hpp"
#include "netlib/http/validators.hpp"
#include "support/split_feed.hpp"

namespace http = netlib::http;

namespace {

// A point in time, s seconds after the Unix epoch.
std::chrono::sys_seconds unix_time(std::int64_t s) {
  return std::chrono::sys_seconds{std::chrono::seconds{s}};
}

// Runs a session over the input; returns "serve GET /a" / "reply 405 close" lines.
std::string run_session(const netlab::test::pieces& in, http::server_session_options opts = {}) {
  http::server_session s(opts);
  netlib::input_buffer buf;
  std::string out;
  for (auto piece : in) {
    buf.append(piece);
    for (int guard = 0; guard < 1000; ++guard) {
      auto step = s.receive(buf.data(), {});
      if (step.actions.empty()) {
        buf.consume(step.consumed);
        break;
      }
      if (auto* r = std::get_if<http::serve_request>(&step.actions.front())) {  // views of buf: used, then consumed
        http::response_head resp;
        const bool keep = s.finish_response(r->head(), resp, {});
        out += "serve " + std::string(r->head().method) + " " + std::string(r->head().target) +
               (r->body.empty() ? "" : " body=" + std::string(r->body)) + (keep ? "" : " close") + "\n";
      }
      buf.consume(step.consumed);
      if (auto* r = std::get_if<netlib::send_bytes>(&step.actions.front())) {  // the session's own answer
        const bool close = std::holds_alternative<netlib::close_connection>(step.actions.back());
        out +=
            "reply " + std::to_string(std::get<http::response_sent>(step.actions[1]).status) + (close ? " close" : "");
        if (r->bytes.find("Allow: GET, HEAD\r\n") != std::string::npos) out += " allow";
        out += "\n";
        if (close) return out;
      }
    }
  }
  return out;
}

TEST(ServerSession, PipelinedRequestsAnsweredInOrder) {
  const std::string in =
      "GET /1 HTTP/1.1\r\nHost: a\r\n\r\n"
      "POST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
      "BREW /3 HTTP/1.1\r\nHost: a\r\n\r\n"
      "HEAD /4 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
  const std::string expected = "serve GET /1\nreply 405 allow\nreply 501\nserve HEAD /4 close\n";
  netlab::test::for_each_split(in, [&](const netlab::test::pieces& p) { ASSERT_EQ(run_session(p), expected); });
}

TEST(ServerSession, FramingErrorAnsweredAndClosed) {
  const std::string in =
      "GET / HTTP/1.1\r\nHost: a\r\n\r\nPOST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n"
      "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n";
  netlab::test::for_each_split(
      in, [&](const netlab::test::pieces& p) { ASSERT_EQ(run_session(p), "serve GET /\nreply 400 close\n"); });
}

TEST(ServerSession, Http10ClosesUnlessKeepAlive) {
  EXPECT_EQ(run_session({"GET / HTTP/1.0\r\n\r\n"}), "serve GET / close\n");
  EXPECT_EQ(run_session({"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"}), "serve GET /\n");
  http::server_session s;
  http::request_head r;
  r.version = {1, 0};
  r.fields.add("Connection", "keep-alive");
  http::response_head resp;
  EXPECT_TRUE(s.finish_response(r, resp, {{}, netlib::wall_time(std::chrono::seconds(784111777))}));
  EXPECT_EQ(resp.fields.get("Connection"), "keep-alive");
  EXPECT_EQ(resp.fields.get("Date"), "Sun, 06 Nov 1994 08:49:37 GMT");
}

class memory_files : public http::file_system {
 public:
  std::map<std::string, http::file_info> files;
  std::optional<http::file_info> stat(std::string_view path, const netlib::clock_reading&) override {
    auto it = files.find(std::string(path));
    if (it == files.end()) return std::nullopt;
    return it->second;
  }
};

http::request_head get(std::string target, std::string method = "GET") {
  http::request_head r;
  r.method = std::move(method);
  r.target = std::move(target);
  r.fields.add("Host", "a");
  return r;
}

struct SiteFixture : ::testing::Test {
  memory_files fs;
  netlib::virtual_clock clock;
  int ids = 0;
  http::session_store sessions{std::chrono::minutes(30), 100, [this] { return "s" + std::to_string(++ids); }};
  SiteFixture() {
    fs.files[""] = {true, 0, {}};
    fs.files["index.html"] = {false, 120, unix_time(1000)};
    fs.files["docs"] = {true, 0, {}};
    fs.files["img/a.png"] = {false, 1000, unix_time(2000)};
    fs.files["private"] = {true, 0, {}};
    fs.files["private/index.html"] = {false, 5, unix_time(3000)};
  }
};

TEST_F(SiteFixture, FilesDirectoriesAndErrors) {
  http::static_site site({}, fs);
  auto p = site.respond(get("/"), clock.reading());
  EXPECT_EQ(p.head.status, 200);
  EXPECT_EQ(p.head.fields.get("Content-Type"), "text/html; charset=utf-8");
  EXPECT_EQ(p.head.fields.get("Content-Length"), "120");
  EXPECT_EQ(p.head.fields.get("Last-Modified"), http::format_http_date(unix_time(1000)));
  EXPECT_EQ(p.head.fields.get("ETag"), http::make_etag(120, unix_time(1000)));
  ASSERT_TRUE(std::holds_alternative<http::file_part>(p.body));
  EXPECT_EQ(p.path, "index.html");
  EXPECT_EQ(site.respond(get("/docs"), clock.reading()).head.status, 301);
  EXPECT_EQ(site.respond(get("/docs"), clock.reading()).head.fields.get("Location"), "/docs/");
  EXPECT_EQ(site.respond(get("/docs/"), clock.reading()).head.status, 404);
  EXPECT_EQ(site.respond(get("/nope"), clock.reading()).head.status, 404);
  EXPECT_EQ(site.respond(get("/../x"), clock.reading()).head.status, 403);
  EXPECT_EQ(site.respond(get("/%2e%2e/x"), clock.reading()).head.status, 403);
  EXPECT_EQ(site.respond(get("/a%2f..%2fb"), clock.reading()).head.status, 400);
  auto head = site.respond(get("/img/a.png", "HEAD"), clock.reading());
  EXPECT_EQ(head.head.fields.get("Content-Length"), "1000");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(head.body));
}

TEST_F(SiteFixture, ConditionalAndRanges) {
  http::static_site site({}, fs);
  auto r = get("/img/a.png");
  r.fields.add("If-None-Match", http::make_etag(1000, unix_time(2000)));
  auto p = site.respond(r, clock.reading());
  EXPECT_EQ(p.head.status, 304);
  EXPECT_FALSE(p.head.fields.contains("Content-Length"));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(p.body));
  r = get("/img/a.png");
  r.fields.add("If-Modified-Since", http::format_http_date(unix_time(2000)));
  EXPECT_EQ(site.respond(r, clock.reading()).head.status, 304);
  r = get("/img/a.png");
  r.fields.add("Range", "bytes=10-19");
  p = site.respond(r, clock.reading());
  EXPECT_EQ(p.head.status, 206);
  EXPECT_EQ(p.head.fields.get("Content-Range"), "bytes 10-19/1000");
  EXPECT_EQ(std::get<http::file_part>(p.body).offset, 10u);
  EXPECT_EQ(std::get<http::file_part>(p.body).length, 10u);
  r.fields.set("Range", "bytes=5000-");
  p = site.respond(r, clock.reading());
  EXPECT_EQ(p.head.status, 416);
  EXPECT_EQ(p.head.fields.get("Content-Range"), "bytes */1000");
  r.fields.set("Range", "bytes=0-0");
  r.fields.add("If-Range", "\"stale\"");
  EXPECT_EQ(site.respond(r, clock.reading()).head.status, 200);
}

TEST_F(SiteFixture, BasicAuthFolder) {
  http::site_options o;
  o.auth = http::basic_auth_rule{"private", "lab", {{"alice", "pw"}}};
  http::static_site site(o, fs);
  auto p = site.respond(get("/private/"), clock.reading());
  EXPECT_EQ(p.head.status, 401);
  EXPECT_EQ(p.head.fields.get("WWW-Authenticate"), "Basic realm=\"lab\", charset=\"UTF-8\"");
  auto r = get("/private/");
  r.fields.add("Authorization", "Basic " + http::base64_encode("alice:pw"));
  p = site.respond(r, clock.reading());
  EXPECT_EQ(p.head.status, 200);
  EXPECT_EQ(p.user, "alice");
  EXPECT_EQ(site.respond(get("/"), clock.reading()).head.status, 200);
}

// The file system reports where a link led (file_info::resolved): the auth rule applies to that
// path too, so a link elsewhere in the root does not reach the protected folder without
// credentials (issue 17); the folder's own resolved name (real_prefix) is protected as well.
TEST_F(SiteFixture, BasicAuthIsDecidedOnTheResolvedFile) {
  fs.files["alias"] = {true, 0, {}, "private"};
  fs.files["alias/index.html"] = {false, 5, unix_time(3000), "private/index.html"};
  fs.files["secret.txt"] = {false, 7, unix_time(3000), "private/secret.txt"};
  fs.files["pub-link.txt"] = {false, 4, unix_time(3000), "img/a.png"};
  fs.files["vault/x.txt"] = {false, 3, unix_time(3000)};
  http::site_options o;
  o.auth = http::basic_auth_rule{"private", "lab", {{"alice", "pw"}}, "vault"};
  http::static_site site(o, fs);
  for (const char* target : {"/alias/", "/alias", "/alias/index.html", "/secret.txt", "/vault/x.txt"}) {
    SCOPED_TRACE(target);
    EXPECT_EQ(site.respond(get(target), clock.reading()).head.status, 401);
    auto r = get(target);
    r.fields.add("Authorization", "Basic " + http::base64_encode("alice:pw"));
    const auto p = site.respond(r, clock.reading());
    EXPECT_EQ(p.head.status, std::string_view(target) == "/alias" ? 301 : 200);
    EXPECT_EQ(p.user, "alice");
  }
  EXPECT_EQ(site.respond(get("/pub-link.txt"), clock.reading()).head.status, 200);
}

TEST_F(SiteFixture, TrailingSlashAfterAFileIsNotFound) {
  http::static_site site({}, fs);
  EXPECT_EQ(site.respond(get("/img/a.png"), clock.reading()).head.status, 200);
  EXPECT_EQ(site.respond(get("/img/a.png/"), clock.reading()).head.status, 404);
  EXPECT_EQ(site.respond(get("/index.html/"), clock.reading()).head.status, 404);
  EXPECT_EQ(site.respond(get("/"), clock.reading()).head.status, 200);
}

TEST_F(SiteFixture, CookieVisitCounter) {
  http::site_options o;
  o.cookies = true;
  http::static_site site(o, fs, &sessions);
  auto first = site.respond(get("/visits"), clock.reading());
  ASSERT_EQ(first.head.fields.get("Set-Cookie"), "sid=s1; Path=/; Max-Age=1800; HttpOnly");
  EXPECT_NE(std::get<std::string>(first.body).find("<b id=\"visits\">1</b>"), std::string::npos);
  auto again = get("/visits");
  again.fields.add("Cookie", "sid=s1");
  auto second = site.respond(again, (clock.advance(std::chrono::minutes(1)), clock.reading()));
  EXPECT_FALSE(second.head.fields.contains("Set-Cookie"));
  EXPECT_NE(std::get<std::string>(second.body).find("<b id=\"visits\">2</b>"), std::string::npos);
  auto late = site.respond(again, (clock.advance(std::chrono::hours(1)), clock.reading()));
  EXPECT_TRUE(late.head.fields.contains("Set-Cookie"));  // expired: a new visitor
  EXPECT_NE(std::get<std::string>(late.body).find("<b id=\"visits\">1</b>"), std::string::npos);
}

// A response that sets the session cookie is marked private, so no shared cache (a proxy) stores
// it and hands the session to another user (issue 17, defect 2); the visits page keeps no-store.
TEST_F(SiteFixture, CookieSettingResponsesArePrivate) {
  http::site_options o;
  o.cookies = true;
  http::static_site site(o, fs, &sessions);
  auto first = site.respond(get("/"), clock.reading());
  ASSERT_TRUE(first.head.fields.contains("Set-Cookie"));
  EXPECT_EQ(first.head.fields.get("Cache-Control"), "private");
  auto again = get("/");
  again.fields.add("Cookie", "sid=s1");
  auto second = site.respond(again, clock.reading());
  EXPECT_FALSE(second.head.fields.contains("Set-Cookie"));
  EXPECT_FALSE(second.head.fields.contains("Cache-Control"));
  auto visits = site.respond(get("/visits"), clock.reading());
  ASSERT_TRUE(visits.head.fields.contains("Set-Cookie"));
  EXPECT_EQ(visits.head.fields.get("Cache-Control"), "no-store");
}

}  // namespace
