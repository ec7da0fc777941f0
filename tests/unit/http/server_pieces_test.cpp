// Pure server pieces: dates, ranges, target paths, validators, cookies, sessions, Basic auth, CLF.
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string_view>
#include <vector>

#include "netlib/http/access_log.hpp"
#include "netlib/http/basic_auth.hpp"
#include "netlib/http/byte_range.hpp"
#include "netlib/http/cookie.hpp"
#include "netlib/http/fields.hpp"
#include "netlib/http/head_syntax.hpp"
#include "netlib/http/http_date.hpp"
#include "netlib/http/mime_types.hpp"
#include "netlib/http/session_store.hpp"
#include "netlib/http/target_path.hpp"
#include "netlib/http/validators.hpp"

namespace http = netlib::http;

namespace {
// A point in time, s seconds after the Unix epoch.
std::chrono::sys_seconds at(std::int64_t s) {
  return std::chrono::sys_seconds{std::chrono::seconds{s}};
}
}  // namespace

TEST(HttpDate, FormatsAndParsesAllThreeForms) {
  EXPECT_EQ(http::format_http_date(at(784111777)), "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(http::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), at(784111777));
  EXPECT_EQ(http::parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), at(784111777));
  EXPECT_EQ(http::parse_http_date("Sun Nov  6 08:49:37 1994"), at(784111777));
  EXPECT_FALSE(http::parse_http_date("yesterday"));
  EXPECT_FALSE(http::parse_http_date("Sun, 31 Feb 1994 08:49:37 GMT"));
  EXPECT_EQ(http::format_clf_date(at(784111777)), "06/Nov/1994:08:49:37 +0000");
}

TEST(ByteRange, SingleRanges) {
  using k = http::range_decision::kind;
  auto r = http::evaluate_range("bytes=0-9", 100);
  EXPECT_EQ(r.result, k::satisfiable);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.last, 9u);
  r = http::evaluate_range("bytes=90-", 100);
  EXPECT_EQ(r.first, 90u);
  EXPECT_EQ(r.last, 99u);
  r = http::evaluate_range("bytes=-10", 100);
  EXPECT_EQ(r.first, 90u);
  r = http::evaluate_range("bytes=50-1000", 100);
  EXPECT_EQ(r.last, 99u);
  EXPECT_EQ(http::evaluate_range("bytes=100-", 100).result, k::unsatisfiable);
  EXPECT_EQ(http::evaluate_range("bytes=-0", 100).result, k::unsatisfiable);
  EXPECT_EQ(http::evaluate_range("bytes=0-1,5-6", 100).result, k::ignore);
  EXPECT_EQ(http::evaluate_range("items=0-1", 100).result, k::ignore);
  EXPECT_EQ(http::evaluate_range("bytes=5-1", 100).result, k::ignore);
}

TEST(TargetPath, NormalizesAndRefusesEscapes) {
  auto ok = [](std::string_view t) { return http::decode_target(t).value.value().path; };
  EXPECT_EQ(ok("/"), "");
  EXPECT_EQ(ok("/a/b.html?x=1"), "a/b.html");
  EXPECT_EQ(ok("/a/./b/../c"), "a/c");
  EXPECT_EQ(ok("/caf%C3%A9.txt"), "caf\xc3\xa9.txt");
  EXPECT_EQ(ok("http://h:8/x/y"), "x/y");
  EXPECT_TRUE(http::decode_target("/dir/").value->trailing_slash);
  EXPECT_FALSE(http::decode_target("/dir").value->trailing_slash);
  for (auto bad : {"/../etc/passwd", "/%2e%2e/etc/passwd", "/a/../../x", "/.%2E/x"}) {
    auto r = http::decode_target(bad);
    EXPECT_FALSE(r.value) << bad;
    EXPECT_EQ(r.error, http::target_error::escapes_root) << bad;
  }
  for (auto bad : {"/a%2Fb", "/a%5Cb", "/a%00b", "/a%zz", "/a%4", "*"})
    EXPECT_FALSE(http::decode_target(bad).value) << bad;
}

