// Theory of operation, per request (absolute-form GET or HEAD, RFC 9112 §3.2.2):
//   1. Local answers: the counters page; 400 for a target that is not an http:// URL; 403 for a
//      port outside the allow-list (the proxy is no port scanner and no bridge to SMTP or SSH).
//   2. The store, for GET: an entry whose Vary selecting fields match (RFC 9111 §4.1) and that
//      is fresh (§4.2) answers at once: X-Cache: HIT, with Age; the client's own validators may
//      turn it into a 304 (RFC 9110 §13.2.2).
//   3. Otherwise the request goes to the origin: hop-by-hop fields removed (RFC 9110 §7.6.1), Via
//      added (§7.6.3), Host set, the target in origin-form, "Connection: close"; a stale matching
//      entry with validators makes it conditional (RFC 9111 §4.3.1). One total deadline covers
//      connect, send and the response head: past it, 504. An origin that cannot be reached, whose
//      first bytes are not "HTTP/", or whose head does not parse, gives 502 at once.
//   4. The origin's 304 to our conditional request freshens the stored response (§4.3.4), which
//      is served: X-Cache: REVALIDATED. Any other response is streamed to the client as it
//      arrives (X-Cache: MISS): with its Content-Length when it has one, else in chunks (HTTP/1.1
//      clients) or delimited by closing (HTTP/1.0 clients). A response the shared cache may store
//      (§3, §5.2; never one with Set-Cookie) and that fits the per-object cap is gathered on the
//      way, in room reserved in the store, and stored when complete; a larger one only passes.
//   5. After the head has gone to the client, a broken origin (error, silence past the timeout,
//      a truncated body) cannot be reported any more: the client connection is closed, so the
//      client sees the response end short of its length or last chunk. A head still waiting in
//      the outbox when the body breaks (both came in one read) is replaced by a 502.
// The origin's bytes are taken whole by origin_data(); only an incomplete response head is kept
// (at most origin_limits.max_head_bytes). Body pieces wait in the outbox until the driver has
// written them, and the driver reads the origin only when the outbox is empty: the origin is read
// only as fast as the client takes the body.
#include "netlib/http/proxy_session.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "netlib/http/cache_policy.hpp"
#include "netlib/http/forwarded.hpp"
#include "netlib/http/http_date.hpp"
#include "netlib/http/serializer.hpp"
#include "netlib/http/status.hpp"
#include "netlib/http/validators.hpp"

namespace netlib::http {

namespace {

// Body bytes gathered into one send before a new one is started.
constexpr std::size_t send_gather_bytes = 64 * 1024;

bool port_allowed(const std::vector<port_range>& ranges, std::uint16_t port) {
  return std::any_of(ranges.begin(), ranges.end(),
                     [port](const port_range& r) { return port >= r.first && port <= r.last; });
}

std::string ports_text(const std::vector<port_range>& ranges) {
  std::string out;
  for (const auto& r : ranges) {
    if (!out.empty()) out += ",";
    out += r.first == r.last ? std::to_string(r.first) : fmt::format("{}-{}", r.first, r.last);
  }
  return out;
}

// RFC 9112 §4: a response starts with "HTTP/". True while the bytes so far may still be one.
bool may_be_http(byte_view bytes) {
  constexpr std::string_view prefix = "HTTP/";
  const std::string_view s = as_chars(bytes).substr(0, prefix.size());
  return prefix.substr(0, s.size()) == s;
}

std::string seconds_text(duration d) {
  return fmt::format("{:g}", to_seconds(d));
}

// The origin's body streams through piece by piece: only its client limits its length (issue
// 31: a 16 MiB limit cut chunked responses short). Only what is stored is bounded (the store's
// per-object cap).
parser_limits unlimited_body(parser_limits limits) {
  limits.max_body = std::numeric_limits<std::uint64_t>::max();
  return limits;
}

}  // namespace

std::optional<std::vector<port_range>> parse_port_ranges(std::string_view text) {
  std::vector<port_range> out;
  auto number = [](std::string_view s) -> std::optional<std::uint16_t> {
    unsigned v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v == 0 || v > 65535) return std::nullopt;
    return static_cast<std::uint16_t>(v);
  };
  std::size_t start = 0;
  for (int items = 0; items < 1000 && start <= text.size(); ++items) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = trim_ows(text.substr(start, comma - start));
    const std::size_t dash = item.find('-');
    const auto first = number(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : number(item.substr(dash + 1));
    if (!first || !last || *first > *last) return std::nullopt;
    out.push_back({*first, *last});
    start = comma + 1;
  }
  if (out.empty() || start <= text.size()) return std::nullopt;
  return out;
}

