// RFC 9111 freshness and storability for a shared cache; the LRU response store.
#include <gtest/gtest.h>

#include "netlib/http/cache_policy.hpp"
#include "netlib/http/http_date.hpp"
#include "netlib/http/response_cache.hpp"

namespace http = netlib::http;
using namespace std::chrono_literals;

namespace {
http::response_head resp(std::initializer_list<std::pair<const char*, std::string>> f, int status = 200) {
  http::response_head r;
  r.status = status;
  for (auto& [n, v] : f) r.fields.add(n, v);
  return r;
}
http::request_head get() {
  http::request_head r;
  r.method = "GET";
  return r;
}
}  // namespace

TEST(CachePolicy, FreshnessLifetimeOrder) {
  const std::chrono::sys_seconds t{1'700'000'000s};
  EXPECT_EQ(http::freshness_lifetime(resp({{"Cache-Control", "max-age=60, s-maxage=30"}})), 30s);
  EXPECT_EQ(http::freshness_lifetime(resp({{"Cache-Control", "public, max-age=\"60\""}})), 60s);
  EXPECT_EQ(http::freshness_lifetime(
                resp({{"Date", http::format_http_date(t)}, {"Expires", http::format_http_date(t + 90s)}})),
            90s);
  EXPECT_EQ(http::freshness_lifetime(resp({{"Date", http::format_http_date(t)}, {"Expires", "0"}})), 0s);
  EXPECT_EQ(http::freshness_lifetime(
                resp({{"Date", http::format_http_date(t)}, {"Last-Modified", http::format_http_date(t - 1000s)}})),
            100s);
  EXPECT_EQ(http::freshness_lifetime(resp(
                {{"Date", http::format_http_date(t)}, {"Last-Modified", http::format_http_date(t - 10'000'000s)}})),
            86400s);
  EXPECT_EQ(http::freshness_lifetime(resp({})), 0s);
}

TEST(CachePolicy, StorableForASharedCache) {
  EXPECT_TRUE(http::storable(get(), resp({{"Cache-Control", "max-age=5"}})));
  EXPECT_FALSE(http::storable(get(), resp({{"Cache-Control", "no-store"}})));
  EXPECT_FALSE(http::storable(get(), resp({{"Cache-Control", "private, max-age=5"}})));
  EXPECT_FALSE(http::storable(get(), resp({}, 206)));
  EXPECT_FALSE(http::storable(get(), resp({}, 500)));
  EXPECT_TRUE(http::storable(get(), resp({}, 404)));
  auto post = get();
  post.method = "POST";
  EXPECT_FALSE(http::storable(post, resp({{"Cache-Control", "max-age=5"}})));
  auto authorized = get();
  authorized.fields.add("Authorization", "Basic x");
  EXPECT_FALSE(http::storable(authorized, resp({{"Cache-Control", "max-age=5"}})));
  EXPECT_TRUE(http::storable(authorized, resp({{"Cache-Control", "s-maxage=5"}})));
}

TEST(CachePolicy, AgeAndServingFresh) {
  const std::chrono::sys_seconds t{1'700'000'000s};
  auto r = resp({{"Date", http::format_http_date(t)}, {"Cache-Control", "max-age=60"}, {"Age", "10"}});
  EXPECT_EQ(http::current_age(r, t, t + 1s, t + 21s), 31s);  // Age 10 + 1 s in flight + 20 s stored
  EXPECT_TRUE(http::can_serve_fresh(get(), r, 59s));
  EXPECT_FALSE(http::can_serve_fresh(get(), r, 60s));
  auto nc = get();
  nc.fields.add("Cache-Control", "no-cache");
  EXPECT_FALSE(http::can_serve_fresh(nc, r, 1s));
  EXPECT_FALSE(http::can_serve_fresh(get(), resp({{"Cache-Control", "no-cache, max-age=60"}}), 1s));
}

TEST(CachePolicy, HopByHopRemoved) {
  http::fields f;
  f.add("Connection", "close, X-Secret");
  f.add("X-Secret", "1");
  f.add("Keep-Alive", "timeout=5");
  f.add("Transfer-Encoding", "chunked");
  f.add("Content-Type", "text/plain");
  http::remove_hop_by_hop(f);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f.lines()[0].name, "Content-Type");
}

TEST(ResponseCache, LruWithTotalAndPerObjectCaps) {
  http::response_cache c(10000, 4000);
  auto item = [](std::size_t n) {
    http::cached_response r;
    r.body.assign(n, 'x');
    return r;
  };
  EXPECT_FALSE(c.put("huge", item(5000)));
  EXPECT_TRUE(c.put("a", item(3000)));
  EXPECT_TRUE(c.put("b", item(3000)));
  ASSERT_TRUE(c.find("a"));             // a is now more recent than b
  EXPECT_TRUE(c.put("c", item(3000)));  // evicts b
  EXPECT_FALSE(c.find("b"));
  EXPECT_TRUE(c.find("a"));
  EXPECT_TRUE(c.find("c"));
  EXPECT_EQ(c.evictions(), 1u);
  EXPECT_LE(c.bytes(), 10000u);
}

// An entry costs the memory it takes, not only its bytes (issue 31): its allocations with their
// overhead and the store's own nodes, a few hundred bytes for an empty response, and a body
// grown by doubling is stored at its own size.
TEST(ResponseCache, CostIsTheMemoryAnEntryTakes) {
  http::cached_response small;
  small.head.fields.add("Content-Type", "text/plain; charset=utf-8");
  small.body = "hello";
  const std::size_t empty_cost = http::response_cache::cost_of("http://h/x", http::cached_response{});
  EXPECT_GT(empty_cost, 300u);
  EXPECT_GT(http::response_cache::cost_of("http://h/x", small), empty_cost);
  http::cached_response grown;
  for (int i = 0; i < 1000; ++i) grown.body += "0123456789";
  ASSERT_GT(grown.body.capacity(), grown.body.size());
  http::response_cache c(1 << 20, 1 << 20);
  ASSERT_TRUE(c.put("k", std::move(grown)));
  EXPECT_EQ(c.find("k")->body.capacity(), c.find("k")->body.size());
  EXPECT_LT(c.bytes(), 10000u + 1000u);
  EXPECT_GE(c.bytes(), 10000u + empty_cost);
}