// The path is decoded in place; a plain segment list (the first implementation) is the reference.
static std::optional<std::pair<std::string, bool>> reference_decode(std::string_view t) {
  t = t.substr(0, t.find('?'));
  std::vector<std::string> segments;
  bool trailing = false;
  std::size_t pos = 1;
  while (pos <= t.size()) {
    const std::size_t slash = t.find('/', pos);
    const std::string_view raw = t.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    const auto seg = http::percent_decode(raw);
    if (!seg || seg->find_first_of(std::string_view("/\\\0", 3)) != std::string::npos) return std::nullopt;
    if (*seg == "..") {
      if (segments.empty()) return std::nullopt;
      segments.pop_back();
    } else if (!seg->empty() && *seg != ".") {
      segments.push_back(*seg);
    }
    if (slash == std::string_view::npos) {
      trailing = raw.empty() || *seg == "." || *seg == "..";
      break;
    }
    pos = slash + 1;
  }
  std::string path;
  for (const auto& s : segments) path += (path.empty() ? "" : "/") + s;
  return std::pair{path, trailing};
}

TEST(TargetPath, AgreesWithASegmentListOnGeneratedTargets) {
  const std::array<std::string_view, 12> parts{"a",      "bc",  "..",  ".",   "",          "%2e",
                                               "%2E%2e", "%41", "%2F", "%zz", "caf%C3%A9", "x%"};
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 20000; ++i) {
    std::string target;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    for (std::uint64_t n = x % 7, y = x; n-- > 0; y /= 12) target += "/" + std::string(parts[y % 12]);
    if (target.empty()) target = "/";
    if (x & 1) target += "?q=1";
    const auto want = reference_decode(target);
    const auto got = http::decode_target(target);
    ASSERT_EQ(got.value.has_value(), want.has_value()) << target;
    if (!want) continue;
    EXPECT_EQ(got.value->path, want->first) << target;
    EXPECT_EQ(got.value->trailing_slash, want->second) << target;
  }
}

TEST(Fields, NamesCompareWithoutCaseAndOnlyLettersFold) {
  EXPECT_TRUE(http::iequals("Content-Length", "content-LENGTH"));
  EXPECT_FALSE(http::iequals("Content-Length", "Content-Lengt"));
  // Pairs that differ only in bit 0x20 but are not letters must stay different.
  for (auto [a, b] : {std::pair{"@", "`"}, {"[", "{"}, {"]", "}"}, {"^", "~"}, {"\x01", "!"}, {"\xc1", "\xe1"}})
    EXPECT_FALSE(http::iequals(a, b)) << a << " " << b;
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    const bool letter = std::isalpha(c) && c < 128;
    const char other = letter ? static_cast<char>(c ^ 0x20) : ch;
    EXPECT_TRUE(http::iequals(std::string_view(&ch, 1), std::string_view(&other, 1))) << c;
  }
}

TEST(HeadSyntax, TcharIsExactlyTheRfcSet) {
  const std::string_view extra = "!#$%&'*+-.^_`|~";
  for (int c = 0; c < 256; ++c) {
    const bool want =
        (c < 128 && std::isalnum(c)) || (c != 0 && extra.find(static_cast<char>(c)) != std::string_view::npos);
    EXPECT_EQ(http::is_tchar(static_cast<char>(c)), want) << c;
  }
}