proxy_session::proxy_session(proxy_shared& shared, proxy_options options)
    : shared_(shared),
      options_(std::move(options)),
      server_(server_session_options{options_.client_limits, {"GET", "HEAD"}, options_.name}),
      parser_(unlimited_body(options_.origin_limits)) {}

proxy_session::~proxy_session() {
  stop_gathering();
}

proxy_step proxy_session::next(byte_view client_input, const clock_reading& now) {
  std::size_t consumed = 0;
  if (out_.empty()) {
    switch (phase_) {
      case phase::closing:
        phase_ = phase::closed;
        [[fallthrough]];
      case phase::closed:
        return {proxy_close_client{}, 0};
      case phase::streaming:
        ex_->deadline = now.mono + options_.origin_timeout;  // the longest silence while the body streams
        [[fallthrough]];
      case phase::awaiting_head:
        return {proxy_read_origin{ex_->deadline}, 0};
      case phase::idle:
        break;
    }
    server_.receive(client_input, now, step_);
    consumed = step_.consumed;
    if (step_.actions.empty()) {
      // Part of a request head waits: the whole head must arrive within head_timeout of its first
      // byte (a body, or nothing, waits under the driver's idle timeout only).
      if (client_input.size() == consumed || !server_.between_requests()) {
        head_started_.reset();
        return {proxy_read_client{}, consumed};
      }
      if (!head_started_) head_started_ = now.mono;
      return {proxy_read_client{*head_started_ + options_.head_timeout}, consumed};
    }
    head_started_.reset();
    // serve_request, or the session's own answer: send_bytes, response_sent[, close_connection].
    for (auto& action : step_.actions) {
      if (auto* bytes = std::get_if<send_bytes>(&action)) {
        out_.push_back(proxy_send_client{std::move(bytes->bytes), nullptr, {}});
      } else if (std::holds_alternative<close_connection>(action)) {
        phase_ = phase::closing;
      } else if (auto* req = std::get_if<serve_request>(&action)) {
        on_request(request_head(req->head()),
                   now);  // an owned copy: it is kept beyond this input; queues at least one action
      }
    }
    if (out_.empty()) return {proxy_read_client{}, consumed};  // (no action of the contract's own)
  }
  proxy_action a = std::move(out_.front());
  out_.pop_front();
  if (ex_ && ex_->head_sent && std::holds_alternative<proxy_send_client>(a)) ex_->head_delivered = true;
  return {std::move(a), consumed};
}

void proxy_session::answer_local(const request_head& request, int code, std::string_view text, const clock_reading& now,
                                 std::string_view content_type) {
  response_head h;
  h.status = code;
  h.fields.add("Server", options_.name);
  h.fields.add("Content-Type", content_type);
  h.fields.add("Content-Length", std::to_string(text.size()));
  const bool keep = server_.finish_response(request, h, now);
  std::string bytes = serialize(h);
  if (request.method != "HEAD") bytes += text;
  out_.push_back(proxy_send_client{std::move(bytes), nullptr, {}});
  phase_ = keep ? phase::idle : phase::closing;
}

std::string proxy_session::stats_json() const {
  const auto& c = shared_.counters;
  const auto& s = shared_.cache;
  return fmt::format(
      "{{\"cached_bytes\":{},\"cached_objects\":{},\"errors\":{},\"evictions\":{},\"hits\":{},\"misses\":{},"
      "\"revalidated\":{}}}\n",
      s.bytes(), s.size(), c.errors, s.evictions(), c.hits, c.misses, c.revalidated);
}

