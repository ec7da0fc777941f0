// Client pieces: URLs and references, object links in HTML, the RFC 6265 cookie jar.
#include <gtest/gtest.h>

#include "netlib/http/cookie_jar.hpp"
#include "netlib/http/http_date.hpp"
#include "netlib/http/link_extractor.hpp"
#include "netlib/http/url.hpp"

namespace http = netlib::http;
using namespace std::chrono_literals;

TEST(Url, ParseAndResolve) {
  auto u = http::parse_url("http://Example.ORG:8080/a/b.html?x=1#frag").value();
  EXPECT_EQ(u.host, "example.org");
  EXPECT_EQ(u.port, 8080);
  EXPECT_EQ(u.target, "/a/b.html?x=1");
  EXPECT_EQ(u.authority(), "example.org:8080");
  EXPECT_EQ(http::parse_url("https://h").value().port, 443);
  EXPECT_EQ(http::parse_url("https://h").value().target, "/");
  EXPECT_EQ(http::parse_url("http://[::1]:81/").value().host, "::1");
  EXPECT_FALSE(http::parse_url("ftp://h/"));
  EXPECT_FALSE(http::parse_url("http://h:0/"));
  EXPECT_FALSE(http::parse_url("http://u@h/"));
  auto r = [&](std::string_view ref) { return http::resolve_reference(u, ref).value().to_string(); };
  EXPECT_EQ(r("img/c.png"), "http://example.org:8080/a/img/c.png");
  EXPECT_EQ(r("../c.css"), "http://example.org:8080/c.css");
  EXPECT_EQ(r("/z"), "http://example.org:8080/z");
  EXPECT_EQ(r("//other/p"), "http://other/p");
  EXPECT_EQ(r("https://x.org/q?1"), "https://x.org/q?1");
  EXPECT_EQ(r("./"), "http://example.org:8080/a/");
  EXPECT_FALSE(http::resolve_reference(u, "data:image/png;base64,AAAA"));
  EXPECT_FALSE(http::resolve_reference(u, "mailto:a@b"));
}

TEST(LinkExtractor, FindsEmbeddedObjectsOnce) {
  const std::string html =
      "<html><head><LINK rel=stylesheet href='s.css'><script src=\"a.js\"></script></head>\n"
      "<!-- <img src=\"hidden.png\"> --><body><a href=\"page.html\">x</a>"
      "<img alt=\"pic\" src=img/1.png><IMG SRC=\"img/1.png\"/><img src = \"2.gif\"></body></html>";
  EXPECT_EQ(http::extract_object_links(html), (std::vector<std::string>{"s.css", "a.js", "img/1.png", "2.gif"}));
}

TEST(CookieJar, DomainPathExpiryAndSecure) {
  http::cookie_jar jar;
  const auto site = http::parse_url("http://www.example.com/shop/cart").value();
  const std::chrono::sys_seconds now{1'700'000'000s};
  EXPECT_TRUE(jar.set_from_header(site, "a=1", now));  // host-only, path /shop
  EXPECT_TRUE(jar.set_from_header(site, "b=2; Domain=.example.com; Path=/", now));
  EXPECT_FALSE(jar.set_from_header(site, "c=3; Domain=other.com", now));  // not domain-matching
  EXPECT_FALSE(jar.set_from_header(site, "d=4; Domain=com", now));        // too broad
  EXPECT_FALSE(jar.set_from_header(site, "s=5; Secure", now));            // Secure from http
  EXPECT_TRUE(jar.set_from_header(site, "m=6; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT", now));
  EXPECT_TRUE(jar.set_from_header(site, "e=7; Expires=" + http::format_http_date(now + 10s), now));
  EXPECT_EQ(jar.cookie_header(site, now), "a=1; m=6; e=7; b=2");  // longer paths first (§5.4)
  EXPECT_EQ(jar.cookie_header(http::parse_url("http://www.example.com/").value(), now), "b=2");
  EXPECT_EQ(jar.cookie_header(http::parse_url("http://img.example.com/shop/x").value(), now), "b=2");
  EXPECT_EQ(jar.cookie_header(http::parse_url("http://www.example.com/shopping").value(), now), "b=2");
  EXPECT_EQ(jar.cookie_header(site, now + 30s), "a=1; m=6; b=2");  // e expired
  EXPECT_EQ(jar.cookie_header(site, now + 61s), "a=1; b=2");       // Max-Age won over Expires
  EXPECT_TRUE(jar.set_from_header(site, "a=gone; Max-Age=0", now));
  EXPECT_EQ(jar.cookie_header(site, now), "m=6; e=7; b=2");
  const auto secure_site = http::parse_url("https://www.example.com/").value();
  EXPECT_TRUE(jar.set_from_header(secure_site, "tok=9; Secure; HttpOnly", now));
  EXPECT_EQ(jar.cookie_header(secure_site, now), "b=2; tok=9");
  EXPECT_EQ(jar.cookie_header(http::parse_url("http://www.example.com/").value(), now), "b=2");
}

TEST(CookieJar, SavesAndLoadsNetscapeFormat) {
  http::cookie_jar jar;
  const auto u = http::parse_url("http://127.0.0.1:8080/").value();
  const std::chrono::sys_seconds t0{0s};
  jar.set_from_header(u, "sid=abc; Path=/; Max-Age=100; HttpOnly", t0 + 1000s);
  jar.set_from_header(u, "tmp=1", t0 + 1000s);
  const std::string text = jar.save();
  EXPECT_NE(text.find("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t1100\tsid\tabc\n"), std::string::npos) << text;
  http::cookie_jar again;
  again.load(text);
  EXPECT_EQ(again.cookie_header(u, t0 + 1050s), "sid=abc; tmp=1");
  EXPECT_EQ(again.cookie_header(u, t0 + 1200s), "tmp=1");
  EXPECT_EQ(http::default_path("/a/b/c"), "/a/b");
  EXPECT_EQ(http::default_path("/a"), "/");
}