TEST(Validators, ConditionalGetOrder) {
  http::request_head r;
  r.method = "GET";
  const std::string etag = http::make_etag(10, at(1000));
  EXPECT_EQ(etag, "\"a-3e8\"");
  EXPECT_EQ(http::make_etag(0, at(0)), "\"0-0\"");
  EXPECT_EQ(http::make_etag(0xffffffffffffffffull, at(-16)), "\"ffffffffffffffff--10\"");
  r.fields.add("If-None-Match", "\"other\", W/" + etag);
  EXPECT_TRUE(http::not_modified(r, etag, at(1000)));
  r.fields.set("If-None-Match", "\"other\"");
  r.fields.add("If-Modified-Since", http::format_http_date(at(5000)));
  EXPECT_FALSE(http::not_modified(r, etag, at(1000)));  // If-None-Match decides; IMS ignored
  r.fields.remove("If-None-Match");
  EXPECT_TRUE(http::not_modified(r, etag, at(1000)));
  EXPECT_FALSE(http::not_modified(r, etag, at(6000)));
  r.method = "POST";
  EXPECT_FALSE(http::not_modified(r, etag, at(1000)));
}

TEST(Cookies, ParseHeader) {
  auto c = http::parse_cookie_header("a=1; sid=\"xyz\";bad; b = 2");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[1].second, "xyz");
  EXPECT_EQ(c[2].first, "b");
  EXPECT_EQ(http::find_cookie("x=1; sid=abc", "sid"), "abc");
}

TEST(SessionStore, NewKnownExpiredAndCapped) {
  int n = 0;
  netlib::virtual_clock clock;
  http::session_store s(std::chrono::seconds(60), 2, [&] { return "id" + std::to_string(++n); });
  auto v1 = s.touch(std::nullopt, clock.now(), true);
  EXPECT_TRUE(v1.is_new);
  EXPECT_EQ(v1.visits, 1u);
  auto v2 = s.touch(v1.id, clock.advance(std::chrono::seconds(10)), true);
  EXPECT_FALSE(v2.is_new);
  EXPECT_EQ(v2.visits, 2u);
  auto unknown = s.touch(std::string_view("forged"), clock.now(), true);
  EXPECT_TRUE(unknown.is_new);
  EXPECT_EQ(unknown.visits, 1u);
  auto expired = s.touch(v1.id, clock.advance(std::chrono::seconds(61)), true);
  EXPECT_TRUE(expired.is_new);
  EXPECT_NE(expired.id, v1.id);
  for (int i = 0; i < 5; ++i) s.touch(std::nullopt, clock.now(), false);
  EXPECT_LE(s.size(), 2u);
}

TEST(BasicAuth, DecodeAndCheck) {
  EXPECT_EQ(http::base64_decode("d2lyZXNoYXJrLXN0dWRlbnRzOm5ldHdvcms="), "wireshark-students:network");
  EXPECT_EQ(http::base64_encode("wireshark-students:network"), "d2lyZXNoYXJrLXN0dWRlbnRzOm5ldHdvcms=");
  EXPECT_FALSE(http::base64_decode("abc"));
  http::basic_auth_rule rule{"private", "lab",
                             netlib::users_table::parse("# users\nalice:s3cret\n\nbob:pw:with:colons\n")};
  EXPECT_TRUE(rule.users.check("bob", "pw:with:colons"));
  http::request_head r;
  EXPECT_FALSE(http::check_basic_auth(rule, "public/a", r).required);
  EXPECT_FALSE(http::check_basic_auth(rule, "privateer", r).required);
  auto d = http::check_basic_auth(rule, "private/a", r);
  EXPECT_TRUE(d.required);
  EXPECT_FALSE(d.granted);
  r.fields.add("Authorization", "Basic " + http::base64_encode("alice:wrong"));
  EXPECT_FALSE(http::check_basic_auth(rule, "private", r).granted);
  r.fields.set("Authorization", "basic " + http::base64_encode("alice:s3cret"));
  d = http::check_basic_auth(rule, "private/x", r);
  EXPECT_TRUE(d.granted);
  EXPECT_EQ(d.user, "alice");
}