void proxy_session::on_request(request_head req, const clock_reading& now) {
  if (req.target.rfind("/netlab-proxy/stats", 0) == 0) return answer_local(req, 200, stats_json(), now);
  const auto u = parse_url(req.target);
  if (!u || u->secure())
    return answer_local(req, 400, "400 Bad Request: send absolute-form http:// URLs (curl -x http://PROXY ...)\n", now);
  if (!port_allowed(options_.allowed_ports, u->port))
    return answer_local(
        req, 403,
        fmt::format("403 Forbidden: the proxy does not connect to port {} (allowed: {}; see --allow-ports)\n", u->port,
                    ports_text(options_.allowed_ports)),
        now);
  exchange ex;
  ex.origin = *u;
  ex.key = u->to_string();
  ex.head_only = req.method == "HEAD";
  if (!ex.head_only) {
    auto stored = shared_.cache.find(ex.key);
    if (stored && vary_matches(stored->head, stored->selecting, req)) {
      const std::chrono::seconds age =
          current_age(stored->head, stored->request_time, stored->response_time, now.wall_seconds());
      if (can_serve_fresh(req, stored->head, age)) {
        ++shared_.counters.hits;
        response_head h = stored->head;
        h.fields.set("Age", std::to_string(age.count()));
        const auto etag = h.fields.get("ETag");
        const auto lm = h.fields.get("Last-Modified");
        const auto lm_time = lm ? parse_http_date(*lm) : std::nullopt;
        if (not_modified(req, etag ? *etag : std::string_view("\"-\""),
                         lm_time.value_or(std::chrono::sys_seconds::max())))
          h.status = 304;
        const bool keep = serve_stored(req, std::move(h), std::move(stored), "HIT", now);
        phase_ = keep ? phase::idle : phase::closing;
        return;
      }
      ex.stored = std::move(stored);
    }
  }
  request_head fwd = req;
  fwd.target = u->target;
  fwd.version = {1, 1};
  remove_hop_by_hop(fwd.fields);
  fwd.fields.remove("Content-Length");  // a GET or HEAD body is not forwarded (RFC 9110 §9.3.1)
  fwd.fields.set("Host", u->authority());
  fwd.fields.add("Via", fmt::format("{}.{} {}", req.version.major, req.version.minor, options_.name));
  if (!options_.client.empty()) fwd.fields.add("Forwarded", forwarded_element(options_.client));  // RFC 7239 §4
  fwd.fields.add("Connection", "close");  // one origin connection per exchange
  fwd.trailers.clear();
  if (ex.stored && !req.fields.contains("If-None-Match") && !req.fields.contains("If-Modified-Since")) {
    const auto etag = ex.stored->head.fields.get("ETag");
    const auto lm = ex.stored->head.fields.get("Last-Modified");
    if (etag) fwd.fields.set("If-None-Match", *etag);
    if (lm) fwd.fields.set("If-Modified-Since", *lm);
    ex.conditional = etag || lm;
  }
  ex.request = std::move(req);
  ex.deadline = now.mono + options_.origin_timeout;
  ex.request_time = now.wall_seconds();
  parser_ = response_parser(unlimited_body(options_.origin_limits));
  parser_.expect(fwd.method);
  origin_buffer_.clear();
  out_.push_back(proxy_connect_origin{ex.origin.host, ex.origin.port, serialize(fwd), ex.deadline});
  ex_ = std::move(ex);
  phase_ = phase::awaiting_head;
}

// A response from the store (HIT, or REVALIDATED after a 304), framed by its stored length.
// Returns whether the client connection stays open after it.
bool proxy_session::serve_stored(const request_head& request, response_head h,
                                 std::shared_ptr<const cached_response> stored, std::string_view x_cache,
                                 const clock_reading& now) {
  const bool bodiless = request.method == "HEAD" || status_has_no_body(h.status);
  if (bodiless) {
    if (h.status == 304 || h.status == 204) h.fields.remove("Content-Length");
  } else {
    h.fields.set("Content-Length", std::to_string(stored->body.size()));
  }
  const bool keep = finish_head(h, request, x_cache, now);
  std::string_view body = bodiless ? std::string_view() : std::string_view(stored->body);
  out_.push_back(proxy_send_client{serialize(h), body.empty() ? nullptr : std::move(stored), body});
  return keep;
}

// The fields every response to the client gets: no hop-by-hop fields, Via and X-Cache added,
// persistence decided by the client's request; the origin's Date is kept (RFC 9110 §6.6.1).
bool proxy_session::finish_head(response_head& h, const request_head& request, std::string_view x_cache,
                                const clock_reading& now) {
  remove_hop_by_hop(h.fields);
  const std::string date(h.fields.get("Date").value_or(""));
  h.fields.add("Via", fmt::format("{}.{} {}", h.version.major, h.version.minor, options_.name));
  h.fields.set("X-Cache", x_cache);
  h.version = {1, 1};
  h.reason.clear();
  const bool keep = server_.finish_response(request, h, now);
  if (!date.empty()) h.fields.set("Date", date);
  return keep;
}

