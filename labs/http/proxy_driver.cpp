// Theory of operation, per request (absolute-form GET or HEAD, RFC 9112 §3.2.2):
//   1. Look the URL up in the LRU store. Fresh (RFC 9111 §4.2) -> answer from it: X-Cache: HIT.
//   2. Else forward: hop-by-hop fields removed (RFC 9110 §7.6.1), Via added (§7.6.3), the target
//      in origin-form; a stale entry with validators makes the request conditional (RFC 9111 §4.3.1).
//   3. Origin 304 to our conditional request -> the stored response with its fields updated
//      (§4.3.4), served as 200: X-Cache: REVALIDATED. Otherwise the origin's response, stored when
//      storable (§3): X-Cache: MISS. Unreachable origin: 502; origin timeout: 504.
//   4. The answer is re-framed with Content-Length only, so Content-Length and Transfer-Encoding
//      are never forwarded together. Bodies are held whole in memory (bounded by the fetch limit).
#include "proxy_driver.hpp"

#include <array>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "netlib/http/cache_policy.hpp"
#include "netlib/http/http_date.hpp"
#include "netlib/http/serializer.hpp"
#include "netlib/http/url.hpp"
#include "netlib/http/validators.hpp"
#include "netlib/io/live_clock.hpp"
#include "origin_connection.hpp"