TEST(AccessLog, CommonLogFormat) {
  http::access_record r{"127.0.0.1", "alice", at(784111777), "GET /a \"b\" HTTP/1.1", 200, 1043};
  EXPECT_EQ(http::format_clf(r),
            "127.0.0.1 - alice [06/Nov/1994:08:49:37 +0000] \"GET /a \\\"b\\\" HTTP/1.1\" 200 1043");
  r.user.clear();
  r.body_bytes = 0;
  EXPECT_EQ(http::format_clf(r).substr(0, 14), "127.0.0.1 - - ");
  EXPECT_EQ(http::format_clf(r).back(), '-');
  // No request line (a connection that sent garbage or nothing parseable): "-", not "".
  r.request_line.clear();
  r.status = 400;
  r.body_bytes = 11;
  EXPECT_EQ(http::format_clf(r), "127.0.0.1 - - [06/Nov/1994:08:49:37 +0000] \"-\" 400 11");
}

TEST(AccessLog, BodySizeOfAWholeResponse) {
  EXPECT_EQ(http::body_size_of("HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 5\r\n\r\nhello"),
            5u);
  EXPECT_EQ(http::body_size_of("HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"), 0u);
  EXPECT_EQ(http::body_size_of("not a response"), 0u);
}

TEST(MimeTypes, ByExtension) {
  EXPECT_EQ(http::mime_type_for("a/index.HTML"), "text/html; charset=utf-8");
  EXPECT_EQ(http::mime_type_for("x.png"), "image/png");
  EXPECT_EQ(http::mime_type_for("noext"), "application/octet-stream");
  EXPECT_EQ(http::mime_type_for("dir.d/noext"), "application/octet-stream");
  EXPECT_EQ(http::mime_type_for("font.WOFF2"), "font/woff2");
  EXPECT_EQ(http::mime_type_for("app.Js"), "text/javascript; charset=utf-8");
  using namespace std::string_view_literals;
  for (auto other : {"a.woff22"sv, "a."sv, "a.j"sv, "a.jss"sv, "a.\0js"sv, "a.js\0"sv, "a.html5"sv})
    EXPECT_EQ(http::mime_type_for(other), "application/octet-stream") << other;
}

TEST(HttpDate, FormatAgreesWithGmtimeAcrossTheCalendar) {
  // Leap days, century rules, the epoch, times before it, and a spread of instants up to 9999.
  std::vector<std::int64_t> times{0,          -1,         86399,        86400,        951782400,  951868800,
                                  4107542399, 4107542400, -62135596800, 253402300799, 1798761599, 1798761600};
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    times.push_back(static_cast<std::int64_t>(x % 315537897600ull) - 62135596800);
  }
  for (const std::int64_t t : times) {
    const std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    ASSERT_TRUE(::gmtime_r(&tt, &tm)) << t;
    char want[64];
    std::snprintf(want, sizeof want, "%s, %02d %s %04d %02d:%02d:%02d GMT",
                  std::array{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}[static_cast<std::size_t>(tm.tm_wday)],
                  tm.tm_mday,
                  std::array{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                             "Dec"}[static_cast<std::size_t>(tm.tm_mon)],
                  tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    ASSERT_EQ(http::format_http_date(at(t)), want) << t;
    ASSERT_EQ(http::parse_http_date(want), at(t)) << want;
  }
}

TEST(HttpDate, RepeatedAndAlternatingTimesGiveTheirOwnText) {
  // The formatter keeps its last answers; three times in turn must never get each other's text.
  const std::array<std::int64_t, 3> times{784111777, 0, 1798761600};
  const std::array<std::string_view, 3> want{"Sun, 06 Nov 1994 08:49:37 GMT", "Thu, 01 Jan 1970 00:00:00 GMT",
                                             "Fri, 01 Jan 2027 00:00:00 GMT"};
  for (int i = 0; i < 30; ++i) {
    const std::size_t k = static_cast<std::size_t>(i * 7 % 3);
    ASSERT_EQ(http::format_http_date(at(times[k])), want[k]) << i;
  }
}