void proxy_session::origin_data(byte_view bytes, const clock_reading& now) {
  (void)now;
  if (!ex_ || !origin_open()) return;
  origin_buffer_.append(bytes);
  for (int round = 0; round < 1'000'000 && ex_; ++round) {  // each round consumes or returns
    if (phase_ == phase::awaiting_head && !may_be_http(origin_buffer_.data()))
      return fail_origin(502, fmt::format("the reply of {} is not HTTP", ex_->origin.authority()), now);
    parse_step step = parser_.next(origin_buffer_.data());  // body_data views the buffer: used before consume()
    if (auto* e = std::get_if<parse_error>(&step.event))
      return fail_origin(
          502, fmt::format("bad response from {}: {}", ex_->origin.authority(), make_error_code(e->code).message()),
          now);
    if (std::holds_alternative<need_more>(step.event)) {
      origin_buffer_.consume(step.consumed);
      return;
    }
    if (std::holds_alternative<head_complete>(step.event)) {
      origin_buffer_.consume(step.consumed);
      if (parser_.head().status == 101)
        return fail_origin(502, fmt::format("{} switched protocols unasked", ex_->origin.authority()), now);
      if (!is_interim(parser_.head().status)) on_origin_head(now);
    } else if (auto* d = std::get_if<body_data>(&step.event)) {
      on_origin_body(d->bytes);
      origin_buffer_.consume(step.consumed);
    } else if (std::holds_alternative<message_complete>(step.event)) {
      origin_buffer_.clear();  // nothing follows: we asked the origin to close
      return on_origin_complete(now);
    }
  }
}

void proxy_session::on_origin_head(const clock_reading& now) {
  exchange& ex = *ex_;
  const response_head& oh = parser_.head();
  if (ex.conditional && oh.status == 304) {  // RFC 9111 §4.3.4
    ++shared_.counters.revalidated;
    cached_response merged = *ex.stored;
    fields update = oh.fields;
    remove_hop_by_hop(update);
    update.remove("Content-Length");
    for (const auto& f : update.lines()) merged.head.fields.remove(f.name);
    for (const auto& f : update.lines()) merged.head.fields.add(f.name, f.value);
    merged.request_time = ex.request_time;
    merged.response_time = now.wall_seconds();
    auto fresh = std::make_shared<const cached_response>(std::move(merged));
    // The 304 may make it unstorable (no-store, private, Set-Cookie): then it is this client's only.
    if (storable(ex.request, fresh->head))
      shared_.cache.put(ex.key, fresh);
    else
      shared_.cache.erase(ex.key);
    ex.revalidated = true;
    ex.head_sent = true;
    ex.keep_client = serve_stored(ex.request, fresh->head, fresh, "REVALIDATED", now);
    phase_ = phase::streaming;  // until the 304 is complete
    return;
  }
  ++shared_.counters.misses;
  response_head h = oh;
  const bool bodiless = ex.head_only || status_has_no_body(h.status);
  const body_framing& framing = parser_.framing();
  bool must_close = false;
  if (bodiless) {
    if (!ex.head_only && (h.status == 304 || h.status == 204)) h.fields.remove("Content-Length");
  } else if (framing.how == body_framing::kind::length) {
    h.fields.set("Content-Length", std::to_string(framing.length));
  } else {
    h.fields.remove("Content-Length");
    ex.chunked_out = ex.request.version.minor >= 1 || ex.request.version.major > 1;
    must_close = !ex.chunked_out;  // HTTP/1.0: the end of the body is the end of the connection
  }
  // Gathering for the store (§3): within the per-object cap, in reserved room.
  if (!ex.head_only && storable(ex.request, oh)) {
    ex.gathered.head = oh;
    remove_hop_by_hop(ex.gathered.head.fields);
    ex.gathered.head.fields.remove("Content-Length");
    ex.gathered.selecting = selecting_fields(oh, ex.request);
    // The entry's cost without its body, with the Content-Length line it gets when stored (the
    // largest such line); the body's share grows as it arrives (body_cost).
    cached_response shape = ex.gathered;  // copied as the store keeps it: compact
    const std::string_view length_line[] = {"Content-Length", "18446744073709551615"};
    shape.head.fields.reserve(shape.head.fields.size() + 1);
    shape.head.fields.reserve_text(shape.head.fields.text_bytes() + length_line[0].size() + length_line[1].size());
    shape.head.fields.add(length_line[0], length_line[1]);
    const std::size_t base = response_cache::cost_of(ex.key, shape);
    const bool sized = framing.how == body_framing::kind::length;
    const std::size_t expected = base + response_cache::body_cost(sized ? framing.length : 0);
    if (expected <= shared_.cache.max_object() && shared_.cache.reserve(expected)) {
      ex.gathering = true;
      ex.reserved = expected;
      ex.base_cost = base;
      if (sized) ex.gathered.body.reserve(framing.length);  // no growth by doubling on the way
    } else {
      ex.gathered = {};
    }
  }
  if (!ex.gathering && !ex.head_only) shared_.cache.erase(ex.key);  // the stored one is superseded
  bool keep = finish_head(h, ex.request, "MISS", now);
  if (ex.chunked_out) h.fields.set("Transfer-Encoding", "chunked");
  if (must_close && keep) {
    h.fields.set("Connection", "close");
    keep = false;
  }
  ex.keep_client = keep;
  ex.head_sent = true;
  out_.push_back(proxy_send_client{serialize(h), nullptr, {}});
  phase_ = phase::streaming;
}