namespace lab_http {

namespace io = netlib::io;
namespace http = netlib::http;

namespace {

std::int64_t unix_now_s() { return static_cast<std::int64_t>(std::time(nullptr)); }

struct origin_result {
  received_response response;
  std::string error;
  bool timed_out = false;
  std::int64_t request_s = 0, response_s = 0;
};

origin_result fetch_origin(const http::url& u, const http::request_head& req, std::chrono::milliseconds timeout) {
  origin_result r;
  r.request_s = unix_now_s();
  try {
    origin_connection conn(u, timeout, true, {});
    conn.connect();
    conn.send(req);
    r.response = conn.receive();
  } catch (const std::exception& e) {
    r.error = e.what();
    r.timed_out = r.error.find("timed out") != std::string::npos;
  }
  r.response_s = unix_now_s();
  return r;
}

io::awaitable<origin_result> fetch_on_pool(http::url u, http::request_head req, std::chrono::milliseconds timeout) {
  co_return fetch_origin(u, req, timeout);
}

http::request_head forward_request(const http::request_head& client, const http::url& u) {
  http::request_head r = client;
  r.target = u.target;
  r.version = {1, 1};
  http::remove_hop_by_hop(r.fields);
  r.fields.set("Host", u.authority());
  r.fields.add("Via", fmt::format("{}.{} netlab-proxy", client.version.major, client.version.minor));
  r.fields.add("Connection", "close");  // one origin connection per fetch
  r.trailers.clear();
  return r;
}

// The response for the client: hop-by-hop removed, Via and X-Cache added, framed by length.
std::string client_bytes(http::response_head head, const std::string& body, const std::string& x_cache, bool head_request,
                         const http::request_head& req, const http::server_session& session, bool& keep) {
  http::remove_hop_by_hop(head.fields);
  const auto origin_date = head.fields.get("Date").value_or("");
  const std::string date(origin_date);
  const bool bodiless = head_request || head.status == 304 || head.status == 204 || head.status < 200;
  if (!head_request) head.fields.set("Content-Length", std::to_string(bodiless ? 0 : body.size()));
  if (bodiless && !head_request && (head.status == 304 || head.status == 204)) head.fields.remove("Content-Length");
  head.fields.add("Via", "1.1 netlab-proxy");
  head.fields.set("X-Cache", x_cache);
  head.version = {1, 1};
  head.reason.clear();
  keep = session.finish_response(req, head, io::read_clock());
  if (!date.empty()) head.fields.set("Date", date);  // a proxy keeps the origin's Date
  return http::serialize(head) + (bodiless ? std::string() : body);
}

std::string stats_json(proxy_context& ctx) {
  std::lock_guard lock(ctx.cache_mutex);
  return nlohmann::json{{"hits", ctx.counters.hits.load()},
                        {"misses", ctx.counters.misses.load()},
                        {"revalidated", ctx.counters.revalidated.load()},
                        {"errors", ctx.counters.errors.load()},
                        {"cached_objects", ctx.cache.size()},
                        {"cached_bytes", ctx.cache.bytes()},
                        {"evictions", ctx.cache.evictions()}}
             .dump() + "\n";
}

std::string local_reply(int status, std::string_view text, const http::fields& extra = {}) {
  return http::make_text_response(status, text, false, io::read_clock(), "netlab-proxy", extra);
}

struct proxied {
  std::string bytes;
  bool keep = true;
};

// Step 1: a fresh stored response; the client's own conditions may turn it into a 304.
proxied serve_hit(const http::cached_response& stored, std::int64_t age, const http::request_head& req,
                  const http::server_session& session) {
  proxied out;
  auto head = stored.head;
  head.fields.set("Age", std::to_string(age));
  const auto etag = head.fields.get("ETag");
  const auto lm = head.fields.get("Last-Modified");
  const auto lm_s = lm ? http::parse_http_date(*lm) : std::nullopt;
  if (http::not_modified(req, etag ? *etag : std::string_view("\"-\""), lm_s.value_or(INT64_MAX))) head.status = 304;
  out.bytes = client_bytes(head, stored.body, "HIT", false, req, session, out.keep);
  return out;
}

// Step 3: RFC 9111 §4.3.4, the 304's fields freshen the stored response, which is served.
proxied serve_revalidated(proxy_context& ctx, const std::string& key, http::cached_response stored,
                          const origin_result& r, const http::request_head& req, const http::server_session& session) {
  for (const auto& f : r.response.head.fields.lines())
    if (!http::iequals(f.name, "Content-Length")) stored.head.fields.set(f.name, f.value);
  stored.request_s = r.request_s;
  stored.response_s = r.response_s;
  {
    std::lock_guard lock(ctx.cache_mutex);
    ctx.cache.put(key, stored);
  }
  proxied out;
  out.bytes = client_bytes(stored.head, stored.body, "REVALIDATED", false, req, session, out.keep);
  return out;
}

// Steps 1-3 for one request.
io::awaitable<proxied> proxy_request(proxy_context& ctx, const http::server_session& session, const http::request_head& req) {
  const auto u = http::parse_url(req.target);
  if (req.target.rfind("/netlab-proxy/stats", 0) == 0) co_return proxied{local_reply(200, stats_json(ctx))};
  if (!u || u->secure())
    co_return proxied{local_reply(400, "400 Bad Request: send absolute-form http:// URLs (curl -x http://PROXY ...)\n")};
  const std::string key = u->to_string();
  const bool is_head = req.method == "HEAD";
  std::optional<http::cached_response> stored;
  if (!is_head) {
    std::lock_guard lock(ctx.cache_mutex);
    stored = ctx.cache.find(key);
  }
  proxied out;
  if (stored) {
    const std::int64_t age = http::current_age(stored->head, stored->request_s, stored->response_s, unix_now_s());
    if (http::can_serve_fresh(req, stored->head, age)) {
      ++ctx.counters.hits;
      co_return serve_hit(*stored, age, req, session);
    }
  }
  http::request_head fwd = forward_request(req, *u);
  const bool conditional = stored && !req.fields.contains("If-None-Match") && !req.fields.contains("If-Modified-Since");
  if (conditional) {
    if (auto e = stored->head.fields.get("ETag")) fwd.fields.set("If-None-Match", *e);
    if (auto l = stored->head.fields.get("Last-Modified")) fwd.fields.set("If-Modified-Since", *l);
  }
  // The blocking fetch runs on the pool; this coroutine waits without holding its thread. (Named
  // values, no lambda captures in the co_await expression: GCC 12 mis-destroys such temporaries.)
  auto fetch = fetch_on_pool(*u, fwd, ctx.origin_timeout);
  auto task = io::asio::co_spawn(ctx.pool, std::move(fetch), io::use_awaitable);
  origin_result r = co_await std::move(task);
  if (!r.error.empty()) {
    ++ctx.counters.errors;
    const int status = r.timed_out ? 504 : 502;
    co_return proxied{local_reply(status, fmt::format("{} {}: {}\n", status, status == 504 ? "Gateway Timeout" : "Bad Gateway", r.error))};
  }
  auto& resp = r.response;
  if (conditional && resp.head.status == 304) {
    ++ctx.counters.revalidated;
    co_return serve_revalidated(ctx, key, *stored, r, req, session);
  }
  ++ctx.counters.misses;
  if (!is_head && http::storable(req, resp.head)) {
    std::lock_guard lock(ctx.cache_mutex);
    ctx.cache.put(key, {resp.head, resp.body, r.request_s, r.response_s});
  } else if (!is_head && stored) {
    std::lock_guard lock(ctx.cache_mutex);
    ctx.cache.erase(key);
  }
  out.bytes = client_bytes(resp.head, resp.body, "MISS", is_head, req, session, out.keep);
  co_return out;
}

}  // namespace

io::awaitable<void> handle_proxy_connection(io::connection& c, proxy_context& ctx) {
  http::server_session session(ctx.session);
  netlib::input_buffer buf;
  std::array<std::byte, 16384> chunk;
  for (int rounds = 0; rounds < 10'000'000; ++rounds) {
    auto step = session.receive(buf.data(), io::read_clock());
    buf.consume(step.consumed);
    if (step.actions.empty()) {
      const std::size_t n = co_await c.read_some(chunk);
      if (n == 0) break;
      buf.append(netlib::byte_view(chunk.data(), n));
      continue;
    }
    if (auto* reply = std::get_if<netlib::send_bytes>(&step.actions.front())) {  // the session's own answer
      if (!co_await c.write(reply->bytes) || std::holds_alternative<netlib::close_connection>(step.actions.back())) break;
      continue;
    }
    const auto& req = std::get<http::serve_request>(step.actions.front());
    const proxied p = co_await proxy_request(ctx, session, req.head);
    // A client gone mid-response only ends its own coroutine.
    if (!co_await c.write(p.bytes) || !p.keep) break;
  }
  c.shutdown_send();
  c.close();
}

}  // namespace lab_http
