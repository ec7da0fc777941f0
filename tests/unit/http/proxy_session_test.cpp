// netlib::http::proxy_session in memory: the proxy's decisions without a socket. A harness plays
// the driver (it executes sends, connects and closes, and collects what reached the client) and
// the tests play the client and the origin: freshness and HIT/MISS, revalidation and 304 merging,
// Vary, no-store, private, Set-Cookie, 502 (unreachable, not HTTP, malformed, closed early) and
// 504 (the total deadline), streaming with back-pressure, the per-object limit and the reserved
// room, chunked and close-delimited bodies, a client that leaves, hop-by-hop fields, and the
// origin's response split at every offset.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "netlib/http/cache_policy.hpp"
#include "netlib/http/http_date.hpp"
#include "netlib/http/proxy_session.hpp"
#include "support/split_feed.hpp"

// A named namespace: the unity build joins this file with the other HTTP tests, whose helpers
// have the same names (get, field).
namespace proxy_session_test {
namespace {

namespace http = netlib::http;
using namespace std::chrono_literals;

constexpr std::chrono::sys_seconds t0{std::chrono::seconds{1'700'000'000}};  // the wall clock at every test's start

struct harness {
  http::proxy_shared shared;
  http::proxy_options options;
  std::unique_ptr<http::proxy_session> s;
  netlib::input_buffer client;
  netlib::time_point now{std::chrono::seconds(1000)};
  std::chrono::sys_seconds wall = t0;
  // The two clocks of a reading; tests move them apart (a cached reply ages on the wall clock).
  netlib::clock_reading at() const { return {now, netlib::wall_time(wall)}; }
  std::string to_client;  // every byte sent to the client
  std::vector<http::proxy_connect_origin> connects;
  int origin_closes = 0;
  int sends = 0;
  std::size_t largest_send = 0;
  bool client_closed = false;

  explicit harness(std::size_t cache = 1 << 20, std::size_t max_object = 64 << 10) : shared(cache, max_object) {
    options.origin_timeout = 10s;
    s = std::make_unique<http::proxy_session>(shared, options);
  }
  void reopen() {  // a new client connection to the same proxy
    s = std::make_unique<http::proxy_session>(shared, options);
    client.clear();
    to_client.clear();
    client_closed = false;
  }
  // Runs the session until it waits for a party; returns that wait (read_client, read_origin or
  // close_client), after executing the sends, connects and closes before it.
  http::proxy_action run() {
    for (int i = 0; i < 100000; ++i) {
      auto step = s->next(client.data(), at());
      client.consume(step.consumed);
      if (auto* send = std::get_if<http::proxy_send_client>(&step.action)) {
        to_client += send->bytes;
        to_client += send->body;
        ++sends;
        largest_send = std::max(largest_send, send->bytes.size() + send->body.size());
      } else if (auto* c = std::get_if<http::proxy_connect_origin>(&step.action)) {
        connects.push_back(*c);
      } else if (std::holds_alternative<http::proxy_close_origin>(step.action)) {
        ++origin_closes;
      } else {
        if (std::holds_alternative<http::proxy_close_client>(step.action)) client_closed = true;
        return step.action;
      }
    }
    ADD_FAILURE() << "the session never waited";
    return http::proxy_close_client{};
  }
  bool waits_for_origin() { return std::holds_alternative<http::proxy_read_origin>(run()); }
  bool waits_for_client() { return std::holds_alternative<http::proxy_read_client>(run()); }
  // The client sends a request; returns true when the session then waits for the origin.
  bool request(std::string_view bytes) {
    client.append(bytes);
    return waits_for_origin();
  }
  void origin(std::string_view bytes) { s->origin_data(netlib::as_bytes(bytes), at()); }
  void origin_eof() { s->origin_eof(at()); }
  // The response the client got last (from its status line on), and clears it.
  std::string take() {
    std::string r = std::move(to_client);
    to_client.clear();
    return r;
  }
};

std::string get(const std::string& url, const std::string& extra = "") {
  return "GET " + url + " HTTP/1.1\r\nHost: x\r\n" + extra + "\r\n";
}

std::string field(const std::string& response, const std::string& name) {
  const auto end = response.find("\r\n\r\n");
  const auto p = response.find("\r\n" + name + ": ");
  if (p == std::string::npos || p > end) return {};
  const auto start = p + name.size() + 4;
  return response.substr(start, response.find("\r\n", start) - start);
}

std::string body_of(const std::string& response) {
  const auto p = response.find("\r\n\r\n");
  return p == std::string::npos ? std::string() : response.substr(p + 4);
}

// The body of a chunked response with its framing removed (chunk extensions ignored).
std::string dechunked(const std::string& response) {
  std::string body = body_of(response), out;
  std::size_t at = 0;
  for (int i = 0; i < 100000 && at < body.size(); ++i) {
    const std::size_t eol = body.find("\r\n", at);
    const std::size_t size = std::stoul(body.substr(at, eol - at), nullptr, 16);
    if (size == 0) break;
    out += body.substr(eol + 2, size);
    at = eol + 2 + size + 2;
  }
  return out;
}

int status_of(const std::string& response) {
  return response.size() > 12 ? std::stoi(response.substr(9, 3)) : 0;
}

// An origin response with a body and Content-Length.
std::string ok(const std::string& body, const std::string& fields) {
  return "HTTP/1.1 200 OK\r\nDate: " + http::format_http_date(t0) +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + fields + "\r\n" + body;
}

const std::string url = "http://origin.test:8080/a.txt?q=1";

TEST(ProxySession, MissIsForwardedInOriginFormThenAFreshCopyIsAHit) {
  harness h;
  ASSERT_TRUE(
      h.request(get(url, "Connection: keep-alive, X-Secret\r\nX-Secret: 1\r\nProxy-Authorization: Basic x\r\n")));
  ASSERT_EQ(h.connects.size(), 1u);
  const auto& c = h.connects[0];
  EXPECT_EQ(c.host, "origin.test");
  EXPECT_EQ(c.port, 8080);
  EXPECT_EQ(c.deadline, h.now + 10s);
  EXPECT_EQ(c.request.rfind("GET /a.txt?q=1 HTTP/1.1\r\n", 0), 0u) << c.request;
  EXPECT_NE(c.request.find("\r\nHost: origin.test:8080\r\n"), std::string::npos);
  EXPECT_NE(c.request.find("\r\nVia: 1.1 netlab-proxy\r\n"), std::string::npos);
  EXPECT_NE(c.request.find("\r\nConnection: close\r\n"), std::string::npos);
  EXPECT_EQ(c.request.find("X-Secret"), std::string::npos);  // named by Connection: hop-by-hop
  EXPECT_EQ(c.request.find("Proxy-Authorization"), std::string::npos);
  h.origin(
      ok("hello",
         "Cache-Control: max-age=60\r\nConnection: close, X-Internal\r\nX-Internal: 1\r\nKeep-Alive: timeout=5\r\n"));
  EXPECT_TRUE(h.waits_for_client());
  EXPECT_EQ(h.origin_closes, 1);
  const std::string miss = h.take();
  EXPECT_EQ(miss.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << miss;
  EXPECT_EQ(field(miss, "X-Cache"), "MISS");
  EXPECT_EQ(field(miss, "Via"), "1.1 netlab-proxy");
  EXPECT_EQ(field(miss, "Content-Length"), "5");
  EXPECT_EQ(field(miss, "Date"), http::format_http_date(t0));  // the origin's Date is kept
  EXPECT_EQ(field(miss, "X-Internal"), "");
  EXPECT_EQ(field(miss, "Keep-Alive"), "");
  EXPECT_EQ(body_of(miss), "hello");
  h.wall += std::chrono::seconds(20);
  h.client.append(get(url));
  EXPECT_TRUE(h.waits_for_client());
  EXPECT_EQ(h.connects.size(), 1u);  // not asked again
  const std::string hit = h.take();
  EXPECT_EQ(field(hit, "X-Cache"), "HIT");
  EXPECT_EQ(field(hit, "Age"), "20");
  EXPECT_EQ(body_of(hit), "hello");
  EXPECT_EQ(h.shared.counters.hits, 1u);
  EXPECT_EQ(h.shared.counters.misses, 1u);
}

TEST(ProxySession, HitAnswersTheClientsOwnConditionalWith304) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin(ok("hello", "Cache-Control: max-age=60\r\nETag: \"v1\"\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  h.take();
  h.client.append(get(url, "If-None-Match: \"v1\"\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  const std::string r = h.take();
  EXPECT_EQ(status_of(r), 304);
  EXPECT_EQ(field(r, "X-Cache"), "HIT");
  EXPECT_EQ(body_of(r), "");
}

TEST(ProxySession, StaleEntryIsRevalidatedAnd304IsMergedIntoTheStoredResponse) {
  harness h;
  const std::string lm = http::format_http_date(t0 - std::chrono::seconds(1000));
  ASSERT_TRUE(h.request(get(url)));
  h.origin(
      ok("stored body", "Cache-Control: max-age=5\r\nETag: \"v1\"\r\nLast-Modified: " + lm + "\r\nX-Version: 1\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  h.take();
  h.wall += std::chrono::seconds(10);  // stale now (RFC 9111 §4.2)
  ASSERT_TRUE(h.request(get(url)));
  ASSERT_EQ(h.connects.size(), 2u);
  EXPECT_NE(h.connects[1].request.find("\r\nIf-None-Match: \"v1\"\r\n"), std::string::npos);
  EXPECT_NE(h.connects[1].request.find("\r\nIf-Modified-Since: " + lm + "\r\n"), std::string::npos);
  h.origin("HTTP/1.1 304 Not Modified\r\nDate: " + http::format_http_date(h.wall) +
           "\r\nCache-Control: max-age=60\r\nX-Version: 2\r\nContent-Length: 99\r\n\r\n");
  ASSERT_TRUE(h.waits_for_client());
  const std::string r = h.take();
  EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << r;
  EXPECT_EQ(field(r, "X-Cache"), "REVALIDATED");
  EXPECT_EQ(field(r, "X-Version"), "2");        // §4.3.4: the 304's fields replace the stored ones
  EXPECT_EQ(field(r, "Content-Length"), "11");  // ... except Content-Length
  EXPECT_EQ(body_of(r), "stored body");
  EXPECT_EQ(h.shared.counters.revalidated, 1u);
  h.wall += std::chrono::seconds(30);  // fresh for 60 s from the 304
  h.client.append(get(url));
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(field(h.take(), "X-Cache"), "HIT");
  EXPECT_EQ(h.connects.size(), 2u);
}

TEST(ProxySession, StaleEntryWithoutValidatorsIsFetchedAgainUnconditionally) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin(ok("one", "Cache-Control: max-age=5\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  h.take();
  h.wall += std::chrono::seconds(10);
  ASSERT_TRUE(h.request(get(url)));
  EXPECT_EQ(h.connects[1].request.find("If-"), std::string::npos);
  h.origin(ok("two", "Cache-Control: max-age=5\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  const std::string r = h.take();
  EXPECT_EQ(field(r, "X-Cache"), "MISS");
  EXPECT_EQ(body_of(r), "two");
}

TEST(ProxySession, ThreeOhFourWithSetCookieIsServedButNoLongerStored) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin(ok("body", "Cache-Control: max-age=5\r\nETag: \"v1\"\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  h.take();
  h.wall += std::chrono::seconds(10);
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP/1.1 304 Not Modified\r\nSet-Cookie: sid=alice\r\n\r\n");
  ASSERT_TRUE(h.waits_for_client());
  const std::string r = h.take();
  EXPECT_EQ(field(r, "X-Cache"), "REVALIDATED");
  EXPECT_EQ(field(r, "Set-Cookie"), "sid=alice");
  EXPECT_EQ(h.shared.cache.size(), 0u);  // alice's cookie is not kept for the next client
  ASSERT_TRUE(h.request(get(url)));      // so the next one goes to the origin
  EXPECT_EQ(h.connects.size(), 3u);
}

TEST(ProxySession, VarySelectsTheStoredVariant) {
  harness h;
  ASSERT_TRUE(h.request(get(url, "Accept-Language: en\r\n")));
  h.origin(ok("english", "Cache-Control: max-age=60\r\nVary: Accept-Language\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  h.take();
  h.client.append(get(url, "Accept-Language:  en \r\n"));  // the same value, other spacing
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(field(h.take(), "X-Cache"), "HIT");
  ASSERT_TRUE(h.request(get(url, "Accept-Language: fr\r\n")));  // another variant: to the origin
  EXPECT_EQ(h.connects.size(), 2u);
  EXPECT_EQ(h.connects[1].request.find("If-"), std::string::npos);
  h.origin(ok("francais", "Cache-Control: max-age=60\r\nVary: Accept-Language\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(body_of(h.take()), "francais");
  ASSERT_TRUE(h.request(get(url)));  // no Accept-Language at all: another variant again
  EXPECT_EQ(h.connects.size(), 3u);
}

TEST(ProxySession, VaryStarIsNeverAHit) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin(ok("x", "Cache-Control: max-age=60\r\nVary: *\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  ASSERT_TRUE(h.request(get(url)));
  EXPECT_EQ(h.connects.size(), 2u);
}

// Responses a shared cache must not store (RFC 9111 §3, §5.2.2.5, §5.2.2.7, §7.3) and requests
// that forbid storing (§5.2.1.5): each time the next request goes to the origin again.
TEST(ProxySession, NoStorePrivateAndSetCookieAreNotStored) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "Cache-Control: no-store, max-age=60\r\n"},
      {"", "Cache-Control: private, max-age=60\r\n"},
      {"", "Cache-Control: max-age=60\r\nSet-Cookie: sid=alice; HttpOnly\r\n"},
      {"Cache-Control: no-store\r\n", "Cache-Control: max-age=60\r\n"},
  };
  for (const auto& [request_fields, response_fields] : cases) {
    harness h;
    ASSERT_TRUE(h.request(get(url, request_fields)));
    h.origin(ok("x", response_fields));
    ASSERT_TRUE(h.waits_for_client());
    EXPECT_EQ(field(h.take(), "X-Cache"), "MISS");
    EXPECT_EQ(h.shared.cache.size(), 0u) << response_fields;
    EXPECT_TRUE(h.request(get(url))) << response_fields;
    EXPECT_EQ(h.connects.size(), 2u) << response_fields;
  }
}

TEST(ProxySession, UnreachableOriginIs502AndTheClientConnectionStays) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.s->origin_error("cannot connect to origin.test:8080: Connection refused", h.at());
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(h.origin_closes, 1);
  const std::string r = h.take();
  EXPECT_EQ(status_of(r), 502);
  EXPECT_NE(body_of(r).find("Connection refused"), std::string::npos);
  EXPECT_EQ(h.shared.counters.errors, 1u);
  h.client.append("GET /netlab-proxy/stats HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(body_of(h.take()),
            "{\"cached_bytes\":0,\"cached_objects\":0,\"errors\":1,\"evictions\":0,\"hits\":0,\"misses\":0,"
            "\"revalidated\":0}\n");
}

// RFC 9112 §4: a response begins with "HTTP/". Anything else is known from its first byte.
TEST(ProxySession, ReplyThatIsNotHttpIs502FromItsFirstByte) {
  for (const std::string reply : {"S", "SSH-2.0-OpenSSH_9.2\r\n", "220 mail.example ESMTP\r\n", "http/1.1 200 OK\r\n",
                                  "HTTP/1.1 2x0 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nBad Field\r\n\r\n"}) {
    harness h;
    ASSERT_TRUE(h.request(get(url)));
    h.origin(reply);
    ASSERT_TRUE(h.waits_for_client()) << reply;
    EXPECT_EQ(status_of(h.take()), 502) << reply;
  }
  harness h;  // a valid beginning is waited on
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP");
  EXPECT_TRUE(h.waits_for_origin());
}

TEST(ProxySession, OriginClosingBeforeAResponseIs502) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP/1.1 200 OK\r\nContent-");
  h.origin_eof();
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(status_of(h.take()), 502);
}

// The deadline covers the whole exchange up to the head: a trickling origin does not move it.
TEST(ProxySession, TotalDeadlineGives504HoweverTheOriginTrickles) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  const std::string head = "HTTP/1.1 200 OK\r\nX-Slow: aaaaaaaaaa";
  for (char ch : head) {
    h.now += 1s;
    h.origin(std::string(1, ch));
    auto wait = h.run();
    ASSERT_TRUE(std::holds_alternative<http::proxy_read_origin>(wait));
    EXPECT_EQ(std::get<http::proxy_read_origin>(wait).deadline, h.connects[0].deadline);
    if (h.now + 1s >= h.connects[0].deadline) break;
  }
  h.s->origin_deadline(h.at());  // early: ignored
  EXPECT_TRUE(h.waits_for_origin());
  h.now = h.connects[0].deadline;
  h.s->origin_deadline(h.at());
  ASSERT_TRUE(h.waits_for_client());
  const std::string r = h.take();
  EXPECT_EQ(status_of(r), 504);
  EXPECT_NE(body_of(r).find("within 10 s"), std::string::npos) << r;
  EXPECT_EQ(h.origin_closes, 1);
}

// Body pieces go out as they come: before the session asks for more origin bytes, what the last
// ones produced has been sent, so the origin is read only as fast as the client takes it.
TEST(ProxySession, LargeBodyStreamsThroughWithoutBeingHeldOrStored) {
  harness h(1 << 20, 64 << 10);
  const std::string body(1 << 20, 'b');  // over the per-object limit
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n");
  ASSERT_TRUE(h.waits_for_origin());
  EXPECT_EQ(field(h.to_client, "Content-Length"), std::to_string(body.size()));
  const std::size_t head_size = h.to_client.size();
  for (std::size_t at = 0; at < body.size(); at += 16384) {
    const std::size_t sent_before = h.to_client.size();
    h.origin(std::string_view(body).substr(at, 16384));
    auto wait = h.run();
    if (at + 16384 < body.size()) {
      ASSERT_TRUE(std::holds_alternative<http::proxy_read_origin>(wait));
    }
    EXPECT_EQ(h.to_client.size() - sent_before, std::min<std::size_t>(16384, body.size() - at));  // all of it, at once
    EXPECT_EQ(h.shared.cache.reserved(), 0u);  // nothing gathered: over the limit from its head
  }
  EXPECT_TRUE(h.waits_for_client());
  EXPECT_EQ(h.to_client.size() - head_size, body.size());
  EXPECT_LE(h.largest_send, 16384u + 64);
  EXPECT_EQ(h.shared.cache.size(), 0u);
}

TEST(ProxySession, ObjectsUpToTheLimitAreStoredLargerOnesOnlyPass) {
  harness h(1 << 20, 4096);
  ASSERT_TRUE(h.request(get(url)));
  h.origin(ok(std::string(3000, 's'), "Cache-Control: max-age=60\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(h.shared.cache.size(), 1u);
  EXPECT_EQ(h.shared.cache.reserved(), 0u);
  const std::string big_url = "http://origin.test:8080/big";
  ASSERT_TRUE(h.request(get(big_url)));
  h.origin(ok(std::string(5000, 'l'), "Cache-Control: max-age=60\r\n"));
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(h.shared.cache.size(), 1u);
  // Unknown length (chunked): gathered until it passes the limit, then only streamed.
  const std::string chunked_url = "http://origin.test:8080/chunked";
  ASSERT_TRUE(h.request(get(chunked_url)));
  h.origin("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nTransfer-Encoding: chunked\r\n\r\n");
  for (int i = 0; i < 5; ++i) {
    h.origin("3e8\r\n" + std::string(1000, 'c') + "\r\n");
    if (i == 0) {
      EXPECT_GT(h.shared.cache.reserved(), 1000u);  // being gathered
    }
  }
  EXPECT_EQ(h.shared.cache.reserved(), 0u);  // given up past 4096
  h.origin("0\r\n\r\n");
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(h.shared.cache.size(), 1u);
  ASSERT_TRUE(h.request(get(chunked_url)));  // not stored: to the origin again
}

TEST(ProxySession, ChunkedOriginBodyIsChunkedToHttp11AndCloseDelimitedToHttp10) {
  const std::string response =
      "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n";
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin(response);
  ASSERT_TRUE(h.waits_for_client());
  std::string r = h.take();
  EXPECT_EQ(field(r, "Transfer-Encoding"), "chunked");
  EXPECT_EQ(field(r, "Content-Length"), "");
  EXPECT_EQ(body_of(r), "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
  // Stored whole: the HIT has a length.
  h.client.append(get(url));
  ASSERT_TRUE(h.waits_for_client());
  r = h.take();
  EXPECT_EQ(field(r, "Content-Length"), "11");
  EXPECT_EQ(body_of(r), "hello world");

  harness old;
  ASSERT_TRUE(old.request("GET " + url + " HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
  old.origin(response);
  EXPECT_TRUE(std::holds_alternative<http::proxy_close_client>(old.run()));
  r = old.take();
  EXPECT_EQ(field(r, "Transfer-Encoding"), "");
  EXPECT_EQ(field(r, "Connection"), "close");
  EXPECT_EQ(body_of(r), "hello world");
}

TEST(ProxySession, CloseDelimitedOriginBodyEndsAtTheOriginsEndOfStream) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP/1.0 200 OK\r\nCache-Control: max-age=60\r\n\r\nuntil ");
  h.origin("the end");
  EXPECT_TRUE(h.waits_for_origin());
  h.origin_eof();
  ASSERT_TRUE(h.waits_for_client());
  const std::string r = h.take();
  EXPECT_EQ(field(r, "Via"), "1.0 netlab-proxy");  // the origin's protocol (RFC 9110 §7.6.3)
  EXPECT_EQ(body_of(r), "6\r\nuntil \r\n7\r\nthe end\r\n0\r\n\r\n");
  EXPECT_EQ(h.shared.cache.size(), 1u);
}

TEST(ProxySession, OriginBreakingMidBodyClosesTheClientConnection) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 100\r\n\r\npartial");
  EXPECT_TRUE(h.waits_for_origin());
  EXPECT_GT(h.shared.cache.reserved(), 0u);
  h.origin_eof();
  EXPECT_TRUE(std::holds_alternative<http::proxy_close_client>(h.run()));
  EXPECT_EQ(h.shared.cache.reserved(), 0u);
  EXPECT_EQ(h.shared.cache.size(), 0u);
  EXPECT_EQ(h.shared.counters.errors, 1u);
  // A deadline while streaming (the origin silent for origin_timeout) ends it the same way.
  harness d;
  ASSERT_TRUE(d.request(get(url)));
  d.origin("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial");
  d.now += 60s;  // the head arrived; waiting for the client does not count
  auto wait = d.run();
  ASSERT_TRUE(std::holds_alternative<http::proxy_read_origin>(wait));
  EXPECT_EQ(std::get<http::proxy_read_origin>(wait).deadline, d.now + 10s);
  d.now += 10s;
  d.s->origin_deadline(d.at());
  EXPECT_TRUE(std::holds_alternative<http::proxy_close_client>(d.run()));
}

TEST(ProxySession, ClientLeavingAbandonsTheExchangeAndItsReservedRoom) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 1000\r\n\r\n" + std::string(10, 'x'));
  EXPECT_TRUE(h.waits_for_origin());
  EXPECT_GT(h.shared.cache.reserved(), 1000u);
  h.s->client_gone();
  EXPECT_TRUE(std::holds_alternative<http::proxy_close_client>(h.run()));
  EXPECT_EQ(h.origin_closes, 1);
  EXPECT_EQ(h.shared.cache.reserved(), 0u);
  EXPECT_EQ(h.shared.cache.size(), 0u);
  // The destructor gives reserved room back too (a driver that ends without client_gone).
  h.reopen();
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 1000\r\n\r\n");
  EXPECT_GT(h.shared.cache.reserved(), 0u);
  h.s.reset();
  EXPECT_EQ(h.shared.cache.reserved(), 0u);
}

// Room being gathered counts against the total: two responses that do not fit together are not
// both gathered; the second only streams.
TEST(ProxySession, GatheredResponsesShareTheStoresTotal) {
  harness a(6000, 5000);
  http::proxy_session second(a.shared, a.options);
  ASSERT_TRUE(a.request(get(url)));
  a.origin("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 4000\r\n\r\n");
  const std::size_t first_room = a.shared.cache.reserved();
  EXPECT_GT(first_room, 4000u);
  netlib::input_buffer in;
  in.append(get("http://origin.test:8080/other"));
  auto step = second.next(in.data(), a.at());
  ASSERT_TRUE(std::holds_alternative<http::proxy_connect_origin>(step.action));
  second.origin_data(netlib::as_bytes("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 4000\r\n\r\n"),
                     a.at());
  EXPECT_EQ(a.shared.cache.reserved(), first_room);  // no room for the second
  EXPECT_LE(a.shared.cache.bytes() + a.shared.cache.reserved(), 6000u);
}

TEST(ProxySession, HeadIsForwardedNeverStoredAndKeepsTheLength) {
  harness h;
  ASSERT_TRUE(h.request("HEAD " + url + " HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_EQ(h.connects[0].request.rfind("HEAD /a.txt?q=1 HTTP/1.1", 0), 0u);
  h.origin("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 1234\r\n\r\n");
  ASSERT_TRUE(h.waits_for_client());
  const std::string r = h.take();
  EXPECT_EQ(field(r, "Content-Length"), "1234");
  EXPECT_EQ(body_of(r), "");
  EXPECT_EQ(h.shared.cache.size(), 0u);
}

TEST(ProxySession, InterimResponsesAreSkipped) {
  harness h;
  ASSERT_TRUE(h.request(get(url)));
  h.origin("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  ASSERT_TRUE(h.waits_for_client());
  const std::string r = h.take();
  EXPECT_EQ(status_of(r), 200);
  EXPECT_EQ(body_of(r), "ok");
}

TEST(ProxySession, LocalAnswers400And403AndRequestErrors) {
  harness h;
  h.client.append(get("/just/a/path"));
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(status_of(h.take()), 400);
  h.client.append(get("https://origin.test/"));
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(status_of(h.take()), 400);
  for (const std::string port : {"25", "22", "110", "1024"}) {
    h.client.append(get("http://127.0.0.1:" + port + "/"));
    ASSERT_TRUE(h.waits_for_client());
    const std::string r = h.take();
    EXPECT_EQ(status_of(r), 403) << port;
    EXPECT_NE(body_of(r).find("80,1025-65535"), std::string::npos) << r;
  }
  EXPECT_TRUE(h.connects.empty());
  h.client.append(get("http://127.0.0.1/"));  // port 80
  EXPECT_TRUE(h.waits_for_origin());
  h.reopen();
  h.client.append("POST " + url + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
  ASSERT_TRUE(h.waits_for_client());
  EXPECT_EQ(status_of(h.take()), 405);
  h.client.append("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n");
  EXPECT_TRUE(std::holds_alternative<http::proxy_close_client>(h.run()));
  EXPECT_EQ(status_of(h.take()), 400);
}

TEST(ProxySession, ConnectionCloseFromTheClientEndsTheConnectionAfterTheResponse) {
  harness h;
  ASSERT_TRUE(h.request(get(url, "Connection: close\r\n")));
  h.origin(ok("bye", ""));
  EXPECT_TRUE(std::holds_alternative<http::proxy_close_client>(h.run()));
  EXPECT_EQ(field(h.take(), "Connection"), "close");
}

TEST(ProxySession, PipelinedRequestsAreAnsweredInOrder) {
  harness h;
  h.client.append(get(url) + get("http://origin.test:8080/second"));
  ASSERT_TRUE(h.waits_for_origin());
  h.origin(ok("first", ""));
  ASSERT_TRUE(h.waits_for_origin());  // the second request, from the buffered bytes
  ASSERT_EQ(h.connects.size(), 2u);
  EXPECT_EQ(h.connects[1].request.rfind("GET /second HTTP/1.1", 0), 0u);
  h.origin(ok("second", ""));
  ASSERT_TRUE(h.waits_for_client());
  const std::string both = h.take();
  EXPECT_LT(both.find("first"), both.find("second"));
}

// The origin's response split at every offset gives the client the same bytes.
TEST(ProxySession, OriginResponseSplitAtEveryOffset) {
  const std::vector<std::string> responses = {
      ok("split body", "Cache-Control: max-age=60\r\nETag: \"e\"\r\n"),
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n2;x=y\r\nef\r\n0\r\n\r\n",
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nnot",
  };
  for (const auto& response : responses) {
    std::string whole;
    netlab::test::for_each_split(response, [&](const netlab::test::pieces& pieces) {
      harness h;
      ASSERT_TRUE(h.request(get(url)));
      for (auto piece : pieces) {
        h.origin(piece);
        h.run();
      }
      std::string r = h.take();
      // Chunks to the client follow the pieces the origin's bytes came in: compare the head and
      // the body without its framing.
      if (field(r, "Transfer-Encoding") == "chunked") r = r.substr(0, r.find("\r\n\r\n") + 4) + dechunked(r);
      if (whole.empty()) whole = r;
      EXPECT_EQ(r, whole);
      EXPECT_EQ(h.origin_closes, 1);
    });
  }
}

// The client's request split at every offset gives the same request to the origin.
TEST(ProxySession, ClientRequestSplitAtEveryOffset) {
  const std::string request = get(url, "Accept: text/plain\r\nConnection: keep-alive\r\n");
  std::string whole;
  netlab::test::for_each_split(request, [&](const netlab::test::pieces& pieces) {
    harness h;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      h.client.append(pieces[i]);
      auto wait = h.run();
      if (i + 1 < pieces.size()) {
        ASSERT_TRUE(std::holds_alternative<http::proxy_read_client>(wait));
      } else {
        ASSERT_TRUE(std::holds_alternative<http::proxy_read_origin>(wait));
      }
    }
    ASSERT_EQ(h.connects.size(), 1u);
    if (whole.empty()) whole = h.connects[0].request;
    EXPECT_EQ(h.connects[0].request, whole);
  });
}

// Slowloris: a request head must be complete within head_timeout of its first byte, however
// slowly it trickles; between requests there is no such deadline.
TEST(ProxySession, RequestHeadHasADeadlineFromItsFirstByte) {
  harness h;
  auto wait = h.run();
  ASSERT_TRUE(std::holds_alternative<http::proxy_read_client>(wait));
  EXPECT_FALSE(std::get<http::proxy_read_client>(wait).deadline);  // nothing buffered: idle
  const netlib::time_point first = h.now;
  const std::string head = get(url);
  for (std::size_t i = 0; i + 1 < head.size() && i < 8; ++i) {
    h.client.append(head.substr(i, 1));
    wait = h.run();
    ASSERT_TRUE(std::holds_alternative<http::proxy_read_client>(wait));
    EXPECT_EQ(std::get<http::proxy_read_client>(wait).deadline, first + 10s);  // does not move
    h.now += 1s;
  }
  h.client.clear();
  h.reopen();
  ASSERT_TRUE(h.request(get(url)));
  h.origin(ok("x", ""));
  wait = h.run();
  ASSERT_TRUE(std::holds_alternative<http::proxy_read_client>(wait));
  EXPECT_FALSE(std::get<http::proxy_read_client>(wait).deadline);  // answered, nothing buffered
  h.now += 100s;
  h.client.append("G");
  wait = h.run();
  EXPECT_EQ(std::get<http::proxy_read_client>(wait).deadline, h.now + 10s);  // a new head, a new deadline
}

TEST(ProxySession, PortRangesParse) {
  const auto r = http::parse_port_ranges("80, 1025-65535");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].first, 80);
  EXPECT_EQ((*r)[1].last, 65535);
  for (const char* bad : {"", "0", "65536", "80-70", "a", "80,", ",80", "80--90", "1-2-3"})
    EXPECT_FALSE(http::parse_port_ranges(bad)) << bad;
}

TEST(CachePolicy, SetCookieIsNotStorableByASharedCache) {
  http::request_head req;
  req.method = "GET";
  http::response_head resp;
  resp.fields.add("Cache-Control", "max-age=60");
  EXPECT_TRUE(http::storable(req, resp));
  resp.fields.add("Set-Cookie", "sid=1");
  EXPECT_FALSE(http::storable(req, resp));
}

}  // namespace
}  // namespace proxy_session_test