void proxy_session::send_body_bytes(std::string_view bytes) {
  auto* last = out_.empty() ? nullptr : std::get_if<proxy_send_client>(&out_.back());
  if (last && !last->stored && last->bytes.size() < send_gather_bytes)
    last->bytes += bytes;
  else
    out_.push_back(proxy_send_client{std::string(bytes), nullptr, {}});
}

void proxy_session::on_origin_body(byte_view piece) {
  exchange& ex = *ex_;
  if (piece.empty() || ex.revalidated) return;
  const std::string_view data = as_chars(piece);
  if (ex.chunked_out) {
    send_body_bytes(fmt::format("{:x}\r\n", data.size()));
    send_body_bytes(data);
    send_body_bytes("\r\n");
  } else {
    send_body_bytes(data);
  }
  if (!ex.gathering) return;
  const std::size_t needed = ex.base_cost + response_cache::body_cost(ex.gathered.body.size() + data.size());
  if (needed > shared_.cache.max_object()) return stop_gathering();
  if (needed > ex.reserved) {
    if (!shared_.cache.reserve(needed - ex.reserved)) return stop_gathering();
    ex.reserved = needed;
  }
  ex.gathered.body.append(data);
}

void proxy_session::stop_gathering() {
  if (!ex_ || !ex_->gathering) return;
  shared_.cache.release(ex_->reserved);
  ex_->reserved = 0;
  ex_->gathering = false;
  ex_->gathered = {};
  shared_.cache.erase(ex_->key);
}

void proxy_session::on_origin_complete(const clock_reading& now) {
  exchange& ex = *ex_;
  if (ex.chunked_out) send_body_bytes("0\r\n\r\n");  // the origin's trailers are not forwarded
  if (ex.gathering) {
    shared_.cache.release(ex.reserved);
    ex.reserved = 0;
    ex.gathering = false;
    ex.gathered.head.fields.set("Content-Length", std::to_string(ex.gathered.body.size()));
    ex.gathered.request_time = ex.request_time;
    ex.gathered.response_time = now.wall_seconds();
    shared_.cache.put(ex.key, std::move(ex.gathered));
  }
  const bool keep = ex.keep_client;
  out_.push_back(proxy_close_origin{});
  ex_.reset();
  phase_ = keep ? phase::idle : phase::closing;
}

void proxy_session::fail_origin(int code, std::string_view what, const clock_reading& now) {
  ++shared_.counters.errors;
  stop_gathering();
  // A head still in the outbox (it came in the same read as the broken body) has not reached the
  // client: it is dropped and the client gets a 502 instead (issue 31: it got an empty reply).
  const bool head_sent = ex_->head_delivered;
  const request_head request = std::move(ex_->request);
  ex_.reset();
  out_.clear();  // nothing of a response that cannot be completed
  out_.push_back(proxy_close_origin{});
  if (head_sent) {  // too late for a status: the client sees the response end short
    phase_ = phase::closing;
    return;
  }
  answer_local(request, code, fmt::format("{} {}: {}\n", code, code == 504 ? "Gateway Timeout" : "Bad Gateway", what),
               now);
}

void proxy_session::origin_eof(const clock_reading& now) {
  (void)now;
  if (!ex_ || !origin_open()) return;
  const parse_step step = parser_.receive_eof();
  if (std::holds_alternative<message_complete>(step.event)) return on_origin_complete(now);
  fail_origin(502,
              fmt::format("{} closed the connection {}", ex_->origin.authority(),
                          ex_->head_sent ? "before the end of the response" : "before a complete response"),
              now);
}

void proxy_session::origin_error(std::string_view what, const clock_reading& now) {
  if (!ex_ || !origin_open()) return;
  fail_origin(502, what, now);
}

void proxy_session::origin_deadline(const clock_reading& now) {
  if (!ex_ || !origin_open() || now.mono < ex_->deadline) return;
  fail_origin(504,
              fmt::format("no {} from {} within {} s", ex_->head_sent ? "more of the response" : "response",
                          ex_->origin.authority(), seconds_text(options_.origin_timeout)),
              now);
}

void proxy_session::client_gone() {
  stop_gathering();
  out_.clear();
  if (origin_open()) out_.push_back(proxy_close_origin{});
  ex_.reset();
  phase_ = phase::closing;
}

}  // namespace netlib::http
